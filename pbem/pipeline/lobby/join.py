"""``join <tag>``: a free seat at that table. ``join <game> [players N]``: matchmaking, the
oldest open table of that game with a free seat (of N seats, if given), else a new one."""

from __future__ import annotations

from datetime import timedelta

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.deadlines import aware
from pbem.pipeline.lobby import new
from pbem.pipeline.lobby.base import Refused, refused
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.seat_mail import seat_reply
from pbem.pipeline.lobby.tables import (
    check_may_hold,
    check_may_open,
    free_seats,
    open_by_tag,
    open_table,
    proves,
    seat_name,
    seat_of,
    take_seat,
)
from pbem.pipeline.lobby_codes import seat_code
from pbem.pipeline.seat_secrets import hash_secret
from pbem.store import lobby as store
from pbem.store.tables import LobbySeat, LobbyTable

RESEND_AFTER = timedelta(days=1)

SUBJECT = msg("You did not get a seat")


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    return [help_row(f"{w('join')} TAG", msg("take a free seat at that table"), tr),
            help_row(f"{w('join')} GAME", msg("the first free seat of that game (or a new "
                                              "table)"), tr)]


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
    if mine is not None:  # the join mail may have been lost
        return again(ctx, table, mine)
    if free_seats(ctx.session, table) <= 0:
        raise Refused("table full", [
            msg("Table [{tag}] has no free seat.", tag=table.tag),
            msg("Seats not confirmed in time are given back; or send \"{join}\" for the "
                "first free seat of that game.",
                join=f"{ctx.w('join')} {table.game_type}")], tag=table.tag)
    check_may_hold(ctx)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, f"{intro}: seat taken", table, seat, code, [msg(
        "You took a seat at [{tag}].", tag=table.tag)])


def again(ctx: Context, table: LobbyTable, mine: LobbySeat) -> Reply:
    """The code of the seat the sender holds, mailed again: the same code (a forged join must
    not make the mail the holder has useless), at most once a day."""
    sent = aware(mine.code_sent_at or mine.joined_at)
    if ctx.now - sent < RESEND_AFTER:
        return Reply("applied", "join: seat held, its code mailed already today", [
                         msg("You already hold a seat at [{tag}]. Its code was mailed to this "
                             "address on {time}; the host mails it again at most once a day, "
                             "the same code each time.", tag=table.tag,
                             time=ctx.tr.datetime(sent, "UTC")),
                         msg("To confirm the seat, reply to that mail keeping its subject.")],
                     subject=msg("Your seat waits for confirmation"), tag=table.tag)
    code = seat_code(ctx.host, mine)
    if not proves(mine, code):  # the host's key changed since: the seat takes today's code
        mine.code_hash = hash_secret(code, mine.code_salt)
    mine.code_sent_at = ctx.now
    ctx.session.add(mine)
    return seat_reply(ctx, "join: code sent again", table, mine, code, [msg(
        "You already hold a seat at [{tag}]; here is its code again.", tag=table.tag)])


def matched(ctx: Context, parts: list[str]) -> Reply:
    wish = new.read(ctx, " ".join(parts))
    for table in store.open_tables(ctx.session, wish.rules.name):
        if ((wish.players_named and table.players != wish.players)
                or table.bots != wish.bots  # none unless asked for: people seek people
                or (wish.level_named and table.bot_level != wish.level)
                or free_seats(ctx.session, table) <= 0):
            continue
        if seat_of(ctx.session, table, ctx.sender) is None:
            locked = open_by_tag(ctx, table.tag)
            if free_seats(ctx.session, locked) > 0:
                return at(ctx, locked, "join (matched)")
    check_may_open(ctx)
    table = open_table(ctx, wish.rules, wish.players, wish.options, wish.bots, wish.level)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, "join: no open table, one opened", table, seat, code, [msg(
        "No table of {title} had a free seat, so you opened table [{tag}] for {players} "
        "players, and took seat 1.", title=wish.rules.title, tag=table.tag,
        players=wish.players)])
