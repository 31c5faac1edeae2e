"""The answers to a mail: a threaded reply to a seat, a limited note to a stranger, and, once
the chain is done, the table talk to whoever got no mail carrying it."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.mail.addresses import deliverable
from pbem.mail.redact import blank
from pbem.pipeline import outgoing as mails
from pbem.pipeline import talk
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.seat_language import Line
from pbem.store.tables import Game


def reply_subject(ctx: MailContext, game: Game | None, *, echo: bool = True) -> str:
    """``Re:`` the sender's subject for a seat that proved its secret; otherwise a fixed
    subject: a forged mail must not get its words mailed to someone else."""
    if not echo:
        return (mails.subject(game, msg("about your mail"), ctx.tr) if game
                else ctx.tr(msg("About your mail to the game host")))
    return mails.reply_subject(blank(ctx.mail.subject, [ctx.secret] if ctx.secret
                                     else []), game)


def stranger(ctx: MailContext, status: str, reason: str, lines: list[Line],
             game: Game | None, kind: str = "stranger", subj: str | None = None) -> Result:
    """A rate-limited note to a sender who proved nothing (no seat, no or wrong secret,
    asking for help); nothing else changes. Never sent to an address we cannot parse.
    ``subj``: a fixed subject saying what it is (never the sender's own words)."""
    queued = []
    if not deliverable(ctx.sender):
        reason += "; no answer: the sender's address is not deliverable"
    elif not mails.may_answer(ctx.session, ctx.host, ctx.sender, kind):
        reason += "; no answer: reply limit reached"
    else:
        queued.append(mails.queue_notice(
            ctx.session, ctx.host, to=ctx.sender,
            subj=subj or reply_subject(ctx, game, echo=False),
            lines=lines, kind=kind, game=game, in_reply_to=ctx.mid, references=ctx.refs,
            tr=ctx.tr))
    return finish(ctx.row, status, reason, queued)


def notice(ctx: MailContext, status: str, reason: str, lines: list[Line], game: Game,
           point: Line | None = None) -> Result:
    """A threaded reply; ``point`` gives it a subject of its own (``[tag] point``)."""
    subj = mails.subject(game, point, ctx.tr) if point else reply_subject(ctx, game)
    lines = [*lines, *([""] if lines and ctx.said.lines else []), *ctx.said.lines]
    q = mails.queue_notice(ctx.session, ctx.host, to=ctx.sender, subj=subj,
                           lines=lines, kind="reply", game=game, in_reply_to=ctx.mid,
                           references=ctx.refs, seat=ctx.seat, rules=ctx.rules, tr=ctx.tr)
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
