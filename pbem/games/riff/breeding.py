"""Breeding: parents on corals, the open crosses, and completing a cross."""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.games.riff import terms as w
from pbem.games.riff.components import cross_colours
from pbem.games.riff.state import Coral, State
from pbem.i18n.msg import msg


def open_crosses(state: State) -> list[str]:
    return [c for c in state.breeding_open if c is not None]


def fits(male: str | None, female: str | None, card: str) -> bool:
    """Whether these parents (either may still be missing) belong to the cross ``card``:
    a two-colour cross wants one parent of each colour, a one-colour cross two of it."""
    colours = cross_colours(card)
    if len(colours) == 1:
        return male in (None, colours[0]) and female in (None, colours[0])
    if male is not None and female is not None:
        return male != female and {male, female} == set(colours)
    return (male or female) in colours


def completing(state: State, coral: Coral) -> int | None:
    """Index of the open cross this coral's two parents complete, if any."""
    if coral.male is None or coral.female is None:
        return None
    for i, card in enumerate(state.breeding_open):
        if card is not None and fits(coral.male, coral.female, card):
            return i
    return None


def colour_fits_a_cross(state: State, colour: str) -> bool:
    return any(colour in cross_colours(c) for c in open_crosses(state))


def turn_breeding_card(state: State, index: int, chance: Chance) -> str | None:
    """Fill offer place ``index`` from the breeding pile (a draw among its hidden cards)."""
    if not state.breeding_pile:
        state.breeding_open[index] = None
        return None
    k = chance.choice("breeding card turned", range(len(state.breeding_pile)))
    card = state.breeding_pile.pop(k)
    state.breeding_open[index] = card
    return card


def complete(state: State, seat: int, coral_index: int, chance: Chance,
             loud: bool = True) -> list[Event] | None:
    """The coral's parents complete an open cross: both fish to the discard, the breeding
    card onto the coral (used up for good), a new breeding card turned. None if they complete
    none; the events (none unless ``loud``) if they do."""
    coral = state.players[seat].corals[coral_index]
    i = completing(state, coral)
    if i is None:
        return None
    card = state.breeding_open[i]
    assert card is not None and coral.male is not None and coral.female is not None
    state.discard += [f"fish:{coral.male}:m", f"fish:{coral.female}:f"]
    state.players[seat].corals[coral_index] = Coral(None, None, card)
    new = turn_breeding_card(state, i, chance)
    if not loud:
        return []
    said = [Event.of("cross_completed", msg(
        "{player} completed the cross {cross} on coral {number} ({n} in all).",
        player=w.seat(seat), cross=w.cross(card), number=coral_index + 1,
        n=state.players[seat].crosses()))]
    said.append(Event.of("breeding_card_turned", msg("New breeding card on offer: {cross}.",
                                                     cross=w.cross(new))) if new else
                Event.of("breeding_pile_empty", msg(
                    "The breeding pile is empty: one place on offer stays empty.")))
    return said
