"""What every lobby command is given and gives back, and the lines several of them share."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem.engine import registry
from pbem.i18n import Translator, msg
from pbem.pipeline.command_words import word
from pbem.pipeline.seat_language import Line
from pbem.settings.host import Host
from pbem.store import lobby as store
from pbem.store.tables import LobbyTable, OutboundMessage


@dataclass
class Context:
    """One lobby mail: who sent it (unproven: anyone can write any From), in which language
    the answer goes, and when."""

    session: Session
    host: Host
    sender: str  # lower-cased
    sender_name: str  # the From name, as written (may be empty)
    tr: Translator
    now: datetime

    def w(self, english: str) -> str:
        """A command word as this sender is told to write it."""
        return word(english, self.tr.lang)


@dataclass
class Reply:
    """A command's answer: the mail's status and reason, the reply's subject and lines."""

    status: str  # applied | rejected | ignored
    reason: str
    subject: Line
    lines: list[Line]
    tag: str | None = None  # the table the reply is about (its subject starts [tag])
    code: str | None = None  # a confirmation code the reply carries (blanked once sent)
    send: bool = True  # False: no answer at all (never; a start's welcome mail answers)
    queued: list[OutboundMessage] = field(default_factory=list)  # invitations, welcomes


class Refused(Exception):
    """A lobby command that cannot be done; ``lines`` tell the sender why and what to do."""

    def __init__(self, reason: str, lines: list[Line], tag: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.lines, self.tag = reason, lines, tag


def refused(reason: str, subject: Line, exc: Refused) -> Reply:
    return Reply("rejected", f"{reason}: {exc.reason}", subject, exc.lines, tag=exc.tag)


def title(table: LobbyTable) -> str:
    return str(registry.get(table.game_type).title)


def options_text(table: LobbyTable) -> str:
    """``advanced=yes rounds=3``: the options the table changed from the game's defaults."""
    options: dict[str, Any] = json.loads(table.options_json)
    return " ".join(f"{k}={_shown(v)}" for k, v in sorted(options.items()))


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def when(ctx: Context, moment: datetime) -> str:
    return ctx.tr.datetime(moment, "UTC")


def table_line(ctx: Context, table: LobbyTable) -> Line:
    """One open table as ``games`` lists it: seats taken and free, options, opener, since."""
    seats = store.seats(ctx.session, table.id or 0)
    opener = next((s.name for s in seats if s.address == table.opener), "—")
    return msg("[{tag}] {title}: {taken} of {players} seats taken, {free} free; options: "
               "{options}; opened by {name} on {since}", tag=table.tag, title=title(table),
               taken=len(seats), players=table.players, free=max(table.players - len(seats), 0),
               options=options_text(table) or "—", name=opener,
               since=when(ctx, table.created))


def join_hint(ctx: Context, tag: str) -> Line:
    return msg("To take a seat, send a mail to this address with the line: {line}",
               line=f"{ctx.w('join')} {tag}")
