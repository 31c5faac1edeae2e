"""``join <tag>``: a free seat at that table. ``join <game> [players N]``: matchmaking, the
oldest open table of that game with a free seat (of N seats, if given), else a new one."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import command_words as words
from pbem.pipeline.lobby import new
from pbem.pipeline.lobby.base import Context, Refused, Reply, refused
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.seat_mail import seat_reply
from pbem.pipeline.lobby.tables import (
    check_may_open,
    free_seats,
    new_code,
    open_by_tag,
    open_table,
    seat_name,
    seat_of,
    take_seat,
)
from pbem.pipeline.seat_secrets import hash_secret, new_salt
from pbem.store import lobby as store
from pbem.store.tables import LobbyTable

SUBJECT = msg("You did not get a seat")


def run(ctx: Context, argument: str) -> Reply:
    parts = argument.split()
    if not parts:
        return refused("join", SUBJECT, Refused("nothing named", [msg(
            "Name the table or the game: \"{tag}\" takes a seat at that table, \"{game}\" "
            "the first free seat of that game. Send \"{games}\" to see the open tables.",
            tag=f"{ctx.w('join')} TAG", game=f"{ctx.w('join')} GAME",
            games=ctx.w("games"))]))
    try:
        if store.table_by_tag(ctx.session, parts[0].strip("[]")) is not None:
            return at(ctx, open_by_tag(ctx, parts[0]))
        return matched(ctx, parts)
    except Refused as exc:
        return refused("join", SUBJECT, exc)


def at(ctx: Context, table: LobbyTable, intro: str = "join") -> Reply:
    """A seat at ``table`` for the sender (a fresh code if they hold one unconfirmed)."""
    mine = seat_of(ctx.session, table, ctx.sender)
    if mine is not None and mine.confirmed_at is not None:
        raise Refused("seated already", [
            msg("You already hold a confirmed seat at [{tag}].", tag=table.tag),
            msg("The game starts when the table is full; you will get its first mail then.")],
            tag=table.tag)
    if mine is not None:  # the join mail may have been lost: a new code replaces the old
        code, salt = new_code(), new_salt()
        mine.code_salt, mine.code_hash = salt, hash_secret(code, salt)
        ctx.session.add(mine)
        return seat_reply(ctx, "join: code sent again", table, mine, code, [msg(
            "You already hold a seat at [{tag}]; here is a new code for it (the old one no "
            "longer works).", tag=table.tag)])
    if free_seats(ctx.session, table) <= 0:
        raise Refused("table full", [
            msg("Table [{tag}] has no free seat.", tag=table.tag),
            msg("Seats not confirmed in time are given back; or send \"{join}\" for the "
                "first free seat of that game.",
                join=f"{ctx.w('join')} {table.game_type}")], tag=table.tag)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, f"{intro}: seat taken", table, seat, code, [msg(
        "You took a seat at [{tag}].", tag=table.tag)])


def matched(ctx: Context, parts: list[str]) -> Reply:
    rules = new.game_named(ctx, parts[0])
    players = None
    if len(parts) >= 3 and words.is_word(parts[1], "players") and parts[2].isdigit():
        players = int(parts[2])
    for table in store.open_tables(ctx.session, rules.name):
        if players not in (None, table.players) or free_seats(ctx.session, table) <= 0:
            continue
        if seat_of(ctx.session, table, ctx.sender) is None:
            locked = open_by_tag(ctx, table.tag)
            if free_seats(ctx.session, locked) > 0:
                return at(ctx, locked, "join (matched)")
    rules, count, options = new.read(ctx, " ".join(parts))
    check_may_open(ctx)
    table = open_table(ctx, rules, count, options)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, "join: no open table, one opened", table, seat, code, [msg(
        "No table of {title} had a free seat, so you opened table [{tag}] for {players} "
        "players, and took seat 1.", title=rules.title, tag=table.tag, players=count)])
