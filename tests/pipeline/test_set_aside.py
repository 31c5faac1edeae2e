"""Greetings, closings and signatures set aside from a seat's orders, named in the reply in
the seat's language; and the lines never set aside, however they stand: a line that begins
with an order word or holds a digit is read, and refused with its line number if wrong."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlmodel import select

from pbem.i18n import msg, nmsg, translator
from pbem.ops import api
from pbem.pipeline.aside import set_aside
from pbem.pipeline.letter import read_letter
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.host import Host
from pbem.store import Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB, queued
from tests.support.playermail import mail

LANGUAGES = ("en", "fr", "de", "it", "nl")
GREETING = {"en": "Hi all,", "fr": "Bonjour à tous,", "de": "Hallo zusammen,",
            "it": "Ciao a tutti,", "nl": "Hoi allemaal,"}
SIGN_OFF = {"en": "Thanks,", "fr": "Bien à vous,", "de": "Viele Grüße,", "it": "Saluti,",
            "nl": "Met vriendelijke groet,"}


def seated(factory: SessionFactory, language: str) -> tuple[str, str, int]:
    """Alice (in ``language``) and Bob at a new table: its tag, Alice's secret, her card."""
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="aside", languages=[language, None])
        s.commit()
        tag, game_id = game.tag, game.id
    with factory() as s:
        card = sorted(api.current_state(s, api.get_game(s, game_id or 0)).hands[0])[0]
    return tag, secrets[0], card


def send(factory: SessionFactory, host: Host, language: str, body: Callable[[str, int], str],
         sender: str = ALICE) -> tuple[Result, str, str, int]:
    """A mail from Alice at a new table, its body ``body(secret, card)``: the result, the
    reply's text (white space made single spaces), the table's tag and Alice's card."""
    tag, secret, card = seated(factory, language)
    result = process_raw(factory, mail(sender, f"Re: [{tag}]", body(secret, card)), host)
    return result, reply(factory), tag, card


def reply(factory: SessionFactory) -> str:
    [text] = [text for to, text in queued(factory) if to == ALICE]
    return " ".join(text.split())


def said(language: str, lines: list[str]) -> str:
    quoted = " ".join(f"'{line}'" for line in lines)
    return " ".join(translator(language)(msg("Not read as orders: {lines}",
                                             lines=quoted)).split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_greeting_a_closing_and_a_signature_are_set_aside_and_named(
        factory: SessionFactory, host: Host, language: str) -> None:
    result, text, tag, card = send(factory, host, language, lambda secret, card: (
        f"{GREETING[language]}\n\nplay {card}\nsecret {secret}\n\n{SIGN_OFF[language]}\n"
        "Alice\n-- \nAlice Martin, Wonderland"), sender=f"Alice Martin <{ALICE}>")
    assert result.status == "applied", result.reason
    assert card not in hand_of(factory, tag)
    assert said(language, [GREETING[language], SIGN_OFF[language], "Alice",
                           "Alice Martin, Wonderland"]) in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_typo_next_to_a_closing_is_read_and_refused_never_set_aside(
        factory: SessionFactory, host: Host, language: str) -> None:
    result, text, tag, card = send(factory, host, language, lambda secret, card: (
        f"{GREETING[language]}\nplya {card}\nsecret {secret}\n{SIGN_OFF[language]}\nAlice"))
    assert result.status == "rejected"
    tr = translator(language)
    assert " ".join(tr(msg("Line {number} of your mail (\"{text}\"): {reason}", number=2,
                           text=f"plya {card}", reason="")).split()) in text
    assert said(language, [GREETING[language], SIGN_OFF[language], "Alice"]) in text
    assert card in hand_of(factory, tag)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mail_of_greetings_alone_holds_no_orders_and_says_what_it_set_aside(
        factory: SessionFactory, host: Host, language: str) -> None:
    result, text, _, _ = send(factory, host, language, lambda secret, _: (
        f"{GREETING[language]}\nsecret {secret}\n{SIGN_OFF[language]}\nAlice"))
    assert (result.status, result.reason) == ("rejected", "no orders")
    tr = translator(language)
    assert " ".join(tr(msg("Your mail held no orders, so nothing was played.")).split()) in text
    assert said(language, [GREETING[language], SIGN_OFF[language], "Alice"]) in text


def test_a_line_beginning_with_an_order_word_is_read_where_a_closing_would_stand(
        factory: SessionFactory, host: Host) -> None:
    result, text, _, _ = send(factory, host, "en", lambda secret, card: (
        f"play {card}\nplay\nCheers,\nAlice\nsecret {secret}"))
    assert result.status == "rejected"
    assert "Line 2 of your mail (\"play\")" in text
    assert said("en", ["Cheers,", "Alice"]) in text


def test_a_signature_line_that_reads_as_an_order_is_read_at_its_place(
        factory: SessionFactory, host: Host) -> None:
    result, text, _, card = send(factory, host, "en", lambda secret, card: (
        f"secret {secret}\n-- \nplay {card}\nAlice Martin"))
    assert result.status == "applied", result.reason
    assert f"> play {card}" in text and said("en", ["Alice Martin"]) in text


def test_a_dashed_name_or_the_senders_own_name_is_a_closing_without_a_sign_off(
        factory: SessionFactory, host: Host) -> None:
    result, text, _, _ = send(factory, host, "en", lambda secret, card: (
        f"secret {secret}\nplay {card}\n-Abhishek Kona"))
    assert result.status == "applied", result.reason
    assert said("en", ["-Abhishek Kona"]) in text


def test_a_name_like_line_with_no_sign_off_and_not_the_senders_is_read() -> None:
    letter = read_letter("play 3\nTkae Pnik")
    assert set_aside(letter, (), lambda line: line.startswith("play"), ["Joe Bloggs"]) == []
    assert letter.orders == [(1, "play 3"), (2, "Tkae Pnik")]
    letter = read_letter("play 3\nJoe Bloggs")
    assert set_aside(letter, (), lambda line: False, ["Joe Bloggs"]) == ["Joe Bloggs"]
    assert letter.orders == [(1, "play 3")]


def test_many_lines_set_aside_are_counted_past_the_first_eight(
        factory: SessionFactory, host: Host) -> None:
    signature = [f"ligne {chr(97 + i)}" for i in range(11)]
    result, text, _, _ = send(factory, host, "fr", lambda secret, card: (
        f"play {card}\nsecret {secret}\n-- \n" + "\n".join(signature)))
    assert result.status == "applied", result.reason
    quoted = " ".join(f"'{line}'" for line in signature[:8])
    assert " ".join(translator("fr")(nmsg(
        "Not read as orders: {lines} and {count} more line",
        "Not read as orders: {lines} and {count} more lines", 3, lines=quoted,
        count=3)).split()) in text


def hand_of(factory: SessionFactory, tag: str) -> list[int]:
    with factory() as s:
        game = api.get_game(s, tag)
        seat = s.exec(select(Seat).where(Seat.game_id == game.id, Seat.index == 0)).one()
        return sorted(api.current_state(s, game).hands[seat.index])


