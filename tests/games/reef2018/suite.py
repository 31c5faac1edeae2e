"""Reef's hooks for the shared suite (tests/games/suite): where it differs from other games.
The game's internals are imported here and nowhere else in the suite."""

from __future__ import annotations

import random
import re

from pbem.engine import replay
from pbem.engine.contract import Outcome, localise_order
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.scoring import final_outcome
from pbem.games.reef2018.state import State
from tests.games.reef2018.invariants import violations
from tests.games.reef2018.positions import build
from tests.games.suite import hooks as suite
from tests.support.seated import ANN, BEN, CY, PLAYERS

CONFIGS = suite.both_ways("advanced", (2, 3, 4), "reef2018")


def check_end(state: State, outcome: Outcome) -> None:
    assert outcome == final_outcome(state)
    assert outcome.scores == {i: sum(p for p, _ in s.ledger) for i, s in enumerate(state.players)}


def check_played(config: suite.Config, played: list[suite.Played]) -> None:
    print(f"ends: {sorted({p.state.end_reason for p in played})}")


def only_chance_at_setup(setup: replay.SetupRecord, orders: list[replay.OrderRecord]) -> None:
    # The deck shuffle and the starfish board are the game's only chance.
    assert [d.label for d in setup.draws] == ["deck", "starfish board"]
    assert all(not r.draws for r in orders)


# --- every error reply -----------------------------------------------------------------------

ANN_REEF = """
RRRY . .  .
.    R Y  .
.    G P  .
.    . .  .
"""
BEN_REEF = """
. . . .
. R Y .
. G P .
. . . .
"""


def position() -> State:
    """Ann to move holding 17 (purple+purple) and 33 (red+green); market 25 (5 points),
    14 and 41 (1 point each: a tie for the deck's token)."""
    return build([ANN_REEF, BEN_REEF], hands=[[17, 33], [9]], market=[25, 14, 41],
                 deck=[52, 3])


CASES = [suite.ErrorCase(*case) for case in [
    ("unknown order", "dance the macarena",
     'Line 1 of your mail ("dance the macarena"): I do not know the order "dance"'),
    ("a square off the reef", "play 17: purple E2, purple A2",
     'Line 1 of your mail ("play 17: purple E2, purple A2"): E2 is not on your reef (A1 to D4)'),
    ("not a square", "play 17: purple here, purple A2",
     'Line 1 of your mail ("play 17: purple here, purple A2"): "here" is not a square '
     "(columns A-D, rows 1-4, like B2)"),
    ("no card number", "take",
     'Line 1 of your mail ("take"): take what? a market card\'s number, or \'deck\''),
    ("a card that does not exist", "take 61",
     'Line 1 of your mail ("take 61"): there is no card 61 (cards are numbered 1 to 60)'),
    ("three corals", "play 17: A1, A2, A3",
     'Line 1 of your mail ("play 17: A1, A2, A3"): a card gives two corals, not 3'),
    ("a colour without a square", "play 17: purple A1, purple",
     'Line 1 of your mail ("play 17: purple A1, purple"): where does the purple coral go? a '
     "square like B2 must follow it"),
    ("two orders in one mail", "take 25\nplay 17: A1 A2",
     'Line 2 of your mail ("play 17: A1 A2"): one email is one turn: this is a second order'),
    ("a card not in the market", "take 52", "card 52 is not in the market; it holds 25, 14, 41"),
    ("the deck's token on a tie", "take deck",
     "cards 14 and 41 tie as the cheapest in the market: say which gets your token, e.g. take "
     "deck, token on 14"),
    ("the token not on the cheapest", "take deck, token on 25",
     "your token goes on the market card with the lowest printed value: 14 or 41, not 25"),
    ("the token on a card not in the market", "take deck, token on 60",
     "card 60 is not in the market"),
    ("a card not in hand", "play 9: red A1, red A2",
     "card 9 is not in your hand; you hold 17, 33"),
    ("a stack already 4 high", "play 17: purple A1, purple A2",
     "the stack on A1 is already 4 high: no piece may go on it"),
    ("a colour the card does not give", "play 33: yellow A2, green A3",
     "card 33 gives red and green, not yellow"),
    ("one square for two corals", "play 33: red A2",
     "card 33 gives two corals (red and green): name a square for each"),
    ("the setup answer once play has begun", "start: red B2, yellow C2, green B3, purple C3",
     "the starting corals are already placed"),
]]


