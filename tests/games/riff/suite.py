"""Das Riff's hooks for the shared suite (tests/games/suite): where it differs from other
games. The game's internals are imported here and nowhere else in the suite."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from pbem.engine.contract import Outcome, localise_order
from pbem.games.riff import GAME
from pbem.games.riff.area import face_down_places
from pbem.games.riff.state import State
from pbem.ops import api
from pbem.store import SessionFactory
from tests.games.riff.invariants import violations
from tests.games.riff.positions import FULL, build
from tests.games.suite import hooks as suite
from tests.support.seated import ANN, BEN, HOST, PLAYERS, Table

FLIPPED = {"face_down_at_sea_edge_counts_as_water": True,
           "completed_corals_count_toward_limit": False,
           "may_buy_fish_without_a_free_coral": False}
CONFIGS = [suite.Config("defaults", 2, {}, "conformance-False"),
           suite.Config("open-questions-flipped", 2, FLIPPED, "conformance-True")]


def choose_seat(state: State, waiting: frozenset[int], rng: random.Random) -> int:
    """Now and then the seat not to move sends its standing preference."""
    return min(waiting) if rng.random() < 0.9 else 1 - state.to_move


def check_random_games(config: suite.Config, played: list[suite.Played]) -> None:
    wins = sum("completed 5 crosses" in p.state.end_reason for p in played)
    print(f"{wins} won by 5 crosses")
    assert wins > len(played) // 2  # the bots play to win, and usually do


# --- every error reply -----------------------------------------------------------------------
# Ann (seat 0, player 1) is to move; the area is drawn as she sees it (positions.py).

AREA = """
pinM  purF  ~~~~  coral greF  bluM  yelF  redM
[greF] [pinF] [coral] [~~~~] [redF] [purM] [bluF] [yelM]
[bluM] [redM] [purF] [shark] [greM] [pinM] [coral] [yelF]
redF  .     ~~~~  pearl yelM  bluF  purM  pinF
"""
CROSSES = ["red+yellow", "blue+green", "pink", "purple"]


def position(**ann: object) -> State:
    spec = {"boats": 4, "worms": {"red": 1, "blue": 2}, "fish": ["red:m", "yellow:f"],
            "corals": [(None, None, None), (None, "pink", None), (None, None, "yellow")],
            "sharks": 1, **ann}
    return build(AREA, breeding=CROSSES, players=[spec, {"prefer": ["green"]}])


def line(n: int, text: str, why: str) -> str:
    return f'Line {n} of your mail ("{text}"): {why}'


CASES = [suite.ErrorCase(*case) for case in [
    ("no boat in the column", "buy 6 near",
     line(1, "buy 6 near", "6 near: you have no boat in column 6 (your boats lie under "
                           "columns 1-4).")),
    ("a gap", "buy 2 near", line(1, "buy 2 near", "2 near: there is no card there.")),
    ("water", "buy 3 near", line(1, "buy 3 near", "3 near: a water card shows nothing to "
                                                  "fish.")),
    ("cannot pay a fish in its colour", "buy 1 near\nbuy 1 far",
     line(2, "buy 1 far", "the pink male fish on 1 far costs 3 pink worms (a pearl "
                          "replaces any worm); you have 0 pink, and pearls to play: 0.")),
    ("cannot pay at all", "buy 1 near\nboat",
     line(2, "boat", "a boat costs 3 worms (a pearl replaces any worm); you have 2, and "
                     "pearls to play: 0.")),
    ("naming more worms than the cost", "buy 4 near paying red blue",
     line(1, "buy 4 near paying red blue", "the pearl on 4 near costs 1 worm, but you "
                                           "named 2.")),
    ("paying a fish in another colour", "buy 1 near paying blue",
     line(1, "buy 1 near paying blue", "the red female fish on 1 near must be paid in red "
                                       "worms (or pearls), not blue.")),
    ("naming worms one does not hold", "buy 4 near paying pink",
     line(1, "buy 4 near paying pink", "the pearl on 4 near: you named 1 pink worm but "
                                       "have 0.")),
    ("flipping a near card", "flip 1 near",
     line(1, "flip 1 near", "1 near: only cards of the two middle rows are face down.")),
    ("a coral one does not have", "attach red male to coral 4",
     line(1, "attach red male to coral 4", "you have no coral 4 (you have 3).")),
    ("a used-up coral", "attach red male to coral 3",
     line(1, "attach red male to coral 3", "coral 3 is used up: it holds a completed "
                                           "cross.")),
    ("a fish one does not have", "attach blue male to coral 1",
     line(1, "attach blue male to coral 1", "you have no blue male fish that is not on a "
                                            "coral.")),
    ("a second female", "attach yellow female to coral 2",
     line(1, "attach yellow female to coral 2", "coral 2 already has a female.")),
    ("parents of no open cross", "attach red male to coral 2",
     line(1, "attach red male to coral 2", "these parents on coral 2 make none of the open "
                                           "crosses (red+yellow, blue+green, pink, "
                                           "purple).")),
    ("a shark on a face-down card", "shark 2 middle",
     line(1, "shark 2 middle", "2 middle: a shark chases only face-up cards.")),
    ("a shark on an own fish that fits a cross", "shark my red male",
     line(1, "shark my red male", "your red male fish still fits an open cross; a shark "
                                  "chases only your fish whose colour fits none.")),
    ("a second shark", "shark 1 far\nshark 2 far",
     line(2, "shark 2 far", "you have no shark to play.")),
]]


ERRORS = suite.Errors(
    position=position, cases=CASES, always=["A legal order now would be, for example: pass"],
    check=("buy 1 near", ["  - Ann bought the red female fish on 1 near."]),
    check_bad=("check\nbuy 6 near", ["6 near: you have no boat in column 6"]),
    play=("buy 1 near", ["  - Ann bought the red female fish on 1 near."]),
    help=["The card mix is a reconstruction", "buy 3 near", "flip 5 middle", "boat",
          "attach red male to coral 2", "shark 4 far", "shark my blue female",
          "prefer red blue green", "pass"])


# --- the leak twins --------------------------------------------------------------------------
# Two games differing only in one face-down card (swapped with a pile card, so the box is the
# same): both players' mails are the same until that card is turned. Ben's seat reads and writes
# English, then French.

HIDDEN = (2, 2)  # area row 2 = Ann's far-middle row, column 3: "[coral]"


def twin(swap: bool) -> State:
    state = build(FULL, players=[{"worms": {"red": 2, "green": 2, "blue": 2}, "boats": 3},
                                 {"worms": {"pink": 2}}])
    if swap:
        slot = state.area[HIDDEN[0]][HIDDEN[1]]
        assert slot is not None and not slot["up"]
        j = next(i for i, c in enumerate(state.pile) if c != slot["card"])
        slot["card"], state.pile[j] = state.pile[j], slot["card"]
    assert violations(state) == []
    return state


LEAK_TURNS = [(1, "prefer pink green"),  # Ben, out of turn
              (0, "buy 1 near\nflip 2 middle"),  # Ann turns another hidden card
              (1, "pass"),
              (0, "buy 3 near\nboat"),
              (1, "prefer red")]
# Every bad line is listed only up to a line that would turn a hidden card: checking on would
# show, in the reply, what that card is (e.g. whether red worms pay for it).
LEAK_REFUSED = [(0, "buy 8 near\nflip 3 far middle\nattach red male to coral 4"),
                (0, "buy 8 near\nbuy 3 far middle paying red red"),
                (0, "buy 8 near\nbuy 3 far middle if red fish\nshark 4 far")]


def script(ben: str | None) -> suite.Script:
    turns = [(seat, localise_order(GAME, orders, ben) if ben and seat == 1 else orders)
             for seat, orders in LEAK_TURNS]
    return suite.Script(languages=(None, ben), turns=turns, refused=LEAK_REFUSED)


def check_twins(a: State, b: State) -> None:
    slot_a, slot_b = a.area[2][2], b.area[2][2]
    assert slot_a is not None and slot_b is not None and slot_a != slot_b
    assert a.pile != b.pile
    assert sorted([*a.pile, slot_a["card"]]) == sorted([*b.pile, slot_b["card"]])


def check_turn(name: str, turn: int, a: suite.Mails, b: suite.Mails) -> None:
    assert "[##]" in a[ANN][0]
    assert ("LA ZONE DE PÊCHE" if name == "fr" else "THE FISHING AREA") in a[BEN][0]


def check_refused(name: str, a: Table, b: Table, reply: str) -> None:
    assert 'Line 1 of your mail ("buy 8 near")' in reply and "Line 2" not in reply
    assert "Line 3" not in reply
    assert a.state().area[2][2]["up"] is False and b.state().area[2][2]["up"] is False


TWINS = suite.Twins(positions=(lambda: twin(False), lambda: twin(True)), players=2, holder=None,
                    scripts={"en": script(None), "fr": script("fr")}, check_twins=check_twins,
                    check_turn=check_turn, check_refused=check_refused)


# --- bot games by mail ------------------------------------------------------------------------

def preference_first(factory: SessionFactory, tag: str, secrets: list[str], imap: Any) -> int:
    """Before the bots start, the seat not to move mails its standing worm preference."""
    with factory() as s:
        other = 1 - api.current_state(s, api.get_game(s, tag)).to_move
    note = EmailMessage()
    note["From"], note["To"] = PLAYERS[other][1], HOST.mail.from_address
    note["Subject"], note["Message-ID"] = f"Re: [{tag}] Das Riff", make_msgid()
    note.set_content(f"prefer purple pink\nsecret {secrets[other]}\n")
    imap.deliver(bytes(note))
    return 1  # a log entry besides the bots' turns


def check_bot_game(played: Any) -> None:
    told = [(bot.seat, m.text) for bot in played.bots for m in bot.received
            if "> prefer purple pink" in m.text]
    assert told and len({seat for seat, _ in told}) == 1  # only the sender is answered
    assert "worm preference: purple pink" in told[0][1]
    assert "The card mix is a reconstruction" in played.bots[0].received[0].text  # welcome
    assert "check: these orders are legal" in played.showcase["check"].text
    assert "Your orders were NOT played" in played.showcase["nonsense"].text


def check_final(final: str, players: int, outcome: Outcome) -> None:
    assert "The game is over." in final and "Scores are completed crosses." in final
    for seat, score in outcome.scores.items():
        name = PLAYERS[seat][0]
        crosses = "cross" if score == 1 else "crosses"
        assert re.search(rf"Player {seat + 1} \({name}\)( — you)?: {score} {crosses} "
                         "completed", final), final


BOTS = suite.Bots(
    games=[suite.BotGame(2, "bots-riff", every_database=True)], seed="riff", showcase=True,
    more_turns_than=lambda players: 10, before=preference_first,
    check_played=check_bot_game, check_final=check_final,
    demo_args=["--game", "riff"], demo_final="Scores are completed crosses.")


# --- games in every language (tests/games/suite/test_languages_by_mail.py) -------------------

UNKNOWN = {"en": "unknown order 'dance'", "fr": "ordre inconnu 'dance'",
           "it": "ordine sconosciuto 'dance'", "nl": "onbekende order 'dance'",
           "de": "unbekannter Befehl 'dance'"}


def unknown_order_in_its_senders_language(languages: Sequence[str], played: Any) -> None:
    """The showcase's unreadable order is refused by the game's parser in its sender's words."""
    nonsense = played.showcase["nonsense"]
    lang = next(languages[b.seat] for b in played.bots if b.address == nonsense.to_addr)
    assert UNKNOWN[lang] in nonsense.text, nonsense.text


