"""The SMTP sender against a real server (aiosmtpd): delivery, auth, outages, refusals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage

import pytest

from pbem.mail.compose import compose, game_subject
from pbem.mail.outbound import SendError, SmtpSender
from pbem.mail.reading import read_message
from tests.support.mailservers import SmtpTestServer


def status_mail(to: str = "alice@players.test") -> EmailMessage:
    return compose(from_addr="games@host.test", from_name="Game Host", to_addr=to,
                   to_name="Alice", subject=game_subject("Test Cards", "cards-1"),
                   text="It is your turn.\nYour hand: 3, 5\n", html="<p>It is your turn.</p>",
                   in_reply_to="<orders-1@players.test>", references=[], auto_reply=True,
                   message_id_domain="host.test").message()


def test_sent_mail_arrives_whole_and_reads_back(smtp_server: SmtpTestServer) -> None:
    msg = status_mail()
    SmtpSender(smtp_server.settings).send(msg)
    (got,) = smtp_server.received
    assert got.mail_from == "games@host.test"
    assert got.rcpt_tos == ["alice@players.test"]
    back = read_message(got.raw)
    assert back.subject == "[cards-1] Test Cards"
    assert back.body_text == "It is your turn.\nYour hand: 3, 5"
    assert back.in_reply_to == "<orders-1@players.test>"
    assert back.message_id == str(msg["Message-ID"])
    assert back.automatic and back.automatic_reason == "Auto-Submitted: auto-replied"


def test_an_open_server_needs_no_login(make_smtp_server: Callable[..., SmtpTestServer]) -> None:
    server = make_smtp_server(auth=False)
    assert server.settings.user is None
    SmtpSender(server.settings).send(status_mail())
    assert len(server.messages) == 1


def test_without_login_an_auth_server_refuses_permanently(smtp_server: SmtpTestServer) -> None:
    anonymous = replace(smtp_server.settings, user=None, password=None)
    with pytest.raises(SendError) as err:
        SmtpSender(anonymous).send(status_mail())
    assert err.value.transient is False
    assert "530" in str(err.value)
    assert smtp_server.messages == []


def test_a_wrong_password_is_a_permanent_error(smtp_server: SmtpTestServer) -> None:
    wrong = replace(smtp_server.settings, password="guessed-wrong")
    with pytest.raises(SendError, match=r"refused the login as 'mailer': 535 ") as err:
        SmtpSender(wrong).send(status_mail())
    assert err.value.transient is False
    assert "guessed-wrong" not in str(err.value)
    assert "guessed-wrong" not in repr(wrong)
    assert smtp_server.messages == []


def test_an_outage_is_transient_and_sending_resumes(smtp_server: SmtpTestServer) -> None:
    sender = SmtpSender(smtp_server.settings)
    smtp_server.refuse(count=2)
    for _ in range(2):
        with pytest.raises(SendError, match=r"answered 451 4\.3\.0") as err:
            sender.send(status_mail())
        assert err.value.transient is True
    sender.send(status_mail())
    assert len(smtp_server.messages) == 1
    assert smtp_server.handler.refused == 2


def test_an_unknown_recipient_is_permanent(smtp_server: SmtpTestServer) -> None:
    smtp_server.reject("nobody@players.test")
    with pytest.raises(SendError, match=r"nobody@players.test: 550") as err:
        SmtpSender(smtp_server.settings).send(status_mail("nobody@players.test"))
    assert err.value.transient is False


def test_a_server_that_is_down_is_transient(smtp_server: SmtpTestServer) -> None:
    settings = smtp_server.settings
    smtp_server.stop()
    with pytest.raises(SendError, match="unreachable") as err:
        SmtpSender(replace(settings, timeout=2.0)).send(status_mail())
    assert err.value.transient is True


@pytest.mark.parametrize("raw", [
    b"Subject: x\n\nbody\n", b"Subject: x\r\n\r\nbody\r\n", b"Subject: x\n\nno end",
    b"Subject: x\r\n\r\nmixed\nends\r\n", b"", b"\n", b"\r\n", b".\n..\n"])
def test_the_declared_size_is_what_data_puts_on_the_wire(raw: bytes) -> None:
    from aiosmtplib.protocol import normalize_message_line_endings

    from pbem.mail.outbound import wire_size

    assert wire_size(raw) == len(normalize_message_line_endings(raw))


def test_a_lone_carriage_return_leaves_the_size_to_aiosmtplib() -> None:
    from pbem.mail.outbound import wire_size

    assert wire_size(b"Subject: x\r\n\r\nodd\rline\r\n") is None
    assert wire_size(b"Subject: x\n\nodd\rline\n") is None


def test_stored_bytes_refused_for_every_recipient_fail_for_good(
        smtp_server: SmtpTestServer) -> None:
    smtp_server.reject("nobody@players.test")
    with pytest.raises(SendError, match=r"nobody@players.test: 550") as err:
        SmtpSender(smtp_server.settings).send_bytes(bytes(status_mail("nobody@players.test")))
    assert err.value.transient is False
    assert smtp_server.received == []


def test_stored_bytes_refused_for_one_recipient_reach_the_others(
        smtp_server: SmtpTestServer) -> None:
    """As aiosmtplib's sendmail: the mail goes to the recipients the server takes; only when
    it refuses every one is the send an error."""
    smtp_server.reject("nobody@players.test")
    msg = status_mail()
    msg["Cc"] = "nobody@players.test"
    SmtpSender(smtp_server.settings).send_bytes(bytes(msg))
    (got,) = smtp_server.received
    assert got.rcpt_tos == ["alice@players.test"]
    assert got.raw.replace(b"\r\n", b"\n") == bytes(msg).replace(b"\r\n", b"\n")


def _stored(msg: EmailMessage) -> bytes:
    """``msg`` as the outbox stores it: LF-ended (the bytes go out through data_wire)."""
    return bytes(msg).replace(b"\r\n", b"\n")


def _aiosmtplib_wire(raw: bytes) -> bytes:
    """What aiosmtplib's own DATA writes for ``raw``: its two regular expressions, the end."""
    from aiosmtplib.protocol import PERIOD_REGEX, normalize_message_line_endings

    return PERIOD_REGEX.sub(b"..", normalize_message_line_endings(raw)) + b".\r\n"