# Ann writes French: her orders are read in French, and every reply is French, quotes her own
# line and suggests the nearest valid form in French.
FRENCH_CASES = [suite.ErrorCase(*case) for case in [
    ("a square off the reef", "jouer 17 : violet E2, violet A2",
     "Ligne 1 de votre courriel (« jouer 17 : violet E2, violet A2 ») : E2 n'est pas sur "
     "votre récif (A1 à D4)", "fr", "Indice : jouer 17: rouge B2, jaune B2"),
    ("an unknown order", "danser la macarena",
     "Ligne 1 de votre courriel (« danser la macarena ») : je ne connais pas l'ordre "
     "« danser »", "fr", "Indice : écrivez l'un de : prendre 17  (ou : prendre pioche, prendre "
     "pioche jeton sur 23) ; jouer 17: rouge B2, jaune B2 ; départ: rouge B2, jaune C2, "
     "vert B3, violet C3"),
    ("the deck's token on a tie", "prendre la pioche",
     "les cartes 14 et 41 sont à égalité pour la plus faible valeur de l'offre : dites "
     "laquelle reçoit votre jeton, p. ex. prendre pioche, jeton sur 14", "fr"),
    ("a card not in hand", "jouer la carte 9 : rouge A1, rouge A2",
     "la carte 9 n'est pas dans votre main ; vous avez 17, 33", "fr"),
    ("a colour the card does not give", "jouer 33 : jaune A2, vert A3",
     "la carte 33 donne rouge et vert, pas jaune", "fr"),
    ("a full stack", "jouer 17 : violet A1, violet A2",
     "la pile en A1 a déjà 4 de haut : aucune pièce ne peut y aller", "fr",
     "Suggestion : les cases les plus proches où elle serait permise : B1, A2 et C1"),
]]


def full_hand() -> State:
    state = position()
    state.players[0].hand = [17, 33, 2, 5]
    state.deck.remove(2)
    state.deck.remove(5)
    return state


def no_points() -> State:
    state = position()
    state.players[0].ledger = []
    state.players[0].score = 0
    return state


def _played(state: State) -> None:
    assert state.players[0].hand == [17, 33, 25]


ERRORS = suite.Errors(
    position=position, cases=[*CASES, *FRENCH_CASES],
    check=("play 33: red A2, green A3",
           ["  - Ann played card 33: red on A2 (1 high), green on A3 (1 high)."]),
    check_bad=("check\ntake 52", ["card 52 is not in the market"]),
    play=("take 25", ["  - Ann took card 25 from the market; card 52 from the deck takes its "
                      "place."]),
    played=_played,
    # The market examples name cards of this game's market (25, 14, 41).
    help=["REEF — HOW TO WRITE YOUR ORDER", "take 14", "take deck", "take deck, token on 41",
          "play 17: red B2, yellow B2", "start: red B2, yellow C2, green B3, purple C3"])


# --- the leak twins --------------------------------------------------------------------------
# Two games differing only in Ben's hidden card (10 or 11; the other lies in the deck, below its
# face-up top). Once with every seat in English, once with Ann and Cy reading (and writing)
# French.

LEAK_REEF = """
. . . .
. R Y .
. G P .
. . . .
"""


def twin(ben_secret: int) -> State:
    return build([LEAK_REEF, LEAK_REEF, LEAK_REEF], hands=[[17, 33], [9, ben_secret], [40]],
                 market=[25, 14, 45], deck=[52, 3, 4])


