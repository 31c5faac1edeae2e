"""Connection settings for the mail transports. Passwords never appear in a repr."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Security = Literal["tls", "starttls", "none"]


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    user: str
    password: str = field(default="", repr=False)
    security: Security = "tls"
    folder: str = "INBOX"
    processed_folder: str = "pbem/processed"
    failed_folder: str = "pbem/failed"
    timeout: float = 30.0


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    security: Security = "starttls"
    timeout: float = 30.0


@dataclass(frozen=True)
class MaildirSettings:
    path: Path
