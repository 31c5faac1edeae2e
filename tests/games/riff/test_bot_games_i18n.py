"""Whole Das Riff games by mail with seats in all five languages (issue 16).

Real servers as in test_bot_games.py (pymap IMAP in, aiosmtpd SMTP out). Das Riff seats two,
so three games cover en, fr, it, nl and de. Each bot writes its orders in its seat's language
(``pbem.ops.bots`` localises its English ``random_order`` with the game's ``localise_order``); the
host reads them through ``canonical_order``. Every mail to a non-English seat is scanned for
the English sentences of the host's and the game's catalogues: none may be left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pbem.games.riff import GAME
from pbem.games.riff.state import State
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.store import SessionFactory
from tests.games.riff.mailtable import HOST, PLAYERS
from tests.support.botmail import ServerMailroom
from tests.support.english_left import english_left

pytestmark = pytest.mark.slow

TABLES = [("fr", "it"), ("nl", "de"), ("de", "en")]


@pytest.mark.parametrize("languages", TABLES, ids=["-".join(t) for t in TABLES])
def test_a_whole_game_by_email_in_each_seats_language(
        languages: tuple[str, str], factory: SessionFactory, imap_server: Any,
        smtp_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with factory() as s:
        game, _ = api.create_game(s, "riff", PLAYERS, seed=f"i18n-{'-'.join(languages)}",
                                  host=HOST, languages=list(languages))
        s.commit()
        tag = game.tag
    # The host's bots write in their seat's language by themselves (pbem.ops.bots calls the
    # game's localise_order): record what it wrote, change nothing.
    sent: list[tuple[str, str]] = []
    localise: Callable[[str, str], str] = GAME.localise_order

    def recorded(text: str, lang: str) -> str:
        out = localise(text, lang)
        sent.append((lang, out))
        return out

    monkeypatch.setattr(GAME, "localise_order", recorded)
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed="riff-i18n",
                          showcase=True)
    finally:
        inbox.close()
    assert sorted(s for group in played.outcome.ranking for s in group) == [0, 1]
    assert played.turns > 10 and imap_server.messages() == []

    # Every order a bot sent is written with its seat's words, and reads as English.
    final = api_state(factory, tag)
    assert {lang for lang, _ in sent} == set(languages) - {"en"}
    for lang, text in sent:
        seat = languages.index(lang)
        canonical = GAME.canonical_order(final, seat, text, lang)
        assert canonical != text and localise(canonical, lang) == text, text

    for bot in played.bots:
        lang = languages[bot.seat]
        assert bot.received, bot.name
        if lang == "en":
            assert "Scores are completed crosses." in bot.received[-1].text
            continue
        for mail in bot.received:
            left = english_left(mail.text, lang, "das-riff")
            assert left == [], (lang, left, mail.text)
    if languages[0] == "fr":
        assert "Les points sont les élevages réussis." in played.bots[0].received[-1].text
    # The unreadable order of the showcase is refused in its sender's language.
    nonsense = played.showcase["nonsense"]
    lang = next(languages[b.seat] for b in played.bots if b.address == nonsense.to_addr)
    assert UNKNOWN[lang] in nonsense.text, nonsense.text


UNKNOWN = {"en": "unknown order 'dance'", "fr": "ordre inconnu 'dance'",
           "it": "ordine sconosciuto 'dance'", "nl": "onbekende order 'dance'",
           "de": "unbekannter Befehl 'dance'"}


def api_state(factory: SessionFactory, tag: str) -> State:
    with factory() as s:
        state: State = api.current_state(s, api.get_game(s, tag))
    return state
