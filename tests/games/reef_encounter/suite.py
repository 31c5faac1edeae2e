"""Reef Encounter's hooks for the shared suite (tests/games/suite): where it differs from other
games. The game's internals are imported here and nowhere else in the suite."""

from __future__ import annotations

import random
import re
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Outcome
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.context import Turn
from pbem.games.reef_encounter.keywords import ORDER_WORDS, alternatives, fold
from pbem.games.reef_encounter.orders import Take
from pbem.games.reef_encounter.rules import do_step
from pbem.games.reef_encounter.scoring import final_outcome
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.invariants import violations
from tests.games.reef_encounter.positions import build
from tests.games.suite import hooks as suite
from tests.support.seated import ANN, BEN, CY, PLAYERS, Table

CONFIGS = suite.both_ways("advanced", (2, 3, 4), "conformance")


def steps_one_by_one(state: State, seat: int, text: str) -> int:
    """Re-apply a legal order's steps one at a time, checking the state after each."""
    if state.phase not in ("play", "final"):
        return 0
    order = GAME.parse(state, seat, text)
    scratch = state.copy()
    turn = Turn(seat, final=state.phase == "final")
    chance = Chance("steps")
    for n, step in enumerate(order.steps, start=1):
        if isinstance(step, Take):  # applied when the turn ends, by apply_order
            break
        do_step(scratch, turn, step, chance)
        problems = violations(scratch, between_turns=False)
        assert not problems, f"after step {n} of {text!r}: {problems}"
    return len(order.steps)


def check_end(state: State, outcome: Outcome) -> None:
    assert state.phase == "over"
    assert outcome == final_outcome(state)  # it ranks every seat as scoring.py does


def end_kind(reason: str) -> str:
    return "a parrotfish ate four shrimps" if "has eaten all four" in reason else reason


def check_played(config: suite.Config, played: list[suite.Played]) -> None:
    # Random play reaches more than one of the four ends, not always the same one.
    ends = sorted({end_kind(p.state.end_reason) for p in played})
    print(f"ends: {ends}")
    if len(played) >= 20:
        assert len(ends) >= 2


def _violations(state: Any) -> list[str]:
    return violations(state)


# --- every error reply -----------------------------------------------------------------------
# Positions are pictured as the status email draws boards (positions.py): ``~`` sand, ``.`` bare
# rock, ``G O P W Y`` polyps, a digit after a cell the shrimp of player 1 (Ann, Purple) or 2
# (Ben, Green). Coral tiles lie face "a" up: pink beats white (tile 3), white beats yellow
# (tile 1); tile 1 shows a large green alga.

BOARD_2 = """
~ ~ ~ . . . ~
. . . G1 . . ~
. W Y . ~ . .
. ~ . . . W W2
. . O . P P .
~ . . . . . ~
"""
BOARD_4 = """
~ . . . . . ~
. . . O ~ . .
. . ~ . G . .
. P . . . . .
~ P P . Y . ~
~ P P2 ~ . . ~
"""
# Two white corals held by Ann's and Ben's shrimps, one space apart (2F3 would join them).
BOARD_2_TWO_SHRIMPS = """
~ ~ ~ . . . ~
. . . . . W1 ~
. . . . ~ . .
. ~ . . . W2 .
. . . . . . .
~ . . . . . ~
"""

ANN_HOLDS = {"screen": {"white": 6, "pink": 3, "grey": 2}, "larva": {"white": 1, "pink": 1},
             "parrotfish": ["grey"], "consumed": {"pink": 1}}
BEN_HOLDS = {"screen": {"white": 5, "grey": 3}, "larva": {"grey": 1, "white": 1},
             "parrotfish": ["white"]}


def position(board_2: str = BOARD_2) -> State:
    return build({2: board_2, 4: BOARD_4}, seats={0: dict(ANN_HOLDS), 1: dict(BEN_HOLDS)},
                 open_sea={"white": ["pink"], "pink": ["grey", "grey"]})


