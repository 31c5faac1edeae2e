"""Game clocks: deadlines, reminders, timeouts, and when to play for absent seats.

Every function takes ``now`` (or a :class:`Host` whose ``clock`` gives it) instead of reading
the system time, so tests drive days of play in milliseconds.

The rules:

- A game with ``deadline_hours`` waits that long for each seat, counted from
  ``turn_started_at``: the moment a seat joined the set of seats the game waits for. Seats
  leaving the set (a simultaneous step filling up) restart nobody's clock.
- A vacation pauses the seat's clock: its deadline moves by the overlap of the vacation
  (from the day it was asked for to its end) with the wait, so time left when it began is
  kept, never lost nor given afresh.
- ``reminder_hours`` before its deadline a seat is mailed a reminder, once per deadline.
- At the deadline the game's ``timeout_policy`` acts: ``default`` plays the game's
  ``default_order`` for the seat (a log entry of kind ``timeout``, everyone told);
  ``pause`` pauses the game and mails the operator; ``bot`` hands the seat to a bot standing
  in for its player (pbem.pipeline.controllers), which plays this turn and the later ones
  until the player mails ``back``.
- The host plays for resigned, dropped and bot seats (pbem.pipeline.autoplay). All games'
  bots share one budget of CPU per clock pass (``host.bots.seconds_per_pass``): once it is
  spent, a game that played takes its turn again after every game that waited longer (round
  robin over passes), so a hundred tables of bots make each pass short and a player's mail is
  answered in the next one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from pbem.engine import registry
from pbem.engine.contract import GameRules, localise_order
from pbem.i18n import Msg, msg, nmsg
from pbem.pipeline import outgoing as mails
from pbem.pipeline import stand_in
from pbem.pipeline.autoplay import Autoplay, BotBudget, settle
from pbem.pipeline.command_words import word
from pbem.pipeline.controllers import bot_level
from pbem.pipeline.deadlines import (
    autoplayed,
    aware,
    deadline_of,
    note_wait,
    reminder_of,
    restart_clock,
    waiting_label,
    waiting_lines,
    when,
)
from pbem.pipeline.move_mails import MoveMails
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory, commit_unsynced
from pbem.store.tables import CLOCK_CHECK_NOW, Game, Seat

log = logging.getLogger(__name__)

# Re-exported: callers need one module for everything about clocks.
__all__ = [
    "autoplayed",
    "aware",
    "deadline_of",
    "note_wait",
    "reminder_of",
    "restart_clock",
    "run_clocks",
    "tick",
    "waiting_label",
    "waiting_lines",
    "when",
]

# --- the periodic pass ------------------------------------------------------------------------


@dataclass
class ClockReport:
    """What one clock pass did, for the CLI's summary line."""

    reminders: int = 0
    timeouts: int = 0
    bot_moves: int = 0
    paused: list[str] = field(default_factory=list)  # game tags
    errors: int = 0  # games whose clock failed (logged; tried again next pass)

    def summary(self) -> str:
        parts = [f"{self.reminders} reminder(s)", f"{self.timeouts} timeout(s)"]
        if self.bot_moves:
            parts.append(f"{self.bot_moves} bot move(s)")
        if self.paused:
            parts.append(f"paused {', '.join(self.paused)}")
        if self.errors:
            parts.append(f"{self.errors} failed (see the log)")
        return ", ".join(parts)


def due_games(now: datetime) -> Select[int | None, datetime | None]:
    """The active games whose clock needs a look, and since when: a range of the
    clock_due_at index. (No ORDER BY: with one, SQLite walks the whole table in id order
    instead; the caller sorts the few it gets.)"""
    return select(Game.id, Game.clock_due_at).where(col(Game.clock_due_at) <= now,
                                                    Game.status == "active")


