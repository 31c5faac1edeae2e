"""What an operator does to a running game: takeovers, drops, pauses, forced orders, undo.

Every action is written to the game's log as an entry (kind ``admin``, or ``forced`` for
orders entered for a seat), so nothing an operator does is silent and ``game replay`` checks it
(see :mod:`pbem.pipeline.history`). Each function works inside the caller's transaction with
the game row locked, like the mail pipeline, and queues the mails the players need; the caller
commits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from pbem.engine import registry
from pbem.engine.contract import Event, GameRules
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.engine.replay import play
from pbem.i18n import msg
from pbem.pipeline import autoplay, clock, history, operator_input, standings
from pbem.pipeline import outgoing as mails
from pbem.pipeline.controllers import HUMAN, STAND_IN, controller
from pbem.pipeline.guide_link import guide_line
from pbem.pipeline.move_mails import MoveMails
from pbem.pipeline.movelog import log_admin, record_move
from pbem.pipeline.reply_tokens import REPLY_NEEDS_NO_SECRET
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret
from pbem.settings.host import Host
from pbem.store import players, queries
from pbem.store.tables import Game, OutboundMessage, Seat


class AdminError(ValueError):
    """An operator command that cannot be done as asked; the message says why."""


def _lock(session: Session, game: Game, allowed: tuple[str, ...], doing: str) -> Game:
    locked = queries.lock_game(session, game.id or 0)
    if locked is None:
        raise AdminError(f"no game {game.tag}")
    if locked.status not in allowed:
        raise AdminError(f"game {locked.tag} is {locked.status}; cannot {doing} "
                         f"(only when {' or '.join(allowed)})")
    return locked


def _seat(session: Session, game: Game, index: int) -> Seat:
    seat = next((s for s in queries.seats(session, game.id or 0) if s.index == index), None)
    if seat is None:
        raise AdminError(f"game {game.tag} has no seat {index + 1}")
    return seat


def _state(session: Session, rules: GameRules, game: Game) -> Any:
    return rules.from_json(json.loads(queries.latest_snapshot(session, game.id or 0).state_json))


def _status_all(session: Session, host: Host, rules: GameRules, game: Game, state: Any,
                intro: Sequence[Line], skip: int | None = None) -> list[OutboundMessage]:
    seats = queries.seats(session, game.id or 0)
    move = MoveMails.read(session, rules, game, state, seats=seats,
                          mailed=[s.index for s in seats if s.index != skip])
    out = [move.queue_status(host, s, intro=intro) for s in seats if s.index != skip]
    session.flush()
    return [q for q in out if q is not None]


def _notice_all(session: Session, host: Host, rules: GameRules, game: Game,
                lines: Sequence[Line]) -> None:
    for s in queries.seats(session, game.id or 0):
        mails.queue_notice(session, host, to=s.address, subj=mails.subject(game, rules.title),
                           lines=lines, kind="notice", game=game, seat=s, rules=rules)
    session.flush()


def _settle(session: Session, host: Host, rules: GameRules, game: Game, before: Any,
            after: Any) -> Any:
    """Restart the clock if a new wait began and play for dropped/resigned seats now due."""
    result = autoplay.settle(session, rules, game, before, after, host.clock(), host=host)
    clock.tell_autoplay(session, host, rules, game, result, host.clock())
    return result.state


# --- seats ----------------------------------------------------------------------------------


def takeover(session: Session, host: Host, game: Game, seat_index: int, name: str,
             address: str) -> str:
    """A new player takes a seat: new name and address, a fresh secret mailed with a full
    status; the old address is told. A dropped or resigned seat becomes active again.
    Returns the new secret (already mailed; the CLI does not print it)."""
    game = _lock(session, game, ("active", "paused"), "take over a seat")
    name = name.strip()
    try:
        address = operator_input.address(address, "--address")
    except operator_input.InputError as exc:
        raise AdminError(str(exc)) from None
    if not name or operator_input.CONTROL.search(name):
        raise AdminError("give the newcomer's name (one plain line) and email address, e.g. "
                         "--name \"Carol\" --address carol@example.org")
    refusal = players.ban_refusal(session, [address])
    if refusal:
        raise AdminError(refusal)
    rules = registry.get(game.game_type)
    seat = _seat(session, game, seat_index)
    taken = [s for s in queries.seat_by_address(session, game.id or 0, address)
             if s.index != seat.index]
    if taken:
        raise AdminError(f"{address} already holds seat {taken[0].index + 1} ({taken[0].name}) of "
                         f"{game.tag}; each seat needs its own address")
    old_name, old_address = seat.name, seat.address
    secret, salt = new_secret(), new_salt()
    seat.name, seat.address, seat.status = name, address, "active"
    seat.controller = HUMAN  # a bot seat, or one a bot stood in for, is a person's now
    players.ensure(session, address)
    seat.secret_salt, seat.secret_hash = salt, hash_secret(secret, salt)
    seat.vacation_until = seat.vacation_from = None
    session.add(seat)
    state = _state(session, rules, game)
    if seat.index in rules.waiting_for(state):  # the newcomer gets a whole deadline
        clock.restart_clock(game, host.clock())
        session.add(game)
    log_admin(session, rules, game, state, f"takeover seat {seat.index + 1}: {old_name} → {name}",
              [Event.of("seat_taken_over", msg("{name} takes over from {old_name}.",
                                               name=name, old_name=old_name))],
              seat=seat.index)  # players know seats by name
    move = MoveMails.read(session, rules, game, state, mailed=[seat.index])
    move.queue_status(host, seat, secret=secret, kind="welcome",
                      intro=[msg("Welcome to {title} [{tag}]! You take over the seat of "
                                 "{old_name}.", title=rules.title, tag=game.tag,
                                 old_name=old_name),
                             msg("Your secret is: {secret}", secret=secret),
                             msg("Keep it private: put it in every mail you send."),
                             *guide_line(host.site.url, rules.name, seat.language),
                             REPLY_NEEDS_NO_SECRET])
    if old_address and old_address != address:  # a bot seat had no address to tell
        # The seat's language, as its old player chose it.
        mails.queue_notice(session, host, to=old_address, kind="notice", game=game,
                           subj=mails.subject(game, rules.title), tr=seat_tr(seat, rules),
                           lines=[
                               msg("{name} has taken over your seat in [{tag}], by decision "
                                   "of the game's host.", name=name, tag=game.tag),
                               msg("Mail from this address no longer plays in this game. "
                                   "Thank you for playing!")])
    session.flush()
    return secret


def drop(session: Session, host: Host, game: Game, seat_index: int) -> None:
    """Drop a seat: from now on the game plays its default order for it whenever it is due
    (a bot plays it, under the game's ``bot`` timeout policy)."""
    game = _lock(session, game, ("active", "paused"), "drop a seat")
    rules = registry.get(game.game_type)
    seat = _seat(session, game, seat_index)
    if seat.status == "dropped":
        raise AdminError(f"seat {seat_index + 1} ({seat.name}) is already dropped")
    seat.status = "dropped"
    by_bot = game.timeout_policy == "bot"
    if by_bot:
        seat.controller = controller(STAND_IN, host.bots.stand_in_level)
    session.add(seat)
    state = _state(session, rules, game)
    log_admin(session, rules, game, state, f"drop seat {seat.index + 1}: {seat.name}",
              [Event.of("seat_dropped", msg(
                  "{name} was dropped from the game by its host; a bot plays that seat from "
                  "now on.", name=seat.name) if by_bot else msg(
                  "{name} was dropped from the game by its host; the game plays its default "
                  "orders for that seat from now on.", name=seat.name))], seat=seat.index)
    mails.queue_notice(session, host, to=seat.address, kind="notice", game=game, seat=seat,
                       rules=rules, subj=mails.subject(game, rules.title), lines=[msg(
                           "The game's host has dropped you from [{tag}]. A bot plays your "
                           "seat from now on, and mail from you no longer plays in it.",
                           tag=game.tag) if by_bot else msg(
                           "The game's host has dropped you from [{tag}]. The game plays its "
                           "default orders for your seat from now on, and mail from you no "
                           "longer plays in it.", tag=game.tag)])
    _settle(session, host, rules, game, state, state)


# --- the game's status -------------------------------------------------------------------------


def pause(session: Session, host: Host, game: Game, reason: str = "") -> None:
    """Stop the game: orders are refused politely (and kept) until :func:`resume`."""
    game = _lock(session, game, ("active",), "pause it")
    rules = registry.get(game.game_type)
    game.status = "paused"
    session.add(game)
    why = f": {reason.strip()}" if reason.strip() else ""
    # The operator's reason is quoted as written (the operator's words are not translated).
    log_admin(session, rules, game, _state(session, rules, game), f"pause{why}",
              [Event.of("game_paused", msg("The game's host paused the game: {reason}.",
                                           reason=reason.strip()) if why else
                        msg("The game's host paused the game."))])
    _notice_all(session, host, rules, game, [
        msg("The game's host has paused [{tag}]: {reason}.", tag=game.tag,
            reason=reason.strip()) if why else
        msg("The game's host has paused [{tag}].", tag=game.tag),
        msg("Orders sent meanwhile are not played. You will get a new status mail when the "
            "game goes on.")])


def resume(session: Session, host: Host, game: Game) -> None:
    """Go on after a pause: the clock restarts for the seats waited for; everyone is mailed."""
    game = _lock(session, game, ("paused",), "resume it")
    rules = registry.get(game.game_type)
    game.status = "active"
    clock.restart_clock(game, host.clock())
    session.add(game)
    state = _state(session, rules, game)
    log_admin(session, rules, game, state, "resume",
              [Event.of("game_resumed", msg("The game's host resumed the game."))])
    state = _settle(session, host, rules, game, state, state)
    _status_all(session, host, rules, game, state, [msg(
        "[{tag}] goes on: the game's host has resumed it.", tag=game.tag)])


def archive(session: Session, host: Host, game: Game, *, abandon: bool = False) -> None:
    """Archive a finished game, or (``abandon``) end an unfinished one without a result."""
    allowed = ("active", "paused", "finished") if abandon else ("finished",)
    try:
        game = _lock(session, game, allowed, "abandon it" if abandon else "archive it")
    except AdminError:
        if not abandon and game.status in ("active", "paused"):
            raise AdminError(f"game {game.tag} is not finished; `pbem game abandon {game.tag}` "
                             "ends it without a result") from None
        raise
    rules = registry.get(game.game_type)
    game.status = "archived"
    session.add(game)
    state = _state(session, rules, game)
    if abandon and rules.outcome(state) is None:
        log_admin(session, rules, game, state, "abandon",
                  [Event.of("game_abandoned", msg(
                      "The game's host abandoned the game; it ends without a result."))])
        _notice_all(session, host, rules, game, [
            msg("The game's host has abandoned [{tag}]: it ends here, without a result, and "
                "takes no more orders.", tag=game.tag), msg("Thank you for playing!")])
    else:
        log_admin(session, rules, game, state, "archive",
                  [Event.of("game_archived", msg("The game was archived."))])


# --- moves -------------------------------------------------------------------------------------


def force(session: Session, host: Host, game: Game, seat_index: int, text: str) -> int:
    """Play ``text`` as the orders of a seat whose turn it is; returns the log index.

    Logged as a ``forced`` entry (replayed like any order); everyone is told the host did it.
    """
    game = _lock(session, game, ("active", "paused"), "enter orders")
    rules = registry.get(game.game_type)
    seat = _seat(session, game, seat_index)
    state = _state(session, rules, game)
    if seat.index not in rules.waiting_for(state):
        raise AdminError(f"it is not the turn of seat {seat.index + 1} ({seat.name})")
    index = queries.next_log_index(session, game.id or 0)
    try:
        applied, record = play(rules, state, seat.index, text, f"{game.seed}/{index}")
    except (OrderSyntaxError, IllegalOrder) as exc:
        raise AdminError(f"the orders were not played: {exc}") from exc
    told = [Event.of("orders_forced", msg("The game's host entered orders for {name}.",
                                          name=seat.name)),
            Event.of("forced_orders_shown", msg("The orders entered for you: {order}",
                                                order=text), {seat.index})]
    record_move(session, rules, game, index=index, kind=history.FORCED, seat=seat.index,
                text=text, record=record, state=applied.state, told=told,
                rate_bots=host.bots.rated)
    after = _settle(session, host, rules, game, state, applied.state)
    _status_all(session, host, rules, game, after, [])
    return index


def undo(session: Session, host: Host, game: Game) -> list[int]:
    """Take back the last turn: the newest live player's (or forced) move and the host's
    default moves after it. The whole log is replayed (and so verified) first; an ``undo``
    admin entry revokes the moves, nothing is deleted. Returns the revoked indexes."""
    game = _lock(session, game, ("active", "paused", "finished"), "undo")
    rules = registry.get(game.game_type)
    entries = queries.log(session, game.id or 0)
    setup = queries.setup_record(game, entries[0], len(queries.seats(session, game.id or 0)))
    replayed = history.replay_log(rules, setup, entries[1:])
    if not replayed.live:
        raise AdminError(f"nothing to undo in {game.tag}: no move has been played")
    players = [i for i, (e, _) in enumerate(replayed.live) if e.kind not in history.HOST_MOVES]
    first = players[-1] if players else len(replayed.live) - 1
    undone = [e for e, _ in replayed.live[first:]]
    state = replayed.state_before(rules, first)
    names = {s.index: s.name for s in queries.seats(session, game.id or 0)}
    who = ", ".join(dict.fromkeys(names.get(e.seat, "?") for e in undone if e.seat is not None))
    numbers = [e.index for e in undone]
    listed = ", ".join(f"#{n}" for n in numbers)
    if game.status == "finished" and rules.outcome(state) is None:
        game.status = "active"
        standings.game_reopened(session, game)
    clock.restart_clock(game, host.clock())
    session.add(game)
    note = msg("The game's host undid the last turn ({who}: log {listed}); those moves no "
               "longer count and the game is back where it was before them.", who=who,
               listed=listed)
    log_admin(session, rules, game, state,
              f"undo {' '.join(map(str, numbers))} (the last turn: {who})",
              [Event.of("turn_undone", note)], snapshot=True)
    _status_all(session, host, rules, game, state, [note])
    return numbers
