"""pbem checks the certificate of every mail server it reaches over TLS: an unknown CA or a
name the certificate does not carry stops it, with the reason in one line; ``ca_file`` and
``tls_name`` (pbem's own Postfix on 127.0.0.1 with a certificate for the mail domain) let the
right certificate through. Real servers: aiosmtpd with STARTTLS required, a TLS listener for
IMAP."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.outbound import SendError, SmtpSender
from pbem.mail.settings import ImapSettings, SmtpSettings
from pbem.ops.doctor import check_imap, check_smtp
from tests.support.mailservers import SmtpTestServer

NAME = "mail.test"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for mail.test, like Debian's snakeoil one."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={NAME}",
                    "-addext", f"subjectAltName=DNS:{NAME}", "-addext",
                    "basicConstraints=CA:FALSE"], check=True, capture_output=True)
    return cert, key


def server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


@pytest.fixture
def smtp(certificate: tuple[Path, Path]) -> Iterator[SmtpTestServer]:
    server = SmtpTestServer(auth=False, tls_context=server_context(certificate)).start()
    yield server
    server.stop()


def settings(server: SmtpTestServer, **tls: str) -> SmtpSettings:
    return SmtpSettings(host=server.host, port=server.port, security="starttls", timeout=10,
                        **tls)


def mail() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@mail.test", "ann@players.test", "hi"
    msg.set_content("hello")
    return msg


def test_an_unknown_ca_stops_the_submission(smtp: SmtpTestServer) -> None:
    check = check_smtp(settings(smtp), "games@mail.test")
    assert not check.ok and "CERTIFICATE_VERIFY_FAILED" in check.message, check
    assert check.fix == "check outbound.smtp host, port and security, and the firewall"
    with pytest.raises(SendError, match="CERTIFICATE_VERIFY_FAILED"):
        SmtpSender(settings(smtp)).send(mail())
    assert smtp.received == []


def test_a_trusted_certificate_for_another_name_stops_it_too(
        smtp: SmtpTestServer, certificate: tuple[Path, Path]) -> None:
    check = check_smtp(settings(smtp, ca_file=str(certificate[0])), "games@mail.test")
    assert not check.ok and "IP address mismatch" in check.message, check
    wrong = settings(smtp, ca_file=str(certificate[0]), tls_name="other.test")
    assert "Hostname mismatch" in check_smtp(wrong, "games@mail.test").message
    assert smtp.received == []


def test_ca_file_and_tls_name_let_the_right_certificate_through(
        smtp: SmtpTestServer, certificate: tuple[Path, Path]) -> None:
    good = settings(smtp, ca_file=str(certificate[0]), tls_name=NAME)
    assert check_smtp(good, "games@mail.test").ok
    SmtpSender(good).send(mail())  # the server takes no mail before STARTTLS
    assert [r.rcpt_tos for r in smtp.received] == [["ann@players.test"]]


def test_imap_over_tls_checks_the_certificate(certificate: tuple[Path, Path]) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    context = server_context(certificate)

    def serve() -> None:
        conn, _ = listener.accept()
        try:
            with context.wrap_socket(conn, server_side=True) as tls:
                tls.sendall(b"* OK IMAP4rev1 ready\r\n")
        except (ssl.SSLError, OSError):
            pass  # the client gave up during the handshake: what this test expects
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        check = check_imap(ImapSettings(host="127.0.0.1", port=port, user="games",
                                        password="x", security="tls", timeout=10))
    finally:
        thread.join(10)
        listener.close()
    assert not check.ok and "CERTIFICATE_VERIFY_FAILED" in check.message, check
