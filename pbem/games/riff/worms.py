"""Worms: the dice (rules step 1), each player's standing preference, and paying.

By email the opponent's pick must never hold up the game, so (RULINGS-ADDENDUM.md): the dice
for a turn are rolled when the turn before it ends, the player to move takes both worms at
once, and the opponent's pick is taken when the mover's turn is played, from the opponent's
standing preference (``prefer ...``, sent in any mail, in turn or not) or else the default.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.games.riff import terms as w
from pbem.games.riff.components import cross_colours, die_faces
from pbem.games.riff.state import Coral, State
from pbem.i18n.msg import Msg, msg, nmsg


def default_preference(state: State, seat: int) -> list[str]:
    """Colours that would complete an open cross with the player's own fish, then colours
    of the open crosses, then the game's colour order."""
    return list(_default_order(state, seat))


def _default_order(state: State, seat: int) -> tuple[str, ...]:
    player = state.players[seat]
    return _holding_order(tuple(player.fish), tuple(player.corals), tuple(state.breeding_open),
                          tuple(state.colours))


def _holding_order(fish: tuple[str, ...], corals: tuple[Coral, ...],
                   offer: tuple[str | None, ...], game_colours: tuple[str, ...]
                   ) -> tuple[str, ...]:
    owned = [f[:-2] for f in fish]  # "red:m" -> "red"
    owned += [c for coral in corals if coral.cross is None
              for c in (coral.male, coral.female) if c is not None]
    return _preference_order(tuple(owned), offer, game_colours)


def _preference_order(owned: tuple[str, ...], offer: tuple[str | None, ...],
                      game_colours: tuple[str, ...]) -> tuple[str, ...]:
    """``offer``: the breeding cards on offer, None for an empty place."""
    partners: list[str] = []
    wanted: list[str] = []
    for card in offer:
        if card is None:
            continue
        colours = cross_colours(card)
        wanted += colours
        for mine in owned:
            if mine in colours:
                partners += [c for c in colours if c != mine] or [mine]
    return tuple(dict.fromkeys(partners + wanted + list(game_colours)))  # first seen first


def preference(state: State, seat: int) -> list[str]:
    """The seat's whole colour order: what it asked for, then the default for the rest."""
    asked = state.players[seat].prefer or []
    return asked + [c for c in default_preference(state, seat) if c not in asked]


def first_preferred(state: State, seat: int, ok: Callable[[str], bool]) -> str | None:
    """The first colour of ``preference`` that is ``ok``, if any: the default order is worked
    out only when no colour the seat asked for is."""
    asked = state.players[seat].prefer or []
    for c in asked:
        if ok(c):
            return c
    for c in _default_order(state, seat):
        if c not in asked and ok(c):
            return c
    return None


def _take(state: State, seat: int, colour: str) -> None:
    state.worm_supply[colour] -= 1
    worms = state.players[seat].worms
    worms[colour] = worms.get(colour, 0) + 1


def roll(state: State, chance: Chance) -> list[Event]:
    """Roll both dice for ``state.to_move``, who takes the two worms shown (a colour out of
    the supply is replaced by the first of the mover's preferred colours still there)."""
    mover = state.to_move
    first, second = die_faces(state.options, state.colours)
    state.dice = [chance.choice("die 1", first), chance.choice("die 2", second)]
    state.taken = []
    player = w.seat(mover)
    said = [_dice_rolled(mover, state.dice[0], state.dice[1])]
    for colour in state.dice:
        got = colour if state.worm_supply[colour] > 0 else first_preferred(
            state, mover, lambda c: state.worm_supply[c] > 0)
        if got is None:
            said.append(_supply_empty(mover))
            continue
        _take(state, mover, got)
        state.taken.append(got)
        if got != colour:
            said.append(Event.of("worm_replaced", msg(
                "{colour} worms are out: {player} took a {got} worm instead.",
                colour=w.colour(colour), player=player, got=w.colour(got))))
    if state.taken:
        said.append(_worms_taken(mover, tuple(state.taken)))
    return said


def _dice_rolled(seat: int, first: str, second: str) -> Event:
    return Event.of("dice_rolled", msg("Dice for {player}'s turn: {first} and {second}.",
                                       player=w.seat(seat), first=w.colour(first),
                                       second=w.colour(second)))


def _worms_taken(seat: int, taken: tuple[str, ...]) -> Event:
    return Event.of("worms_taken", msg("{player} took {colours} worms.", player=w.seat(seat),
                                       colours=w.joined(w.colours(taken))))


def _worm_picked(seat: int, colour: str) -> Event:
    return Event.of("worm_picked", msg(
        "{player} took a {colour} worm (one of the dice's colours, by preference).",
        player=w.seat(seat), colour=w.colour(colour)))


def _supply_empty(seat: int) -> Event:
    return Event.of("supply_empty", msg("No worm is left in the supply for {player}.",
                                        player=w.seat(seat)))


