"""This host's own key: it signs game exports (HMAC-SHA256), so an export edited anywhere,
even with its checksum recomputed, is refused when it comes back, and an export made by
another host is told apart from one made here.

The key is 32 random bytes (hex) in a file of its own, ``<data_dir>/host.key`` unless the
config's ``host_key_file`` names another; it is written (mode 600) by ``pbem init`` or the
first export or import. It is never put in an export: only its id (a digest of it) is.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path

from pbem.ops.archive import seat_page
from pbem.settings.config import Config
from pbem.settings.host import Host

KEY_BYTES = 32


class HostKeyError(RuntimeError):
    """The key file cannot be read or written; the message says where and why, ``fix`` what
    the operator can do."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


def _damaged_fix(path: Path) -> str:
    return (f"restore {path} from a backup; else move it away and run `pbem init` to make a "
            "new key (exports signed with the old key then import only with --trust-foreign)")


@dataclass(frozen=True)
class HostKey:
    secret: bytes = field(repr=False)

    @property
    def id(self) -> str:
        """A public name for the key, shown in exports and messages."""
        return hashlib.sha256(b"pbem host key id\x00" + self.secret).hexdigest()[:16]

    def sign(self, text: str) -> str:
        return hmac.new(self.secret, text.encode("utf-8"), hashlib.sha256).hexdigest()

    def verify(self, text: str, signature: object) -> bool:
        return isinstance(signature, str) and hmac.compare_digest(self.sign(text), signature)


def _read(path: Path) -> HostKey:
    try:
        text = path.read_text(encoding="ascii").strip()
    except OSError as exc:
        raise HostKeyError(f"cannot read the host key {path}: {exc}",
                           f"let the user that runs pbem read {path} (it should own it, mode "
                           "600), or set host_key_file") from exc
    except UnicodeDecodeError as exc:
        raise HostKeyError(f"cannot read the host key {path}: {exc}",
                           _damaged_fix(path)) from exc
    try:
        key = bytes.fromhex(text)
    except ValueError as exc:
        raise HostKeyError(f"cannot read the host key {path}: {exc}", _damaged_fix(path)) \
            from exc
    if len(key) < KEY_BYTES:
        raise HostKeyError(f"the host key {path} is too short ({len(key)} bytes; "
                           f"{KEY_BYTES} random bytes in hex are needed)", _damaged_fix(path))
    return HostKey(key)


def load(path: Path) -> HostKey:
    """The key in ``path``, made there first if there is none yet."""
    if path.exists():
        return _read(path)
    if not path.parent.is_dir():
        raise HostKeyError(f"no host key at {path}, and its folder does not exist: run "
                           "`pbem init`, or create the folder, or set host_key_file",
                           f"create {path.parent} (`pbem init` makes the data folder), or set "
                           "host_key_file to a file in an existing folder")
    # Written aside, then linked into place: of two processes making it at once, one wins and
    # both read that one; no one ever reads a half-written key.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(KEY_BYTES) + "\n")
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError as exc:
        raise HostKeyError(f"cannot write the host key {path}: {exc}",
                           f"let the user that runs pbem write in {path.parent}, or set "
                           "host_key_file") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return _read(path)


def mail_host(cfg: Config) -> Host:
    """The settings a pass over the mail (or a command that mails seats) needs, the seats'
    history pages (``history``) among them, and this host's key: every seat's reply address
    derives from it (pbem.pipeline.reply_tokens), and the lobby's and watchers' codes
    (pbem.pipeline.lobby_codes)."""
    host = replace(Host.from_config(cfg), archive_page=seat_page)
    return replace(host, key=load(cfg.host_key_path).secret)
