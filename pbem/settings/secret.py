"""Where a password comes from: an environment variable or a file, read only when needed.

The configuration file never holds a password, and a :class:`Secret`'s ``repr`` never shows one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pbem.settings.errors import ConfigError, PasswordFileError


@dataclass(frozen=True)
class Secret:
    """Where a password comes from; the value itself is read only on demand."""

    env: str | None = None
    file: Path | None = None

    def get(self) -> str | None:
        if self.env:
            value = os.environ.get(self.env)
            if value is None:
                raise ConfigError(f"environment variable {self.env} is not set")
            return value
        if self.file:
            try:
                return self.file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise PasswordFileError(f"password_file {self.file} cannot be read: "
                                        f"{exc.strerror or exc}", self.file) from exc
        return None

    def __repr__(self) -> str:  # never the value
        return f"Secret(env={self.env!r}, file={str(self.file) if self.file else None!r})"
