"""Reef's orders in the player's language: canonical_order/localise_order, the
catalogue's order words and examples, the help in every language, errors rendered per seat."""

from __future__ import annotations

import random
import re

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.catalogues.domains import game_domain
from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.help import EXAMPLES
from pbem.games.reef2018.keywords import KEYWORDS, alternatives, canonical_order, fold
from pbem.games.reef2018.orders import Order
from pbem.games.reef2018.parse import parse_order
from pbem.games.reef2018.state import State
from pbem.i18n.translate import LANGUAGES, translator
from pbem.rendering import environment, language_context
from tests.support.english_left import english_left

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
# Every word the English reader knows (parse.py): a translation may be one of them only
# when it means the same (Dutch "start" is "start").
READER_WORDS = {"take", "draw", "pick", "buy", "play", "place", "grow", "start", "setup",
                "deck", "top", "pile", "of", "on", "card", "to", "at", "the", "a", "and", "then",
                "from", "market", "paying", "pay", "token", "with", "red", "yellow", "green",
                "purple", "r", "y", "g", "p"}


def read(text: str, lang: str) -> Order:
    return parse_order(canonical_order(text, lang))


def _positions() -> list[State]:
    out = []
    rng = random.Random(16)
    for players, advanced in ((2, False), (3, True), (4, False)):
        state = GAME.setup(players, {"advanced": advanced}, Chance(f"words-{players}"))
        while waiting := GAME.waiting_for(state):
            out.append(state)
            seat = min(waiting)
            state = GAME.apply(state, seat, GAME.parse(state, seat, GAME.random_order(
                state, seat, rng)), Chance("x")).state
    return out


POSITIONS = _positions()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.sampled_from(OTHERS), st.integers(0, 2**32))
def test_a_bot_order_in_any_language_reads_back_as_the_same_order(
        at: int, lang: str, seed: int) -> None:
    state = POSITIONS[at]
    seat = min(GAME.waiting_for(state))
    english = GAME.random_order(state, seat, random.Random(seed))
    local = GAME.localise_order(english, lang)
    assert local != english  # every order has a keyword, written in the seat's words
    assert GAME.canonical_order(state, seat, local, lang) == english
    assert read(local, lang) == parse_order(english)


@pytest.mark.parametrize(("lang", "text", "english"), [
    ("fr", "prendre 17", "take 17"),
    ("fr", "Prends la carte 17 de l'offre.", "take 17"),
    ("fr", "prendre pioche, jeton sur 23", "take deck, token on 23"),
    ("fr", "prendre la pioche en payant 23", "take deck paying 23"),
    ("fr", "jouer 17 : rouge B2, jaune B2", "play 17: red B2, yellow B2"),
    ("fr", "JOUE la carte 17 : Verte b2, VIOLETTE c4", "play 17: green B2, purple C4"),
    ("fr", "départ : rouge B2, jaune C2, vert B3, violet C3",
     "start: red B2, yellow C2, green B3, purple C3"),
    ("fr", "depart: rouge b2, jaune c2, vert b3, violet c3",  # accents are optional
     "start: red B2, yellow C2, green B3, purple C3"),
    ("fr", "ＰＲＥＮＤＲＥ 17", "take 17"),  # a phone's full-width letters are the letters
    ("it", "prendi il mazzo, gettone sulla 23", "take deck, token on 23"),
    ("it", "gioca 17: rosso B2, giallo B2", "play 17: red B2, yellow B2"),
    ("nl", "neem kaart 17 uit het aanbod", "take 17"),
    ("nl", "speel 17: rood B2, paarse C4", "play 17: red B2, purple C4"),
    ("de", "nimm Nachziehstapel, Plättchen auf 23", "take deck, token on 23"),
    ("de", "spiele 17: Grün B2, lila C4", "play 17: green B2, purple C4"),
    ("de", "spiele 17: gruen B2, lila C4", "play 17: B2, purple C4"),  # ue is not ü
])
def test_orders_in_the_seats_language_read_as_in_english(lang: str, text: str,
                                                         english: str) -> None:
    if "gruen" in text:  # a word the reader does not know stays as typed and is refused
        with pytest.raises(OrderSyntaxError, match="gruen"):
            read(text, lang)
        return
    assert read(text, lang) == parse_order(english)


@pytest.mark.parametrize("lang", OTHERS)
def test_english_is_always_accepted_and_lines_stay_lines(lang: str) -> None:
    for example in EXAMPLES:
        assert canonical_order(example, lang) == example
    mixed = "# mon ordre\n\nprendre 17\njouer 17: A1 A2\n"
    canonical = canonical_order(mixed, lang)
    assert canonical.count("\n") == mixed.count("\n")
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(canonical_order(GAME.localise_order("take 17\nplay 17: A1 A2", lang),
                                    lang))
    assert caught.value.line == 2  # the player's own line number


@pytest.mark.parametrize("lang", OTHERS)
def test_no_translated_word_means_another_english_word(lang: str) -> None:
    seen: dict[str, str] = {}
    for k in KEYWORDS:
        for word in alternatives(lang, k.id):
            key = fold(word)
            assert seen.setdefault(key, k.id) == k.id, (lang, word)
            if key in READER_WORDS:
                assert key == k.id, f"{lang} {word!r} means {k.id!r} but reads as {key!r}"


