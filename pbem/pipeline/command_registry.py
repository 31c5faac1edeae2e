"""Every mail command the host hears, one line each: its word, where it is heard, what its
reply is (in the reply's subject) and its handler. The letter reader hears their words, the
chain's handlers run them (``handlers.command``, ``handlers.tagless``, ``handlers.lobby``).
To add one, see :mod:`pbem.pipeline.commands.base`."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline.commands import (
    back,
    forget,
    history,
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
from pbem.pipeline.profile import calendar, name, standings
from pbem.pipeline.profile import language as profile_language
from pbem.pipeline.profile import mail as profile_mail
from pbem.pipeline.profile import timezone as profile_timezone

SEAT, PROFILE, PUBLIC, LOBBY = Scope.SEAT, Scope.PROFILE, Scope.PUBLIC, Scope.LOBBY

COMMANDS: tuple[Command, ...] = (
    # A seat's, in its game's mail (``help`` lists them in this order); a subject says whether
    # it answered or changed something.
    Command("log", SEAT, msg("Game log"), log.run, usage=log.usage),
    Command("history", SEAT, msg("The game so far"), history.run, usage=history.usage),
    Command("waiting", SEAT, msg("Who the game waits for"), waiting.run, form="alone",
            usage=waiting.usage),
    Command("vacation", SEAT, msg("Vacation noted"), vacation.run, usage=vacation.usage),
    Command("resign", SEAT, msg("You resigned"), resign.run, form="alone", usage=resign.usage),
    Command("back", SEAT, msg("You play your seat again"), back.run, form="alone",
            usage=back.usage),
    Command("forget", SEAT, msg("Your request to be forgotten"), forget.run, form="alone",
            usage=forget.usage),
    Command("secret", SEAT, msg("Your new secret"), secret.run, form="secret line",
            usage=secret.usage),
    Command("mail", SEAT, msg("Mail setting changed"), mail_setting.run,
            usage=mail_setting.usage),
    Command("language", SEAT, msg("Language changed"), language.run, usage=language.usage),
    Command("timezone", SEAT, msg("Time zone changed"), timezone.run, usage=timezone.usage),
    Command("calendar", SEAT, msg("Calendar setting changed"), calendar.run,
            usage=calendar.usage),
    Command("name", SEAT, msg("Your profile"), name.run, usage=name.usage),
    Command("standings", SEAT, msg("Standings"), standings.run, usage=standings.usage),
    # To the host itself, naming no game: the profile (a seat's secret proves the address)...
    Command("name", PROFILE, msg("Your profile"), name.run),
    Command("language", PROFILE, msg("Your profile"), profile_language.run),
    Command("timezone", PROFILE, msg("Your profile"), profile_timezone.run),
    Command("mail", PROFILE, msg("Your profile"), profile_mail.run),
    Command("calendar", PROFILE, msg("Your profile"), calendar.run),
    # ... and what anyone may ask.
    Command("standings", PUBLIC, msg("Standings"), standings.run),
    # The lobby's, to the host itself by anyone (a seat's code proves the seat); None: its
    # every reply says what it is.
    Command("games", LOBBY, msg("Open tables and your games"), games.run, usage=games.usage),
    Command("new", LOBBY, None, new.run, usage=new.usage),
    Command("join", LOBBY, None, join.run, usage=join.usage),
    Command("confirm", LOBBY, msg("Your seat is confirmed"), confirm.run, usage=confirm.usage),
    Command("leave", LOBBY, msg("You left the table"), leave.run, usage=leave.usage),
    Command("start", LOBBY, None, start.run, usage=start.usage),
    Command("invite", LOBBY, msg("Your invitations"), invite.run, usage=invite.usage),
    Command("never", LOBBY, None, never.run, usage=never.usage),
)


def find(scope: Scope, english: str | None) -> Command | None:
    """The command of ``scope`` whose word is ``english``, if there is one."""
    return next((c for c in COMMANDS if c.scope == scope and c.word == english), None)


def in_scope(*scopes: Scope) -> list[Command]:
    return [c for c in COMMANDS if c.scope in scopes]


def usage(scope: Scope, tr: Translator) -> list[str]:
    """The rows ``help`` lists for the commands of ``scope``, in ``tr``'s language."""
    return [row for c in in_scope(scope) if c.usage is not None for row in c.usage(tr)]
