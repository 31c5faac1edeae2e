"""Every mail command the host hears, one line each: its word, where it is heard, what its
reply is (in the reply's subject) and its handler. The letter reader hears their words, the
chain's handlers run them (``handlers.command``, ``handlers.tagless``, ``handlers.lobby``).
To add one, see :mod:`pbem.pipeline.commands.base`."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.commands import (
    back,
    forget,
    language,
    log,
    mail_setting,
    resign,
    secret,
    timezone,
    vacation,
    waiting,
)
from pbem.pipeline.commands.base import Command, Scope
from pbem.pipeline.lobby import confirm, games, invite, join, leave, never, new, start
from pbem.pipeline.profile import language as profile_language
from pbem.pipeline.profile import mail as profile_mail
from pbem.pipeline.profile import name, standings
from pbem.pipeline.profile import timezone as profile_timezone

SEAT, PROFILE, PUBLIC, LOBBY = Scope.SEAT, Scope.PROFILE, Scope.PUBLIC, Scope.LOBBY

COMMANDS: tuple[Command, ...] = (
    # A seat's, in its game's mail; a subject says whether it answered or changed something.
    Command("log", SEAT, msg("Game log"), log.run),
    Command("waiting", SEAT, msg("Who the game waits for"), waiting.run, form="alone"),
    Command("vacation", SEAT, msg("Vacation noted"), vacation.run),
    Command("resign", SEAT, msg("You resigned"), resign.run, form="alone"),
    Command("back", SEAT, msg("You play your seat again"), back.run, form="alone"),
    Command("forget", SEAT, msg("Your request to be forgotten"), forget.run, form="alone"),
    Command("secret", SEAT, msg("Your new secret"), secret.run, form="secret line"),
    Command("mail", SEAT, msg("Mail setting changed"), mail_setting.run),
    Command("language", SEAT, msg("Language changed"), language.run),
    Command("timezone", SEAT, msg("Time zone changed"), timezone.run),
    Command("name", SEAT, msg("Your profile"), name.run),
    Command("standings", SEAT, msg("Standings"), standings.run),
    # To the host itself, naming no game: the profile (a seat's secret proves the address)...
    Command("name", PROFILE, msg("Your profile"), name.run),
    Command("language", PROFILE, msg("Your profile"), profile_language.run),
    Command("timezone", PROFILE, msg("Your profile"), profile_timezone.run),
    Command("mail", PROFILE, msg("Your profile"), profile_mail.run),
    # ... and what anyone may ask.
    Command("standings", PUBLIC, msg("Standings"), standings.run),
    # The lobby's, to the host itself by anyone (a seat's code proves the seat); None: its
    # every reply says what it is.
    Command("games", LOBBY, msg("Open tables and your games"), games.run),
    Command("new", LOBBY, None, new.run),
    Command("join", LOBBY, None, join.run),
    Command("leave", LOBBY, msg("You left the table"), leave.run),
    Command("start", LOBBY, None, start.run),
    Command("invite", LOBBY, msg("Your invitations"), invite.run),
    Command("never", LOBBY, None, never.run),
    Command("confirm", LOBBY, msg("Your seat is confirmed"), confirm.run),
)


def find(scope: Scope, english: str | None) -> Command | None:
    """The command of ``scope`` whose word is ``english``, if there is one."""
    return next((c for c in COMMANDS if c.scope == scope and c.word == english), None)


def in_scope(*scopes: Scope) -> list[Command]:
    return [c for c in COMMANDS if c.scope in scopes]
