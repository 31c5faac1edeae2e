"""The answer to a seat taken (``new``, ``join``): its code, how to confirm, until when."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.lobby.base import title
from pbem.pipeline.lobby.tables import describe
from pbem.pipeline.seat_language import Line
from pbem.store.tables import LobbySeat, LobbyTable


def seat_reply(ctx: Context, reason: str, table: LobbyTable, seat: LobbySeat, code: str,
               intro: list[Line]) -> Reply:
    assert seat.expires_at is not None
    return Reply("applied", reason,
                 [*intro,
                  msg("To confirm your seat, reply to this mail keeping its subject, or send "
                      "a mail with the line: {line}", line=f"{ctx.w('confirm')} {code}"),
                  msg("Until then the seat is held for you until {time}; unconfirmed, it is "
                      "then given back.", time=ctx.tr.datetime(seat.expires_at, "UTC")),
                  "", *describe(ctx, table), "",
                  msg("Others join with the line \"{join}\".", join=f"{ctx.w('join')} {table.tag}"),
                  msg("Keep this mail: its code proves the seat is yours. To give the seat "
                      "back, start the table early or invite someone (once your seat is "
                      "confirmed), reply to it with the line \"{leave}\", \"{start}\" or "
                      "\"{invite}\" (or write the code on the line: \"{coded}\").",
                      leave=ctx.w("leave"), start=ctx.w("start"),
                      invite=f"{ctx.w('invite')} name@example.org",
                      coded=f"{ctx.w('leave')} {table.tag} {code}")],
                 subject=msg("Confirm your seat at {title}: code {code}", title=title(table),
                             code=code),
                 tag=table.tag, secret=code)
