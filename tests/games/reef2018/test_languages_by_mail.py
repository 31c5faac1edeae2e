"""Reef by mail in every language (issue 16): a whole bot game through real mail servers
(pymap IMAP in, aiosmtpd SMTP out) with seats in French, Italian, Dutch and German (English:
test_bot_games.py). Each seat's every mail is in its language (no English sentence left: the
scan of english_left.py over the plain text and the HTML), and every order a bot sends is
written in its seat's language and logged in the canonical (English) form."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.games.reef2018 import GAME
from pbem.games.reef2018.keywords import canonical_order
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.store import init, session_factory
from pbem.store.tables import InboundMessage, LogEntry
from tests.support.botmail import ServerMailroom
from tests.support.english_left import english_left
from tests.support.seated import HOST, PLAYERS

pytestmark = pytest.mark.slow

LANGS = ["fr", "it", "nl", "de"]


def _order_lines(raw: bytes) -> str:
    """The order a bot wrote: its mail's first line (bots write one order, then the secret)."""
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    part = parsed.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).strip().splitlines()[0]


def test_four_seats_in_four_languages_play_a_whole_game_by_mail(
        tmp_path: Path, imap_server: Any, smtp_server: Any) -> None:
    engine = init(f"sqlite:///{tmp_path / 'langs.sqlite'}")
    factory = session_factory(engine)
    try:
        with factory() as s:
            game, _ = api.create_game(s, "reef2018", PLAYERS[:4], seed="languages", host=HOST,
                                      languages=LANGS)
            s.commit()
            tag, game_id = game.tag, game.id
        inbox = ImapInbox(imap_server.settings)
        try:
            played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                              ServerMailroom(smtp_server, imap_server), HOST, seed="langs")
        finally:
            inbox.close()
        assert played.turns > 40

        for bot in played.bots:
            lang = LANGS[bot.seat]
            assert len(bot.received) > 10
            for mail in bot.received:
                html = mail.message.get_body(("html",))
                for text in (mail.text, "" if html is None else str(html.get_content())):
                    assert english_left(text, lang, "reef-2018") == [], (lang, text)
            final = bot.received[-1].text
            said = {"fr": "DÉCOMPTE FINAL", "it": "PUNTEGGIO FINALE", "nl": "EINDTELLING",
                    "de": "SCHLUSSWERTUNG"}[lang]
            assert said in final  # and the end reads in the seat's language

        with factory() as s:
            entries = s.exec(select(LogEntry).where(LogEntry.game_id == game_id,
                                                    LogEntry.kind == "order")
                             .order_by(col(LogEntry.index))).all()
            assert len(entries) == played.turns
            for entry in entries:
                assert entry.seat is not None and entry.source_message_id is not None
                inbound = s.get(InboundMessage, entry.source_message_id)
                assert inbound is not None
                lang = LANGS[entry.seat]
                written = _order_lines(inbound.raw)
                canonical = entry.text.strip()
                assert written == GAME.localise_order(canonical, lang)  # in the seat's words
                assert written != canonical
                assert canonical_order(written, lang) == canonical
        with factory() as s:
            assert api.replay_game(s, api.get_game(s, tag)).entries == played.turns
    finally:
        engine.dispose()