@pytest.mark.parametrize("raw", [
    b"Subject: x\n\nbody\n", b"Subject: x\n\nno end", b"", b"\n", b".", b".\n..\n.x\n",
    b"Subject: x\n\n.\n", b"a\n.\n\n.\n", b"\n.\n", b"..", b"x\n.", b"\xc3\xa9\n.\xff\n"])
def test_data_puts_on_the_wire_what_aiosmtplib_would(raw: bytes) -> None:
    from pbem.mail.outbound import data_wire

    assert data_wire(raw) == _aiosmtplib_wire(raw)


def test_data_with_a_carriage_return_is_left_to_aiosmtplib() -> None:
    from pbem.mail.outbound import data_wire

    assert data_wire(b"Subject: x\r\n\r\nbody\r\n") is None
    assert data_wire(b"Subject: x\n\nodd\rline\n") is None


def test_random_mails_go_on_the_wire_as_aiosmtplib_would_write_them() -> None:
    import random

    from pbem.mail.outbound import data_wire

    rng = random.Random(15)
    pieces = [b"\n", b".", b"..", b"x", b"\n.", b".\n", b" ", b"\xe2\x80\x94", b"=2E"]
    for _ in range(3000):
        raw = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        assert data_wire(raw) == _aiosmtplib_wire(raw), raw


def test_stored_bytes_with_dotted_lines_arrive_as_they_were(smtp_server: SmtpTestServer) -> None:
    """Lines that start with a dot (one alone would end DATA) get through dot-stuffed and
    arrive as they were stored."""
    raw = _stored(status_mail()) + b".\n..two\n.\n"
    SmtpSender(smtp_server.settings).send_bytes(raw)
    (got,) = smtp_server.received
    assert got.raw.replace(b"\r\n", b"\n") == raw


def test_a_mail_the_server_refuses_after_data_fails_for_good_and_the_next_goes_out(
        smtp_server: SmtpTestServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal after the message's bytes (here 554) is the server's word on that mail;
    the connection it came on is dropped, and the next mail of the session goes out."""
    handler = smtp_server.handler
    accept = type(handler).handle_DATA
    refusals = [True]

    async def refuse_once(server: object, session: object, envelope: object) -> str:
        if refusals:
            refusals.pop()
            return "554 5.6.0 Message refused"
        return await accept(handler, server, session, envelope)
    monkeypatch.setattr(handler, "handle_DATA", refuse_once)
    sender = SmtpSender(smtp_server.settings)
    with sender.session():
        with pytest.raises(SendError, match="554") as err:
            sender.send_bytes(_stored(status_mail()))
        assert err.value.transient is False
        sender.send_bytes(_stored(status_mail("bob@players.test")))
    (got,) = smtp_server.received
    assert got.rcpt_tos == ["bob@players.test"]
