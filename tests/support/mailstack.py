"""The mail stack of deploy/mail-stack as shipped: Debian's Postfix and Dovecot, private.

The shipped files are applied as they are, with only the machine's paths and ports rendered
(every rendered string must still be in the file, or the test stops and says so): a private
Postfix instance (``postfix -c DIR``) and a private Dovecot (``dovecot -c FILE``), both on
127.0.0.1 only, in one short temp dir, stopped by the pids this module started. The system's
own Postfix and Dovecot configuration is never read or changed.

OpenDKIM signs as the shipped ``opendkim.conf`` says, with a 2048-bit key made as the guide
makes it; Postfix's certificate for the mail domain is issued by a test CA made here
(``ca_file`` for pbem), where the guide gets one from certbot.

What the test adds on top, and why: the players' domain ``players.test`` gets mailboxes on the
same Dovecot (so players read their replies over IMAP), and every other domain goes to the
``error`` transport: this Postfix delivers nothing off the machine.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from imapclient import IMAPClient

from tests.support.dkimkey import GENKEY, make_dkim_key

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
MAIL_STACK = DEPLOY / "mail-stack"
POSTFIX = shutil.which("postfix") or ("/usr/sbin/postfix" if Path("/usr/sbin/postfix").exists()
                                      else None)
DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists()
                                      else None)
POSTCONF = shutil.which("postconf") or "/usr/sbin/postconf"
OPENDKIM = shutil.which("opendkim") or ("/usr/sbin/opendkim" if Path("/usr/sbin/opendkim").exists()
                                        else None)

DOMAIN = "games.example.org"  # the shipped files' domain, kept as it is
GM = f"games@{DOMAIN}"
PLAYERS_DOMAIN = "players.test"
ROOT = "root@localhost"  # where the shipped aliases send the system's and postmaster's mail


def missing() -> str | None:
    """Why this machine cannot run the stack, or None."""
    if os.geteuid() != 0:
        return "the mail stack needs root (Postfix and Dovecot start as root)"
    if POSTFIX is None or DOVECOT is None or OPENDKIM is None or GENKEY is None:
        return ("Postfix, Dovecot or OpenDKIM is not installed (apt-get install postfix "
                "dovecot-imapd dovecot-lmtpd opendkim opendkim-tools)")
    for user in ("postfix", "dovecot", "dovenull", "opendkim"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            return f"system user {user} is missing (made by Debian's packages)"
    try:
        grp.getgrnam("postdrop")
    except KeyError:
        return "group postdrop is missing (made by Debian's postfix package)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def render(text: str, subs: dict[str, str], name: str) -> str:
    for old, new in subs.items():
        if old not in text:
            raise AssertionError(f"{old!r} is no longer in deploy/mail-stack/{name}: update "
                                 "the rendering in tests/support/mailstack.py")
        text = text.replace(old, new)
    return text


def shipped_postfix_settings(subs: dict[str, str] | None = None) -> list[str]:
    """The lines the guide feeds to ``postconf -e``: all but comments and blank lines."""
    text = render((MAIL_STACK / "postfix-main.cf").read_text(), subs or {}, "postfix-main.cf")
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


class MailStack:
    """Postfix (SMTP in, LMTP to Dovecot) and Dovecot (IMAP), from the shipped files."""

    def __init__(self, players: dict[str, str]) -> None:
        self.players = players  # address -> password
        self.gm_password = "gm-" + os.urandom(6).hex()
        self.root_password = "root-" + os.urandom(6).hex()
        # Unix socket paths must stay under 108 characters: pytest's tmp_path may be too long.
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-ms-", dir="/tmp"))
        self.smtp_port = free_port()
        self.imap_port = free_port()
        self.postfix_dir = self.dir / "postfix"
        self.spool = self.dir / "spool"
        self.milter_port = free_port()
        self.dovecot_proc: subprocess.Popen[bytes] | None = None
        self.postfix_proc: subprocess.Popen[bytes] | None = None
        self.opendkim_proc: subprocess.Popen[bytes] | None = None
        self.ca = self.dir / "tls" / "ca.pem"  # the test CA that issued Postfix's certificate
        # OpenDKIM refuses a key or config below a folder others can write (/tmp): its files
        # live in a folder of their own in /run, writable by root alone.
        self.dkim_dir = Path(tempfile.mkdtemp(prefix="pbem-dkim-", dir="/run"))
        self.dkim_public = self.dkim_dir / "keys" / "pbem.pub"

    # ---- the test CA and OpenDKIM --------------------------------------------------------
    def _make_certificate(self) -> tuple[Path, Path]:
        """A test CA, and a certificate from it for the mail domain (as certbot's would be)."""
        tls = self.ca.parent
        tls.mkdir(mode=0o700)

        def openssl(*args: str) -> None:
            subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=tls)
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
                "ca.pem", "-days", "2", "-subj", "/CN=pbem test CA", "-addext",
                "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "privkey.pem", "-out",
                "host.csr", "-subj", f"/CN={DOMAIN}")
        (tls / "ext.cnf").write_text(f"subjectAltName=DNS:{DOMAIN}\nbasicConstraints=CA:FALSE\n"
                                     "extendedKeyUsage=serverAuth\n")
        openssl("x509", "-req", "-in", "host.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", "fullchain.pem", "-days", "2", "-extfile", "ext.cnf")
        return tls / "fullchain.pem", tls / "privkey.pem"

    def _configure_opendkim(self) -> Path:
        """The shipped opendkim.conf; the key made as the guide makes it, the signer's own."""
        keys = self.dkim_public.parent
        make_dkim_key(keys, DOMAIN, "pbem")
        private = keys / "pbem.private"
        shutil.chown(keys, "opendkim", "opendkim")
        shutil.chown(private, "opendkim", "opendkim")
        keys.chmod(0o700)
        private.chmod(0o600)
        self.dkim_dir.chmod(0o755)
        run = self.dkim_dir / "run"
        run.mkdir()
        shutil.chown(run, "opendkim", "opendkim")
        conf = self.dkim_dir / "opendkim.conf"
        conf.write_text(render((MAIL_STACK / "opendkim.conf").read_text(), {
            "/etc/dkimkeys/pbem.private": str(private),
            "inet:8891@127.0.0.1": f"inet:{self.milter_port}@127.0.0.1",
            "/run/opendkim/opendkim.pid": str(run / "opendkim.pid"),
        }, "opendkim.conf"))
        return conf

    def _start_opendkim(self, conf: Path) -> None:
        assert OPENDKIM is not None
        self.opendkim_proc = subprocess.Popen([OPENDKIM, "-f", "-x", str(conf)],
                                              start_new_session=True,
                                              stdout=subprocess.DEVNULL,
                                              stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.opendkim_proc.poll() is not None:
                err = self.opendkim_proc.stderr.read() if self.opendkim_proc.stderr else b""
                raise RuntimeError(f"opendkim exited: {err.decode(errors='replace')}")
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.milter_port), timeout=2):
                return
            time.sleep(0.1)
        raise RuntimeError("opendkim did not listen")

    # ---- Postfix -------------------------------------------------------------------------
    def _postconf(self, *settings: str) -> None:
        subprocess.run([POSTCONF, "-c", str(self.postfix_dir), "-e", *settings], check=True,
                       capture_output=True)

    def _postconf_get(self, name: str) -> str:
        out = subprocess.run([POSTCONF, "-c", str(self.postfix_dir), "-h", name], check=True,
                             capture_output=True, text=True)
        return out.stdout.strip()

    def _master_cf(self) -> str:
        """Debian's master.cf with the SMTP listener on our port, nothing chrooted."""
        source = Path("/etc/postfix/master.cf")
        if not source.exists():
            source = Path("/usr/share/postfix/master.cf.dist")
        out = []
        for line in source.read_text().splitlines():
            fields = line.split()
            if line[:1] in ("#", " ", "\t") or len(fields) < 8:
                out.append(line)
                continue
            if fields[0] == "smtp" and fields[1] == "inet":
                fields[0] = f"127.0.0.1:{self.smtp_port}"
            fields[4] = "n"  # chroot would need copies of /etc files in the private spool
            out.append("  ".join(fields))
        return "\n".join(out) + "\n"

    def _configure_postfix(self) -> None:
        self.postfix_dir.mkdir()
        self.spool.mkdir()  # Postfix makes what is inside
        (self.postfix_dir / "main.cf").write_text("")
        (self.postfix_dir / "master.cf").write_text(self._master_cf())
        for extra in Path("/etc/postfix").glob("dynamicmaps.cf*"):
            if extra.is_file():
                shutil.copy(extra, self.postfix_dir / extra.name)
        cert, key = self._make_certificate()
        live = f"/etc/letsencrypt/live/{DOMAIN}"
        self._postconf(*shipped_postfix_settings({
            f"{live}/fullchain.pem": str(cert), f"{live}/privkey.pem": str(key),
            "inet:127.0.0.1:8891": f"inet:127.0.0.1:{self.milter_port}"}))
        domains = self._postconf_get("virtual_mailbox_domains")
        maps = self._postconf_get("virtual_mailbox_maps")
        players = " ".join(f"{a}={a}" for a in self.players)
        self._postconf(
            "compatibility_level = 3.6",
            f"queue_directory = {self.spool}",
            f"data_directory = {self.dir / 'postfix-data'}",
            f"maillog_file_prefixes = {self.dir}",
            f"maillog_file = {self.dir / 'postfix.log'}",
            "inet_interfaces = 127.0.0.1",
            "inet_protocols = ipv4",
            f"virtual_mailbox_domains = {domains}, {PLAYERS_DOMAIN}",
            f"virtual_mailbox_maps = {maps}, inline:{{ {players} }}",
            "default_transport = error:this test host sends nothing off the machine",
            "relay_transport = error:this test host sends nothing off the machine",
            "alias_maps =",
            "alias_database =",
            # The shipped aliases send root's and postmaster's mail to root@localhost; here
            # that is a Dovecot mailbox, so nothing is written to this machine's /var/mail.
            f"local_transport = {self._postconf_get('virtual_transport')}",
            "local_recipient_maps =",
        )

    def _start_postfix(self) -> None:
        assert POSTFIX is not None
        self.postfix_proc = subprocess.Popen(
            [POSTFIX, "-c", str(self.postfix_dir), "start-fg"], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_greeting(self.smtp_port, b"220", self.postfix_proc, self.postfix_log)

    def postfix_log(self) -> str:
        path = self.dir / "postfix.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    # ---- Dovecot -------------------------------------------------------------------------
    def _configure_dovecot(self) -> Path:
        vmail = self.dir / "vmail"
        vmail.mkdir()
        try:
            pwd.getpwnam("vmail")
            owner = ("vmail", "vmail")
        except KeyError:  # the guide makes a vmail user; this machine need not have one
            owner = ("nobody", "nogroup")
        shutil.chown(vmail, *owner)
        users = [f"{GM}:{{PLAIN}}{self.gm_password}"]
        users += [f"{a}:{{PLAIN}}{p}" for a, p in self.players.items()]
        users.append(f"{ROOT}:{{PLAIN}}{self.root_password}")
        (self.dir / "pbem-users").write_text("\n".join(users) + "\n")
        subs = {
            "/etc/dovecot/pbem-users": str(self.dir / "pbem-users"),
            "/var/mail/pbem": str(vmail),
            "/var/spool/postfix": str(self.spool),
            "/var/log/dovecot.log": str(self.dir / "dovecot.log"),
            "port = 143": f"port = {self.imap_port}",
        }
        if owner[0] != "vmail":
            subs["uid=vmail gid=vmail"] = "uid=nobody gid=nogroup"
        shipped = render((MAIL_STACK / "dovecot.conf").read_text(), subs, "dovecot.conf")
        conf = self.dir / "dovecot.conf"
        conf.write_text(f"instance_name = {self.dir.name}\n"
                        f"base_dir = {self.dir / 'dovecot-run'}\n"
                        f"state_dir = {self.dir / 'dovecot-state'}\n" + shipped)
        return conf

    def _start_dovecot(self, conf: Path) -> None:
        assert DOVECOT is not None
        self.dovecot_proc = subprocess.Popen([DOVECOT, "-F", "-c", str(conf)],
                                             start_new_session=True,
                                             stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
        self._wait_greeting(self.imap_port, b"* OK", self.dovecot_proc, self.dovecot_log)

    def dovecot_log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    # ---- both ----------------------------------------------------------------------------
    @staticmethod
    def _wait_greeting(port: int, greeting: bytes, proc: subprocess.Popen[bytes],
                       log: object) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server on {port} exited: {log() if callable(log) else ''}")
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", port), timeout=2) as s:
                if s.recv(100).startswith(greeting):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"no greeting on {port}: {log() if callable(log) else ''}")

    def start(self) -> MailStack:
        self.dir.chmod(0o755)  # Postfix's daemons (user postfix) read main.cf in here
        try:
            self._start_opendkim(self._configure_opendkim())
            self._configure_postfix()
            conf = self._configure_dovecot()
            self._start_postfix()  # makes the queue directory where Dovecot's socket goes
            self._start_dovecot(conf)
        except BaseException:
            self.stop()
            raise
        return self

    def postfix_processes(self) -> list[int]:
        """Pids of this instance's Postfix (master and its daemons): each has our config
        directory in MAIL_CONFIG, which the master passes on to every daemon it starts."""
        mark = f"MAIL_CONFIG={self.postfix_dir}".encode()
        pids = []
        for environ in Path("/proc").glob("[0-9]*/environ"):
            with contextlib.suppress(OSError):
                if mark in environ.read_bytes().split(b"\0"):
                    pids.append(int(environ.parent.name))
        return pids

    def _stop_postfix(self) -> None:
        """``postfix stop`` with our config directory. SIGTERM to ``start-fg`` would end only
        the shell script: the master it started lives on (parent PID 1, still listening)."""
        if self.postfix_proc is None:
            return
        subprocess.run([POSTFIX or "postfix", "-c", str(self.postfix_dir), "stop"],
                       capture_output=True, timeout=60)
        deadline = time.monotonic() + 20
        while self.postfix_processes() and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in self.postfix_processes():  # still there: only ours carry our MAIL_CONFIG
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.postfix_proc.wait(10)

    @staticmethod
    def _end(proc: subprocess.Popen[bytes] | None) -> None:
        """SIGTERM to a server this object started; its process group is killed if it lingers."""
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the group this object started
                proc.wait(5)

    def stop(self) -> None:
        self._stop_postfix()
        self._end(self.opendkim_proc)
        self._end(self.dovecot_proc)
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.dkim_dir, ignore_errors=True)

    # ---- what players and the test see ---------------------------------------------------
    def imap(self, user: str, password: str) -> IMAPClient:
        client = IMAPClient("127.0.0.1", port=self.imap_port, ssl=False, timeout=30)
        client.login(user, password)
        return client

    def messages(self, user: str, password: str, folder: str = "INBOX") -> list[EmailMessage]:
        return [message_from_bytes(raw, policy=policy.default)
                for raw in self.raw_messages(user, password, folder)]

    def raw_messages(self, user: str, password: str, folder: str = "INBOX") -> list[bytes]:
        """The mails as delivered, byte for byte (what a DKIM check must see)."""
        client = self.imap(user, password)
        try:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = sorted(client.search(["ALL"]))
            data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [bytes(data[u][b"BODY[]"]) for u in uids]
        finally:
            with contextlib.suppress(Exception):
                client.logout()


def plain_text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match is not None, f"{pattern!r} not in:\n{text}"
    return match.group(1)