LANGUAGES = suite.Languages(  # two seats a table: three tables cover the five languages
    seed="riff-i18n",
    final={"en": "Scores are completed crosses.", "fr": "Les points sont les élevages réussis."},
    check_played=unknown_order_in_its_senders_language)


def bot_twin(state: State, seat: int, rng: random.Random) -> State:
    """The same game with what nobody has seen dealt otherwise: the face-down cards and the
    reef pile among themselves, the breeding pile's order. (Every holding is public in Das
    Riff, so this is all a seat cannot see.)"""
    twin = state.copy()
    places = face_down_places(twin.area)
    pool = [_card(twin, r, c) for r, c in places] + twin.pile
    rng.shuffle(pool)
    for (r, c), card in zip(places, pool, strict=False):
        twin.area[r][c] = {"card": card, "up": False}
    twin.pile = pool[len(places):]
    rng.shuffle(twin.breeding_pile)
    return twin


def _card(state: State, row: int, column: int) -> str:
    slot = state.area[row][column]
    assert slot is not None
    return str(slot["card"])


HOOKS = suite.Hooks(configs=CONFIGS, games=120, max_orders=1000, violations=violations,
                    choose_seat=choose_seat, check_played=check_random_games, errors=ERRORS,
                    twins=TWINS, bot_twin=bot_twin, bots=BOTS,
                    languages=LANGUAGES)
