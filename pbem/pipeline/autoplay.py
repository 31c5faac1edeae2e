"""Playing for a seat: the orders the host plays itself, for bots and absent players.

- A resigned (or dropped) seat is never waited for: its default order plays as soon as its
  turn comes (the bot's order, when a bot stands in for it).
- A seat late at its deadline under the ``default`` timeout policy gets the game's
  ``default_order`` (a log entry of kind ``timeout``, everyone told).
- A bot seat (or a seat a bot stands in for) plays as soon as it is to move, in the same
  pass, at most ``host.bots.moves_per_pass`` moves per game and pass: the rest wait for the
  next pass, so a table of bots never holds other games' mail up for long.
- All games' bots share one budget of CPU per clock pass (``host.bots.seconds_per_pass``):
  once it is spent the pass starts no bot move (:mod:`pbem.pipeline.clock` then serves the
  games round robin over passes).

Every entry goes through the same log path as a player's order, so replay checks it.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import Event, GameRules, bot_order, localise_order
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.engine.replay import play
from pbem.i18n import Msg, msg
from pbem.pipeline import tally
from pbem.pipeline.controllers import bot_level, stands_in
from pbem.pipeline.deadlines import autoplayed, note_wait
from pbem.pipeline.history import BOT
from pbem.pipeline.movelog import record_move
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, Seat

log = logging.getLogger(__name__)

TIMEOUT_KIND = "timeout"  # log entries played for a seat by the host, not by its player
MAX_AUTOPLAYS = 1000  # a game whose default orders never end it must not spin forever


@dataclass
class BotBudget:
    """The CPU seconds the bots of all games may still take in this pass."""

    left: float

    def spend(self, seconds: float) -> None:
        self.left -= seconds

    @property
    def spent(self) -> bool:
        return self.left <= 0


@dataclass
class Autoplay:
    """The entries the host played, and the state after them."""

    state: Any
    played: list[tuple[Seat, str]] = field(default_factory=list)
    failed: list[tuple[Seat, Msg]] = field(default_factory=list)  # (seat, why) → game paused
    # Seats a bot took over at their deadline in this pass (the "bot" timeout policy).
    taken_over: list[Seat] = field(default_factory=list)
    start: Any = None  # the state before the first entry the host played


def play_default(session: Session, rules: GameRules, game: Game, state: Any, seat: Seat,
                 why: Msg, now: datetime, rate_bots: bool = False) -> tuple[Any, str]:
    """Play the game's default order for ``seat`` through the same log path as a real order.

    ``why`` is told to everyone; the order itself only to the seat (it may reveal a hand).
    Returns the new state and the order played. Raises the game's errors if its default
    order is not legal.
    """
    index = queries.next_log_index(session, game.id or 0)
    text = rules.default_order(state, seat.index)
    applied, record = play(rules, state, seat.index, text, f"{game.seed}/{index}")
    told = [Event.of("default_played", why),
            Event.of("default_order_shown", msg("The order played for you: {order}",
                                                order=localise_order(rules, text, seat.language)),
                     {seat.index})]
    record_move(session, rules, game, index=index, kind=TIMEOUT_KIND, seat=seat.index,
                text=text, record=record, state=applied.state, told=told, created=now,
                rate_bots=rate_bots)
    return applied.state, text


def play_bot(session: Session, rules: GameRules, game: Game, state: Any, seat: Seat, level: str,
             host: Host, now: datetime, budget: BotBudget | None = None) -> tuple[Any, str]:
    """Play the bot's order for ``seat`` (a log entry of kind ``bot``, replayed from its
    text and draws like any order). The bot chooses through the engine's ``bot_order`` only,
    from what the seat may see, within the host's budget per move. Its randomness is seeded
    by the game and the entry, so the same log gives the same choice again."""
    index = queries.next_log_index(session, game.id or 0)
    rng = random.Random(f"{game.seed}/{index}/bot")
    started = time.process_time()
    text = bot_order(rules, state, seat.index, rng, level, host.bots.seconds_per_move)
    took = time.process_time() - started
    tally.add(tally.BOT_CPU_SECONDS, took)
    if budget is not None:
        budget.spend(took)
    if took > 2 * host.bots.seconds_per_move:  # the game's strategy overran its budget
        log.warning("the %s bot of %s took %.1f s of CPU for one move (budget %.1f s)",
                    rules.name, game.tag, took, host.bots.seconds_per_move)
    applied, record = play(rules, state, seat.index, text, f"{game.seed}/{index}")
    # The seat reads the order in its own words, as it would have written it.
    told = [Event.of("bot_order_shown", msg("The bot standing in for you played: {order}",
                                            order=localise_order(rules, text, seat.language)),
                     {seat.index})] if stands_in(seat) else []
    record_move(session, rules, game, index=index, kind=BOT, seat=seat.index, text=text,
                record=record, state=applied.state, told=told, created=now,
                rate_bots=host.bots.rated)
    return applied.state, text


def settle(session: Session, rules: GameRules, game: Game, before: Any, after: Any,
           now: datetime, late: frozenset[int] = frozenset(),
           seats: list[Seat] | None = None, host: Host | None = None,
           budget: BotBudget | None = None) -> Autoplay:
    """After an entry moved ``before`` to ``after``: restart the clock if a new wait began,
    then play for resigned seats, bot seats (and the ``late`` ones) whose turn it is,
    repeatedly: bots at most ``host.bots.moves_per_pass`` times (the rest next pass).

    Call inside the transaction that logged the entry. A default order the game rejects
    pauses the game (see :attr:`Autoplay.failed`) rather than losing the entry; a bot's
    order the game rejects is a bug in its bot, logged, and the default order plays
    instead. ``seats``: the game's seats, if the caller read them in this transaction (the
    plays change none). ``budget``: the clock pass's CPU for all games' bots; spent, no bot
    move starts (the rest next pass).
    """
    host = host or Host()
    bot_moves = 0
    result = Autoplay(after, start=after)
    note_wait(game, rules.waiting_for(before), rules.waiting_for(after), now)
    everyone = seats if seats is not None else queries.seats(session, game.id or 0)
    by_index = {s.index: s for s in everyone}
    pending = set(late)
    for _ in range(MAX_AUTOPLAYS):
        if game.status != "active":
            break
        waiting = rules.waiting_for(result.state)
        due = [by_index[i] for i in sorted(waiting)
               if i in by_index and (autoplayed(by_index[i]) or i in pending)]
        if not due:
            break
        seat = due[0]
        level = bot_level(seat)
        if level is not None and (bot_moves >= host.bots.moves_per_pass
                                  or (budget is not None and budget.spent)):
            break  # the next pass goes on: a bot seat to move makes the clock look at once
        pending.discard(seat.index)
        if level is not None:
            try:
                new, text = play_bot(session, rules, game, result.state, seat, level, host,
                                     now, budget)
            except (OrderSyntaxError, IllegalOrder, ValueError):
                log.exception("the bot's order failed in game %s; its default order plays",
                              game.tag)
            else:
                bot_moves += 1
                result.played.append((seat, text))
                note_wait(game, waiting, rules.waiting_for(new), now)
                result.state = new
                continue
        why = (msg("The bot could not choose an order for {name}; the game played its "
                   "default order for them.", name=seat.name) if level is not None else
               msg("{name} has resigned; the game played its default order for them.",
                   name=seat.name) if seat.status == "resigned" else
               msg("{name} was dropped from the game; the game played its default order for "
                   "them.", name=seat.name) if autoplayed(seat) else
               msg("{name} sent no orders by the deadline; the game played its default order "
                   "for them.", name=seat.name))
        try:
            new, text = play_default(session, rules, game, result.state, seat, why, now,
                                     host.bots.rated)
        except (OrderSyntaxError, IllegalOrder, ValueError) as exc:
            log.exception("default order failed in game %s", game.tag)
            result.failed.append((seat, msg("the game's default order failed: {error}",
                                            error=str(exc))))
            game.status = "paused"
            session.add(game)
            break
        result.played.append((seat, text))
        note_wait(game, waiting, rules.waiting_for(new), now)
        result.state = new
    else:
        game.status = "paused"
        result.failed.append((due[0], msg("more than {count} default orders in a row",
                                          count=MAX_AUTOPLAYS)))
    session.add(game)
    return result
