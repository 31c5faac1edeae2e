"""The tables of the lobby: who may open one, the seats and their codes, the caps, the seats
that expire, and the start, which creates the game exactly as ``pbem game new`` does
(pbem.pipeline.new_game) with the table's tag as the game's tag."""

from __future__ import annotations

import json
import secrets as pysecrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlmodel import Session, col, select

from pbem.engine import registry
from pbem.engine.contract import GameRules, option_problems
from pbem.engine.hashing import canonical_json
from pbem.i18n import Msg, msg, translator
from pbem.pipeline import controllers, operator_input, outgoing
from pbem.pipeline.command_words import word
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.controllers import DEFAULT_LEVEL
from pbem.pipeline.lobby.base import Refused, title
from pbem.pipeline.lobby_codes import seat_code
from pbem.pipeline.new_game import create_game, default_clocks
from pbem.pipeline.seat_language import Line
from pbem.pipeline.seat_secrets import check_secret, hash_secret, new_salt
from pbem.settings.host import Host
from pbem.store import lobby as store
from pbem.store import queries
from pbem.store.tables import (
    OUTBOUND_WITHOUT_BYTES,
    Game,
    LobbySeat,
    LobbyTable,
    OutboundMessage,
)

NAME_MAX = 40  # a seat's name, taken from the From line


def seat_name(ctx: Context, profile_name: str | None) -> str:
    """The name a seat is known by: the profile's, else the From name, else the address's
    local part; one plain line, bounded."""
    for candidate in (profile_name, ctx.sender_name, ctx.sender.partition("@")[0]):
        if not candidate:
            continue
        try:
            return operator_input.name(candidate[:NAME_MAX], "name")
        except operator_input.InputError:
            continue
    return "?"