def run_clocks(factory: SessionFactory, host: Host, now: datetime | None = None
               ) -> ClockReport:
    """Check every active game's clock once: reminders, timeouts, seats played for.

    Each game is handled in its own transaction with the game row locked, like an order, so a
    pass never races the mail pipeline. Called once per ``pbem process`` pass (and so every
    pass of ``pbem serve``). The games due longest go first, and all their bots share
    ``host.bots.seconds_per_pass``: a game whose bots played and have more to play is due
    again at ``now``, after the games still waiting from before (round robin over passes).
    """
    now = now or host.clock()
    report = ClockReport()
    budget = BotBudget(host.bots.seconds_per_pass)
    with factory() as session:  # only games with something due: an indexed range
        due = [(aware(at), i) for i, at in session.exec(due_games(now))
               if i is not None and at is not None]
    for since, game_id in sorted(due):
        try:
            with factory() as session:
                moves = report.bot_moves
                ticked = tick(session, host, game_id, now, report, budget)
                # A tick that only looked changed nothing: what it read still holds. A game
                # the budget left out keeps its place in the queue.
                schedule(session, game_id, ticked.looked,
                         served=now if report.bot_moves > moves else
                         since if budget.spent else None)
                if not ticked.acted:
                    # It only looked: all it writes is when to look next, which a power
                    # failure may take back (the game is then looked at again), so that
                    # commit need not wait for the disk (one fsync per moved game and pass).
                    # Only reads ran so far: SQLite takes the PRAGMA too.
                    commit_unsynced(session)
                session.commit()
        except Exception:  # one broken game must not stop the others' clocks or the pass
            log.exception("clock of game %s failed; retried next pass", game_id)
            report.errors += 1
    return report


@dataclass(frozen=True)
class Looked:
    """The game's state and seats as :func:`tick` read them (seats None: nobody waited, so
    it read none)."""

    state: Any
    seats: list[Seat] | None


@dataclass(frozen=True)
class Ticked:
    """What :func:`tick` did: ``acted`` if it changed something; if it only looked, what it
    read (``looked``, None when the game is gone or not active), which still holds."""

    acted: bool
    looked: Looked | None = None


def tick(session: Session, host: Host, game_id: int, now: datetime,
         report: ClockReport, budget: BotBudget | None = None) -> Ticked:
    """One game's clock, inside the caller's transaction (``budget``: the pass's bot CPU)."""
    game = queries.lock_game(session, game_id)
    if game is None or game.status != "active":
        return Ticked(acted=False)
    rules = registry.get(game.game_type)
    state = rules.from_json(json.loads(queries.latest_snapshot(session, game_id).state_json))
    waiting = rules.waiting_for(state)
    if not waiting:
        return Ticked(acted=False, looked=Looked(state, None))
    seats = queries.seats(session, game_id)
    started = game.turn_started_at is None
    if started:  # a game from before clocks existed: its wait starts now
        restart_clock(game, now)
        session.add(game)
    late = frozenset(s.index for s in seats if s.index in waiting
                     and (due := deadline_of(game, s)) is not None and due <= now)
    gone = any(autoplayed(s) for s in seats if s.index in waiting)
    if late and game.timeout_policy == "pause":
        pause_for_timeout(session, host, rules, game, state,
                          [s for s in seats if s.index in late], now)
        report.paused.append(game.tag)
        return Ticked(acted=True)
    taken = []
    if late and game.timeout_policy == "bot":  # a bot takes over: no default order
        taken = [s for s in seats if s.index in late]
        for seat in taken:
            stand_in.take_over(session, rules, game, state, seat, host.bots.stand_in_level,
                               msg("{name} sent no orders by the deadline; a bot plays for "
                                   "them from now on, until they come back.",
                                   name=seat.name))
        late = frozenset()
    if late or gone or taken:
        result = settle(session, rules, game, state, state, now, late, seats=seats, host=host,
                        budget=budget)
        if not (started or late or taken or result.played or result.failed):
            # Only seats the pass's spent bot budget left for the next pass: nothing changed.
            return Ticked(acted=False, looked=Looked(state, seats))
        result.taken_over = taken
        report.bot_moves += sum(1 for s, _ in result.played if bot_level(s) is not None)
        report.timeouts += sum(1 for s, _ in result.played if bot_level(s) is None)
        tell_autoplay(session, host, rules, game, result, now)
        if result.failed:
            report.paused.append(game.tag)
        return Ticked(acted=True)
    reminded = remind(session, host, rules, game, state, seats, waiting, now)
    report.reminders += reminded
    if started or reminded > 0:
        return Ticked(acted=True)
    return Ticked(acted=False, looked=Looked(state, seats))


