"""What several lobby commands share: their refusals, and the lines that show a table.

Every lobby command has the one shape of :mod:`pbem.pipeline.commands.base`: it reads the
lobby mail's code and further lines from its :class:`Context` (``code``, ``more``)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pbem.engine import registry
from pbem.i18n import msg
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.seat_language import Line
from pbem.store import lobby as store
from pbem.store.tables import LobbyTable


class Refused(Exception):
    """A lobby command that cannot be done; ``lines`` tell the sender why and what to do."""

    def __init__(self, reason: str, lines: list[Line], tag: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.lines, self.tag = reason, lines, tag


def refused(reason: str, subject: Line, exc: Refused, proved: bool = False) -> Reply:
    return Reply("rejected", f"{reason}: {exc.reason}", exc.lines, subject=subject, tag=exc.tag,
                 proved=proved)


def code_needed(ctx: Context, tag: str, line: str) -> Refused:
    """The refusal of a command for a seat whose mail did not carry the seat's code: anyone
    can write any From line, so only the code proves the seat is the sender's."""
    return Refused("no code of the seat", [
        msg("Only the holder of the seat at [{tag}] can do this, and anyone can write any "
            "sender: reply to your seat's mail (its subject carries your seat's code) with "
            "the line \"{line}\", or add the code to the line: {coded}", tag=tag, line=line,
            coded=f"{line} CODE"),
        msg("The code is the one of the mail you got when you took the seat, such as "
            "ABCD-EFGH.")], tag=tag)


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
    # Taken: confirmed; a seat held unconfirmed keeps nobody out.
    seats = [s for s in seats if s.confirmed_at is not None]
    if table.bots:
        humans = table.players - table.bots
        return msg("[{tag}] {title}: {taken} of {humans} seats for players taken, {free} free, "
                   "and {bots} bot seats ({level}); options: {options}; opened by {name} on "
                   "{since}", tag=table.tag, title=title(table), taken=len(seats),
                   humans=humans, free=max(humans - len(seats), 0), bots=table.bots,
                   level=ctx.w(table.bot_level), options=options_text(table) or "—",
                   name=opener, since=when(ctx, table.created))
    return msg("[{tag}] {title}: {taken} of {players} seats taken, {free} free; options: "
               "{options}; opened by {name} on {since}", tag=table.tag, title=title(table),
               taken=len(seats), players=table.players, free=max(table.players - len(seats), 0),
               options=options_text(table) or "—", name=opener,
               since=when(ctx, table.created))


def join_hint(ctx: Context, tag: str) -> Line:
    return msg("To take a seat, send a mail to this address with the line: {line}",
               line=f"{ctx.w('join')} {tag}")
