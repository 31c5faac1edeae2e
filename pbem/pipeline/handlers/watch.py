"""Mail that watches a game or stops (``watch TAG``, ``unwatch TAG``, a reply to a watch
mail): answered in the sender's language, like the lobby's mail, whether or not the sender
plays here. Any other mail goes on down the chain."""

from __future__ import annotations

from pbem.i18n import LANGUAGES
from pbem.mail.redact import blank
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.lobby.answer import answer
from pbem.pipeline.lobby.base import Context, Reply
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.tables import known
from pbem.pipeline.watch import confirm, start, stop
from pbem.pipeline.watch.read import WatchMail, read_watch


def handle(ctx: MailContext) -> Result | None:
    read = read_watch(ctx.mail.subject or "", ctx.mail.body_text or "")
    if read is None:
        return None
    profile = profile_for(ctx.session, ctx.sender)
    if profile.banned:
        return finish(ctx.row, "rejected", "watch: sender banned; no answer", [])
    if read.code:  # blanked in the mail as stored, like a secret
        ctx.secret = read.code
        ctx.said.secrets.extend({read.code.upper(), read.code.lower()} - {read.code})
        ctx.row.subject = blank(ctx.row.subject, [read.code, read.code.upper()])
    lang = next((lang for lang in (profile.language, ctx.mail.language) if lang in LANGUAGES),
                "en")
    wctx = Context(ctx.session, ctx.host, ctx.sender, lang,
                   sender_name=ctx.mail.from_name or "")
    proven = known(ctx.session, ctx.sender)
    reply = run(wctx, read)
    reason, queued = answer(wctx, reply, proven, ctx.mid, ctx.refs)
    return finish(ctx.row, reply.status, reason, [*queued, *reply.queued])


def run(ctx: Context, read: WatchMail) -> Reply:
    if read.command == "unwatch":
        return stop.run(ctx, read)
    if read.command == "confirm" or read.code is not None:
        return confirm.run(ctx, read)
    return start.run(ctx, read)
