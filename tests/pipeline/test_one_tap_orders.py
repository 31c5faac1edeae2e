"""One-tap orders: where a turn's legal orders are few (Reef Encounter's ``take COLOUR``), the
seat's HTML status offers links that open a reply with the order written in, to the seat's
reply address, the subject kept. Read in headless Chromium at a phone's 390 px, the links are
there and fit; the mail one opens, sent back through real mail (pymap in, aiosmtpd out),
plays."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.contract import localise_order
from pbem.engine.replay import play
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.one_tap import ONE_TAP_MAX, one_tap_orders
from pbem.settings.host import Host
from pbem.settings.sections import MailConfig
from pbem.store import SessionFactory
from pbem_testkit.imap import PymapServer
from pbem_testkit.smtp import SmtpTestServer
from tests.pipeline.conftest import ALICE, BOB
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import measure, phone, write_mail_page
from tests.support.playermail import mail

GAME = "reef-encounter"
HOST = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))
TAP_LINKS = """return Array.from(document.querySelectorAll('a.tap')).map(a => {
  const r = a.getBoundingClientRect();
  return [a.textContent.trim(), a.getAttribute('href'), r.left, r.right, r.height];
});"""


def parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def latest_to(smtp: SmtpTestServer, address: str) -> EmailMessage:
    for item in reversed(list(smtp.messages)):
        msg = parsed(item.raw if hasattr(item, "raw") else item)
        if address in str(msg["To"]):
            return msg
    raise AssertionError(f"no mail to {address}")


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def state_of(factory: SessionFactory, tag: str) -> Any:
    with factory() as s:
        return api.current_state(s, api.get_game(s, tag))


def to_play(factory: SessionFactory, tag: str, imap: PymapServer,
            smtp: SmtpTestServer) -> tuple[str, int]:
    """A new two-seat game, its setup step answered (by the seats' secrets, the game's own
    default answers): the address and seat whose turn it is then, its status mailed."""
    rules = registry.get(GAME)
    with factory() as s:
        _, secrets = api.create_game(s, GAME, [("Alice", ALICE), ("Bob", BOB)],
                                     seed="one-tap", tag=tag, host=HOST)
        s.commit()
    addresses = (ALICE, BOB)
    for _ in range(4):
        state = state_of(factory, tag)
        waiting = sorted(rules.waiting_for(state))
        if state.phase != "setup":
            break
        seat = waiting[0]
        order = rules.default_order(state, seat)
        result = process_raw(factory, mail(addresses[seat], f"Re: [{tag}] {rules.title}",
                                           f"{order}\nsecret {secrets[seat]}"), HOST)
        assert result.status == "applied", result.reason
    state = state_of(factory, tag)
    assert state.phase == "play"
    api.deliver_outbox(factory, SmtpSender(smtp.settings), HOST)
    seat = min(rules.waiting_for(state))
    return addresses[seat], seat


def test_the_links_fit_a_phone_and_the_mail_they_open_plays(
        factory: SessionFactory, imap_server: PymapServer, smtp_server: SmtpTestServer,
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    rules = registry.get(GAME)
    tag = "reef-tap"
    mover, seat = to_play(factory, tag, imap_server, smtp_server)
    other = BOB if mover == ALICE else ALICE
    offered = one_tap_orders(rules, state_of(factory, tag), seat)
    assert 1 <= len(offered) <= ONE_TAP_MAX and all(o.startswith("take ") for o in offered)
    status = latest_to(smtp_server, mover)
    assert "your move" in str(status["Subject"])
    page = write_mail_page(status, tmp_path, "mover")
    assert page is not None
    phone(browser)
    try:
        browser.get(page.as_uri())
        links = browser.execute_script(TAP_LINKS)
        trip = measure(browser, "the mover's status")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert trip is None, trip
    assert [text for text, *_ in links] == offered
    assert all(left >= 0 and right <= 390 and height >= 24 for *_, left, right, height in links)
    # Each opens a reply to this seat's reply address, the subject kept, the order its body.
    href = links[0][1]
    url = urlsplit(href)
    query = parse_qs(url.query)
    assert url.scheme == "mailto" and unquote(url.path) == str(status["Reply-To"])
    assert query["subject"] == [f"Re: {status['Subject']}"]
    assert query["body"] == [offered[0]]
    # The other seat's mail of the same move offers no links: they are the mover's alone.
    waiting_page = write_mail_page(latest_to(smtp_server, other), tmp_path, "other")
    assert waiting_page is not None and "a class=\"tap\"" not in waiting_page.read_text()
    # What the mail client writes from the link, sent back: it plays, with no secret line.
    reply = EmailMessage()
    reply["From"], reply["To"] = mover, unquote(url.path)
    reply["Subject"] = query["subject"][0]
    reply.set_content(query["body"][0])
    imap_server.deliver(bytes(reply))
    done = api.process_inbox(factory, ImapInbox(imap_server.settings),
                             SmtpSender(smtp_server.settings), HOST)
    assert [r.status for r in done.results] == ["applied"]
    assert f"Done. Your orders were played:\n> {offered[0]}" in text_of(
        latest_to(smtp_server, mover))
    with factory() as s:
        log = api.game_log(s, api.get_game(s, tag))
    assert (log[-1].seat, log[-1].text.strip()) == (seat, offered[0])


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_links_are_written_in_the_seats_words(lang: str) -> None:
    rules = registry.get(GAME)
    state = rules.setup(2, rules.default_options(), Chance("one-tap"))
    while state.phase == "setup":
        seat = min(rules.waiting_for(state))
        state = play(rules, state, seat, rules.default_order(state, seat), "one-tap")[0].state
    seat = min(rules.waiting_for(state))
    english = one_tap_orders(rules, state, seat)
    assert one_tap_orders(rules, state, seat, lang) == [
        localise_order(rules, o, lang) for o in english] != english


def test_a_seat_not_to_move_is_offered_nothing() -> None:
    rules = registry.get(GAME)
    state = rules.setup(2, rules.default_options(), Chance("one-tap"))
    while state.phase == "setup":
        seat = min(rules.waiting_for(state))
        state = play(rules, state, seat, rules.default_order(state, seat), "one-tap")[0].state
    idle = next(s for s in range(2) if s not in rules.waiting_for(state))
    assert one_tap_orders(rules, state, idle) == []
