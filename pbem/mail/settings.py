"""Connection settings for the mail transports. Passwords never appear in a repr."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Security = Literal["tls", "starttls", "none"]

# Where handled and quarantined mail is moved: the one default, for the config file and for
# code that builds settings itself. A flat name, since some servers' folder separator is "."
PROCESSED_FOLDER = "pbem-processed"
FAILED_FOLDER = "pbem-failed"


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    user: str
    password: str = field(default="", repr=False)
    security: Security = "tls"
    folder: str = "INBOX"
    processed_folder: str = PROCESSED_FOLDER
    failed_folder: str = FAILED_FOLDER
    timeout: float = 30.0


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    security: Security = "starttls"
    timeout: float = 30.0
    # The name pbem greets the server with (EHLO): the mail domain, not this machine's name,
    # which a container or a cloud host makes up. None: the machine's name (aiosmtplib's).
    ehlo_name: str | None = None
    # The name the server's certificate must carry, when pbem reaches it by another name
    # (Postfix on 127.0.0.1 with a certificate for the mail domain); None: ``host``.
    tls_name: str | None = None
    ca_file: str | None = None  # trust this CA (or self-signed certificate) too


@dataclass(frozen=True)
class MaildirSettings:
    path: Path