def unused_name(name: str, taken: list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``...: players address talk to a seat by its name, so
    no two seats of a table answer to one (an address is never shown to tell them apart)."""
    used = {t.casefold() for t in taken}
    number = 1
    candidate = name
    while candidate.casefold() in used:
        number += 1
        suffix = f" {number}"
        candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate


def refresh(session: Session, now: Any) -> None:
    """Give back the seats whose confirmation time ran out; a table left empty is closed."""
    for table_id in store.expire(session, now):
        table = session.get(LobbyTable, table_id)
        if table is not None and table.status == "open" and not store.seats(session, table_id):
            table.status, table.closed_at = "closed", now
            session.add(table)
    session.flush()


def known(session: Session, address: str) -> bool:
    """An address that proved it reads its mail (a confirmed seat) or plays a game here."""
    return store.confirmed_before(session, address) or store.plays_somewhere(session, address)


def check_may_open(ctx: Context) -> None:
    """The [lobby] rule on who opens tables, and the caps on tables opened."""
    lobby = ctx.host.lobby
    operator = ctx.sender == (ctx.host.mail.operator_address or "").lower()
    if lobby.open == "operator" and not operator:
        raise Refused("only the operator opens tables", [msg(
            "On this host only its operator opens tables. You can join an open table: send "
            "\"{games}\" to see them.", games=ctx.w("games"))])
    if lobby.open == "players" and not operator and not known(ctx.session, ctx.sender):
        raise Refused("only known players open tables", [msg(
            "On this host only players who have played here before open tables. Join an "
            "open table first: send \"{games}\" to see them.", games=ctx.w("games"))])
    if store.open_count(ctx.session, ctx.sender) >= lobby.open_tables_per_address:
        raise Refused("too many open tables", [msg(
            "You already have {count} open tables, the most this host allows. Start one "
            "(\"{start} TAG\") or leave one (\"{leave} TAG\") first.",
            count=lobby.open_tables_per_address, start=ctx.w("start"),
            leave=ctx.w("leave"))])
    since = store.day_ago(ctx.now)
    if store.opened_since(ctx.session, since, ctx.sender) >= lobby.tables_per_address_per_day:
        raise Refused("tables per address per day", [msg(
            "You opened {count} tables in the last 24 hours, the most this host allows. "
            "Please try again tomorrow, or join an open table.",
            count=lobby.tables_per_address_per_day)])
    if store.opened_since(ctx.session, since, confirmed=True) >= lobby.tables_per_day:
        raise Refused("tables per day", [msg(
            "This host opened as many tables today as it takes ({count}). Please try again "
            "tomorrow, or join an open table.", count=lobby.tables_per_day)])
    check_may_hold(ctx)


def check_may_hold(ctx: Context) -> None:
    """The cap on unconfirmed seats held by the addresses of the sender's domain: anyone can
    write any From line of a domain, so what they can make the host keep is bounded there
    (and those seats keep nobody else from a table)."""
    domain = ctx.sender.rpartition("@")[2]
    if store.held_in_domain(ctx.session, domain) >= ctx.host.lobby.holds_per_domain:
        raise Refused("held seats per domain", [msg(
            "Addresses at {domain} hold {count} seats that wait for confirmation, the most "
            "this host keeps for one domain. Please try again in a few hours, when seats not "
            "confirmed in time are given back.", domain=domain[:60],
            count=ctx.host.lobby.holds_per_domain)])


def open_table(ctx: Context, rules: GameRules, players: int, options: dict[str, Any], bots: int = 0,
               level: str = DEFAULT_LEVEL) -> LobbyTable:
    """A new open table (its seats for people to be taken by the caller; its last ``bots``
    seats the host's bots')."""
    table = LobbyTable(tag=f"new-{pysecrets.token_hex(8)}", game_type=rules.name,
                       players=players, bots=bots, bot_level=level,
                       options_json=canonical_json(options),
                       opener=ctx.sender, language=ctx.tr.lang, created=ctx.now)
    ctx.session.add(table)
    ctx.session.flush()
    tag = f"{registry.tag_prefix(rules)}-t{table.id}"
    if queries.game_by_tag(ctx.session, tag) is not None:  # an operator chose it already
        tag = f"{tag}-{pysecrets.token_hex(2)}"
    table.tag = tag
    ctx.session.add(table)
    return table


def take_seat(ctx: Context, table: LobbyTable, name: str) -> tuple[LobbySeat, str]:
    """A seat at ``table`` for the sender, unconfirmed; returns it and its code (derived
    from the row, kept only hashed)."""
    others = store.seat_names(ctx.session, table.id or 0)
    seat = LobbySeat(table_id=table.id or 0, address=ctx.sender, name=unused_name(name, others),
                     language=ctx.tr.lang, code_salt=new_salt(), code_hash="",
                     joined_at=ctx.now, code_sent_at=ctx.now,
                     expires_at=ctx.now + timedelta(hours=ctx.host.lobby.confirm_hours))
    ctx.session.add(seat)
    ctx.session.flush()  # its id, which its code is derived from
    code = seat_code(ctx.host, seat)
    seat.code_hash = hash_secret(code, seat.code_salt)
    ctx.session.add(seat)
    return seat, code


def human_seats(table: LobbyTable) -> int:
    """The seats of a table its players take (the rest are bot seats)."""
    return table.players - table.bots


def free_seats(session: Session, table: LobbyTable) -> int:
    """Seats for people not yet confirmed: a seat held unconfirmed keeps nobody out (anyone
    can take one for any From line), so it counts as free until the first confirmations
    fill the table."""
    return human_seats(table) - store.confirmed_count(session, table.id or 0)


def full(session: Session, table: LobbyTable) -> bool:
    """Every seat for a person taken and confirmed: the table starts."""
    return store.confirmed_count(session, table.id or 0) >= human_seats(table)


def seat_of(session: Session, table: LobbyTable, address: str) -> LobbySeat | None:
    return store.seat_at(session, table.id or 0, address)


def unconfirmed_seat(session: Session, address: str, code: str) -> LobbySeat | None:
    """The sender's unconfirmed seat this code belongs to."""
    normal = code.strip().upper()
    return next((s for s in store.seats_of(session, address)
                 if s.confirmed_at is None
                 and check_secret(normal, s.code_salt, s.code_hash)), None)


def proves(seat: LobbySeat, code: str | None) -> bool:
    """Whether ``code`` is ``seat``'s: mailed only to its address, it proves the sender reads
    that address's mail."""
    return code is not None and check_secret(code.strip().upper(), seat.code_salt,
                                             seat.code_hash)


def confirmed(seats: list[LobbySeat]) -> list[LobbySeat]:
    return [s for s in seats if s.confirmed_at is not None]


def open_by_tag(ctx: Context, tag: str) -> LobbyTable:
    """The open table ``tag``, locked; refused with what to do when there is none."""
    table = store.table_by_tag(ctx.session, tag.strip().strip("[]"))
    if table is not None:
        table = store.lock_table(ctx.session, table.id or 0)
    if table is None:
        raise Refused("no such table", [msg(
            "There is no table {tag} at this host. Send \"{games}\" to see the open tables.",
            tag=tag[:40], games=ctx.w("games"))])
    if table.status != "open":
        raise Refused(f"table is {table.status}", [
            msg("Table [{tag}] has started: it is game [{tag}] now, and takes no more "
                "players.", tag=table.tag) if table.status == "started" else
            msg("Table [{tag}] was closed.", tag=table.tag),
            msg("Send \"{games}\" to see the open tables.", games=ctx.w("games"))],
            tag=table.tag)
    return table


class Unplayable(Exception):
    """The table's options are ones its game refuses: a table opened before the host asked
    the game at ``new``, or a game whose check missed what its setup refuses."""

    def __init__(self, problems: list[Msg]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


def start(session: Session, host: Host, table: LobbyTable) -> tuple[Game, list[OutboundMessage]]:
    """Start ``table`` with its confirmed seats: its game created as ``pbem game new``
    creates one; unconfirmed seats are given back. Returns the game and its welcome mails
    (each with its player's secret). Raises :class:`Unplayable` (and changes nothing) when
    the game refuses the table's options."""
    rules = registry.get(table.game_type)
    options = json.loads(table.options_json)
    problems = option_problems(rules, {**rules.default_options(), **options})
    if problems:
        raise Unplayable(problems)
    seats = store.seats(session, table.id or 0)
    players = confirmed(seats)
    waiting = [s.id for s in seats if s.confirmed_at is None]
    if waiting:
        session.exec(delete(LobbySeat).where(
            col(LobbySeat.id).in_(waiting)))
    deadlines = host.deadlines
    clocks = default_clocks(deadlines.turn_hours, deadlines.reminder_hours, deadlines.timeout,
                            deadlines.vacation_days)
    # The bots take the seats after the people's, named as `pbem game new --seat bot` names
    # them; they speak the table's language.
    bots = {len(players) + i: table.bot_level for i in range(table.bots)}
    game, _secrets = create_game(
        session, table.game_type,
        [*((s.name, s.address) for s in players),
         *((controllers.bot_name(i, level), "") for i, level in bots.items())],
        options=options, tag=table.tag, host=host, clocks=clocks,
        language=table.language, languages=[s.language for s in players], bots=bots)
    del _secrets  # mailed to each player in their welcome mail; never kept
    table.status, table.game_id, table.closed_at = "started", game.id, host.clock()
    session.add(table)
    session.flush()
    welcomes = session.exec(select(OutboundMessage).where(
        OutboundMessage.game_id == game.id).options(OUTBOUND_WITHOUT_BYTES)).all()
    return game, list(welcomes)


def close(session: Session, host: Host, table: LobbyTable, now: datetime,
          lines: Callable[[str], list[Line]], sparing: str | None = None
          ) -> list[OutboundMessage]:
    """Close ``table``: each confirmed player but ``sparing`` (whose own answer says it) gets
    one note, "[tag] The table was closed" with ``lines`` in their language."""
    told: list[OutboundMessage] = []
    for seat in confirmed(store.seats(session, table.id or 0)):
        if seat.address == sparing:
            continue
        tr = translator(seat.language)
        note = outgoing.queue_notice(session, host, to=seat.address, kind="notice", tr=tr,
                                     subj=f"[{table.tag}] " + tr(msg("The table was closed")),
                                     lines=lines(seat.language))
        told += [note] if note is not None else []
    table.status, table.closed_at = "closed", now
    session.add(table)
    return told


def close_unplayable(ctx: Context, table: LobbyTable, problems: list[Msg], command: str
                     ) -> Reply:
    """Close a table its game cannot play: the sender's answer says why, and every other
    confirmed player gets one note saying the same (in their language)."""
    rules = registry.get(table.game_type)

    def why(lang: str) -> list[Line]:
        tr = translator(lang, rules.name)
        return [*(msg("Table [{tag}] cannot start: {title} refuses its options: {problem}.",
                      tag=table.tag, title=rules.title, problem=tr(problem))
                  for problem in problems), "",
                msg("It is closed. Send \"{games}\" to find another table, or \"{new}\" to "
                    "open one.", games=word("games", lang), new=word("new", lang))]

    told = close(ctx.session, ctx.host, table, ctx.now, why, sparing=ctx.sender)
    return Reply("applied", f"{command}: table closed, its game refuses its options",
                 why(ctx.tr.lang), subject=msg("The table was closed"), tag=table.tag,
                 queued=told)


def describe(ctx: Context, table: LobbyTable) -> list[Any]:
    """Where a table stands: seats confirmed, waiting, free, its bots, and how it starts."""
    rules = registry.get(table.game_type)
    done = store.confirmed_seats(ctx.session, table.id or 0)
    waiting = store.waiting_count(ctx.session, table.id or 0)
    early = f"{ctx.w('start')} {table.tag} CODE"
    return [msg("[{tag}] {title} for {players} players: {confirmed} seats confirmed ({names}), "
                "{waiting} waiting for confirmation, {free} free.", tag=table.tag,
                title=title(table), players=table.players, confirmed=len(done),
                names=", ".join(s.name for s in done) or "—",
                waiting=waiting, free=max(free_seats(ctx.session, table), 0)),
            msg("Its last {bots} seats are played by the computer ({level}) and need no "
                "confirmation: it starts when its other {humans} seats are taken and "
                "confirmed; its opener may start it earlier with \"{start}\" once {least} "
                "seats, the bots' included, are ready.", bots=table.bots,
                level=ctx.w(table.bot_level), humans=human_seats(table), start=early,
                least=rules.min_players) if table.bots else
            msg("It starts when all {players} seats are taken and confirmed; its opener may "
                "start it earlier with \"{start}\" once {least} seats are confirmed.",
                players=table.players, start=early, least=rules.min_players)]
