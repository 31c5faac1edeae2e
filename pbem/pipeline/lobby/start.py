"""``start <tag>``: the opener starts the table before it is full, with the confirmed seats
(at least the game's minimum); seats still unconfirmed are given back."""

from __future__ import annotations

import dataclasses

from pbem.engine import registry
from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby.base import Refused, code_needed, refused
from pbem.pipeline.lobby.tables import (
    Unplayable,
    close_unplayable,
    confirmed,
    describe,
    open_by_tag,
    proves,
    seat_of,
    start,
)
from pbem.store import lobby as store

SUBJECT = msg("The table did not start")


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('start')} TAG CODE", msg(
        "the opener starts the game before the table is full"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    proved = False
    try:
        if not argument.split():
            raise Refused("no table named", [msg("Name the table: {line}",
                                                 line=f"{ctx.w('start')} TAG")])
        table = open_by_tag(ctx, argument.split()[0])
        mine = seat_of(ctx.session, table, ctx.sender)
        if table.opener != ctx.sender or mine is None or mine.confirmed_at is None:
            raise Refused("not the opener", [msg(
                "Only the player who opened [{tag}] starts it early, once their own seat is "
                "confirmed. It starts by itself when all its seats are confirmed.",
                tag=table.tag)], tag=table.tag)
        if not proves(mine, ctx.code):
            raise code_needed(ctx, table.tag, f"{ctx.w('start')} {table.tag}")
        proved = True
        rules = registry.get(table.game_type)
        ready = confirmed(store.seats(ctx.session, table.id or 0))
        if len(ready) + table.bots < rules.min_players:
            raise Refused("too few confirmed seats", [
                msg("{title} needs at least {least} players; [{tag}] has {count} confirmed "
                    "seats.", title=rules.title, least=rules.min_players, tag=table.tag,
                    count=len(ready)), "", *describe(ctx, table)], tag=table.tag)
    except Refused as exc:
        return refused("start", SUBJECT, exc, proved)
    try:
        game, welcomes = start(ctx.session, ctx.host, table)
    except Unplayable as exc:
        closed = close_unplayable(ctx, table, exc.problems, "start")
        return dataclasses.replace(closed, proved=True)
    # Every player's welcome mail (the opener's too) answers this mail.
    return Reply("applied", f"start: game {game.tag} started with {len(ready)} players", [],
                 subject="game started", tag=table.tag, send=False, queued=welcomes,
                 proved=True)
