"""A lobby answer mailed, within the limits: anyone can write any From, so an address that
never answered a join mail is answered a few times an hour, and the addresses of its domain
a few dozen times ([limits] unverified_replies_per_hour, [lobby] replies_per_domain_per_hour),
never from a pool the whole host shares, so forged lobby mail silences no one else; one that
confirmed a seat against [lobby] replies_per_hour; an address that said "never" gets nothing.
Mail to an address that plays no game carries ``List-Unsubscribe`` (a proven "never")."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from pbem.mail.addresses import deliverable
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.lobby.never import ASK_KIND
from pbem.store import lobby as store
from pbem.store import queries
from pbem.store.tables import OutboundMessage, utcnow

UNPROVEN_KIND = "lobby"  # one of outgoing.UNPROVEN
KNOWN_KIND = "lobby-known"
HOUR = timedelta(hours=1)


def why_not(session: Session, ctx: Context, proven: bool, kind: str | None = None
            ) -> str | None:
    """Why no answer may go to the sender now, or None (``proven``: the sender had
    confirmed a seat, or played here, when the mail came)."""
    if not deliverable(ctx.sender):
        return "the sender's address is not deliverable"
    if store.said_never(session, ctx.sender):
        return "the address asked for no mail"
    if kind == ASK_KIND and queries.recent_replies(session, ctx.sender, (ASK_KIND,),
                                                   timedelta(days=1)):
        return "asked already today"
    if proven and kind is None:
        sent = queries.recent_replies(session, ctx.sender, (KNOWN_KIND,), HOUR)
        return None if sent < ctx.host.lobby.replies_per_hour else "lobby reply limit reached"
    sent = queries.recent_replies(session, ctx.sender, ("help", "auth", UNPROVEN_KIND, ASK_KIND),
                                  HOUR)
    if sent >= ctx.host.limits.unverified_replies_per_hour:
        return "reply limit reached"
    domain = ctx.sender.rpartition("@")[2]
    if store.replies_to_domain(session, domain, (UNPROVEN_KIND, ASK_KIND), utcnow() - HOUR) \
            >= ctx.host.lobby.replies_per_domain_per_hour:
        return "reply limit of the sender's domain reached"
    return None


def answer(ctx: Context, reply: Reply, proven: bool, in_reply_to: str, references: list[str]
           ) -> tuple[str, list[OutboundMessage]]:
    """The reply queued (unless it must not go); returns the reason to record and the mail."""
    if not reply.send:
        return reply.reason, []
    blocked = why_not(ctx.session, ctx, proven, reply.kind)
    if blocked is not None:
        return f"{reply.reason}; no answer: {blocked}", []
    kind = reply.kind or (KNOWN_KIND if proven else UNPROVEN_KIND)
    said = reply.subject or ""
    subject = ctx.tr(said) if not isinstance(said, str) else said
    q = mails.queue_notice(ctx.session, ctx.host, to=ctx.sender, kind=kind, tr=ctx.tr,
                           subj=f"[{reply.tag}] {subject}" if reply.tag else subject,
                           lines=reply.lines, in_reply_to=in_reply_to, references=references,
                           secret=reply.secret,
                           unsubscribe=not store.games_in_play(ctx.session, ctx.sender))
    return reply.reason, [q] if q is not None else []
