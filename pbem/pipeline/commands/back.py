"""``back``: a player whose seat a bot stands in for (a missed deadline, or ``resign``, under
the game's ``bot`` timeout policy) plays it again; everyone is told."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline import clock, stand_in
from pbem.pipeline.commands.base import Context, Reply, help_row, status_word, tell_others, words_of
from pbem.pipeline.controllers import stands_in


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("back"), msg(
        "play your seat yourself again after a bot took it over (a missed deadline, or "
        "resign)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    game, seat = ctx.game, ctx.seat
    if game.status not in ("active", "paused"):
        return Reply("rejected", f"game {game.status}", [msg(
            "Game [{tag}] is {status}; it takes no orders now.", tag=game.tag,
            status=status_word(game.status))])
    if seat.status == "dropped":
        return Reply("rejected", "seat dropped", [msg(
            "Your seat in [{tag}] is already {status}, so nothing changed.", tag=game.tag,
            status=status_word(seat.status))])
    if not stands_in(seat):
        return Reply("ignored", "back: no bot stands in", [msg(
            "No bot plays your seat in [{tag}]: it is yours already, so nothing changed.",
            tag=game.tag)])
    stand_in.give_back(ctx.session, ctx.rules, game, ctx.state, seat)
    waiting = ctx.rules.waiting_for(ctx.state)
    if seat.index in waiting:  # the bot had not played this turn yet: a whole deadline
        clock.restart_clock(game, ctx.host.clock())
        ctx.session.add(game)
    queued = tell_others(ctx, [msg("{name} is back in [{tag}] and plays their own seat "
                                   "again.", name=seat.name, tag=game.tag)],
                         msg("{name} is back", name=seat.name))
    return Reply("applied", "back", [
        msg("Welcome back! You play your seat in [{tag}] again; the bot has stopped.",
            tag=game.tag),
        msg("It is your turn: send your orders.") if seat.index in waiting else
        msg("You will get a status mail when it is your turn."),
    ], queued)
