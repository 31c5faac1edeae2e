"""What a bad configuration raises: the operator sees the message as one ``error:`` line."""

from __future__ import annotations

from pathlib import Path


class ConfigError(ValueError):
    """The configuration file is missing a value or holds a wrong one."""


class PasswordFileError(ConfigError):
    """A password_file that the user running pbem cannot read."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path
