"""A mail with several bad lines is answered once, with every line's reason and a suggestion
computed from what the player typed — for every game, through the real pipeline."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

import pytest

from pbem.engine.errors import OrderSyntaxError
from pbem.engine.every_error import suggestion
from pbem.store import OutboundMessage, SessionFactory
from tests.support.seated import seat_table

# Three lines each game cannot read, between good ones; what each reply must say of them.
BAD = {
    "reef-encounter": ("larva pnik\nplcae 2F3 2E4\ntake whte",
             ['Line 1, column 7 of your mail ("larva pnik")', 'did you mean "pink"?',
              'Line 2 of your mail ("plcae 2F3 2E4")', 'did you mean "place"?',
              'Line 3, column 6 of your mail ("take whte")', 'did you mean "white"?']),
    "reef2018": ("plya 3\ntkae 28\nstrat: red B2",
                 ['Line 1 of your mail ("plya 3")', 'did you mean "play"?',
                  'Line 2 of your mail ("tkae 28")', 'did you mean "take"?',
                  'Line 3 of your mail ("strat: red B2")', 'did you mean "start"?']),
    "riff": ("buy 1 naer\npss\nflip 9 sideways",
             ['Line 1, column 7 of your mail ("buy 1 naer")', 'did you mean "near"?',
              'Line 2 of your mail ("pss")', "did you mean: pass",
              'Line 3']),
}


@pytest.mark.parametrize("game", sorted(BAD))
def test_three_bad_lines_get_three_reasons_in_one_reply(factory: SessionFactory,
                                                        game: str) -> None:
    table = seat_table(factory, game)
    seat = min(table.rules.waiting_for(table.state()))
    body, expected = BAD[game]
    before = table.state_json()
    result, _ = table.send(seat, body)
    assert result.status == "rejected"
    with factory() as s:
        [row] = [s.get(OutboundMessage, q) for q in result.queued]
        assert row is not None
        msg = email.message_from_bytes(row.raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    assert msg["Subject"] == f"[{table.tag}] Order refused: lines 1, 2, 3"
    part = msg.get_body(("plain",))
    assert part is not None
    text = str(part.get_content())
    assert "3 lines of your mail could not be read:" in text
    for phrase in expected:
        assert phrase in text, phrase
    assert table.state_json() == before  # nothing played


def test_a_suggestion_comes_from_the_hint_nearest_the_typed_word() -> None:
    err = OrderSyntaxError('"pnik" is not a coral colour', line=1, column=7, text="larva pnik",
                           hint="coral colours are grey, orange, pink, white, yellow")
    assert str(suggestion(err)) == 'did you mean "pink"?'
    far = OrderSyntaxError('"zzz" is not a coral colour', line=1, column=7, text="larva zzz",
                           hint="coral colours are grey, orange, pink, white, yellow")
    assert suggestion(far) is None  # nothing near: no guess rather than a wrong one


def test_a_word_typed_with_its_colon_or_comma_is_not_suggested_back(
        factory: SessionFactory) -> None:
    table = seat_table(factory, "reef-encounter")
    seat = min(table.rules.waiting_for(table.state()))
    result, reply = table.send(seat, "larva whte: 2F2\nCheers,")
    assert result.status == "rejected"
    assert 'did you mean "white"?' in reply
    assert 'did you mean "whte"?' not in reply and 'did you mean "cheers"?' not in reply
    err = OrderSyntaxError('"whte:" is not a coral colour', line=1, column=7,
                           text="larva whte: 2F2",
                           hint="coral colours are grey, orange, pink, white, yellow")
    assert str(suggestion(err)) == 'did you mean "white"?'


@pytest.mark.parametrize("game", sorted(BAD))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_greeting_near_a_word_of_the_hints_prose_gets_no_suggestion(
        factory: SessionFactory, game: str, lang: str) -> None:
    """"Bonne" is near the hint's "one" ("each line starts with one of: ..."), but "one" is
    no order: only a word the game reads in its place is suggested."""
    table = seat_table(factory, game, languages=[lang, lang])
    seat = min(table.rules.waiting_for(table.state()))
    result, reply = table.send(seat, "Bonne journée à tous !")
    assert result.status == "rejected"
    assert "Bonne journée à tous !" in reply
    assert "Suggestion:" not in reply and "Suggestion :" not in reply, reply
