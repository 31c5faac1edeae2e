"""A private Debian Dovecot (IMAP + LMTP) on 127.0.0.1 (for tests and benches).

``DOVECOT`` is the binary, or None where it is not installed: callers skip then.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import smtplib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from imapclient import IMAPClient

from pbem.mail.settings import ImapSettings
from pbem_testkit.imap import IMAP_PASSWORD, IMAP_USER, append_to, folder_messages

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot")
                                      else None)

_DOVECOT_CONF = """\
instance_name = pbem-test-{tag}
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
namespace inbox {{
  inbox = yes
  separator = /
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/users
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={d}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
protocol lmtp {{
  postmaster_address = postmaster@example.test
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class DovecotServer:
    """A private Dovecot instance (IMAP + LMTP) in a short temp dir; stopped by its own pid."""

    def __init__(self) -> None:
        assert DOVECOT is not None
        self.host = "127.0.0.1"
        self.user = IMAP_USER
        self.password = IMAP_PASSWORD
        # Unix socket paths must stay under 108 characters: pytest's tmp_path may be too long.
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-dc-", dir="/tmp"))
        self.port = _free_port()
        self.lmtp_port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> DovecotServer:
        d = self.dir
        d.chmod(0o755)
        (d / "mail").mkdir()
        shutil.chown(d / "mail", "nobody", "nogroup")
        (d / "users").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        conf = d / "dovecot.conf"
        conf.write_text(_DOVECOT_CONF.format(d=d, tag=d.name, imap_port=self.port,
                                             lmtp_port=self.lmtp_port))
        self.proc = subprocess.Popen([str(DOVECOT), "-F", "-c", str(conf)],
                                     start_new_session=True, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.log()}")
            with contextlib.suppress(OSError), socket.create_connection(
                    (self.host, self.port), timeout=1) as s:
                if s.recv(100).startswith(b"* OK"):
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"dovecot did not answer on {self.port}: {self.log()}")

    def log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    @property
    def settings(self) -> ImapSettings:
        return ImapSettings(host=self.host, port=self.port, user=self.user,
                            password=self.password, security="none", timeout=10.0)

    def deliver(self, raw: bytes, folder: str = "INBOX") -> None:
        """Deliver like an MTA would: over LMTP (into INBOX), else by IMAP APPEND."""
        if folder == "INBOX":
            with smtplib.LMTP(self.host, self.lmtp_port) as lmtp:
                lmtp.sendmail("sender@players.test", [self.user], raw)
            return
        append_to(self.client(), folder, raw)

    def client(self) -> IMAPClient:
        client = IMAPClient(self.host, port=self.port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def messages(self, folder: str = "INBOX") -> list[bytes]:
        return folder_messages(self.client(), folder)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this fixture started
                self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)
