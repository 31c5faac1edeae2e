"""Whole games of every game by mail with seats in every language, through real mail servers
(pymap IMAP in, aiosmtpd SMTP out).

Each bot writes its orders in its seat's language (``pbem.ops.bots`` localises them with the
game's ``localise_order``); the host reads them back (``canonical_order``) and logs them in
English. Every mail to a non-English seat, plain text and HTML, is scanned for the English
sentences of the host's and the game's catalogues (tests/support/english_left.py): none may be
left. The English seat's mail shows the scan finds English where it is. A game's hooks name its
tables (default: as many seats as the game takes, until every language sits), what its end
says in each language, and whether its games run on every database under test or on SQLite
only.
"""

from __future__ import annotations

import email
import json
from collections.abc import Iterator, Sequence
from email import policy
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.engine.contract import canonical_order, localise_order
from pbem.i18n import LANGUAGES, msg, translator
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import Played, play_out
from pbem.pipeline.command_words import word
from pbem.store import SessionFactory, init, session_factory
from pbem.store.tables import InboundMessage, LogEntry, Snapshot
from tests.games.suite.games import every_game
from tests.games.suite.hooks import Hooks, Languages
from tests.support.botmail import ServerMailroom
from tests.support.english_left import english_left
from tests.support.seated import HOST, PLAYERS


def tables(game: Any, languages: Languages) -> list[tuple[str, ...]]:
    """The hooks' tables, or every language in turn, English last, in tables of the most seats;
    a last table too small for the game takes the languages before it too."""
    if languages.tables is not None:
        return [tuple(t) for t in languages.tables]
    seats = min(game.max_players, len(PLAYERS))
    order = [*(lang for lang in LANGUAGES if lang != "en"), "en"]
    found = [tuple(order[i:i + seats]) for i in range(0, len(order), seats)]
    if len(found[-1]) < game.min_players:
        found[-1] = tuple(order[-game.min_players:])
    return found


def _params(every_database: bool) -> list[Any]:
    return [pytest.param(name, hooks, table, id=f"{name}-{'-'.join(table)}")
            for name, game, hooks in every_game()
            if hooks.languages is not None and hooks.languages.every_database == every_database
            for table in tables(game, hooks.languages)]


@pytest.fixture
def sqlite_factory(tmp_path: Path) -> Iterator[SessionFactory]:
    engine = init(f"sqlite:///{tmp_path / 'languages.sqlite'}")
    yield session_factory(engine)
    engine.dispose()


@pytest.mark.parametrize(("name", "game", "languages"),
                         [pytest.param(name, game, hooks.languages, id=name)
                          for name, game, hooks in every_game() if hooks.languages is not None])
def test_the_tables_seat_every_language_within_the_games_seats(name: str, game: Any,
                                                               languages: Languages) -> None:
    found = tables(game, languages)
    assert {lang for table in found for lang in table} == set(LANGUAGES)
    assert all(game.min_players <= len(t) <= game.max_players for t in found), found


@pytest.mark.parametrize(("seats", "expected"), [
    ((2, 2), [("fr", "it"), ("nl", "de"), ("de", "en")]),
    ((2, 3), [("fr", "it", "nl"), ("de", "en")]),
    ((2, 4), [("fr", "it", "nl", "de"), ("de", "en")]),
    ((3, 4), [("fr", "it", "nl", "de"), ("nl", "de", "en")]),
    ((3, 3), [("fr", "it", "nl"), ("nl", "de", "en")]),
    ((2, 6), [("fr", "it", "nl", "de"), ("de", "en")])])  # four players to seat
def test_the_default_tables(seats: tuple[int, int], expected: list[tuple[str, ...]]) -> None:
    game = SimpleNamespace(min_players=seats[0], max_players=seats[1])
    assert tables(game, Languages()) == expected


# A whole game through real mail servers takes minutes on a loaded machine.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "hooks", "langs"), _params(every_database=True))
def test_a_whole_game_by_email_in_each_seats_language_on_every_database(
        name: str, hooks: Hooks, langs: tuple[str, ...], factory: SessionFactory,
        imap_server: Any, smtp_server: Any) -> None:
    a_whole_game_by_email_in_each_seats_language(name, hooks, langs, factory, imap_server,
                                                 smtp_server)


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "hooks", "langs"), _params(every_database=False))
def test_a_whole_game_by_email_in_each_seats_language_on_sqlite(
        name: str, hooks: Hooks, langs: tuple[str, ...], sqlite_factory: SessionFactory,
        imap_server: Any, smtp_server: Any) -> None:
    a_whole_game_by_email_in_each_seats_language(name, hooks, langs, sqlite_factory,
                                                 imap_server, smtp_server)


