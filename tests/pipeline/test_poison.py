"""Poison mail: each hostile mail of test_hostile in front of valid mail, over real IMAP (pymap,
and Debian's Dovecot) and SMTP (aiosmtpd), through the real ``pbem process`` command, on each
database backend.

The pass must not stop at any of them: ``pbem process`` exits 0, every valid mail behind a
hostile one is answered, the inbox is emptied (quarantined mail to the failed folder, the rest
to the processed one), and no answer to a hostile mail carries its words.
"""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.mail.redact import redact
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.seat_secrets import hash_secret
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support import corpus
from tests.support.mailservers import DovecotServer, PymapServer, SmtpTestServer
from tests.support.playermail import mail

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SECRETS = ("corpus-alice-secret", "corpus-bob-secret")
HOSTILE = [  # (fixture, what the host does with it)
    ("long-local-part-from.eml", "rejected"),  # finding 1: no note to an unparsable address
    ("long-message-id.eml", "ignored"),  # finding 2: a digest key; the status is sent
    ("conflicting-duplicate.eml", "quarantined"),  # 7: kept apart, for the operator
    ("spam-subject-stranger.eml", "rejected"),  # 6: a note that echoes nothing
    ("help-forged-from-seat.eml", "ignored"),  # 6: help, within the hourly limit
    ("deep-mime-1500-levels.eml", "rejected"),  # 7: RecursionError no more
    ("utf7-lone-surrogate-subject.eml", "ignored"),  # 7: the subject cannot crash the reader
    ("five-thousand-parts.eml", "ignored"),  # 7: the text after 5,000 parts is read
    ("long-order-line.eml", "rejected"),  # 7: a 750 KB line is not echoed whole
    ("huge-28mb.eml", "rejected"),  # 7: refused, stored bounded
    ("dsn-seat-bounces.eml", "ignored"),  # 7: a bounce marks Bob's seat
]
NEVER_ECHOED = (b"CHEAP PILLS", b"FREE MONEY", b"seven" * 100)


def as_email(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def config(tmp_path: Path, db_url: str, imap: PymapServer | DovecotServer,
           smtp: SmtpTestServer) -> Path:
    path = tmp_path / "pbem.toml"
    (tmp_path / "data").mkdir(exist_ok=True)  # as `pbem init` leaves it: the host key goes here
    path.write_text(f"""data_dir = "{tmp_path / 'data'}"
[database]
url = "{db_url}"
[mail]
from_address = "games@host.test"
[inbound.imap]
host = "127.0.0.1"
port = {imap.port}
user = "{imap.user}"
password_env = "PBEM_TEST_IMAP_PASSWORD"
security = "none"
processed = "pbem/processed"
failed = "pbem/failed"
[outbound.smtp]
host = "127.0.0.1"
port = {smtp.port}
security = "none"
""")
    return path


def pbem_process(cfg: Path, password: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "PBEM_CONFIG": str(cfg),
           "PBEM_TEST_IMAP_PASSWORD": password}
    return subprocess.run([sys.executable, "-m", "tests.pipeline.cli_worker", "process"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)


# pymap itself fails the APPEND of two of them (its parser recurses once per MIME level, and
# it encodes the decoded subject, lone surrogate and all): those go through Dovecot only.
PYMAP_CANNOT_STORE = {"deep-mime-1500-levels.eml", "utf7-lone-surrogate-subject.eml"}


@pytest.mark.parametrize("server", ["pymap", "dovecot"])
def test_hostile_mail_in_front_of_valid_mail_never_stops_the_pass(
        server: str, request: pytest.FixtureRequest, db_url: str, factory: SessionFactory,
        make_smtp_server: Callable[..., SmtpTestServer], tmp_path: Path) -> None:
    imap_server: PymapServer | DovecotServer = request.getfixturevalue(
        "imap_server" if server == "pymap" else "dovecot_server")
    hostile = [(name, status) for name, status in HOSTILE
               if server != "pymap" or name not in PYMAP_CANNOT_STORE]
    smtp = make_smtp_server(auth=False)
    host = Host(mail=MailConfig(from_address="games@host.test"))
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  {"rounds": 2}, seed="corpus", tag="reef-12")
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id)):
            seat.secret_hash = hash_secret(SECRETS[seat.index], seat.secret_salt)
            s.add(seat)
        s.commit()
    earlier = mail(ALICE, "Re: [reef-12] Test Cards", f"play 1\nsecret {SECRETS[0]}",
                   message_id="<earlier-order@players.test>")
    assert process_raw(factory, earlier, host).status == "applied"  # now Bob's turn

    for n, (name, _) in enumerate(hostile):
        imap_server.deliver(corpus.load(name))
        imap_server.deliver(mail(ALICE, "Re: [reef-12] Test Cards",
                                 f"status\nsecret {SECRETS[0]}",
                                 message_id=f"<valid-{n}@players.test>"))
    imap_server.deliver(mail(BOB, "Re: [reef-12] Test Cards", f"play 9\nsecret {SECRETS[1]}",
                             message_id="<valid-order@players.test>"))

    done = pbem_process(config(tmp_path, db_url, imap_server, smtp), imap_server.password)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "quarantined mail is kept: see `pbem quarantine list`" in done.stdout

    assert imap_server.messages("INBOX") == []
    assert len(imap_server.messages("pbem/failed")) == 1  # the conflicting duplicate
    with factory() as s:
        rows = {r.message_id: r for r in s.exec(select(InboundMessage))}
    # Stored with any secret blanked, which may refold headers: compare with runs of
    # whitespace made one space (IMAP also sends CRLF).
    def flat(data: bytes) -> bytes:
        return re.sub(rb"\s+", b" ", data)

    stored = {key: flat(r.raw) for key, r in rows.items()}
    for name, status in hostile:  # each kept, with the outcome the corpus test expects
        raw = corpus.load(name)
        head = raw.partition(b"\n\n")[0]
        found = re.search(rb"^Message-ID:.*(\n[ \t].*)*", head, re.M | re.I)
        assert found is not None, name
        mid = flat(found.group(0))
        body = flat(redact(raw).replace(b"\r\n", b"\n").partition(b"\n\n")[2])
        kept = [r for key, r in rows.items()
                if mid[:200] in stored[key] and body[:200] in stored[key]]
        assert [r.status for r in kept] == [status], name

    replies = [as_email(raw) for raw in smtp.messages]
    answered = {str(m["In-Reply-To"]) for m in replies}
    assert {f"<valid-{n}@players.test>" for n in range(len(hostile))} <= answered
    order = next(m for m in replies if m["In-Reply-To"] == "<valid-order@players.test>")
    plain = order.get_body(("plain",))
    assert plain is not None and "Done. Your orders were played:" in plain.get_content()
    for raw in smtp.messages:
        assert not any(words in raw for words in NEVER_ECHOED)
        assert len(raw) < 64_000
