"""Das Riff in five languages: orders in the seat's words, replies and help in them.

The order words come from the game's catalogue (context "order keyword"); these tests read
them through the same translator the host uses, so a catalogue edit that breaks the order
language (two meanings for one word, an example that no longer parses) fails here.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.riff import GAME
from pbem.games.riff.keywords import KEYWORDS, VERBS, fold, to_english, words
from pbem.games.riff.orders import Attach, Buy, Describe, Pass, Place, Prefer, SharkOwn
from pbem.games.riff.state import State
from pbem.i18n.msg import Msg
from pbem.i18n.translate import LANGUAGES, translator
from pbem.ops import api
from pbem.rendering import StatusMail, render_status
from pbem.store import SessionFactory
from tests.games.riff.mailtable import Table, seat_table, speak
from tests.games.riff.positions import FULL, build
from tests.support.english_left import english_left, fragments

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
ENGLISH_WORDS = {k.id for k in KEYWORDS}


def read(text: str, lang: str, state: State | None = None) -> object:
    """What the host does with a seat's mail: canonical words first, then the parser."""
    state = state if state is not None else GAME.setup(2, GAME.default_options(), Chance("i"))
    return GAME.parse(state, 0, GAME.canonical_order(state, 0, text, lang))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_keyword_has_its_own_words_in_each_language(lang: str) -> None:
    """A word of the seat's language means one English word, and never another English
    keyword than its own (so the English words stay readable for that seat too)."""
    seen: dict[str, str] = {}
    for english, alternatives in words(lang).items():
        assert alternatives[0] != english or english in ("water", "boat"), (lang, english)
        for word in alternatives:
            folded = fold(word)
            assert seen.setdefault(folded, english) == english, (lang, word)
            assert folded not in ENGLISH_WORDS or folded == english, (lang, word)
    assert set(to_english(lang).values()) == ENGLISH_WORDS


@pytest.mark.parametrize(("lang", "text", "steps"), [
    ("fr", "acheter 3 proche", [Buy(Place(2, 0))]),
    ("fr", "prendre 5 milieu si corail ou poisson rouge",
     [Buy(Place(4, 1), None, (Describe("coral"), Describe("fish", "red")))]),
    ("fr", "Pêcher 6 loin milieu payant bleu rouge perle",
     [Buy(Place(5, 2), ("blue", "red", "pearl"))]),
    ("fr", "attacher mâle rouge et femelle jaune au corail 1",
     [Attach((("red", "m"), ("yellow", "f")), 0)]),
    ("fr", "attacher male rouge et femelle jaune au corail 1",  # accents are optional
     [Attach((("red", "m"), ("yellow", "f")), 0)]),
    ("fr", "requin mon propre poisson violet femelle", [SharkOwn("purple", "f")]),
    ("fr", "préférer rose violet\npasser", [Prefer(("pink", "purple")), Pass()]),
    ("fr", "buy 3 near; passer", [Buy(Place(2, 0)), Pass()]),  # English is always read
    ("it", "compra 5 mezzo se corallo o pesce rosso",
     [Buy(Place(4, 1), None, (Describe("coral"), Describe("fish", "red")))]),
    ("nl", "zet mannetje rood en vrouwtje geel aan koraal 1",
     [Attach((("red", "m"), ("yellow", "f")), 0)]),
    ("de", "setze Männchen grün an Koralle 2  # ein Kommentar bleibt, wie er ist",
     [Attach((("green", "m"),), 1)]),
    ("de", "bevorzuge gruen lila", [Prefer(("green", "purple"))]),
])
def test_orders_in_the_seats_language_read_as_the_english_ones(lang: str, text: str,
                                                               steps: list[object]) -> None:
    order = read(text, lang)
    assert list(order.steps) == steps  # type: ignore[attr-defined]


def test_canonical_order_keeps_the_lines_so_errors_point_at_the_players_line() -> None:
    text = "# mon tour\nacheter 3 proche\n\nattacher mâle rouge au corail 2 // oui"
    canonical = GAME.canonical_order(build(FULL), 0, text, "fr")
    assert canonical.split("\n") == ["# mon tour", "buy 3 near", "",
                                     "attach male red to coral 2 // oui"]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_example_in_the_help_of_each_language_parses(lang: str) -> None:
    text = GAME.help_text(None, lang)
    assert text != GAME.help_text(None, "en")
    verbs = {fold(w) for english in VERBS for w in words(lang)[english]}
    examples = [m.group(1) for line in text.splitlines()
                if (m := re.match(r"^  (\S.*?)(?:\s{2,}|$)", line))
                and fold(m.group(1).split()[0]) in verbs]
    assert len(examples) >= 15, examples
    for example in examples:
        read(example, lang)  # raises OrderSyntaxError if an example is wrong


def _bot_orders(seed: int, turns: int) -> tuple[State, list[str]]:
    """Orders a seeded bot writes over ``turns`` turns of a real game, and the state after."""
    rng = random.Random(seed)
    state = GAME.setup(2, GAME.default_options(), Chance(f"i18n/{seed}"))
    sent: list[str] = []
    for n in range(turns):
        if not GAME.waiting_for(state):
            break
        seat = state.to_move
        text = GAME.random_order(state, seat, rng)
        sent += [text, GAME.random_order(state, 1 - seat, rng)]  # the other seat's prefer
        state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                           Chance(f"i18n/{seed}/{n}")).state
    return state, sent


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 25), lang=st.sampled_from(OTHERS))
def test_a_bot_order_localised_then_canonicalised_is_the_same_order(seed: int, turns: int,
                                                                    lang: str) -> None:
    state, sent = _bot_orders(seed, turns)
    for text in sent:
        local = GAME.localise_order(text, lang)
        assert GAME.canonical_order(state, 0, local, lang) == text
        english_words = set(text.split()) - {"1", "2", "3", "4", "5", "6", "7", "8"}
        assert not english_words & set(local.split()) - {"boot", "water"}, (lang, local)


