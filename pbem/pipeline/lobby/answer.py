"""A lobby answer mailed, within the limits: anyone can write any From, so an address that
never answered a join mail counts against [limits] like any unproven sender, one that did
against [lobby] replies_per_hour; an address that said "never" gets nothing."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from pbem.mail.addresses import deliverable
from pbem.pipeline import outgoing as mails
from pbem.pipeline.lobby.base import Context, Reply
from pbem.store import lobby as store
from pbem.store import queries
from pbem.store.tables import OutboundMessage

UNPROVEN_KIND = "lobby"  # one of outgoing.UNPROVEN
KNOWN_KIND = "lobby-known"


def why_not(session: Session, ctx: Context, proven: bool) -> str | None:
    """Why no answer may go to the sender now, or None (``proven``: the sender had
    confirmed a seat, or played here, when the mail came)."""
    if not deliverable(ctx.sender):
        return "the sender's address is not deliverable"
    if store.said_never(session, ctx.sender):
        return "the address asked for no mail"
    if proven:
        sent = queries.recent_replies(session, ctx.sender, (KNOWN_KIND,), timedelta(hours=1))
        return None if sent < ctx.host.lobby.replies_per_hour else "lobby reply limit reached"
    if not mails.may_answer(session, ctx.host, ctx.sender, UNPROVEN_KIND):
        return "reply limit reached"
    return None


def answer(ctx: Context, reply: Reply, proven: bool, in_reply_to: str, references: list[str]
           ) -> tuple[str, list[OutboundMessage]]:
    """The reply queued (unless it must not go); returns the reason to record and the mail."""
    if not reply.send:
        return reply.reason, []
    blocked = why_not(ctx.session, ctx, proven)
    if blocked is not None:
        return f"{reply.reason}; no answer: {blocked}", []
    kind = KNOWN_KIND if proven else UNPROVEN_KIND
    subject = ctx.tr(reply.subject) if not isinstance(reply.subject, str) else reply.subject
    q = mails.queue_notice(ctx.session, ctx.host, to=ctx.sender, kind=kind, tr=ctx.tr,
                           subj=f"[{reply.tag}] {subject}" if reply.tag else subject,
                           lines=reply.lines, in_reply_to=in_reply_to, references=references,
                           secret=reply.code)
    return reply.reason, [q] if q is not None else []
