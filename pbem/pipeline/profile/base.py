"""What every profile command is given and gives back.

A profile command gets the sender's profile (their address proved by a seat's secret, for
the commands that change it) and the rest of its line; it returns a
:class:`~pbem.pipeline.commands.base.Reply` like a seat's command does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session

from pbem.i18n import Translator, translator
from pbem.pipeline.command_words import word
from pbem.pipeline.commands.base import Reply
from pbem.settings.host import Host
from pbem.store.tables import Player


@dataclass
class ProfileContext:
    """The sender's profile (made if they had none) and the language of the reply."""

    session: Session
    host: Host
    player: Player
    lang: str

    @property
    def tr(self) -> Translator:
        return translator(self.lang)

    def w(self, english: str) -> str:
        """A host command word as this player is told to write it."""
        return word(english, self.lang)


ProfileCommand = Callable[[ProfileContext, str], Reply]
"""A profile command: the rest of its line in, the reply out."""