def a_whole_game_by_email_in_each_seats_language(
        name: str, hooks: Hooks, langs: tuple[str, ...], factory: SessionFactory,
        imap_server: Any, smtp_server: Any) -> None:
    languages = hooks.languages
    assert languages is not None
    rules = registry.get(name)
    with factory() as s:
        game, _ = api.create_game(s, name, PLAYERS[:len(langs)],
                                  seed=f"languages-{'-'.join(langs)}", host=HOST,
                                  languages=list(langs))
        s.commit()
        tag, game_id = game.tag, game.id
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed=languages.seed,
                          showcase=True)
    finally:
        inbox.close()
    players = len(langs)
    assert sorted(s for group in played.outcome.ranking for s in group) == list(range(players))
    assert played.turns > hooks.bots.more_turns_than(players)
    assert imap_server.messages() == []  # every bot mail was handled and moved away

    _orders_are_written_in_the_seats_words_and_logged_in_english(
        factory, rules, game_id or 0, langs, played, languages)
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, tag)).entries == played.turns

    for bot in played.bots:
        lang = langs[bot.seat]
        assert len(bot.received) > hooks.bots.more_turns_than(players) // players, bot.name
        if lang == "en":  # the scan finds English where it is: the English seat's mail
            assert english_left(bot.received[-1].text, "fr", name), bot.received[-1].text
        else:
            for mail in bot.received:
                html = mail.message.get_body(("html",))
                for text in (mail.text, "" if html is None else str(html.get_content())):
                    left = english_left(text, lang, name)
                    assert left == [], (lang, left, text)
        final = bot.received[-1].text
        tr = translator(lang, rules.name)
        assert tr.gettext("The game is over.") in final, (lang, final)
        assert languages.final.get(lang, "") in final, (lang, final)
    _showcase_replies_are_in_the_senders_language(langs, played)
    languages.check_played(langs, played)


def _orders_are_written_in_the_seats_words_and_logged_in_english(
        factory: SessionFactory, rules: Any, game_id: int, langs: Sequence[str],
        played: Played, languages: Languages) -> None:
    with factory() as s:
        entries = s.exec(select(LogEntry).where(LogEntry.game_id == game_id,
                                                LogEntry.kind == "order")
                         .order_by(col(LogEntry.index))).all()
        assert len(entries) == played.turns
        assert {langs[e.seat or 0] for e in entries} == set(langs)  # every seat wrote
        for entry in entries:
            assert entry.seat is not None and entry.source_message_id is not None
            inbound = s.get(InboundMessage, entry.source_message_id)
            assert inbound is not None
            lang = langs[entry.seat]
            written = _orders_written(inbound.raw, lang)
            canonical = entry.text.strip()
            assert written == localise_order(rules, canonical, lang)  # in the seat's words
            languages.check_order(lang, written)
            if lang == "en":
                continue
            assert written != canonical, (lang, written)
            before = s.exec(select(Snapshot).where(Snapshot.game_id == game_id,
                                                   Snapshot.log_index < entry.index)
                            .order_by(col(Snapshot.log_index).desc())).first()
            assert before is not None
            state = rules.from_json(json.loads(before.state_json))
            assert canonical_order(rules, state, entry.seat, written, lang) == canonical


def _orders_written(raw: bytes, lang: str) -> str:
    """The orders a bot wrote: its mail's lines before its secret (in its language's word)."""
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    part = parsed.get_body(("plain",))
    assert part is not None
    lines = str(part.get_content()).strip().splitlines()
    secret = next(i for i, line in enumerate(lines)
                  if line.startswith(f"{word('secret', lang)} "))
    return "\n".join(lines[:secret]).strip()


def _showcase_replies_are_in_the_senders_language(langs: Sequence[str], played: Played) -> None:
    """The first bot's dry run and unreadable order are answered in its language."""
    check, nonsense = played.showcase["check"], played.showcase["nonsense"]
    assert check.to_addr == nonsense.to_addr
    lang = next(langs[b.seat] for b in played.bots if b.address == check.to_addr)
    tr = translator(lang)
    legal = tr(msg("{check}: these orders are legal. Nothing was played.",
                   check=word("check", lang)))
    assert legal in check.text, check.text
    refused = tr(msg("Your orders were NOT played; nothing changed."))
    assert refused in nonsense.text, nonsense.text
