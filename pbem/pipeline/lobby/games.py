"""``games``: the open tables one could join, one's own tables, and one's games with whose
turn it is."""

from __future__ import annotations

import json

from pbem.engine import registry
from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby.base import table_line
from pbem.pipeline.lobby.tables import describe
from pbem.pipeline.seat_language import Line
from pbem.store import lobby as store
from pbem.store import queries

LISTED = 30  # open tables listed (the oldest first)


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("games"), msg("the open tables, and your own tables and games"),
                     tr)]


def run(ctx: Context, argument: str) -> Reply:
    del argument
    mine = {s.table_id for s in store.seats_of(ctx.session, ctx.sender)}
    tables = store.open_tables(ctx.session)
    joinable = [t for t in tables if t.id not in mine]
    lines: list[Line] = [msg("Open tables you can join:") if joinable
                         else msg("No table is open right now.")]
    lines += [table_line(ctx, t) for t in joinable[:LISTED]]
    if len(joinable) > LISTED:
        lines.append(msg("... and {count} more.", count=len(joinable) - LISTED))
    lines += ["", msg("Join one with \"{join}\", or the first free seat of a game with "
                      "\"{game}\"; open a table with \"{new}\".",
                      join=f"{ctx.w('join')} TAG", game=f"{ctx.w('join')} GAME",
                      new=f"{ctx.w('new')} GAME {ctx.w('players')} N")]
    own = [t for t in tables if t.id in mine]
    if own:
        lines += ["", msg("Your tables:")]
        for table in own:
            lines += describe(ctx, table)
    games = queries.games_of_address(ctx.session, ctx.sender)
    if games:
        lines += ["", msg("Your games:")]
        for game in games:
            rules = registry.get(game.game_type)
            state = rules.from_json(json.loads(
                queries.latest_snapshot(ctx.session, game.id or 0).state_json))
            seats = queries.seats(ctx.session, game.id or 0)
            waited = rules.waiting_for(state)
            lines.append(msg("[{tag}] {title}: waiting for {names}", tag=game.tag,
                             title=rules.title, names=", ".join(
                                 s.name for s in seats if s.index in waited) or "—"))
    return Reply("ignored", "games", lines)


