"""``leave <tag>``: the seat given back before the game starts. An opener who leaves hands the
table to the next seat; a table left empty is closed."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby.base import Refused, code_needed, refused
from pbem.pipeline.lobby.tables import open_by_tag, proves, seat_of
from pbem.pipeline.seat_language import Line
from pbem.store import lobby as store

SUBJECT = msg("You did not leave the table")


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('leave')} TAG CODE", msg(
        "give your seat back before the game starts"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    try:
        if not argument.split():
            raise Refused("no table named", [msg("Name the table: {line}",
                                                 line=f"{ctx.w('leave')} TAG")])
        table = open_by_tag(ctx, argument.split()[0])
        seat = seat_of(ctx.session, table, ctx.sender)
        if seat is None:
            raise Refused("no seat", [msg("You hold no seat at [{tag}].", tag=table.tag)],
                          tag=table.tag)
        if not proves(seat, ctx.code):
            raise code_needed(ctx, table.tag, f"{ctx.w('leave')} {table.tag}")
    except Refused as exc:
        return refused("leave", SUBJECT, exc)
    ctx.session.delete(seat)
    ctx.session.flush()
    rest = store.seats(ctx.session, table.id or 0)
    lines: list[Line] = [msg("You left table [{tag}]; your seat is free again.", tag=table.tag)]
    if not rest:
        table.status, table.closed_at = "closed", ctx.now
        lines.append(msg("Nobody else was seated, so the table is closed."))
    elif table.opener == ctx.sender:
        table.opener = (next((s for s in rest if s.confirmed_at is not None), rest[0])).address
    ctx.session.add(table)
    return Reply("applied", "leave: seat given back", lines, subject=msg("You left the table"),
                 tag=table.tag, proved=True)
