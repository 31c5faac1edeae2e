"""Every header pbem writes is 7-bit (RFC 2047 encoded words for text beyond ASCII); over SMTP
(a real aiosmtpd) 8-bit headers go only under SMTPUTF8, and pbem greets the server with the
mail domain."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import replace
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.compose import compose, seven_bit_head
from pbem.mail.outbound import SmtpSender
from pbem.settings.config import ConfigError, from_dict
from pbem.settings.transports import smtp_settings
from tests.support.mailservers import SmtpTestServer

MOVE = "[reef-1] Turn 18 — your move (due jeu. 26 nov. 18:00 UTC)"
ARGS: dict[str, Any] = {"from_addr": "games@host.test", "from_name": "Hôte des jeux",
                        "to_addr": "zoe@players.test", "to_name": "Zoë Ünal", "subject": MOVE,
                        "text": "À vous de jouer.\n", "html": "<p>À vous</p>",
                        "message_id_domain": "host.test"}


def head(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]


def parsed(raw: bytes) -> EmailMessage:
    msg = message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


@pytest.mark.parametrize("subject", [MOVE, "Tour 9 — à vous", "日本語の件名 " * 12, "[x] né"])
def test_the_writer_writes_every_header_in_seven_bits(subject: str) -> None:
    args = {**ARGS, "subject": subject, "list_id": "reef-1 <reef-1.host.test>",
            "extra_headers": [("Reply-To", "Hôte des jeux <games+t0k@host.test>")]}
    raw = compose(**args).raw
    assert head(raw).isascii(), head(raw)
    back = parsed(raw)
    assert back["Subject"] == " ".join(subject.split())
    assert back["To"].addresses[0].display_name == "Zoë Ünal"
    assert back["From"].addresses[0].display_name == "Hôte des jeux"
    assert back["List-Id"] == "reef-1 <reef-1.host.test>"
    assert back["Reply-To"].addresses[0].display_name == "Hôte des jeux"
    assert not back.defects


def test_a_status_mail_reaches_a_server_without_smtputf8_in_seven_bits(
        smtp_server: SmtpTestServer) -> None:
    raw = compose(**ARGS).raw
    SmtpSender(smtp_server.settings).send_bytes(raw)
    (got,) = smtp_server.received
    assert "SMTPUTF8" not in got.mail_options
    assert head(got.raw).isascii()
    assert parsed(got.raw)["Subject"] == MOVE


# A mail stored with raw UTF-8 in its Subject and To (as queued before headers were written
# 7-bit): it may still be waiting in an outbox.
STORED = ("From: games@host.test\nTo: Zoë <zoe@players.test>\nSubject: " + MOVE + "\n"
          "Message-ID: <1@host.test>\nMIME-Version: 1.0\n"
          'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n\n'
          "À vous de jouer.\n").encode("utf-8")


def test_a_stored_eight_bit_header_is_encoded_for_a_server_without_smtputf8(
        smtp_server: SmtpTestServer) -> None:
    SmtpSender(smtp_server.settings).send_bytes(STORED)
    (got,) = smtp_server.received
    assert "SMTPUTF8" not in got.mail_options
    assert head(got.raw).isascii(), head(got.raw)
    back = parsed(got.raw)
    assert back["Subject"] == MOVE
    assert back["To"].addresses[0].display_name == "Zoë"
    body = got.raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[1]
    assert body == "À vous de jouer.\n".encode()  # the body goes out as stored


def test_a_stored_eight_bit_header_goes_as_it_is_under_smtputf8(
        make_smtp_server: Callable[..., SmtpTestServer]) -> None:
    server = make_smtp_server(auth=False, smtputf8=True)
    SmtpSender(server.settings).send_bytes(STORED)
    (got,) = server.received
    assert "SMTPUTF8" in got.mail_options
    assert got.raw.replace(b"\r\n", b"\n") == STORED


def test_seven_bit_head_leaves_an_ascii_mail_byte_for_byte() -> None:
    raw = compose(**{**ARGS, "subject": "plain", "to_name": "Zoe",
                     "from_name": "Host", "text": "été\n"}).raw
    assert seven_bit_head(raw) is raw
    crlf = STORED.replace(b"\n", b"\r\n")
    assert head(seven_bit_head(crlf)).isascii()
    assert b"\r\n\r\n" in seven_bit_head(crlf) and b"\n\n" not in seven_bit_head(crlf)


def _config(tmp_path: Path, smtp: dict[str, Any], port: int) -> Any:
    return from_dict({"mail": {"from_address": "games@mail.example.test"},
                      "outbound": {"smtp": {"host": "127.0.0.1", "port": port,
                                            "security": "none", **smtp}}}, base=tmp_path)


def test_pbem_greets_the_server_with_the_mail_domain_not_the_machines_name(
        make_smtp_server: Callable[..., SmtpTestServer], tmp_path: Path) -> None:
    server = make_smtp_server(auth=False)
    settings = smtp_settings(_config(tmp_path, {}, server.port))
    assert settings is not None
    SmtpSender(replace(settings, timeout=10.0)).send_bytes(compose(**ARGS).raw)
    assert server.received[-1].ehlo == "mail.example.test"
    assert server.received[-1].ehlo != socket.getfqdn()
    named = smtp_settings(_config(tmp_path, {"ehlo_name": "mx1.example.test"}, server.port))
    assert named is not None
    SmtpSender(replace(named, timeout=10.0)).send_bytes(compose(**ARGS).raw)
    assert server.received[-1].ehlo == "mx1.example.test"


def test_a_wrong_ehlo_name_is_refused_with_its_form(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"ehlo_name must be a host name like mail\.example"):
        _config(tmp_path, {"ehlo_name": "not a name"}, 25)