def opponent_pick(state: State) -> list[Event]:
    """The opponent of ``to_move`` takes one worm of a dice colour, by their preference."""
    seat = 1 - state.to_move
    supply, dice = state.worm_supply, state.dice
    left = [c for c in dice if supply[c] > 0]
    # One rolled colour left (or a double): it is the first of the seat's whole order, which
    # lists every colour; else the order decides.
    rolled = (left[0] if len(set(left)) == 1
              else first_preferred(state, seat, lambda c: c in left) if left else None)
    if rolled is not None:
        _take(state, seat, rolled)
        return [_worm_picked(seat, rolled)]
    spare = first_preferred(state, seat, lambda c: supply[c] > 0)
    if spare is not None:
        _take(state, seat, spare)
        return [Event.of("worm_picked_instead", msg(
            "{colours} worms are out: {player} took a {colour} worm instead (by preference).",
            colours=w.joined(w.colours(sorted(set(dice)))), player=w.seat(seat),
            colour=w.colour(spare)))]
    return [_supply_empty(seat)]


class CannotPay(ValueError):
    """The player lacks the worms or pearls; the message says what is missing (rendered only
    when read: the bot's tries fail often, and nobody reads those)."""

    def __init__(self, message: Msg) -> None:
        super().__init__()
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


def pay(state: State, seat: int, cost: int, colour: str | None,
        paying: tuple[str, ...] | None, what: Callable[[], Msg],
        fresh_pearls: int = 0) -> list[str]:
    """Take ``cost`` worms (of ``colour`` if given; a pearl replaces any worm) and return
    them to the supply (pearls to the discard). ``paying`` names them; None: the rules pick
    (worms of the colour, else the colours held most; pearls only when worms run out).
    ``fresh_pearls`` were bought this turn: they may be played only on a later turn.
    ``what`` names the thing paid for, made only for an error message."""
    player = state.players[seat]
    pearls = player.pearls - fresh_pearls
    if paying is None:
        tokens = choose_tokens(state, seat, cost, colour, pearls)
        if tokens is None:
            if colour:
                raise CannotPay(nmsg(
                    "{what} costs {n} {colour} worm (a pearl replaces any worm); you have "
                    "{have} {colour}, and pearls to play: {pearls}",
                    "{what} costs {n} {colour} worms (a pearl replaces any worm); you have "
                    "{have} {colour}, and pearls to play: {pearls}", cost, what=what(),
                    colour=w.colour(colour), have=player.worms.get(colour, 0), pearls=pearls))
            raise CannotPay(nmsg(
                "{what} costs {n} worm (a pearl replaces any worm); you have {have}, and "
                "pearls to play: {pearls}",
                "{what} costs {n} worms (a pearl replaces any worm); you have {have}, and "
                "pearls to play: {pearls}", cost, what=what(),
                have=sum(player.worms.values()), pearls=pearls))
    else:
        tokens = list(paying)
        if len(tokens) != cost:
            raise CannotPay(nmsg("{what} costs {n} worm, but you named {named}",
                                 "{what} costs {n} worms, but you named {named}", cost,
                                 what=what(), named=len(tokens)))
        wrong = [t for t in tokens if colour and t not in (colour, "pearl")]
        if wrong and colour:
            raise CannotPay(msg("{what} must be paid in {colour} worms (or pearls), not {wrong}",
                                what=what(), colour=w.colour(colour), wrong=w.colour(wrong[0])))
        named: dict[str, int] = {}
        for t in tokens:
            named[t] = named.get(t, 0) + 1
        for t, n in named.items():
            have = pearls if t == "pearl" else player.worms.get(t, 0)
            if have < n and t == "pearl":
                raise CannotPay(nmsg("{what}: you named {n} pearl but have {have}",
                                     "{what}: you named {n} pearls but have {have}", n,
                                     what=what(), have=have))
            if have < n:
                raise CannotPay(nmsg("{what}: you named {n} {colour} worm but have {have}",
                                     "{what}: you named {n} {colour} worms but have {have}", n,
                                     what=what(), colour=w.colour(t), have=have))
    pay_tokens(state, seat, tokens)
    return tokens


def pay_tokens(state: State, seat: int, tokens: list[str]) -> None:
    """Hand in ``tokens`` (checked by the caller): worms to the supply, pearls discarded."""
    player = state.players[seat]
    for t in tokens:
        if t == "pearl":
            player.pearls -= 1
            state.discard.append("pearl")
        else:
            player.worms[t] -= 1
            state.worm_supply[t] += 1


def choose_tokens(state: State, seat: int, cost: int, colour: str | None,
                  pearls_to_play: int) -> list[str] | None:
    """What ``pay`` takes when the rules pick (see there); None if the seat cannot pay."""
    player = state.players[seat]
    if colour is not None:  # as the loop below would pick: that colour while it lasts
        have = player.worms.get(colour, 0)
        if have >= cost:
            return [colour] * cost
        pearls = cost - max(0, have)
        return None if pearls > pearls_to_play else [colour] * max(0, have) + ["pearl"] * pearls
    colours: list[str] = state.options["colour_names"]  # state.colours
    get = player.worms.get
    left = [get(c, 0) for c in colours]
    if cost == 1:  # the commonest (a card turned): the loop below, once
        most = max(left)
        if most > 0:
            return [colours[left.index(most)]]
        return ["pearl"] if pearls_to_play >= 1 else None
    tokens = []
    for _ in range(cost):
        most = max(left)  # the colour held most; on a tie, the first in colour order
        if most <= 0:
            break
        i = left.index(most)
        left[i] -= 1
        tokens.append(colours[i])
    pearls = cost - len(tokens)
    if pearls > pearls_to_play:
        return None
    return tokens + ["pearl"] * pearls if pearls else tokens


