"""The answer to a seat taken (``new``, ``join``): its code, how to confirm, until when."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.lobby.base import Context, Reply, title
from pbem.pipeline.lobby.tables import describe
from pbem.pipeline.seat_language import Line
from pbem.store.tables import LobbySeat, LobbyTable


def seat_reply(ctx: Context, reason: str, table: LobbyTable, seat: LobbySeat, code: str,
               intro: list[Line]) -> Reply:
    assert seat.expires_at is not None
    return Reply("applied", reason,
                 msg("Confirm your seat at {title}: code {code}", title=title(table),
                     code=code),
                 [*intro,
                  msg("To confirm your seat, reply to this mail keeping its subject, or send "
                      "a mail with the line: {line}", line=f"{ctx.w('confirm')} {code}"),
                  msg("Until then the seat is held for you until {time}; unconfirmed, it is "
                      "then given back.", time=ctx.tr.datetime(seat.expires_at, "UTC")),
                  "", *describe(ctx, table), "",
                  msg("Others join with the line \"{join}\"; you can invite someone with "
                      "\"{invite}\" once your seat is confirmed.",
                      join=f"{ctx.w('join')} {table.tag}",
                      invite=f"{ctx.w('invite')} {table.tag} name@example.org")],
                 tag=table.tag, code=code)
