"""A note to a sender who proved no seat is in the language it can best be read in: the game's
language once the mail names a game, else the language the sender's client declares
(Content-Language), else English."""

from __future__ import annotations

import pytest

from pbem.mail.reading import read_message
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.conftest import ALICE, BOB, plain_text, queued_mails
from tests.support.playermail import mail


def sent(factory: SessionFactory) -> list[tuple[str, str]]:
    """(subject, plain text) of every queued mail, oldest first."""
    return [(str(m["Subject"]), plain_text(m)) for _, m in queued_mails(factory)]


def declaring(raw: bytes, language: str | None) -> bytes:
    """``raw`` with a Content-Language header (EmailMessage.set_content drops one set before)."""
    return raw if language is None else f"Content-Language: {language}\n".encode() + raw


def french_game(factory: SessionFactory) -> str:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  seed="fr", language="fr")
        s.commit()
        return game.tag


def test_a_stranger_writing_to_a_french_game_is_answered_in_french(
        factory: SessionFactory, host: Host) -> None:
    tag = french_game(factory)
    result = process_raw(factory, mail("mallory@evil.test", f"[{tag}]", "play 1"), host)
    assert (result.status, result.reason) == ("rejected", "unknown sender")
    [(subject, text)] = sent(factory)
    assert subject == f"[{tag}] Votre adresse ne joue pas dans cette partie"
    assert "Bonjour ! Ceci est un hôte automatique de jeux par courriel." in text
    assert (f"L'adresse mallory@evil.test ne joue pas dans [{tag}] : votre courriel n'a pas "
            "été utilisé.") in text


@pytest.mark.parametrize(("declared", "expected"), [
    ("de-DE", "Wir konnten nicht erkennen, für welches Spiel deine E-Mail ist."),
    ("it", "Non siamo riusciti a capire per quale partita è la tua email."),
    ("nl-BE, en", "We konden niet zien voor welk spel je e-mail is."),
    ("ja", "We could not tell which game your mail is for."),  # a language the host lacks
    (None, "We could not tell which game your mail is for."),
])
def test_a_mail_naming_no_game_is_answered_in_the_language_its_client_declares(
        factory: SessionFactory, host: Host, declared: str | None, expected: str) -> None:
    raw = declaring(mail("someone@players.test", "hello", "play 3"), declared)
    result = process_raw(factory, raw, host)
    assert result.reason == "no game identified"
    [(subject, text)] = sent(factory)
    assert expected in text
    if declared == "de-DE":
        assert subject == "Welches Spiel? Deine E-Mail wurde nicht verwendet"
        assert "„spiel name-12“" in text.lower()  # the host's own word for "game"
    if declared is None:
        assert subject == "Which game? Your mail was not used"


def test_an_oversized_mail_is_refused_in_its_declared_language(
        factory: SessionFactory) -> None:
    small = Host(mail=MailConfig(from_address="games@host.test"),
                 limits=Limits(max_message_bytes=600))
    raw = declaring(mail("someone@players.test", "hello", "x" * 2000), "fr")
    assert process_raw(factory, raw, small).reason == "too large"
    [(_, text)] = sent(factory)
    assert "Votre message dépasse 600 octets : il n'a pas été lu." in text


@pytest.mark.parametrize(("header", "lang"), [
    ("fr-FR", "fr"), ("DE", "de"), ("nl-BE, en", "nl"), (" it ", "it"), ("", ""),
    ("x;y", ""), ("zh-Hant-TW", "zh"), ("es-419", "es"), ("de-CH-1901", "de"), ("ｆｒ", ""),
])
def test_content_language_is_read_as_its_first_primary_tag(header: str, lang: str) -> None:
    raw = declaring(mail("a@players.test", "s", "b"), header or None)
    assert read_message(raw).language == lang