def schedule(session: Session, game_id: int, looked: Looked | None = None,
             served: datetime | None = None) -> None:
    """Record when the game's clock next needs a look (after :func:`tick`, same transaction).
    ``looked``: what a tick that changed nothing read, not to be read again; ``served``:
    when its bots last played in a pass, which a game with more to play waits from (behind
    the games that waited longer)."""
    game = session.get(Game, game_id)
    if game is None:
        return
    due = next_clock_event(session, game, looked)
    if served is not None and due == CLOCK_CHECK_NOW:
        game.clock_due_at = served
        # Written even when unchanged: else the flush of the tick's changes would take the
        # game for one nobody looked at and write CHECK_NOW (pbem.store.clockdue).
        flag_modified(game, "clock_due_at")
    else:
        game.clock_due_at = due
    session.add(game)


def schedule_move(session: Session, game: Game, looked: Looked, *,
                  with_entry: bool = False) -> None:
    """Record when the game's clock next needs a look, in the transaction of a move that
    just settled (the game locked; ``looked``: the state after it and the seats). The next
    pass then looks only if something falls due, as it would after looking once itself: a
    deadline or reminder already passed is due at once, a seat to play for is CHECK_NOW. A
    game with no wait start (from before clocks) is left to the pass, which starts it.

    ``with_entry``: called before the flush that writes the move's entry, which then writes
    this too, even when it is the value the game had (the flush would otherwise take the
    entry for a change nobody looked at, and write CHECK_NOW: pbem.store.clockdue)."""
    if game.turn_started_at is not None:
        game.clock_due_at = next_clock_event(session, game, looked)
        if with_entry:
            flag_modified(game, "clock_due_at")
        session.add(game)


def next_clock_event(session: Session, game: Game, looked: Looked | None = None
                     ) -> datetime | None:
    """The earliest reminder or deadline still to act on; None when nothing will fall due
    (until the game, a seat or the log changes, which resets it: pbem.store.clockdue).
    ``looked``: the game's state and seats as read in this transaction, if they were."""
    if game.status != "active":
        return None
    rules = registry.get(game.game_type)
    state = looked.state if looked is not None else rules.from_json(json.loads(
        queries.latest_snapshot(session, game.id or 0).state_json))
    waiting = rules.waiting_for(state)
    everyone = (looked.seats if looked is not None and looked.seats is not None
                else queries.seats(session, game.id or 0) if waiting else [])
    seats = [s for s in everyone if s.index in waiting]
    if any(autoplayed(s) for s in seats) or (seats and game.deadline_hours is not None
                                               and game.turn_started_at is None):
        return CLOCK_CHECK_NOW  # left for the next pass (tick did not settle it)
    last = aware(game.reminded_at) if game.reminded_at is not None else None
    times = []
    for seat in seats:
        if (due := deadline_of(game, seat)) is not None:
            times.append(due)
        if (at := reminder_of(game, seat)) is not None and (last is None or last < at):
            times.append(at)
    return min(times, default=None)


def tell_autoplay(session: Session, host: Host, rules: GameRules, game: Game, result: Autoplay,
                  now: datetime, skip_seat: int | None = None,
                  news: Sequence[Line] = ()) -> list[Any]:
    """Mail every seat its new status after the host played for someone (or tell the
    operator why it could not). ``skip_seat`` is mailed by the caller itself; ``news``
    opens every mail (what the caller has to tell, in the same one mail)."""
    queued: list[Any] = []
    if result.failed:
        queued += pause_mails(session, host, rules, game, result.state,
                              [s for s, _ in result.failed], now,
                              reason=result.failed[0][1] if len(result.failed) == 1 else
                              msg("{first}; {second}", first=result.failed[0][1],
                                  second=result.failed[1][1]), skip_seat=skip_seat,
                              news=news)
        return queued
    if not result.played and not result.taken_over:
        return queued
    played_for = {s.index: text for s, text in result.played}
    taken = {s.index for s in result.taken_over}
    seats = queries.seats(session, game.id or 0)
    move = MoveMails.read(session, rules, game, result.state, seats=seats,
                          mover=mails.movers([s.name for s, _ in result.played], result.start),
                          mailed=[s.index for s in seats if s.index != skip_seat])
    for seat in seats:
        if seat.index == skip_seat:
            continue
        intro = ([msg("Your deadline passed, so a bot plays your seat from now on. To play "
                      "it yourself again, mail \"{back}\" with your secret line before your "
                      "next turn.", back=word("back", seat.language))]
                 if seat.index in taken else
                 [msg("Your deadline passed, so the game played for you: {order}",
                      order=localise_order(rules, played_for[seat.index], seat.language))]
                 if seat.index in played_for and not autoplayed(seat) else [])
        update = move.queue_update(host, seat, intro=[*news, *intro])
        queued += [update] if update is not None else []
    session.flush()
    return queued


