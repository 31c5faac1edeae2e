"""Shrimps: a new one onto a coral (action 4), moving or withdrawing one (action 5).

One shrimp per coral, at most two of a player's own shrimps per board at all times, and a shrimp
may rest on bare rock only during its owner's turn.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import (
    Refused,
    board_of,
    check_rock,
    coral_shrimp,
    group,
    name,
    seat_shrimps_on_board,
)
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.terms import colour as hue
from pbem.i18n.msg import Msg, msg

MAX_PER_BOARD = 2


def _check_target(state: State, seat: int, cell_key: str, moving_from: str | None) -> None:
    check_rock(state, cell_key)
    if cell_key in state.shrimps:
        raise Refused(msg("{cell} already holds a shrimp", cell=name(cell_key)))
    if cell_key in state.polyps:
        holder = coral_shrimp(state, group(state, cell_key))
        if holder is not None and holder != moving_from:
            owner = state.shrimps[holder]
            raise Refused(msg("the {colour} coral on {cell} already has a shrimp ({owner}'s, on "
                              "{holder}); one shrimp per coral",
                              colour=hue(state.polyps[cell_key]), cell=name(cell_key),
                              owner=hue(state.players[owner].colour), seat=seat_ref(owner),
                              holder=name(holder)))
    board = board_of(cell_key)
    mine = seat_shrimps_on_board(state, seat, board)
    if moving_from is not None and board_of(moving_from) == board:
        mine -= 1
    if mine >= MAX_PER_BOARD:
        raise Refused(msg("you already have two shrimps on board {board}; at most two per "
                          "board", board=board))


def check_new_shrimp(state: State, seat: int, cell_key: str) -> None:
    """Refuse an illegal action 4 onto ``cell_key``."""
    me = state.players[seat]
    if me.shrimps_in_hand < 1:
        raise Refused(msg("you have no shrimp left behind your screen"))
    if cell_key not in state.polyps:
        check_rock(state, cell_key)
        raise Refused(msg("a new shrimp goes on a polyp, and {cell} has none",
                          cell=name(cell_key)))
    _check_target(state, seat, cell_key, None)


def new_shrimp(state: State, turn: Turn, cell_key: str) -> None:
    """Action 4: a shrimp from behind the screen onto a polyp of a coral without a shrimp."""
    check_new_shrimp(state, turn.seat, cell_key)
    state.players[turn.seat].shrimps_in_hand -= 1
    state.shrimps[cell_key] = turn.seat
    seat, colour = turn.seat, state.polyps[cell_key]
    turn.say("shrimp_placed", _shrimp_placed(state, seat, colour, cell_key))


def _shrimp_placed(state: State, seat: int, colour: str, cell_key: str) -> Msg:
    return msg("{player} put a new shrimp on the {colour} coral at {cell}.",
               player=who(state, seat), seat=seat_ref(seat), colour=hue(colour),
               cell=name(cell_key))


def check_move_shrimp(state: State, seat: int, source: str, target: str | None) -> None:
    """Refuse an illegal action 5 (``target`` None: home behind the screen)."""
    if state.shrimps.get(source) != seat:
        raise Refused(msg("you have no shrimp on {cell}", cell=name(source)))
    if target is None:
        return
    if target == source:
        raise Refused(msg("the shrimp is already on {cell}", cell=name(source)))
    _check_target(state, seat, target, source)


def move_shrimp(state: State, turn: Turn, source: str, target: str | None) -> None:
    """Action 5: move one's own shrimp to another cell, or home behind the screen."""
    check_move_shrimp(state, turn.seat, source, target)
    del state.shrimps[source]
    if target is None:
        state.players[turn.seat].shrimps_in_hand += 1
        turn.say("shrimp_home", msg("{player} took the shrimp on {cell} back behind the "
                                    "screen.", player=who(state, turn.seat),
                                    seat=seat_ref(turn.seat), cell=name(source)))
        return
    state.shrimps[target] = turn.seat
    turn.say("shrimp_moved", msg("{player} moved the shrimp on {cell} to {target}.",
                                 player=who(state, turn.seat), seat=seat_ref(turn.seat),
                                 cell=name(source), target=name(target)))


def shrimps_on_bare_rock(state: State, seat: int) -> list[str]:
    """This seat's shrimps standing on no polyp (allowed only until the end of its turn)."""
    return sorted(k for k, s in state.shrimps.items() if s == seat and k not in state.polyps)
