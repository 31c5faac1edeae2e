"""``invite <tag> <address>`` (one line per address): a short invitation with the ``join``
line. Only a confirmed seat of an open table invites; a few a day per player, one per address
and table, one a day to any one address, none to an address that said "never"."""

from __future__ import annotations

from datetime import timedelta

from pbem.i18n import Translator, msg, translator
from pbem.mail.addresses import deliverable
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby.base import (
    Refused,
    code_needed,
    join_hint,
    refused,
    title,
)
from pbem.pipeline.lobby.tables import free_seats, open_by_tag, proves, seat_of
from pbem.pipeline.lobby_codes import never_code
from pbem.pipeline.seat_language import Line
from pbem.store import lobby as store
from pbem.store import queries
from pbem.store.tables import LobbyInvite, LobbySeat, LobbyTable, OutboundMessage

SUBJECT = msg("No invitation was sent")
LISTED = 10  # addresses named in the answer; more are counted


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('invite')} TAG ADDRESS CODE", msg(
        "mail someone an invitation to your table"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    code = ctx.code
    lines = [argument, *ctx.more]
    first = argument.split()
    mine: LobbySeat | None = None
    try:
        if len(first) < 2:
            raise Refused("invite: table and address needed", [msg(
                "Write the table and the address: {line}",
                line=f"{ctx.w('invite')} TAG name@example.org")])
        table = open_by_tag(ctx, first[0])
        mine = seat_of(ctx.session, table, ctx.sender)
        if mine is None or mine.confirmed_at is None:
            raise Refused("invite: no confirmed seat", [msg(
                "Only a player with a confirmed seat at [{tag}] invites others to it.",
                tag=table.tag)], tag=table.tag)
        if not proves(mine, code):
            raise code_needed(ctx, table.tag,
                              f"{ctx.w('invite')} {table.tag} name@example.org")
        if free_seats(ctx.session, table) <= 0:
            raise Refused("invite: table full", [msg(
                "Table [{tag}] has no free seat to invite anyone to.", tag=table.tag)],
                tag=table.tag)
    except Refused as exc:
        return refused("invite", SUBJECT, exc, proved=mine is not None and proves(mine, code))
    sent, skipped, queued = _send_all(ctx, table, mine.name, lines)
    allowed = ctx.host.lobby.invites_per_day
    answer: list[Line] = []
    if sent:
        answer.append(msg("Invitations to [{tag}] sent to: {addresses}.", tag=table.tag,
                          addresses=_listed(sent)))
    if skipped:
        answer.append(msg(
            "Not sent: {addresses}. An address is invited once per table and once a day, "
            "not at all if it asked for no mail; each player sends at most {count} "
            "invitations a day; only lines \"{line}\" for this table are read.",
            addresses=_listed(skipped), count=allowed,
            line=f"{ctx.w('invite')} {table.tag} name@example.org"))
    return Reply("applied" if sent else "rejected", f"invite: {len(sent)} sent, "
                 f"{len(skipped)} not", answer, subject=msg("Your invitations"),
                 tag=table.tag, queued=queued, proved=True)


def _listed(addresses: list[str]) -> str:
    shown = ", ".join(addresses[:LISTED])
    return shown + (f" (+{len(addresses) - LISTED})" if len(addresses) > LISTED else "")


def _send_all(ctx: Context, table: LobbyTable, inviter: str,
              lines: list[str]) -> tuple[list[str], list[str], list[OutboundMessage]]:
    sent: list[str] = []
    skipped: list[str] = []
    queued: list[OutboundMessage] = []
    left = ctx.host.lobby.invites_per_day - store.invites_since(
        ctx.session, ctx.sender, store.day_ago(ctx.now))
    for line in lines:
        parts = line.split()
        address = parts[1].strip("<>").lower()[:254] if len(parts) >= 2 else line[:60]
        if (len(parts) != 2 or parts[0].strip("[]") != table.tag or left <= 0
                or address in sent or not deliverable(address) or address == ctx.sender
                or not _may_invite(ctx, table, address)):
            skipped.append(address)
            continue
        invitation = _invitation(ctx, table, inviter, address)
        if invitation is not None:  # None only for a seat no mail goes to: never a stranger
            queued.append(invitation)
        ctx.session.add(LobbyInvite(table_id=table.id or 0, inviter=ctx.sender,
                                    address_hash=store.address_hash(address), created=ctx.now))
        sent.append(address)
        left -= 1
    ctx.session.flush()
    return sent, skipped, queued


def _may_invite(ctx: Context, table: LobbyTable, address: str) -> bool:
    """Not said never, not invited to this table, not invited by anyone today; within the
    host's limit of unproven mail an hour."""
    return (not store.said_never(ctx.session, address)
            and not store.invited(ctx.session, table.id or 0, address)
            and queries.recent_replies(ctx.session, address, ("invite",), timedelta(days=1))
            < ctx.host.limits.stranger_replies_per_day
            and mails.may_answer(ctx.session, ctx.host, address, "invite"))


def _invitation(ctx: Context, table: LobbyTable, inviter: str, address: str
                ) -> OutboundMessage | None:
    """In the table's language: the invitee's is not known."""
    tr = translator(table.language)
    join = Context(ctx.session, ctx.host, address, table.language)
    code = never_code(ctx.host, address)  # only mail to the address carries it
    return mails.queue_notice(
        ctx.session, ctx.host, to=address, kind="invite", tr=tr,
        subj=f"[{table.tag}] " + tr(msg("An invitation to play {title}", title=title(table))),
        lines=[msg("{name} invites you to play {title} by mail at this game host, at table "
                   "[{tag}] ({free} of {players} seats free).", name=inviter,
                   title=title(table), tag=table.tag, free=free_seats(ctx.session, table),
                   players=table.players),
               join_hint(join, table.tag),
               msg("If you do not want mail from this host, answer with the line "
                   "\"{line}\": it will not write to you again.",
                   line=f"{join.w('never')} {code}")],
        secret=code, unsubscribe=True)
