"""What one seat (or a spectator, seat None) may see: everything but the other hands.

Hidden while the game runs: every hand but the viewer's own (others' hand sizes are public),
the deck below its top card, and during the setup step the other seats' starting corals (the
step is answered at the same time by all). At the end every hand is shown, as it is scored.
"""

from __future__ import annotations

from typing import Any

from pbem.games.reef2018 import bot, terms
from pbem.games.reef2018.cards import COLOURS, SIZE, cards
from pbem.games.reef2018.scoring import covered, full_stacks, score_in_hand
from pbem.games.reef2018.state import State
from pbem.i18n.msg import Msg

_EMPTY_REEF: list[list[str]] = [[] for _ in range(SIZE * SIZE)]


def card_view(card_id: int) -> dict[str, Any]:
    card = cards()[card_id]
    description = card.description()
    view: dict[str, Any] = {"id": card.id, "corals": list(card.corals), "points": card.points,
                            "kind": card.kind, "text": str(description),
                            "description": description.to_json()}
    if card.highest:
        view["highest"] = {"centre": card.cells[0].colour, "scored": card.cells[1].colour}
        view["pattern"] = []
    else:
        width = max(c.dx for c in card.cells) + 1
        height = max(c.dy for c in card.cells) + 1
        rows = [["" for _ in range(width)] for _ in range(height)]
        for c in card.cells:
            rows[c.dy][c.dx] = c.label()
        view["pattern"] = rows
    return view


def _json(m: Msg | str) -> dict[str, Any] | str:
    """A message as view data (JSON), for the templates to render in the reader's language."""
    return m.to_json() if isinstance(m, Msg) else m


def reef_view(reef: list[list[str]]) -> list[list[dict[str, Any]]]:
    return [[{"height": len(reef[r * SIZE + c]), "top": reef[r * SIZE + c][-1]
              if reef[r * SIZE + c] else None, "stack": list(reef[r * SIZE + c])}
             for c in range(SIZE)] for r in range(SIZE)]


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    players = []
    for i, s in enumerate(state.players):
        hidden_setup = state.phase == "setup" and i != seat
        p: dict[str, Any] = {
            "seat": i,
            "reef": reef_view(_EMPTY_REEF if hidden_setup else s.reef),
            "hand_count": len(s.hand),
            "played": list(s.played),
            "score": s.score,
            "answered_setup": s.answered_setup,
            "covered": covered(s.reef) if not hidden_setup else 0,
            "full_stacks": full_stacks(s.reef) if not hidden_setup else 0,
        }
        if over:
            p["hand"] = [card_view(c) | {"scored": score_in_hand(s.reef, c)} for c in s.hand]
            p["ledger"] = [{"points": int(n), "why": str(why), "reason": _json(terms.why(why))}
                           for n, why in s.ledger]
        players.append(p)
    result: dict[str, Any] = {
        "phase": state.phase,
        "turn": state.turn,
        "to_move": state.to_move,
        "start_player": state.start_player,
        "advanced": state.advanced,
        "last_round": state.last_round,
        "end_reason": state.end_reason,
        "end": _json(terms.end_reason(state.end_reason)) if state.end_reason else None,
        "supply": {c: state.supply[c] for c in COLOURS},
        "deck_count": len(state.deck),
        "deck_top": card_view(state.deck[0]) if state.deck else None,
        "market": [{"card": card_view(c), "tokens": t}
                   for c, t in zip(state.market, state.market_tokens, strict=True)],
        "players": players,
    }
    if seat is not None:
        mine = state.players[seat]
        to_move = (not mine.answered_setup if state.phase == "setup"
                   else state.phase == "play" and state.to_move == seat)
        you: dict[str, Any] = {"seat": seat, "hand": [card_view(c) for c in mine.hand],
                               "to_move": to_move}
        if to_move:
            you["example"] = bot.default_order(state, seat)
        result["you"] = you
    return result
