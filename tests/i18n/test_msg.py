"""Messages as data: English by str(), JSON round trip, and rendering through real catalogues."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder, OrderSyntaxError, OrderSyntaxErrors
from pbem.i18n import SeatRef, cmsg, msg, nmsg, translator
from pbem.rendering import environment, language_context


def test_str_is_english_with_fields_seats_and_nested_words() -> None:
    m = msg("{seat} took the {colour} tile.", seat=SeatRef(1), colour=cmsg("colour", "pink"))
    assert str(m) == "Player 2 took the pink tile."
    assert translator("en")(m, ["Ann", "Bob"]) == "Bob took the pink tile."


def test_plural_forms_follow_n() -> None:
    one = nmsg("{n} polyp", "{n} polyps", 1)
    many = nmsg("{n} polyp", "{n} polyps", 3)
    assert (str(one), str(many)) == ("1 polyp", "3 polyps")


def test_json_round_trip_keeps_nested_messages_and_seats() -> None:
    m = msg("{who} chose {items}.", who=SeatRef(0),
            items=[cmsg("colour", "pink"), cmsg("colour", "white")])
    back = type(m).from_json(json.loads(json.dumps(m.to_json())))
    assert back == m and str(back) == "Player 1 chose pink, white."


def test_events_keep_english_text_and_read_old_entries() -> None:
    e = Event.of("seat_named", msg("{seat} joined.", seat=SeatRef(0)), visible_to=[0])
    assert e.text == "Player 1 joined." and e.kind == "seat_named"
    assert Event.from_json(json.loads(json.dumps(e.to_json()))) == e
    old = Event.from_json({"text": "Ann joined.", "visible_to": None})
    assert old.msg is None and old.render(translator("fr")) == "Ann joined."
    assert "kind" not in old.to_json() and "msg" not in old.to_json()  # old logs stay as they were


def test_french_comes_from_the_host_catalogue() -> None:
    fr = translator("fr")
    assert fr(msg("Player {n}", n=2)) == "Joueur 2"
    assert fr.seat_name(0) == "Joueur 1"
    assert translator("xx").lang == "en"  # an unknown language falls back to English


def test_errors_take_messages_and_stay_english_as_text() -> None:
    err = OrderSyntaxError(msg("unknown order {word}", word="plya"), line=2, text="plya 3",
                           hint=msg("orders are: {orders}", orders="play"))
    assert str(err) == 'line 2: unknown order plya "plya 3" — orders are: play'
    assert str(IllegalOrder(msg("no such card {n}", n=7))) == "no such card 7"
    both = OrderSyntaxErrors([err, err])
    assert str(both.message).startswith("2 lines could not be read; the first: unknown order")
    assert translator("fr")(both.message).startswith("2 lignes n'ont pas pu être lues")


def test_dates_in_the_seats_language_and_time_zone() -> None:
    moment = datetime(2026, 11, 23, 16, 5, tzinfo=UTC)
    assert translator("en").datetime(moment, "UTC") == "2026-11-23 16:05 UTC"
    assert translator("fr").datetime(moment, "Europe/Paris") == "23 novembre 2026 à 17:05 CET"
    assert translator("de").datetime(moment, "UTC") == "23. November 2026 um 16:05 UTC"
    assert translator("it").datetime(moment, "UTC") == "23 novembre 2026 alle 16:05 UTC"
    assert translator("de").short_datetime(moment, "UTC") == "Mo., 23. Nov., 16:05 UTC"
    assert translator("de").date(moment, "Europe/Berlin") == "23. November 2026"
    assert translator("nl").datetime(moment, "Europe/Amsterdam").startswith("23 november 2026")


def test_templates_translate_per_render_on_one_cached_environment() -> None:
    env = environment()
    template = env.from_string("{% trans n=2 %}Player {{ n }}{% endtrans %}|{{ _('Player {n}') }}")
    assert template.render(**language_context(translator("en"))) == "Player 2|Player {n}"
    assert template.render(**language_context(translator("fr"))).endswith("|Joueur {n}")
    assert environment() is env


def test_a_text_without_fields_is_looked_up_and_kept_whole() -> None:
    """A game's ``about`` goes through its catalogue as it is, braces and all."""
    assert str(msg("Sets {like} these are shown as written.")) == \
        "Sets {like} these are shown as written."
    assert translator("fr")(msg("Player {n}")) == "Joueur {n}"


def test_a_kept_sentence_tells_apart_values_equal_but_written_apart_at_any_depth() -> None:
    """The translator keeps rendered sentences by their values: 1, True and 1.0 compare
    equal but render apart, inside a message inside a message too."""
    tr = translator("fr")
    for inner, shown in ((True, "True"), (1, "1"), (1.0, "1.0"), (True, "True")):
        assert tr(msg("a {x}", x=msg("{n}", n=inner))) == f"a {shown}"
        assert tr(msg("a {x}", x=inner)) == f"a {shown}"


def test_the_translator_keeps_no_secret_and_no_long_text() -> None:
    """What a translator keeps lives as long as the process: never a player's secret, nor
    a long text of theirs (table talk), only the short sentences a move repeats."""
    tr = translator("de")
    secret = "correct-horse-battery"
    assert secret in tr(msg("Your secret is: {secret}", secret=secret))
    talk = "blah " * 200
    assert talk.strip() in tr(msg("Sent to everyone: {text}", text=talk))
    kept = repr(tr._filled)  # what the cache holds is the point
    assert secret not in kept and talk not in kept