# (what is wrong, the mail's order lines, the reason line the player reads)
CASES = [suite.ErrorCase(*case) for case in [
    ("syntax", "dance the macarena",
     'Line 1 of your mail ("dance the macarena"): I do not know the order "dance"\n'),
    ("unknown cell", "larva white: 2H9\ntake white",
     'Line 1, column 14 of your mail ("larva white: 2H9"): there is no cell "2H9"\n'),
    ("unknown colour", "larva white: 2D1\ntake pnk",
     'Line 2, column 6 of your mail ("take pnk"): "pnk" is not a coral colour\n'),
    ("board not in play", "larva white: 3C3\ntake white",
     'Line 1 of your mail ("larva white: 3C3"): the polyp on 3C3: board 3 is not in this game '
     "(boards in play: 2, 4)"),
    ("sand", "larva white: 2A1\ntake white",
     'Line 1 of your mail ("larva white: 2A1"): the polyp on 2A1: 2A1 is sand; nothing can stand '
     "there"),
    ("occupied by its own colour", "larva white: 2F4\ntake white",
     'Line 1 of your mail ("larva white: 2F4"): the polyp on 2F4: 2F4 already holds a white polyp '
     "(a coral never attacks its own colour)"),
    ("occupied by one's own shrimp", "move shrimp 2D2 to 2E2\nlarva white: 2E2\ntake white",
     'Line 2 of your mail ("larva white: 2E2"): the polyp on 2E2: your shrimp stands on 2E2; move '
     "it away first (action 5)"),
    ("attack on a dominating colour", "larva white: 2E5\ntake white",
     'Line 1 of your mail ("larva white: 2E5"): the polyp on 2E5: white cannot attack pink here — '
     "pink dominates white (coral tile 3)"),
    ("attack by a one-polyp coral", "larva white: 2C3\ntake white",
     'Line 1 of your mail ("larva white: 2C3"): the polyp on 2C3: white cannot attack the yellow '
     "polyp on 2C3: only a coral of at least two polyps may attack, and the white coral next "
     "to it has one"),
    ("attack on a protected polyp", "larva pink: 2F4\ntake white",
     'Line 1 of your mail ("larva pink: 2F4"): the polyp on 2F4: the white polyp on 2F4 is '
     "protected by green's shrimp on 2G4"),
    ("too many polyps from behind the screen", "larva white: 2D1 2E1 2F1 2E2 2F2\ntake white",
     'Line 1 of your mail ("larva white: 2D1 2E1 2F1 2E2 2F2"): the polyp on 2F2: at most four '
     "polyps from behind the screen per larva cube"),
    ("more polyps of a colour than behind the screen", "larva pink: 2D1 2E1 2F1 2F2\ntake white",
     'Line 1 of your mail ("larva pink: 2D1 2E1 2F1 2F2"): the polyp on 2F2: you have no pink '
     "polyp left behind your screen"),
    ("wrong larva colour", "larva yellow: 2D1\ntake white",
     'Line 1 of your mail ("larva yellow: 2D1"): step 1 (larva yellow): you have no yellow '
     "larva cube (your larva cubes, as your status lists them: pink, white)"),
    ("a larva cube with no polyp", "larva white:\ntake white",
     'Line 2 of your mail ("take white"): step 1 (take white): the white larva cube of action 2 '
     "must be followed by at least one polyp placement"),
    ("shrimp left on bare rock", "move shrimp 2D2 to 2E2\ntake white",
     "your turn cannot end like this: your shrimp on 2E2 stands on bare rock; by the end of "
     "your turn it must be on a polyp or back behind your screen"),
    ("alga on a tile without a shrimp on the open sea", "alga green on tile 1 paying pink\n"
     "take white",
     'Line 1 of your mail ("alga green on tile 1 paying pink"): step 1 (alga green on tile 1 '
     "paying pink): an alga goes on a coral tile only once your parrotfish has eaten a coral"),
    ("eating a small coral", "eat 2D2\ntake white",
     'Line 1 of your mail ("eat 2D2"): step 1 (eat 2D2): the grey coral on 2D2 has 1 polyp; '
     "the parrotfish eats only corals of at least 5"),
    ("eating a coral guarded by another player's shrimp", "eat 4C6\ntake white",
     'Line 1 of your mail ("eat 4C6"): step 1 (eat 4C6): the pink coral on 4C6 is guarded by '
     "green's shrimp, not yours"),
    ("eating after another action", "larva white: 2D1\neat 4C6\ntake white",
     'Line 2 of your mail ("eat 4C6"): step 1 (eat 4C6): action 1 (the parrotfish eats) may '
     "only be the first action of a turn"),
    ("a second new shrimp", "shrimp new 2C3\nshrimp new 2E5\ntake white",
     'Line 2 of your mail ("shrimp new 2E5"): step 1 (shrimp new 2E5): you may put in a new '
     "shrimp (action 4) only once per turn"),
    ("a second shrimp on a coral", "shrimp new 2G4\ntake white",
     'Line 1 of your mail ("shrimp new 2G4"): step 1 (shrimp new 2G4): 2G4 already holds a '
     "shrimp"),
    ("missing action 10", "larva white: 2D1",
     "your turn cannot end like this: every turn ends with action 10: take a larva cube and its "
     'polyps from the open sea, e.g. "take pink"'),
    ("anything after action 10", "take white\nlarva white: 2D1",
     'Line 2 of your mail ("larva white: 2D1"): step 1 (larva white): action 10 (take) ends the '
     "turn; nothing may follow it"),
    ("the setup answer once play has begun", "parrotfish pink; larvae white yellow",
     'Line 1 of your mail ("parrotfish pink; larvae white yellow"): step 1 (parrotfish pink; '
     "larvae white yellow): the setup step is over"),
]]


