"""The fishing area: turning cards, the water's flow and the refill (rules steps 3 and 4).

Turning a hidden card draws its face through the recorded chance, uniformly among every card
no one has seen (the face-down cards and the pile): the same odds as the shuffled deck of the
box, but decided only when the card turns. So a ``check`` dry run (it draws with a different
seed) shows an example, never the real card (see RULINGS-ADDENDUM.md).
"""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.games.riff import terms as w
from pbem.games.riff.state import COLUMNS, ROWS, Slot, State
from pbem.i18n.msg import msg, nmsg

RESHUFFLE_AT = 7  # a discard of 7 or more cards goes back into the pile


def face_up_row(row: int) -> bool:
    """The outer rows are dealt face up, the two middle rows face down."""
    return row in (0, ROWS - 1)


def reveal(state: State, row: int, column: int, chance: Chance,
           unseen: int | None = None) -> str:
    """Turn the face-down card at (row, column) face up; returns its face. ``unseen``: the
    face-down cards in the area (``face_down_count``), when the caller knows it (one scan
    fewer)."""
    if unseen is None:
        unseen = face_down_count(state.area)
    return turn_up(state, row, column, draw_unseen(state, unseen, chance), unseen)


def face_down_count(area: list[list[Slot]]) -> int:
    # only the middle rows hold face-down cards between turns, but a refilled outer row's
    # card is face down until it turns: every row is looked at
    unseen = 0
    for cells in area:
        for s in cells:
            if s is not None and not s["up"]:
                unseen += 1
    return unseen


def face_down_places(area: list[list[Slot]]) -> list[tuple[int, int]]:
    """(row, column) of every face-down card, row by row (the order of ``draw_unseen``)."""
    return [(r, c) for r, cells in enumerate(area) for c, s in enumerate(cells)
            if s is not None and not s["up"]]


def draw_unseen(state: State, unseen: int, chance: Chance) -> int:
    """Which unseen card a turned card shows: an index among the ``unseen`` face-down cards,
    row by row, then the pile."""
    return chance.choice("turned reef card", range(unseen + len(state.pile)))


def turn_up(state: State, row: int, column: int, k: int, unseen: int,
            at: tuple[int, int] | None = None) -> str:
    """Turn the face-down card at (row, column) face up, showing the card of the draw ``k``
    (``draw_unseen``): the k-th face-down card changes places with it, or the pile's card
    does; returns the face. ``at``: where the k-th face-down card lies, if known
    (``face_down_places``)."""
    area = state.area
    slot = area[row][column]
    assert slot is not None and not slot["up"]
    card: str = slot["card"]
    if k < unseen:  # slots are never changed in place (states share them): new dicts
        r, c = at or _face_down(area, k)
        other = area[r][c]
        assert other is not None
        area[r][c] = {"card": card, "up": False}
        card = other["card"]
    else:
        j = k - unseen
        card, state.pile[j] = state.pile[j], card
    area[row][column] = {"card": card, "up": True}
    return card


def _face_down(area: list[list[Slot]], k: int) -> tuple[int, int]:
    """(row, column) of the k-th face-down card, row by row."""
    for r, cells in enumerate(area):
        for c, s in enumerate(cells):
            if s is not None and not s["up"]:
                if not k:
                    return r, c
                k -= 1
    raise IndexError(k)


def flow_and_refill(state: State, chance: Chance) -> list[Event]:
    """Steps 3 and 4, the face-down cards counted once for both (``flow``, ``refill``)."""
    said, unseen = _flow(state, chance, face_down_count(state.area))
    return said + _refill(state, chance, unseen)


def flow(state: State, chance: Chance) -> list[Event]:
    """Step 3: every row slides toward the sea; water cards reaching the sea end go."""
    return _flow(state, chance, face_down_count(state.area))[0]


