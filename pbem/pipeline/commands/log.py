"""``log`` / ``log N``: the last moves of the game, as this seat may see them."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline import autoplay
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.history import BOT, TALK, revoked
from pbem.pipeline.seat_language import Line
from pbem.store import queries

LOG_DEFAULT = 10  # entries a bare "log" shows
LOG_MAX = 50


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('log')} [N]", msg(
        "the last N moves (default {count}), as you may see them", count=LOG_DEFAULT), tr)]


def run(ctx: Context, argument: str) -> Reply:
    arg = argument.strip()
    log = ctx.w("log")
    if arg and not (arg.isdigit() and 1 <= int(arg) <= LOG_MAX):
        return Reply("rejected", "bad log count", [msg(
            "\"{log} {arg}\" is not understood: write \"{log}\" alone for the last {count} "
            "moves, or \"{log} N\" with N from 1 to {max}.", log=log, arg=arg,
            count=LOG_DEFAULT, max=LOG_MAX)])
    count = int(arg) if arg else LOG_DEFAULT
    entries = [e for e in queries.log(ctx.session, ctx.game.id or 0) if e.kind != "setup"
               and (e.kind != TALK or any(ev.visible(ctx.seat.index)
                                          for ev in queries.entry_events(e)))]
    undone = revoked(entries)  # the log is append-only: undone moves stay, marked
    seats = queries.seats(ctx.session, ctx.game.id or 0)
    names = {s.index: s.name for s in seats}
    by_seat = [s.name for s in seats]
    shown = entries[-count:]
    if not shown:
        return Reply("ignored", "log", [msg("Nothing has been played in [{tag}] yet.",
                                            tag=ctx.game.tag)])
    tr, tz = ctx.tr, ctx.seat.timezone
    lines: list[Line] = [msg("The last {shown} of {total} moves in [{tag}], as you may see "
                             "them:", shown=len(shown), total=len(entries), tag=ctx.game.tag),
                         ""]
    for e in shown:
        who = names.get(e.seat, tr(msg("the host"))) if e.seat is not None \
            else tr(msg("the host"))
        when = tr.datetime(e.created, tz)
        if e.kind == "order":
            head = msg("#{index} {who} ({when})", index=e.index, who=who, when=when)
        elif e.kind == autoplay.TIMEOUT_KIND:
            head = msg("#{index} {who}, played by the host ({when})", index=e.index, who=who,
                       when=when)
        elif e.kind == BOT:
            head = msg("#{index} {who}, played by a bot ({when})", index=e.index, who=who,
                       when=when)
        elif e.kind == TALK:
            head = msg("#{index} {who} says ({when})", index=e.index, who=who, when=when)
        else:
            head = msg("#{index} {who}, {kind} ({when})", index=e.index, who=who,
                       kind=e.kind, when=when)
        mark = tr(msg(" (undone by #{index})", index=undone[e.index])) if e.index in undone \
            else ""
        lines.append(f"{tr(head)}{mark}:")
        seen = [ev.render(tr, by_seat) for ev in queries.entry_events(e)
                if ev.visible(ctx.seat.index)]
        lines += [f"  - {t}" for t in seen] or ["  " + tr(msg("(nothing you may see)"))]
    return Reply("ignored", "log", lines)
