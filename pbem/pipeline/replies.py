"""The answers to a mail: a threaded reply to a seat, a limited note to a stranger, and, once
the chain is done, the table talk to whoever got no mail carrying it."""

from __future__ import annotations

from pbem.mail.addresses import deliverable
from pbem.pipeline import outgoing as mails
from pbem.pipeline import talk
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.seat_language import Line
from pbem.store.tables import Game


def reply_subject(ctx: MailContext, game: Game | None, point: Line) -> str:
    """``[tag] what this reply is`` (the mail's own subject is never echoed: a forged mail
    must not get its words mailed to someone else); without a game, ``point`` alone."""
    return mails.subject(game, point, ctx.tr) if game else ctx.tr(point)


def stranger(ctx: MailContext, status: str, reason: str, lines: list[Line],
             game: Game | None, point: Line, kind: str = "stranger") -> Result:
    """A rate-limited note to a sender who proved nothing (no seat, no or wrong secret,
    asking for help); nothing else changes. Never sent to an address we cannot parse.
    ``point`` says what it is, in its subject."""
    queued = []
    if not deliverable(ctx.sender):
        reason += "; no answer: the sender's address is not deliverable"
    elif not mails.may_answer(ctx.session, ctx.host, ctx.sender, kind):
        reason += "; no answer: reply limit reached"
    else:
        queued.append(mails.queue_notice(
            ctx.session, ctx.host, to=ctx.sender, subj=reply_subject(ctx, game, point),
            lines=ctx.with_asides(lines), kind=kind, game=game, in_reply_to=ctx.mid,
            references=ctx.refs, tr=ctx.tr, unsubscribe=kind == "stranger"))
    return finish(ctx.row, status, reason, queued)


def notice(ctx: MailContext, status: str, reason: str, lines: list[Line], game: Game,
           point: Line) -> Result:
    """A threaded reply to the proved seat; ``point`` says what it is (``[tag] point``)."""
    q = mails.queue_notice(ctx.session, ctx.host, to=ctx.sender,
                           subj=reply_subject(ctx, game, point), lines=ctx.with_asides(lines),
                           kind="reply", game=game, in_reply_to=ctx.mid, references=ctx.refs,
                           seat=ctx.seat, rules=ctx.rules, tr=ctx.tr)
    return finish(ctx.row, status, reason, [q])


def close(ctx: MailContext, result: Result) -> Result:
    """After the chain: the row names its game and seat; the talk of the mail goes to
    whoever got no mail with it."""
    if ctx.game_id is not None:
        ctx.row.game_id = ctx.game_id
    if ctx.seat_index is not None:
        ctx.row.seat = ctx.seat_index
    if ctx.game is not None:
        result.rows += talk.deliver(ctx.session, ctx.host, ctx.game, ctx.said, ctx.told)
    return result