def _flow(state: State, chance: Chance, unseen: int) -> tuple[list[Event], int]:
    """``flow`` given the face-down cards' count; returns the events and the count after."""
    said: list[Event] = []
    face_down_is_water = bool(state.options["face_down_at_sea_edge_counts_as_water"])
    area = state.area  # its rows are replaced, never the list of them
    for r in range(ROWS):
        # With the option, a face-down card already lying at the sea end counts as water;
        # cards sliding in after it are judged by their face (else a whole face-down row
        # would drain at every flow).
        row = area[r]
        at_sea_end = row[0]
        if at_sea_end is not None and None not in row and (
                at_sea_end["card"] != "water" if at_sea_end["up"] else not face_down_is_water):
            continue  # a full row whose sea-end card stays: nothing moves (most rows)
        cards = [s for s in row if s is not None]
        while cards:
            first = cards[0]
            if first["up"] and first["card"] == "water":
                said.append(_water_left(r + 1))
            elif not first["up"] and face_down_is_water and first is at_sea_end:
                state.area[r] = cards + [None] * (COLUMNS - len(cards))
                card = reveal(state, r, 0, chance, unseen)
                unseen -= 1  # it leaves face up
                cards = [s for s in state.area[r] if s is not None]
                said.append(_face_down_left(card, r + 1))
            else:
                break
            state.discard.append(cards.pop(0)["card"])
        state.area[r] = cards + [None] * (COLUMNS - len(cards))
    return said, unseen


def gaps(state: State) -> int:
    return sum([row.count(None) for row in state.area])


def refill(state: State, chance: Chance) -> list[Event]:
    """Step 4: a discard of 7+ joins the pile; gaps fill from the pile (with the discard
    shuffled in first when the pile cannot fill them all)."""
    return _refill(state, chance, face_down_count(state.area))


def _refill(state: State, chance: Chance, unseen: int) -> list[Event]:
    """``refill`` given the face-down cards' count."""
    said: list[Event] = []
    if len(state.discard) >= RESHUFFLE_AT:
        said.append(Event.of("discard_shuffled", msg(
            "The discard ({n} cards) was shuffled into the pile.", n=len(state.discard))))
        _merge_discard(state, chance)
    need = gaps(state)
    if need > len(state.pile) and state.discard:
        said.append(Event.of("discard_shuffled_in", msg(
            "The pile could not fill the area: the discard ({n} cards) was shuffled in.",
            n=len(state.discard))))
        _merge_discard(state, chance)
    filled = 0
    pile = state.pile
    # a middle row's new card adds a face-down card; an outer row's new card adds one until
    # it turns, and the card it shows leaves one face down as before
    for r, row in enumerate(state.area if need else ()):
        if None not in row:  # a full row (most are)
            continue
        for c in range(COLUMNS):
            if row[c] is not None or not pile:
                continue
            row[c] = {"card": pile.pop(), "up": False}
            if face_up_row(r):
                reveal(state, r, c, chance, unseen + 1)
            else:
                unseen += 1
            filled += 1
    if filled:
        said.append(_area_refilled(filled))
    if left := need - filled:  # filling makes no gap
        said.append(_pile_empty(left))
    return said


def _water_left(row: int) -> Event:
    return Event.of("water_left", msg("A water card left the sea end of row {row}.", row=row))


def _face_down_left(card: str, row: int) -> Event:
    return Event.of("face_down_left", msg(
        "A face-down card ({card}) left the sea end of row {row}.", card=w.card(card),
        row=row))


def _area_refilled(n: int) -> Event:
    return Event.of("area_refilled", nmsg(
        "{n} card from the pile refilled the fishing area.",
        "{n} cards from the pile refilled the fishing area.", n))


def _pile_empty(n: int) -> Event:
    return Event.of("pile_empty", nmsg("The pile is empty: {n} place stays empty.",
                                       "The pile is empty: {n} places stay empty.", n))


def _merge_discard(state: State, chance: Chance) -> None:
    """The discard and the pile, shuffled together (recorded, as every shuffle)."""
    state.pile = chance.shuffle("reef pile shuffled", state.pile + state.discard)
    state.discard = []