ERRORS = suite.Errors(
    position=position, cases=CASES, exact=False,
    check=("larva white: 2D1 2E1\ntake pink",
           ["  - Purple placed a white polyp on 2D1.",
    "  - Purple took the pink larva cube and grey, grey from the open sea."]),
    check_bad=("preview\nlarva white: 2A1\ntake white", ["2A1 is sand; nothing can stand there"]),
    play=("larva white: 2D1 2E1\ntake pink", ["  - Purple placed a white polyp on 2D1."]),
    help=["REEF ENCOUNTER — HOW TO WRITE YOUR ORDERS", "eat 2F4", "larva white: 2F3 2E4",
          "shrimp new 2F4", "move shrimp 2F4 to 2G4", "alga purple on tile 3 paying pink",
          "take pink", "parrotfish pink; larvae white yellow"])


# --- the leak twins --------------------------------------------------------------------------
# Two games differing only in Ben's hidden holdings (the colours behind his screen and in his
# parrotfish).

LEAK_BOARD_2 = """
~ ~ ~ . . . ~
. . . G1 . . ~
. . Y . ~ . .
. ~ . . . W W2
. . O . P P .
~ . . . . . ~
"""


def twin(ben_screen: dict[str, int], ben_fish: list[str]) -> State:
    return build({2: LEAK_BOARD_2}, players=3,
                 seats={0: {"screen": {"white": 4, "pink": 3}, "larva": {"white": 1}},
                        1: {"screen": ben_screen, "parrotfish": ben_fish,
                            "larva": {"grey": 1}},
                        2: {"screen": {"grey": 4}, "larva": {"pink": 1},
                            "parrotfish": ["pink"]}},
                 open_sea={"white": ["pink"], "pink": ["grey", "grey"], "grey": ["white"]})


# The same colours in all (the bag stays the same), differently split between screen and fish.
BEN_A = ({"white": 5, "grey": 3}, ["white"])
BEN_B = ({"white": 6, "grey": 2}, ["grey"])

SCRIPTS = {
    "english": suite.Script(
        languages=(),
        turns=[(0, "larva white: 2D1 2E1\ntake pink"),  # Ann
               (1, "larva grey: 2E2\ntake white"),  # Ben: his own polyps leave his screen
               (2, "take grey")],  # Cy
        refused=[(0, "shrimp new 1D5\nmove shrimp 2A4 to 2A5\nlarva white: 2A1\ntake pink")]),
    # Ann reads and writes French, Cy German.
    "french-german": suite.Script(
        languages=("fr", None, "de"),
        turns=[(0, "larve blanche : 2D1 2E1\nprendre rose"),  # Ann, in French
               (1, "larva grey: 2E2\ntake white"),  # Ben, in English
               (2, "nimm grau")],  # Cy, in German
        refused=[(0, "crevette nouvelle 1D5\ndéplacer crevette 2A4 vers 2A5\n"
                     "larve blanche : 2A1\nprendre rose")],
        help=(0, "aide")),
}


def check_turn(script: str, turn: int, a: suite.Mails, b: suite.Mails) -> None:
    if turn != 0:
        return
    if script == "english":
        assert "polyps behind your screen: 3 grey, 5 white" in a[BEN][0]
        assert "your parrotfish holds: 1 grey" in b[BEN][0]
        assert "3 grey, 5 white" not in a[ANN][0] + a[ANN][1]
    else:
        assert "Vous jouez" in a[ANN][0]  # Ann's mail is in French
        assert "Violet a placé un polype blanc sur 2D1." in a[ANN][0]
        assert "3 gris, 5 blanc" not in a[ANN][0] + a[ANN][1]
        assert "Du spielst" in a[CY][0]  # Cy's in German


