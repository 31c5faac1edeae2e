"""Reef Encounter in five languages: orders in the seat's words, events, errors and help as
messages, rendered from the game's catalogue (pbem/games/reef_encounter/locale)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.help import help_text
from pbem.games.reef_encounter.keywords import (
    _TOKEN_WORDS,
    ORDER_WORDS,
    alternatives,
    canonical_order,
    fold,
    localise_order,
)
from pbem.games.reef_encounter.orders import Order
from pbem.games.reef_encounter.parse import format_order, parse_order
from pbem.i18n.translate import LANGUAGES, translator
from tests.games.reef_encounter.test_language import step_strategy
from tests.games.reef_encounter.test_render import check_golden, render, sample_view
from tests.games.test_help_examples import played

FOREIGN = [lang for lang in LANGUAGES if lang != "en"]


def fr(message: object) -> str:
    return translator("fr", "reef-encounter")(message)  # type: ignore[arg-type]


# --- orders in the seat's language ----------------------------------------------------------

@pytest.mark.parametrize(("text", "english"), [
    ("prendre rose", "take pink"),  # the examples
    ("larve blanche : 2F3 2E4", "larva white : 2F3 2E4"),
    ("Prendre ROSÉ", "take pink"),  # capitals and accents do not matter
    ("poisson-perroquet rose ; larves blanche jaune", "parrotfish pink ; larvae white yellow"),
    ("algue violette sur tuile 3 payée avec rose", "alga purple on tile 3 paying pink"),
    ("deplacer crevette 2F4 vers 2G4", "move shrimp 2F4 to 2G4"),
    ("déplacer crevette 2F4 paravent", "move shrimp 2F4 home"),
    ("consommé rose pour larve", "consumed pink for larva"),
    ("take pink", "take pink"),  # English is always accepted
    ("manger 2F4\n# un commentaire\nprendre jaune", "eat 2F4\n# un commentaire\ntake yellow"),
])
def test_french_orders_become_the_canonical_english_line_for_line(text: str,
                                                                  english: str) -> None:
    assert canonical_order(text, "fr") == english
    assert parse_order(canonical_order(text, "fr")) == parse_order(english)


@pytest.mark.parametrize(("lang", "text", "english"), [
    ("it", "prendi rosa", "take pink"),
    ("it", "larva bianca: 2F3 2E4", "larva white: 2F3 2E4"),
    ("nl", "neem roze", "take pink"),
    ("nl", "verplaats garnaal 2F4 naar 2G4", "move shrimp 2F4 to 2G4"),
    ("de", "nimm rosa", "take pink"),
    ("de", "Larve WEISS: 2F3", "larva white: 2F3"),
    ("de", "Larve weiß: 2F3", "larva white: 2F3"),
])
def test_orders_in_the_other_languages(lang: str, text: str, english: str) -> None:
    assert canonical_order(text, lang) == english


def test_an_unknown_word_is_left_as_typed_so_the_error_quotes_it() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(canonical_order("prendr rose", "fr"))
    err = caught.value
    assert fr(err.message) == "je ne connais pas l’ordre « prendr » :"
    assert fr(err.hint) == "par exemple : prendre rose"  # the suggestion, in French words
    assert str(err.hint) == "for example: take pink"  # and the same one in English


def test_a_french_rule_error_names_colours_in_french() -> None:
    state = _playing_state()
    seat = state.to_move
    colour = next(c for c in ("grey", "orange", "pink", "white", "yellow")
                  if state.players[seat].larva.get(c, 0) == 0)
    word = alternatives("fr", colour)[0]
    order = parse_order(canonical_order(f"larve {word} : 2F3\nprendre rose", "fr"))
    with pytest.raises(IllegalOrder) as caught:
        GAME.apply(state, seat, order, Chance("t"))
    text = fr(caught.value.message)
    assert text.startswith("étape 1 (larva ")  # the step as the log stores it
    assert f"vous n’avez pas de cube larve {fr_colour(colour)}" in text


def fr_colour(colour: str) -> str:
    return translator("fr", "reef-encounter").pgettext("colour", colour)


def clashes(lang: str) -> list[tuple[str, str, str]]:
    """Words of ``lang`` that the catalogue gives to two English words (a catalogue error),
    split into words as the order reader splits them."""
    seen: dict[tuple[str, ...], str] = {}
    bad = []
    for m in ORDER_WORDS:
        for alt in alternatives(lang, m.id):
            k = tuple(fold(w) for w in _TOKEN_WORDS.findall(alt))
            if k in seen and seen[k] != m.id:
                bad.append((alt, seen[k], m.id))
            seen.setdefault(k, m.id)
    return bad


@pytest.mark.parametrize("lang", FOREIGN)
def test_no_word_means_two_things(lang: str) -> None:
    assert clashes(lang) == []
    for m in ORDER_WORDS:  # every order word is translated (the catalogue check says so too)
        assert alternatives(lang, m.id), (lang, m.id)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(step_strategy, min_size=1, max_size=8), lang=st.sampled_from(FOREIGN))
def test_localise_then_canonicalise_gives_the_same_order(steps: list[object],
                                                         lang: str) -> None:
    text = format_order(Order(tuple(steps)))  # type: ignore[arg-type]
    local = localise_order(text, lang)
    assert canonical_order(local, lang) == text
    assert parse_order(canonical_order(local, lang)) == parse_order(text)


@pytest.mark.parametrize("lang", FOREIGN)
def test_bot_orders_are_written_in_the_seat_language(lang: str) -> None:
    import random
    rng = random.Random(lang)
    state = GAME.setup(3, {}, Chance(f"bots-{lang}"))
    native = {fold(w) for m in ORDER_WORDS for w in re.findall(r"[^\W\d_]+",
                                                              alternatives(lang, m.id)[0])}
    for _ in range(30):
        if not GAME.waiting_for(state):
            break
        seat = min(GAME.waiting_for(state))
        text = GAME.random_order(state, seat, rng)
        local = GAME.localise_order(text, lang)
        words = {fold(w) for w in re.findall(r"(?<![0-9])[^\W\d_]+", local)}
        assert words <= native, (lang, local)  # no English word left
        order = GAME.parse(state, seat, GAME.canonical_order(state, seat, local, lang))
        state = GAME.apply(state, seat, order, Chance(f"t{_}")).state


# --- help -----------------------------------------------------------------------------------

EXAMPLE = re.compile(r"^(?:  \d{1,2} {1,2}|  |     )(?=\S)(.+?)(?:\s{3,}.*)?$")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_example_reads_in_every_language(lang: str) -> None:
    text = GAME.help_text(lang=lang)
    examples = [m[1] for ln in text.splitlines() if (m := EXAMPLE.match(ln))]
    assert len(examples) > 20
    for example in examples:
        for part in example.split(" / "):
            assert parse_order(canonical_order(part, lang)).steps, (lang, part)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_games_help_shows_its_own_cells_and_polyps_in_every_language(lang: str) -> None:
    state = played("reef-encounter", 3, 4)
    text = GAME.help_text(state, lang)
    english = GAME.help_text(state)
    # The cells of the English help (each example cell moved the same way in every language).
    cells = set(re.findall(r"\b[1-4][A-G][1-6]\b", text))
    assert len(cells) > 10
    assert cells <= set(re.findall(r"\b[1-4][A-G][1-6]\b", english))
    missing = ({1, 2, 3, 4} - set(state.boards)).pop()
    assert not re.search(rf"\b{missing}[A-G][1-6]\b", text)
    assert ", ".join(map(str, state.boards)) + "." in text
    attack = next(ln for ln in text.splitlines() if re.match(r"  \w+ \w+ ?: [1-4][A-G][1-6] ", ln))
    cell = re.findall(r"\b([1-4])([A-G])([1-6])\b", attack)[0]
    victim = state.polyps[f"{cell[0]}:{cell[1]}{cell[2]}"]
    assert translator(lang, "reef-encounter").pgettext("colour", victim) in attack
    for example in (m[1] for ln in text.splitlines() if (m := EXAMPLE.match(ln))):
        for part in example.split(" / "):
            assert parse_order(canonical_order(part, lang)).steps, (lang, part)


@pytest.mark.parametrize("lang", FOREIGN)
def test_the_help_is_translated(lang: str) -> None:
    english = help_text(lang="en").splitlines()
    local = help_text(lang=lang).splitlines()
    same = [ln for ln in local if ln.strip() and ln in english and len(ln.split()) > 3]
    assert same == []


# --- events and explanations ----------------------------------------------------------------

def _playing_state():  # type: ignore[no-untyped-def]
    state = GAME.setup(2, {}, Chance("i18n"))
    for seat in (0, 1):
        order = GAME.parse(state, seat, GAME.default_order(state, seat))
        state = GAME.apply(state, seat, order, Chance("setup")).state
    return state


def test_events_are_data_and_read_the_same_in_english() -> None:
    state = GAME.setup(2, {}, Chance("i18n"))
    applied = GAME.apply(state, 0, GAME.parse(state, 0, GAME.default_order(state, 0)),
                         Chance("a"))
    kinds = [e.kind for e in applied.events]
    assert kinds == ["setup_answered", "setup_answer"]
    for e in applied.events:
        assert e.msg is not None and e.text == str(e.msg)
    assert fr(applied.events[0].msg) == "Violet a répondu à la mise en place."


def test_a_whole_bot_game_renders_every_event_in_every_language() -> None:
    import random
    rng = random.Random(7)
    state = GAME.setup(2, {}, Chance("all-events"))
    seen: set[str] = set()
    while GAME.waiting_for(state):
        seat = min(GAME.waiting_for(state))
        order = GAME.parse(state, seat, GAME.random_order(state, seat, rng))
        applied = GAME.apply(state, seat, order, Chance(f"t{state.turn}"))
        for e in applied.events:
            assert e.kind and e.msg is not None
            seen.add(e.kind)
            for lang in FOREIGN:
                text = translator(lang, "reef-encounter")(e.msg)
                assert "{" not in text and text != e.text, (lang, e.text, text)
        state = applied.state
    assert {"polyp_placed", "larva_played", "larva_taken", "shrimp_placed"} <= seen
    outcome = GAME.outcome(state)
    assert outcome is not None
    for line in outcome.explanation:
        assert translator("fr", "reef-encounter")(line) != str(line)


# --- templates ------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [0, 1])
def test_french_status_matches_golden(seat: int) -> None:
    from pbem.i18n.jinja import functions
    tr = translator("fr", "reef-encounter")
    text = render_in("status.txt.j2", sample_view(seat), seat, functions(tr))
    check_golden(f"sample_status_seat{seat}_fr.txt", text)
    assert "Vous jouez" in text and "LA PLEINE MER" in text and "rose" in text
    html = render_in("status.html.j2", sample_view(seat), seat, functions(tr))
    check_golden(f"sample_status_seat{seat}_fr.html", html)


def render_in(name: str, view: dict[str, object], seat: int, lang: dict[str, object]) -> str:
    from pbem.games.reef_encounter.render import template_helpers
    from pbem.rendering import environment
    env = environment(GAME)  # the game's templates come with the game
    env.globals.update(template_helpers())
    return env.get_template(f"reef-encounter/{name}").render(view=view, seat=seat, **lang)


def test_english_templates_are_unchanged() -> None:
    check_golden("sample_status_seat0.txt", render("status.txt.j2", sample_view(0), 0))
