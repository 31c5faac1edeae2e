"""Reef Encounter by mail with seats in five languages: bots write their orders in their seat's
language (the game's ``localise_order``), the host reads them (``canonical_order``), and every
mail a seat gets is in its language: no English sentence of the host's or the game's catalogue
is left in a non-English seat's mail."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.games.reef_encounter import GAME, ReefEncounter
from pbem.games.reef_encounter.keywords import ORDER_WORDS, alternatives, fold
from pbem.i18n.translate import translator
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.store import SessionFactory, init, session_factory
from tests.games.reef_encounter.mailtable import HOST, PLAYERS
from tests.support.botmail import ServerMailroom
from tests.support.english_left import english_left

pytestmark = pytest.mark.slow

@pytest.fixture
def sqlite_factory(tmp_path: Path) -> Iterator[SessionFactory]:
    engine = init(f"sqlite:///{tmp_path / 'lang.sqlite'}")
    yield session_factory(engine)
    engine.dispose()


@pytest.fixture
def orders_written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every order the game localised for a bot (the host's bots call ``localise_order``
    with their seat's language): (language, text). Recorded only, never changed."""
    written: list[tuple[str, str]] = []
    localise = ReefEncounter.localise_order

    def recorded(self: ReefEncounter, text: str, lang: str) -> str:
        out = localise(self, text, lang)
        written.append((lang, out))
        return out

    monkeypatch.setattr(ReefEncounter, "localise_order", recorded)
    return written


# Two games cover all five languages: four seats in four languages, then German and English.
# A whole game through real mail servers takes minutes on a loaded machine.
@pytest.mark.timeout(900)
@pytest.mark.parametrize("langs", [("fr", "it", "nl", "de"), ("de", "en")],
                         ids=["fr-it-nl-de", "de-en"])
def test_a_bot_game_with_seats_in_five_languages(
        langs: tuple[str, ...], sqlite_factory: SessionFactory, imap_server: Any,
        smtp_server: Any, orders_written: list[tuple[str, str]]) -> None:
    written = orders_written
    with sqlite_factory() as s:
        game, _ = api.create_game(s, "reef-encounter", PLAYERS[:len(langs)],
                                  seed=f"lang-{'-'.join(langs)}", host=HOST, languages=list(langs))
        s.commit()
        tag = game.tag
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(sqlite_factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed="lang",
                          showcase=True)
    finally:
        inbox.close()
    assert played.outcome.ranking

    # Every order a bot sent is written in its seat's words (English words only in English).
    for lang, text in written:
        native = {fold(w) for m in ORDER_WORDS
                  for w in re.findall(r"[^\W\d_]+", alternatives(lang, m.id)[0])}
        words = {fold(w) for w in re.findall(r"(?<![0-9])[^\W\d_]+", text)}
        assert words <= native, (lang, text)
    assert {lang for lang, _ in written} == set(langs) - {"en"}

    # Every mail to a seat is in that seat's language.
    for bot in played.bots:
        lang = langs[bot.seat]
        assert bot.received, bot.name
        for mail in bot.received:
            if lang != "en":
                assert english_left(mail.text, lang, "reef-encounter") == [], (lang, mail.text)
        if lang == "en":  # the scan finds English where it is: the English seat's mail
            said = bot.received[-1].text
            assert english_left(said, "fr", "reef-encounter"), said
        final = bot.received[-1].text
        over = translator(lang, GAME.name).gettext("The game is over.")
        assert over in final, (lang, final)
