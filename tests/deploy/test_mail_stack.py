"""The shipped mail stack works as the deployment guide sets it up.

deploy/mail-stack/postfix-main.cf, opendkim.conf, dovecot.conf and pbem-config.toml are applied
as they are (only paths and ports rendered; see tests/support/mailstack.py) to Debian's
Postfix, OpenDKIM and Dovecot on 127.0.0.1. ``pbem doctor`` must pass on them; then ``pbem
serve`` hosts a short game played by real mail: each player submits through Postfix SMTP and
reads the replies from their own Dovecot mailbox, and every handled mail ends in the processed
folder. The second round's orders are replies, sent to the plus address (games+<token>@) of
the mail they answer, with no secret: Postfix and Dovecot take them into the same mailbox.
A status mail is checked on arrival as a receiving provider would check it: DKIM and
SPF against a real DNS server (NSD) serving what ``pbem dns`` printed, DMARC alignment, and TLS
on the hop from pbem to Postfix.
"""

from __future__ import annotations

import os
import re
import smtplib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import TypeVar

import dkim
import dns.resolver
import pytest
import spf

from tests.support import dnsserver
from tests.support.mailstack import (
    DOMAIN,
    GM,
    MAIL_STACK,
    POSTFIX,
    ROOT,
    MailStack,
    found,
    missing,
    plain_text,
    render,
)

pytestmark = [pytest.mark.mailstack, pytest.mark.slow]

PLAYERS = {"ann@players.test": "ann-password", "bob@players.test": "bob-password"}
WAIT = 120.0  # generous: a loaded CI box; it costs time only when the test fails
T = TypeVar("T")


@pytest.fixture
def stack() -> Iterator[MailStack]:
    why = missing()
    if why:
        pytest.skip(why)
    started = MailStack(PLAYERS).start()
    assert started.postfix_processes(), "the check below would see no Postfix at all"
    yield started
    started.stop()
    assert started.postfix_processes() == [], "a Postfix process outlived the test"


def pbem_env(stack: MailStack, tmp_path: Path, db_url: str) -> dict[str, str]:
    subs: dict[str, str] = {}
    if not db_url.startswith("sqlite"):  # the guide's PostgreSQL choice, on the test's server
        subs['url = "sqlite:////var/lib/pbem/pbem.sqlite"'] = f'url = "{db_url}"'
    subs |= {"/var/lib/pbem": str(tmp_path / "pbem"), "port = 143": f"port = {stack.imap_port}",
             "port = 25": f"port = {stack.smtp_port}",
             "/etc/pbem/imap-password": str(tmp_path / "imap-password"),
             '# ca_file = "/etc/ssl/certs/ssl-cert-snakeoil.pem"': f'ca_file = "{stack.ca}"',
             "/etc/pbem/dkim-pbem.pub": str(stack.dkim_public)}
    config = render((MAIL_STACK / "pbem-config.toml").read_text(), subs, "pbem-config.toml")
    (tmp_path / "imap-password").write_text(stack.gm_password + "\n")
    path = tmp_path / "config.toml"
    path.write_text(config)
    return {**os.environ, "PBEM_CONFIG": str(path)}


def pbem(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tests.service.cli_with_testgame", *args],
                          env=env, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def wait_for(what: str, probe: Callable[[], T | None], stack: MailStack) -> T:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        result = probe()
        if result is not None:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\npostfix:\n{stack.postfix_log()}\n"
                         f"dovecot:\n{stack.dovecot_log()}")


class Player:
    def __init__(self, stack: MailStack, address: str) -> None:
        self.stack, self.address = stack, address
        self.secret = ""
        self.sent: list[str] = []

    def inbox(self) -> list[EmailMessage]:
        return self.stack.messages(self.address, PLAYERS[self.address])

    def mail_with(self, text: str) -> str:
        """The newest mail in this player's own mailbox that says ``text``."""
        return plain_text(self.message_with(text))

    def message_with(self, text: str) -> EmailMessage:
        """The newest mail in this player's own mailbox that says ``text``, whole."""
        def probe() -> EmailMessage | None:
            mails = [m for m in self.inbox() if "[testcards-1]" in str(m["Subject"])]
            return next((m for m in reversed(mails) if text in plain_text(m)), None)
        return wait_for(f"{text!r} in {self.address}'s mailbox", probe, self.stack)

    def newer_than(self, seen: int, saying: str = "") -> str | None:
        """The text of the mails after the first ``seen``, once one of them says ``saying``."""
        text = "\n".join(plain_text(m) for m in self.inbox()[seen:])
        return text if text and saying in text else None

    def send(self, text: str, to: str = GM) -> None:
        """Through Postfix, as the player's mail program would."""
        msg = EmailMessage()
        msg["From"], msg["To"] = self.address, to
        msg["Subject"] = "Re: [testcards-1] Test Cards"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(text)
        with smtplib.SMTP("127.0.0.1", self.stack.smtp_port, timeout=30) as smtp:
            smtp.send_message(msg)
        self.sent.append(str(msg["Message-ID"]))


