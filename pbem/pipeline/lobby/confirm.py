"""``confirm <code>``, or a reply to the join mail (its code in the subject): the seat counts
from now on; the table starts when all its seats are confirmed."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby import never
from pbem.pipeline.lobby.base import Refused, refused
from pbem.pipeline.lobby.tables import (
    Unplayable,
    close_unplayable,
    describe,
    full,
    start,
    unconfirmed_seat,
)
from pbem.store import lobby as store

SUBJECT = msg("Your seat was not confirmed")


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('confirm')} CODE", msg(
        "confirm your seat (or just reply to the join mail)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    del argument  # the code is read off the line or the subject (ctx.code)
    code = ctx.code
    # A reply to the mail that asks before a "never" carries the address's never code.
    if never.is_never_code(ctx, code):
        return never.run(ctx, "")
    seat = unconfirmed_seat(ctx.session, ctx.sender, code) if code else None
    table = store.lock_table(ctx.session, seat.table_id) if seat is not None else None
    if table is not None and code:  # once locked: the first confirmations take the seats
        seat = unconfirmed_seat(ctx.session, ctx.sender, code)
    if seat is None or table is None or table.status != "open":
        return refused("confirm", SUBJECT, Refused("no seat waits for this code", [
            msg("No seat of yours waits for this code. A seat not confirmed in time is "
                "given back, and so are the seats still waiting when the first "
                "confirmations fill a table."),
            msg("Send \"{join}\" to take a seat again (its mail has a new code).",
                join=f"{ctx.w('join')} TAG")]))
    seat.confirmed_at, seat.expires_at = ctx.now, None
    ctx.session.add(seat)
    ctx.session.flush()
    if full(ctx.session, table):
        try:
            game, welcomes = start(ctx.session, ctx.host, table)
        except Unplayable as exc:
            return close_unplayable(ctx, table, exc.problems, "confirm")
        # Its welcome mail (with the secret) answers this mail: one mail, not two.
        return Reply("applied", f"confirm: table full, game {game.tag} started", [],
                     subject="game started", tag=table.tag, send=False, queued=welcomes)
    return Reply("applied", "confirm: seat confirmed",
                 [msg("Your seat at [{tag}] is confirmed.", tag=table.tag), "",
                  *describe(ctx, table), "",
                  msg("You will get the game's first mail, with your secret, when it starts.")],
                 subject=msg("Your seat is confirmed"), tag=table.tag)