def _order_examples(lang: str) -> list[tuple[str, str]]:
    domain = game_domain(GAME)
    assert domain is not None
    with domain.po(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    return [(str(m.id), str(m.string)) for m in catalog if m.context == "order example"]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_catalogues_order_examples_read_as_their_english(lang: str) -> None:
    examples = _order_examples(lang)
    assert len(examples) >= 8
    for english, local in examples:
        assert local and local != english
        if "NUMBER" in english:  # a form, not an order: its keywords must still read
            words = canonical_order(local, lang).split()
            assert words[0] == english.split()[0], (lang, local)
            continue
        english, local = english.format(card=14), local.format(card=14)
        assert read(local, lang) == parse_order(english), (lang, local)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_example_of_the_help_reads_in_its_language(lang: str) -> None:
    help_text = GAME.help_text(lang=lang)
    for english in EXAMPLES:
        local = GAME.localise_order(english, lang)
        assert local in help_text, (lang, local)
        assert read(local, lang) == parse_order(english)
    assert all(len(line) <= 100 for line in help_text.splitlines())


@pytest.mark.parametrize("lang", OTHERS)
def test_the_help_is_translated(lang: str) -> None:
    english = GAME.help_text(lang="en").splitlines()
    local = GAME.help_text(lang=lang).splitlines()
    same = [ln for ln in local if ln in english and len(ln.split()) > 3]
    assert same == []  # no English sentence left (short lines are symbols like "THE END")
    assert local[0] == translator(lang, "reef2018")("REEF — HOW TO WRITE YOUR ORDER")
    check = translator(lang).pgettext("host command", "check").split("|")[0]
    assert check != "check" and check in local[-1]  # the host's word for its command


def test_a_french_error_names_the_french_form() -> None:
    fr = translator("fr", "reef2018")
    with pytest.raises(OrderSyntaxError) as caught:
        read("jouer 17 : violet E2, violet A2", "fr")
    err = caught.value
    assert fr(err.message) == "E2 n'est pas sur votre récif (A1 à D4)"
    assert err.hint is not None and fr(err.hint) == "jouer 17: rouge B2, jaune B2"
    with pytest.raises(OrderSyntaxError) as caught:  # a word quoted as the player wrote it
        read("prendre pioche rouge", "fr")
    assert fr(caught.value.message) == "« rouge » n'est pas un numéro de carte"
    with pytest.raises(OrderSyntaxError) as caught:
        read("danser la macarena", "fr")
    assert fr(caught.value.message) == "je ne connais pas l'ordre « danser »"
    hint = caught.value.hint
    assert hint is not None and fr(hint) == (
        "écrivez l'un de : prendre 17  (ou : prendre pioche, prendre pioche jeton sur 23) ; "
        "jouer 17: rouge B2, jaune B2 ; départ: rouge B2, jaune C2, vert B3, violet C3")


def test_an_illegal_order_is_explained_in_each_language() -> None:
    state = POSITIONS[0]  # the setup step
    with pytest.raises(IllegalOrder) as caught:
        GAME.apply(state, 0, read("prendre 17", "fr"), Chance("x"))
    said = {lang: translator(lang, "reef2018")(caught.value.message) for lang in LANGUAGES}
    assert said["en"] == ("first place your 4 starting corals, e.g. start: red B2, yellow C2, "
                          "green B3, purple C3")
    assert said["fr"] == ("placez d'abord vos 4 pièces Corail de départ, p. ex. départ: rouge "
                          "B2, jaune C2, vert B3, violet C3")
    for lang in OTHERS:  # the example in it reads back as the English one
        example = re.split(r"[,:] ", said[lang], maxsplit=1)[1]
        assert read(example[example.index(GAME.localise_order("start", lang)):],
                    lang) == parse_order("start: red B2, yellow C2, green B3, purple C3")


def game_part(position: State, seat: int, lang: str) -> str:
    """What Reef's own templates write into one seat's mail (status, prompt, end)."""
    env = environment(GAME)
    tr = translator(lang, GAME.name)
    outcome = GAME.outcome(position)
    names = ["Ann", "Ben", "Cy"]
    ctx = {"view": GAME.view(position, seat), "seat": seat, "names": names,
           "outcome": ["1. Ann"] if outcome else [],
           "explanation": [tr(x, names) for x in (outcome.explanation if outcome else [])],
           **language_context(tr)}
    out = []
    for name in ("status", "prompt", "outcome"):
        for ext in ("txt", "html"):
            out.append(env.get_template(f"reef-2018/{name}.{ext}.j2").render(ctx))
    return "\n".join(out)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_games_words_in_a_mail_are_all_translated(lang: str) -> None:
    """Reef's part of status mails (setup, play, the end; text and HTML) in ``lang``: the scan
    of english_left.py finds no English sentence, where in English it finds them."""
    rng = random.Random(7)
    state = GAME.setup(3, {"advanced": True}, Chance("scan"))
    shown = []
    while GAME.waiting_for(state):
        shown.append(state)
        seat = min(GAME.waiting_for(state))
        state = GAME.apply(state, seat, GAME.parse(state, seat, GAME.random_order(
            state, seat, rng)), Chance("x")).state
    for position in [*shown[::9], state]:
        for seat in (0, 1):
            text = game_part(position, seat, lang)
            assert english_left(text, lang, "reef-2018") == [], text
    assert english_left(GAME.help_text(lang=lang), lang, "reef-2018") == []
    assert "FINAL SCORING" in game_part(state, 0, "en")
    assert len(english_left(game_part(state, 0, "en"), lang, "reef-2018")) > 10  # it can tell


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_for_a_game_in_progress_names_its_market_cards(lang: str) -> None:
    state = next(p for p in POSITIONS if p.phase == "play")
    low, high = min(state.market), max(state.market)
    shown = GAME.help_text(state, lang)
    for english in (f"take {low}", f"take deck, token on {high}", f"take deck paying {high}"):
        local = GAME.localise_order(english, lang)
        assert local in shown, (lang, local)
        assert read(local, lang) == parse_order(english)
    assert "17" in GAME.help_text(None, lang)  # without a game: card 17, as the English did