LEAK_TURNS = [(0, "take 25"),  # Ann
              (1, "play 9: green A1, green A2"),  # Ben plays the card both games share
              (2, "take deck")]  # Cy


def script(languages: list[str | None]) -> suite.Script:
    return suite.Script(languages=languages, turns=[
        (seat, localise_order(GAME, orders, lang) if (lang := languages[seat]) else orders)
        for seat, orders in LEAK_TURNS])


def check_turn(name: str, turn: int, a: suite.Mails, b: suite.Mails) -> None:
    assert "Card 10:" in a[BEN][0] and "Card 11:" in b[BEN][0]
    for who in (ANN, CY):
        seen = a[who][0] + a[who][1]
        assert "Card 10:" not in seen and "Carte 10 :" not in seen
        if name == "french":
            assert "Vous êtes" in seen  # the watchers' mails are French indeed


TWINS = suite.Twins(positions=(lambda: twin(10), lambda: twin(11)), players=3, holder=1,
                    scripts={"english": script([None, None, None]),
                             "french": script(["fr", None, "fr"])},
                    check_turn=check_turn)


# --- bot games by mail ------------------------------------------------------------------------

def check_final(final: str, players: int, outcome: Outcome) -> None:
    """The end, sent to all: every score explained."""
    assert "FINAL SCORING" in final
    assert final.count("    +3  3 one-point tokens at the start") == players
    for seat, score in outcome.scores.items():
        name = PLAYERS[seat][0]
        assert re.search(rf"^  {name} \(player {seat + 1}\): {score} points$", final,
                         flags=re.M), final


BOTS = suite.Bots(games=[suite.BotGame(2, "bots-2", {"advanced": False}, every_database=True),
                         suite.BotGame(3, "bots-3", {"advanced": True}),
                         suite.BotGame(4, "bots-4", {"advanced": False})],
                  seed="reef2018", more_turns_than=lambda players: 10 * players,  # a real game's
                  check_final=check_final, demo_args=["--game", "reef2018", "--players", "3"],
                  demo_final="FINAL SCORING")


# --- the bot's twins (tests/games/suite/test_bot_fairness.py) --------------------------------

def hidden_twin(state: State, seat: int, rng: random.Random) -> State | None:
    """``state`` with what ``seat`` cannot see changed: another seat's hand card swapped with a
    card of the deck below its face-up top, and the rest of the deck shuffled; in the setup
    step also another seat's starting corals moved (they are hidden until all have placed)."""
    if state.phase == "over" or len(state.deck) < 3:
        return None
    twin = state.copy()
    others = [i for i, s in enumerate(twin.players) if i != seat and s.hand]
    if others:
        hand = twin.players[rng.choice(others)].hand
        k, d = rng.randrange(len(hand)), rng.randrange(1, len(twin.deck))
        hand[k], twin.deck[d] = twin.deck[d], hand[k]
    below = twin.deck[1:]
    rng.shuffle(below)
    twin.deck[1:] = below
    placed = [i for i, s in enumerate(twin.players) if i != seat and s.answered_setup]
    if state.phase == "setup" and placed:
        other = twin.players[rng.choice(placed)]
        other.reef = [list(reversed(stack)) for stack in reversed(other.reef)]
    return twin if twin.to_dict() != state.to_dict() else None


# --- games in every language (tests/games/suite/test_languages_by_mail.py) -------------------

LANGUAGES = suite.Languages(seed="langs", final={  # the end reads in the seat's language
    "fr": "DÉCOMPTE FINAL", "it": "PUNTEGGIO FINALE", "nl": "EINDTELLING", "de": "SCHLUSSWERTUNG",
    "en": "FINAL SCORING"})


HOOKS = suite.Hooks(configs=CONFIGS, games=300, max_orders=400, violations=violations,
                    check_end=check_end, check_played=check_played,
                    check_records=only_chance_at_setup, errors=ERRORS,
                    twins=TWINS, bot_twin=hidden_twin, bots=BOTS, languages=LANGUAGES)
