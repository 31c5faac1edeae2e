"""Mail and pages as a screen-reader user, a keyboard user and a low-vision reader meet them:
axe-core run in headless Chromium finds no serious or critical violation of WCAG 2.2 AA.

Checked: a status mail (each seat's, after a move) of every game in every language, a lobby
mail (the welcome to a table the lobby started) and a game's archive page. A refusal (the
reply to an order that cannot be read) is plain text, with no page to audit: its header names
its language. The default run takes one language per game (each
game in a different one); the long run (``-m slow``) takes them all.
"""

from __future__ import annotations

import email
import random
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.engine.contract import localise_order
from pbem.i18n.translate import LANGUAGES
from pbem.ops import api
from pbem.ops.archive import Viewer, build, render_page
from pbem.ops.site import build_site
from pbem.pipeline.one_mail import Result
from pbem.settings.config import Lobby, MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import OutboundMessage
from tests.lobby.conftest import Post
from tests.support.axe import axe_source, violations
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import archive_ready, write_mail_page
from tests.support.seated import seat_table

GAMES = sorted(registry.games())
# One language per game in the default run, a different one for each game.
QUICK = [(game, LANGUAGES[1 + n % (len(LANGUAGES) - 1)]) for n, game in enumerate(GAMES)]
EVERY = [(game, lang) for game in GAMES for lang in LANGUAGES if (game, lang) not in QUICK]


def _mails(factory: SessionFactory, result: Result) -> list[EmailMessage]:
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id).in_(
            result.queued)).order_by(col(OutboundMessage.id))).all()
        return [_parsed(r.raw) for r in rows]


def _parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def _html_mails(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in mails if m.get_body(("html",)) is not None]


def _audit(driver: Any, mails: list[EmailMessage], folder: Path, lang: str | None
           ) -> list[str]:
    """Every HTML mail of ``mails`` opened as its reader's client would show it, audited; and
    each says its language (``lang``; None: any) in its header and its page alike."""
    found = []
    for n, mail in enumerate(mails):
        page = write_mail_page(mail, folder, f"mail-{n}")
        assert page is not None
        assert mail["Content-Language"] == (lang or mail["Content-Language"] or "?"), \
            mail["Subject"]
        lang = str(mail["Content-Language"])
        assert f'<html lang="{lang}">' in page.read_text(encoding="utf-8")
        driver.get(page.as_uri())
        found += violations(driver, f"{mail['Subject']}")
    return found


def _status_and_refusal(factory: SessionFactory, game: str, lang: str
                        ) -> tuple[list[EmailMessage], Any]:
    """The status mails after a legal move, at a table of two seats reading ``lang``; then the
    refusal of an order that cannot be read, which is plain text (a client shows it in its
    own reader, in the language its header names)."""
    table = seat_table(factory, game, languages=[lang, lang], seed=f"axe-{lang}")
    rules = table.rules
    state = table.state()
    seat = min(rules.waiting_for(state))
    order = localise_order(rules, rules.random_order(state, seat, random.Random(lang)), lang)
    moved, _ = table.send(seat, order)
    assert moved.status == "applied", moved
    mails = _html_mails(_mails(factory, moved))
    assert mails, "a status mail, to the mover at least"
    seat = min(rules.waiting_for(table.state()))
    refused, _ = table.send(seat, "xyzzy 99")
    [refusal] = _mails(factory, refused)
    assert refusal.get_body(("html",)) is None
    assert refusal["Content-Language"] == lang
    return mails, table


@pytest.mark.parametrize(("game", "lang"), [
    *QUICK, *(pytest.param(game, lang, marks=pytest.mark.slow) for game, lang in EVERY)],
    ids=[f"{g}-{lang}" for g, lang in QUICK + EVERY])
def test_status_mails_have_no_serious_violation(
        factory: SessionFactory, browser: Any, tmp_path: Path,  # noqa: F811
        game: str, lang: str) -> None:
    axe_source()
    mails, _ = _status_and_refusal(factory, game, lang)
    found = _audit(browser, mails, tmp_path, lang)
    assert not found, "\n".join(found)


CODE = re.compile(r"(\S+)$")  # the code ends the subject, in every language


def test_a_lobby_welcome_mail_has_no_serious_violation(
        factory: SessionFactory, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    axe_source()
    game = GAMES[0]
    post = Post(factory, Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host",
                                              operator_address="op@host.test"),
                              lobby=Lobby(enabled=True)))
    codes = []
    for who, name, words in (("ann@players.test", "Ann", f"new {game} players 2"),
                             ("ben@players.test", "Ben", f"join {game}")):
        subject, _ = post.answer(post.send(who, words, name=name, lang="it"))
        assert CODE.search(subject), subject
        codes.append((who, subject))
    for who, subject in codes:  # a reply to the code's mail confirms the seat
        last = post.send(who, "", subject=f"Re: {subject}")
    welcome = _html_mails([m for _, m in post.answers(last)])
    assert len(welcome) == 2, "the lobby's table started: a welcome to each seat"
    blocking = _audit(browser, welcome, tmp_path, None)
    assert not blocking, "\n".join(blocking)


def test_an_archive_page_and_the_site_index_have_no_serious_violation(
        factory: SessionFactory, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    axe_source()
    game = GAMES[-1]
    _, table = _status_and_refusal(factory, game, "de")
    with factory() as s:
        page = render_page(build(s, api.get_game(s, table.game_id), Viewer(seat=0)))
        build_site(s, tmp_path / "site")
    path = tmp_path / "archive.html"
    path.write_text(page, encoding="utf-8")
    assert '<html lang="de">' in page
    browser.get(path.as_uri())
    archive_ready(browser)
    found = violations(browser, "archive")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    found += violations(browser, "site index")
    assert not found, "\n".join(found)


def test_the_players_guide_pages_have_no_serious_violation(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    axe_source()
    from pbem.ops.guide import write_guides
    from pbem.ops.site import _write

    _, pages = write_guides(tmp_path, _write)
    assert len(pages) == len(GAMES) * len(LANGUAGES)
    found = []
    for page in pages:
        browser.get(page.as_uri())
        found += violations(browser, page.relative_to(tmp_path).as_posix())
    assert not found, "\n".join(found)