def _french(m: Msg | str) -> str:
    return translator("fr", GAME.name)(m, ["Ann", "Ben"])


def test_a_french_syntax_error_and_its_suggestion_are_french() -> None:
    state = build(FULL)
    with pytest.raises(OrderSyntaxError) as caught:
        GAME.parse(state, 0, GAME.canonical_order(state, 0, "achter 3 proche", "fr"))
    err = caught.value
    assert err.hint is not None
    assert _french(err.message) == "ordre inconnu 'achter'"
    assert _french(err.hint) == ("vouliez-vous dire : acheter 3 proche  (ou : acheter 5 milieu "
                                 "payant rouge rouge ; acheter 4 loin si corail ou poisson "
                                 "rouge)")
    with pytest.raises(OrderSyntaxError) as caught:
        GAME.parse(state, 0, GAME.canonical_order(state, 0, "acheter 3 ici", "fr"))
    assert _french(caught.value.message) == ("une rangée est attendue : proche, milieu, "
                                             "loin milieu ou loin")
    assert caught.value.hint is not None
    assert _french(caught.value.hint).startswith("la forme est : acheter 3 proche")


def test_a_french_rule_error_names_the_place_and_card_in_french() -> None:
    state = build(FULL, players=[{"boats": 1}, {}])
    with pytest.raises(IllegalOrder) as caught:
        order = GAME.parse(state, 0, GAME.canonical_order(state, 0, "acheter 5 proche", "fr"))
        GAME.apply(state, 0, order, Chance("x"))
    assert _french(caught.value.message) == (
        "5 proche : vous n'avez pas de bateau dans la colonne 5 (votre seul bateau est sous "
        "la colonne 1).")


def test_events_render_in_french_with_the_players_names() -> None:
    state, _ = _bot_orders(7, 1)
    seat = state.to_move
    applied = GAME.apply(state, seat, GAME.parse(state, seat, "boat"), Chance("e"))
    said = [_french(e.msg) for e in applied.events if e.msg is not None]
    assert len(said) == len(applied.events) and applied.events[0].kind
    assert f"{['Ann', 'Ben'][seat]} a acheté un bateau, sous la colonne 2." in said
    assert any(s.startswith("Dés du tour à venir (") for s in said), said
    assert not any("Player" in s or "Joueur" in s for s in said), said




@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("turns", [0, 12, 400])
def test_the_status_in_another_language_holds_no_english_sentence_of_the_game(
        lang: str, turns: int) -> None:
    state, _ = _bot_orders(3, turns)
    assert turns < 400 or state.phase == "over"
    assert len(fragments(lang, "das-riff")) > 100
    for seat in (0, 1):
        mail = StatusMail(title="Das Riff", tag="riff-1", seat=seat, seat_name="Ann",
                          view=GAME.view(state, seat), names=["Ann", "Ben"],
                          your_turn=seat == state.to_move, lang=lang)
        text, html = render_status(GAME, mail)
        assert english_left(text, lang, "das-riff") == [], text
        assert english_left(html, lang, "das-riff") == []
        # ... which the same mail in English is full of (the scan does find them).
        english, _ = render_status(GAME, replace(mail, lang="en"))
        assert len(english_left(english, lang, "das-riff")) >= 5
        assert "Player" not in text and "Joueur 1 (Ann)" in text if lang == "fr" else True


def test_an_order_word_far_from_every_language_lists_the_seats_own_words() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        read("xyz 3 proche", "fr")
    assert caught.value.hint is not None
    assert _french(caught.value.hint) == ("les ordres commencent par préférer, acheter, "
                                          "retourner, bateau, attacher, requin et passer")
    assert str(caught.value.hint) == ("orders start with prefer, buy, flip, boat, attach, "
                                      "shark, pass")


@pytest.fixture
def french_table(factory: SessionFactory) -> Table:
    """Ann (seat 0) and Ben at a full position; Ann reads and writes French."""
    table = seat_table(factory, lambda: build(FULL, players=[{"worms": {"red": 2}}, {}]))
    speak(table, 0, "fr")
    return table


def test_a_french_seats_bad_orders_are_answered_in_french_with_a_french_suggestion(
        french_table: Table) -> None:
    result, reply = french_table.send(0, "achter 3 proche\npasser")
    assert result.status == "rejected", reply
    assert "> achter 3 proche" in reply  # the player's own words are quoted
    assert "ordre inconnu 'achter'" in reply, reply
    assert "acheter 3 proche  (ou : acheter 5 milieu payant rouge rouge" in reply, reply
    assert "unknown order" not in reply and "did you mean" not in reply
    result, reply = french_table.send(0, "# mon tour\nretourner 7 milieu")
    assert result.status == "rejected", reply
    assert "> retourner 7 milieu" in reply
    assert "7 milieu : vous n'avez pas de bateau dans la colonne 7" in reply, reply
    result, reply = french_table.send(0, "acheter 1 proche")  # and a good one is played
    assert result.status == "applied", reply
    assert "Ann a acheté la carte" in reply, reply
    with french_table.factory() as s:
        log = api.game_log(s, api.get_game(s, french_table.game_id))
    assert log[-1].text == "buy 1 near"  # the log keeps the canonical English order


def test_a_french_seats_help_is_the_french_help(french_table: Table) -> None:
    _, reply = french_table.send(0, "aide")
    assert "DAS RIFF — COMMENT ÉCRIRE VOS ORDRES" in reply, reply
    assert "  acheter 5 milieu si corail ou poisson rouge" in reply
    assert "HOW TO WRITE YOUR ORDERS" not in reply