def test_a_game_by_real_mail_on_the_shipped_stack(stack: MailStack, tmp_path: Path,
                                                  db_url: str) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused), smtplib.SMTP(
            "127.0.0.1", stack.smtp_port, timeout=30) as smtp:  # nothing leaves the machine
        smtp.sendmail(GM, ["someone@example.com"], b"Subject: out\r\n\r\nno\r\n")
    env = pbem_env(stack, tmp_path, db_url)
    pbem(env, "init")
    doctor = pbem(env, "doctor")  # exits 0 only when every check passes
    assert "inbound IMAP" in doctor and "outbound SMTP" in doctor, doctor
    pbem(env, "game", "new", "testcards", "--seat", "Ann <ann@players.test>",
         "--seat", "Bob <bob@players.test>", "--seed", "mail-stack")
    serve = subprocess.Popen([sys.executable, "-m", "tests.service.cli_with_testgame", "serve",
                              "--interval", "300"], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        players = [Player(stack, a) for a in PLAYERS]
        for p in players:
            p.secret = found(r"Your secret is: (\S+)", p.mail_with("Your secret is:"))
        replies: list[float] = []
        for round_ in (1, 2):
            for p in players:
                status = p.message_with(f"Round {round_} of 2.")
                hand = found(r"Your hand: ([\d, ]+)", plain_text(status))
                card = min(int(c) for c in hand.split(","))
                before = len(p.inbox())
                start = time.monotonic()
                if round_ == 1:  # a new mail, to the host's address: the secret proves the seat
                    p.send(f"secret {p.secret}\nplay {card}\n")
                else:  # a reply: its plus address (games+<token>@) proves the seat
                    reply_to = str(status["Reply-To"])
                    local, _, domain = GM.partition("@")
                    assert re.fullmatch(rf"{local}\+[a-z2-7]+@{re.escape(domain)}", reply_to)
                    p.send(f"play {card}\n", to=reply_to)
                # The other player's move may still be mailing this one its status: wait for
                # the mail that answers this order, not for any newer mail.
                wait_for(f"the reply to play {card}",
                         lambda: p.newer_than(before, f"You played {card}."),  # noqa: B023
                         stack)
                replies.append(time.monotonic() - start)
        for p in players:
            assert "Highest score wins." in p.mail_with("Highest score wins.")
        assert serve.poll() is None, serve.stdout.read() if serve.stdout else ""
        serve.terminate()  # as systemd stops it: at once, even in the middle of IDLE
        assert serve.wait(30) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait(30)

    # Every order was handled and moved to the processed folder; nothing failed or is left.
    processed = stack.messages(GM, stack.gm_password, "pbem/processed")
    ids = {str(m["Message-ID"]) for m in processed}
    assert {i for p in players for i in p.sent} <= ids
    assert stack.messages(GM, stack.gm_password, "INBOX") == []
    assert stack.messages(GM, stack.gm_password, "pbem/failed") == []
    print(f"send-to-reply through Postfix and Dovecot: {', '.join(f'{s:.2f}' for s in replies)} s")


def test_system_mail_and_postmaster_reach_root(stack: MailStack) -> None:
    """`sendmail root` (a cron job, a bounce) and mail to postmaster@ and root@ the domain
    land in root's mailbox; without the shipped aliases both were refused as unknown users."""
    assert POSTFIX is not None
    sendmail = Path(POSTFIX).with_name("sendmail")
    subprocess.run([str(sendmail), "-C", str(stack.postfix_dir), "-f", "root", "root"],
                   input=b"Subject: from cron\n\nsystem mail\n", check=True, timeout=30)
    with smtplib.SMTP("127.0.0.1", stack.smtp_port, timeout=30) as smtp:
        for to in (f"postmaster@{DOMAIN}", f"root@{DOMAIN}"):
            smtp.sendmail("someone@players.test", [to],
                          f"Subject: to {to}\r\n\r\nhello\r\n".encode())
    want = {"from cron", f"to postmaster@{DOMAIN}", f"to root@{DOMAIN}"}

    def arrived() -> set[str] | None:
        got = {str(m["Subject"]) for m in stack.messages(ROOT, stack.root_password)}
        return got if want <= got else None
    wait_for("the three mails in root's mailbox", arrived, stack)


def status_mail(stack: MailStack, address: str) -> bytes:
    def probe() -> bytes | None:
        raws = stack.raw_messages(address, PLAYERS[address])
        return next((r for r in raws if b"[testcards-1]" in r), None)
    return wait_for(f"a status mail in {address}'s mailbox", probe, stack)


def test_a_status_mail_arrives_signed_over_tls_and_passes_spf_and_dmarc(
        stack: MailStack, tmp_path: Path, db_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    why = dnsserver.missing()
    if why:
        pytest.skip(why)
    env = pbem_env(stack, tmp_path, db_url)
    config = Path(env["PBEM_CONFIG"])
    text = config.read_text()
    config.write_text(render(text, {'# address = "203.0.113.7"': 'address = "127.0.0.1"'},
                             "pbem-config.toml"))
    pbem(env, "init")
    printed = pbem(env, "dns")
    zone = dnsserver.serve(printed.splitlines(), [DOMAIN, "127.in-addr.arpa"])
    try:
        config.write_text(config.read_text() + f'nameserver = "{zone.address}"\n')
        doctor = pbem(env, "doctor", "--dns")  # exit 0: every check passed
        for name in ("outbound SMTP", "DNS MX", "DNS SPF", "DNS DKIM", "DNS DMARC", "DNS PTR"):
            assert f"ok   {name}:" in doctor, doctor
        pbem(env, "game", "new", "testcards", "--seat", "Ann <ann@players.test>",
             "--seat", "Bob <bob@players.test>", "--seed", "deliverability")
        pbem(env, "process")  # sends the welcomes through Postfix
        raw = status_mail(stack, "ann@players.test")
        resolver = dns.resolver.Resolver(configure=False)
        resolver.nameservers, resolver.port = ["127.0.0.1"], zone.port
        monkeypatch.setattr(dns.resolver, "default_resolver", resolver)  # pyspf asks it

        def txt(name: bytes, timeout: int = 5) -> bytes:
            answer = resolver.resolve(name.decode().rstrip("."), "TXT")
            return b"".join(next(iter(answer)).strings)

        msg = message_from_bytes(raw, policy=policy.default)
        # DKIM: signed by OpenDKIM for the From domain, with the key published in the zone.
        signature = dkim.util.parse_tag_value(msg["DKIM-Signature"].encode())
        assert (signature[b"d"], signature[b"s"], signature[b"a"]) == (
            DOMAIN.encode(), b"pbem", b"rsa-sha256")
        assert dkim.verify(raw, dnsfunc=txt), "dkim=fail"
        # TLS: Postfix's Received header for pbem's hop says which protocol carried it.
        received = str((msg.get_all("Received") or [""])[-1])
        assert re.search(r"from \S+ \(localhost \[127\.0\.0\.1\]\)", received), received
        assert re.search(r"\(using TLSv1\.[23] with cipher ", received), received
        # SPF: the envelope sender's domain allows 127.0.0.1 (its MX) to send.
        mail_from = str(msg["Return-Path"]).strip("<>")
        helo = received.split()[1]
        result, explanation = spf.check2(i="127.0.0.1", s=mail_from, h=helo)
        assert result == "pass", explanation
        # DMARC: the From domain publishes a policy, and both passes are aligned with it.
        from_domain = str(msg["From"].addresses[0].domain)
        dmarc = txt(f"_dmarc.{from_domain}".encode()).decode()
        assert dmarc.startswith("v=DMARC1;") and "p=quarantine" in dmarc
        assert from_domain == signature[b"d"].decode() == mail_from.rpartition("@")[2]
        # A signature over this mail fails once the mail is changed: the check can fail.
        assert not dkim.verify(raw.replace(b"Your secret is:", b"Your secret was:"), dnsfunc=txt)
    finally:
        zone.stop()


def test_pbem_refuses_a_certificate_it_cannot_verify(stack: MailStack, tmp_path: Path,
                                                      db_url: str) -> None:
    """Without the CA that issued Postfix's certificate (or with another name to check),
    pbem does not submit: certificate checks are on."""
    env = pbem_env(stack, tmp_path, db_url)
    config = Path(env["PBEM_CONFIG"])
    config.write_text(re.sub(r"(?m)^ca_file = .*$", "", config.read_text()))
    pbem(env, "init")
    done = subprocess.run([sys.executable, "-m", "tests.service.cli_with_testgame", "doctor"],
                          env=env, capture_output=True, text=True, timeout=WAIT)
    out = " ".join(done.stdout.split())
    assert done.returncode == 1 and "FAIL outbound SMTP" in out, out
    assert "CERTIFICATE_VERIFY_FAILED" in out and "Traceback" not in done.stdout + done.stderr
