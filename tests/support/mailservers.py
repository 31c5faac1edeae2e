"""Real IMAP/SMTP servers on 127.0.0.1 as fixtures (the servers themselves are in
pbem_testkit, which the benches share).

Loaded as a pytest plugin by tests/conftest.py, so these fixtures are visible everywhere:

- ``imap_server``: pymap (in-memory) with responses written whole and IDLE announcing what
  came just before it, so IDLE is reliable; ``imap_server_unpatched``: stock pymap, whose
  piecewise writes can break ``idle_check``.
- ``smtp_server``: aiosmtpd requiring AUTH (``smtp_server.settings`` carries the login);
  ``make_smtp_server(auth=False)`` for an open one. ``.messages`` holds what was received,
  ``.refuse(...)`` simulates an outage with 451 replies.
- ``dovecot_server``: Debian Dovecot (IMAP + LMTP), skipped where it is not installed.

Each server exposes ``settings`` for the product's own transports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pbem_testkit.dovecot import DOVECOT, DovecotServer
from pbem_testkit.imap import IMAP_PASSWORD, IMAP_USER, PymapServer
from pbem_testkit.smtp import SMTP_PASSWORD, SMTP_USER, Received, SmtpTestServer

__all__ = ["DOVECOT", "IMAP_PASSWORD", "IMAP_USER", "SMTP_PASSWORD", "SMTP_USER",
           "DovecotServer", "PymapServer", "Received", "SmtpTestServer"]


def pytest_configure(config: pytest.Config) -> None:
    # The test SMTP server takes AUTH without TLS on purpose (127.0.0.1 only).
    config.addinivalue_line("filterwarnings",
                            "ignore:Requiring AUTH while not requiring TLS:UserWarning")


@pytest.fixture
def imap_server() -> Iterator[PymapServer]:
    """pymap, patched to write each response whole (reliable IDLE)."""
    server = PymapServer(whole_responses=True).start()
    yield server
    server.stop()


@pytest.fixture
def imap_server_unpatched() -> Iterator[PymapServer]:
    """Stock pymap: its IDLE updates can arrive in pieces and make imapclient abort."""
    server = PymapServer(whole_responses=False).start()
    yield server
    server.stop()


@pytest.fixture
def make_smtp_server() -> Iterator[Callable[..., SmtpTestServer]]:
    """Start SMTP servers on demand: ``make_smtp_server(auth=False)``."""
    started: list[SmtpTestServer] = []

    def make(*, auth: bool = True, smtputf8: bool = False) -> SmtpTestServer:
        server = SmtpTestServer(auth=auth, smtputf8=smtputf8).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def smtp_server(make_smtp_server: Callable[..., SmtpTestServer]) -> SmtpTestServer:
    """An SMTP server that requires AUTH; ``.settings`` carries the right login."""
    return make_smtp_server(auth=True)


@pytest.fixture
def dovecot_server() -> Iterator[DovecotServer]:
    """Debian's Dovecot, private to this test; skipped where Dovecot is not installed."""
    if DOVECOT is None:
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
    server = DovecotServer().start()
    yield server
    server.stop()
