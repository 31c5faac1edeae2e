"""Each host serves its players' guide: `pbem site build` writes a page per game and language
from the same sources as the ``help`` mail, the index links them, and with ``[site] url`` set
the welcome and ``help`` mails link to the page in the player's language."""

from __future__ import annotations

import email
import html
import re
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlmodel import col, select

from pbem.engine import registry
from pbem.engine.contract import help_text
from pbem.i18n import LANGUAGES, translator
from pbem.ops import api
from pbem.ops.guide import write_guides
from pbem.ops.site import _write
from pbem.pipeline.handlers.help import help_lines
from pbem.pipeline.one_mail import process_raw
from pbem.settings.config import ConfigError, MailConfig, Site, from_dict
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import OutboundMessage
from tests.ops.archive_support import Played
from tests.support.seated import ANN, BEN

SITE = "https://games.example.org/pbem/"


def pre(page: str, css: str) -> str:
    found = re.search(rf'<pre class="help {css}">(.*?)</pre>', page, re.S)
    assert found, css
    return html.unescape(found[1])


def test_site_build_writes_fifteen_guide_pages_linked_from_the_index(tmp_path: Path) -> None:
    played = Played(tmp_path / "home", "", "", 0)
    played.pbem("init")
    out = played.pbem("site", "build", str(tmp_path / "site"))
    assert "site written" in out
    guide = tmp_path / "site" / "guide"
    pages = sorted(p.relative_to(guide).as_posix() for p in guide.rglob("*.html"))
    assert pages == sorted(f"{g}/{lang}.html" for g in registry.games() for lang in LANGUAGES)
    assert len(pages) == 15
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    for page in pages:
        assert f'href="guide/{page}"' in index


def test_a_guide_page_says_what_the_help_mail_says(tmp_path: Path) -> None:
    write_guides(tmp_path, _write)
    for name, rules in registry.games().items():
        for lang in LANGUAGES:
            page = (tmp_path / "guide" / name / f"{lang}.html").read_text(encoding="utf-8")
            assert f'<html lang="{lang}">' in page
            assert pre(page, "game-help") == help_text(rules, None, lang).rstrip("\n")
            assert pre(page, "host-help") == "\n".join(help_lines(translator(lang)))
            others = [code for code in LANGUAGES if code != lang]
            assert re.findall(r'<a href="(\w\w)\.html"', page) == others
    french = (tmp_path / "guide" / sorted(registry.games())[0] / "fr.html").read_text("utf-8")
    assert "Toutes les parties" in french and "Aide pour" in french


def _queued(factory: SessionFactory, ids: list[int] | None = None) -> dict[str, str]:
    """The plain text of queued mail by recipient (all of it, or the ids given)."""
    with factory() as s:
        rows = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all()
        out: dict[str, str] = {}
        for row in rows:
            if ids is not None and row.id not in ids:
                continue
            mail = email.message_from_bytes(row.raw, policy=policy.default)
            assert isinstance(mail, EmailMessage)
            part = mail.get_body(("plain",))
            assert part is not None
            out[row.to_addr] = str(part.get_content())
        return out


def _help(factory: SessionFactory, host: Host, tag: str, sender: str) -> str:
    mail = EmailMessage()
    mail["From"], mail["To"] = sender, host.mail.from_address
    mail["Subject"], mail["Message-ID"] = f"Re: [{tag}]", make_msgid(domain="players.test")
    mail.set_content("help\n")
    result = process_raw(factory, bytes(mail), host)
    return _queued(factory, list(result.queued))[sender]


def test_welcome_and_help_link_to_the_guide_in_the_players_language(
        factory: SessionFactory) -> None:
    game_type = sorted(registry.games())[0]
    host = Host(mail=MailConfig(from_address="games@host.test"), site=Site(url=SITE))
    with factory() as s:
        game, _ = api.create_game(s, game_type, [("Ann", ANN), ("Ben", BEN)], host=host,
                                  languages=[None, "fr"])
        s.commit()
        tag = game.tag
    welcome = _queued(factory)
    english = f"{SITE}guide/{game_type}/en.html"
    french = f"{SITE}guide/{game_type}/fr.html"
    assert f"The players' guide for this game, in your language: {english}" in welcome[ANN]
    assert f"Le guide des joueurs de ce jeu, dans votre langue : {french}" in welcome[BEN]
    assert f"Le guide des joueurs de ce jeu, dans votre langue : {french}" in _help(
        factory, host, tag, BEN)
    assert english in _help(factory, host, tag, ANN)


def test_without_a_site_address_no_mail_links_to_a_guide(factory: SessionFactory) -> None:
    game_type = sorted(registry.games())[0]
    host = Host(mail=MailConfig(from_address="games@host.test"))
    with factory() as s:
        game, _ = api.create_game(s, game_type, [("Ann", ANN), ("Ben", BEN)], host=host)
        s.commit()
        tag = game.tag
    assert not any("guide/" in text for text in _queued(factory).values())
    assert "guide/" not in _help(factory, host, tag, ANN)


def test_the_site_address_is_checked() -> None:
    assert from_dict({"site": {"url": SITE}}).site.url == SITE
    try:
        from_dict({"site": {"url": "games.example.org"}})
    except ConfigError as exc:
        assert "site.url must be the site's address" in str(exc)
    else:
        raise AssertionError("a site address without its scheme was taken")


def test_a_player_taking_over_a_seat_gets_the_link_too(factory: SessionFactory) -> None:
    from pbem.ops.admin import takeover

    game_type = sorted(registry.games())[0]
    host = Host(mail=MailConfig(from_address="games@host.test"), site=Site(url=SITE))
    with factory() as s:
        game, _ = api.create_game(s, game_type, [("Ann", ANN), ("Ben", BEN)], host=host)
        s.commit()
        first = max(m.id or 0 for m in s.exec(select(OutboundMessage)).all())
        takeover(s, host, game, 1, "Cy", "cy@players.test")
        s.commit()
        ids = [m.id or 0 for m in s.exec(select(OutboundMessage)).all() if (m.id or 0) > first]
    assert f"{SITE}guide/{game_type}/en.html" in _queued(factory, ids)["cy@players.test"]