def check_refused(script: str, a: Table, b: Table, reply: str) -> None:
    if script == "english":
        assert "Suggestion: the nearest cells where this would be legal:" in reply
    else:
        assert "les cases les plus proches où ce serait permis :" in reply
        assert "where this would be legal" not in reply


def check_help(script: str, reply: str) -> None:
    if script != "english":
        assert "Les plateaux de cette partie" in reply


TWINS = suite.Twins(positions=(lambda: twin(*BEN_A), lambda: twin(*BEN_B)), players=3, holder=1,
                    scripts=SCRIPTS, check_turn=check_turn, check_refused=check_refused,
                    check_help=check_help)


# --- bot games by mail ------------------------------------------------------------------------

def check_final(final: str, players: int, outcome: Outcome) -> None:
    """The end, sent to all: scores, coral values, every parrotfish."""
    assert "The game is over." in final and "FINAL SCORING" in final
    assert final.count("    parrotfish: ") == players
    assert "Ties are broken by, in order" in final
    for seat, score in outcome.scores.items():
        name = PLAYERS[seat][0]
        assert re.search(rf"\({name}, player {seat + 1}\): {score} points", final), final


BOTS = suite.Bots(
    games=[suite.BotGame(2, "bots-2", every_database=True), suite.BotGame(3, "bots-3"),
           suite.BotGame(4, "bots-4")],
    seed="reef", check_final=check_final, demo_args=["--players", "2"],
    demo_final="FINAL SCORING")


# --- games in every language (tests/games/suite/test_languages_by_mail.py) -------------------

def in_the_seats_order_words(lang: str, written: str) -> None:
    """Every word of an order a bot wrote is an order word of its seat's language (English
    words only in English)."""
    native = {fold(w) for m in ORDER_WORDS
              for w in re.findall(r"[^\W\d_]+", alternatives(lang, m.id)[0])}
    words = {fold(w) for w in re.findall(r"(?<![0-9])[^\W\d_]+", written)}
    assert words <= native, (lang, written)


LANGUAGES = suite.Languages(seed="lang", check_order=in_the_seats_order_words)




# --- the bot's leak twins (tests/games/suite/test_bot_fairness.py) ----------------------------

def bot_twin(state: State, seat: int, rng: random.Random) -> State | None:
    """``state`` with two hidden polyps of different colours swapped between two of the places
    ``seat`` cannot see into (the bag, another screen, another's setup polyp in the
    parrotfish), and in the setup step another's picked larva cube swapped with one of the
    supply; None if nothing hidden can differ."""
    twin = state.copy()
    places: list[tuple[dict[str, int] | list[str], str]] = []  # (container, colour)
    for c, n in sorted(twin.bag.items()):
        places += [(twin.bag, c)] * n
    for i, s in enumerate(twin.players):
        if i != seat:
            for c, n in sorted(s.screen.items()):
                places += [(s.screen, c)] * n
            if s.parrotfish:
                places.append((s.parrotfish, s.parrotfish[0]))
    pairs = [(a, b) for a in places for b in places if a[0] is not b[0] and a[1] != b[1]]
    if state.phase == "over" or not pairs:
        return None
    (one, a), (other, b) = rng.choice(pairs)
    for where, gone, new in ((one, a, b), (other, b, a)):
        if isinstance(where, list):
            where[0] = new
        else:
            where[gone] -= 1
            if not where[gone]:
                del where[gone]
            where[new] = where.get(new, 0) + 1
    if state.phase == "setup":
        for i, s in enumerate(twin.players):
            picks = [c for c, n in s.larva.items() if n]
            spare = [c for c, n in twin.larva_supply.items() if n and c not in picks]
            if i != seat and s.answered_setup and picks and spare:
                gone, new = picks[0], spare[0]
                s.larva[gone] -= 1
                if not s.larva[gone]:
                    del s.larva[gone]
                s.larva[new] = s.larva.get(new, 0) + 1
                twin.larva_supply[gone] += 1
                twin.larva_supply[new] -= 1
                break
    return twin


HOOKS = suite.Hooks(configs=CONFIGS, games=204, max_orders=600, violations=_violations,
                    check_steps=steps_one_by_one, check_end=check_end, check_played=check_played,
                    errors=ERRORS, twins=TWINS, bot_twin=bot_twin, bots=BOTS,
                    languages=LANGUAGES)