def remind(session: Session, host: Host, rules: GameRules, game: Game, state: Any,
           seats: list[Seat], waiting: frozenset[int], now: datetime) -> int:
    """Mail the seats whose reminder time has come since the last reminder of this wait."""
    last = aware(game.reminded_at) if game.reminded_at is not None else None
    due = []
    for seat in seats:
        at = reminder_of(game, seat) if seat.index in waiting and not autoplayed(seat) \
            else None
        if at is not None and at <= now and (last is None or last < at):
            due.append(seat)
    move = MoveMails.read(session, rules, game, state, seats=seats,
                          mailed=[s.index for s in due]) if due else None
    for seat in due:
        assert move is not None
        deadline = deadline_of(game, seat)
        assert deadline is not None
        hours = max(0, int((deadline - now).total_seconds() // 3600))
        tr = seat_tr(seat, rules)
        move.queue_status(host, seat, kind="reminder", intro=[
            nmsg("Reminder: your orders for [{tag}] are due by {when} (in about {n} hour).",
                 "Reminder: your orders for [{tag}] are due by {when} (in about {n} hours).",
                 hours, tag=game.tag, when=tr.datetime(deadline, seat.timezone)),
            msg("If none arrive by then, the game plays its default order for you.")
            if game.timeout_policy == "default" else
            msg("If none arrive by then, a bot plays your seat until you mail \"{back}\".",
                back=word("back", seat.language))
            if game.timeout_policy == "bot" else
            msg("If none arrive by then, the game pauses until its host steps in."),
        ])
    if due:
        game.reminded_at = now
        session.add(game)
    return len(due)


def pause_for_timeout(session: Session, host: Host, rules: GameRules, game: Game, state: Any,
                      late: list[Seat], now: datetime) -> None:
    game.status = "paused"
    session.add(game)
    names = ", ".join(s.name for s in late)
    pause_mails(session, host, rules, game, state, late, now,
                reason=msg("{names} sent no orders by the deadline", names=names))


def pause_mails(session: Session, host: Host, rules: GameRules, game: Game, state: Any,
                late: list[Seat], now: datetime, reason: Msg,
                skip_seat: int | None = None, news: Sequence[Line] = ()) -> list[Any]:
    """The game is paused: tell the operator (if one is configured) and every seat
    (``skip_seat``: but the one the caller answers itself; ``news``: first in their mail)."""
    queued: list[Any] = []
    names = ", ".join(s.name for s in late)
    if host.mail.operator_address:
        queued.append(mails.queue_notice(
            session, host, to=host.mail.operator_address, kind="operator", game=game,
            subj=mails.subject(game, f"{rules.title}: paused"), lines=[
                f"Game [{game.tag}] ({rules.title}) was paused at {when(now)}: {reason}.",
                f"Seats concerned: {names}.",
                "Nothing more happens in it until you resume it (`pbem game resume "
                f"{game.tag}`), after taking over, dropping or forcing orders for a seat "
                "as needed.",
            ]))
    else:
        log.warning("game %s paused (%s); no operator_address configured to tell", game.tag,
                    reason)
    for seat in queries.seats(session, game.id or 0):
        if seat.index == skip_seat:
            continue
        queued.append(mails.queue_notice(
            session, host, to=seat.address, kind="notice", game=game, seat=seat, rules=rules,
            subj=mails.subject(game, rules.title), lines=[
                *news,
                msg("Game [{tag}] is paused: {reason}.", tag=game.tag, reason=reason),
                msg("The game's host has been told. You will get a new status mail when it "
                    "goes on."),
            ]))
    session.flush()
    return queued
