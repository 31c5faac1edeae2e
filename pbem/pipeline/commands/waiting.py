"""``waiting``: whom the game waits for, and until when."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline import clock
from pbem.pipeline.commands.base import GAME_STATUS, Context, Reply, help_row, words_of
from pbem.pipeline.seat_language import Line
from pbem.store import queries


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("waiting"), msg("who the game is waiting for, and until when"),
                     tr)]


def run(ctx: Context, argument: str) -> Reply:
    seats = queries.seats(ctx.session, ctx.game.id or 0)
    waited = ctx.rules.waiting_for(ctx.state)
    status = ctx.tr(GAME_STATUS.get(ctx.game.status, msg(ctx.game.status)))
    if ctx.game.status != "active":
        if ctx.game.status == "paused" and waited:
            return Reply("ignored", "waiting", [msg(
                "Game [{tag}] is {status}: no clock runs until its host resumes it. It then "
                "waits for: {names}.", tag=ctx.game.tag, status=status,
                names=", ".join(s.name for s in seats if s.index in waited))])
        return Reply("ignored", "waiting", [msg("Game [{tag}] is {status}; it waits for nobody.",
                                                tag=ctx.game.tag, status=status)])
    if not waited:
        return Reply("ignored", "waiting", [msg("The game is waiting for nobody.")])
    who = clock.waiting_lines(ctx.game, seats, waited, ctx.host.clock(), ctx.tr,
                              ctx.seat.timezone)
    lines: list[Line] = [msg("[{tag}] is waiting for:", tag=ctx.game.tag), *who]
    if ctx.seat.index in waited:
        lines += ["", msg("That includes you: send your orders.")]
    return Reply("ignored", "waiting", lines)
