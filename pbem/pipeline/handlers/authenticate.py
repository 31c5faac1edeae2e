"""The secret proves the seat (one of the sender's), or the reply address the mail was sent
to does (pbem.pipeline.reply_tokens); the game's state is read for it."""

from __future__ import annotations

import json

from pbem.i18n import msg, nmsg
from pbem.mail.redact import MARK
from pbem.pipeline import bounces, reply_tokens
from pbem.pipeline import command_words as words
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.identify import secret_seat
from pbem.pipeline.replies import stranger
from pbem.pipeline.seat_language import Line
from pbem.store import queries
from pbem.store.tables import Seat


def handle(ctx: MailContext) -> Result | None:
    game, letter = ctx.game, ctx.letter
    assert game is not None
    seat = _proved(ctx)
    replied = None if seat is not None or not ctx.tokens else \
        reply_tokens.check(ctx.host, game, ctx.candidates, ctx.tokens)
    if replied is not None:
        seat = replied.seat
    ctx.verified = seat.index if seat is not None else None
    if seat is None:
        secret_word = words.word("secret", ctx.tr.lang)
        lines: list[Line]
        if letter.secret is None and replied is not None:
            days = reply_tokens.valid_days(ctx.host, game)
            lines = [nmsg("Your mail was sent to a reply address more than {n} day old, so "
                          "nothing was played.",
                          "Your mail was sent to a reply address more than {n} days old, so "
                          "nothing was played.", days)
                     if replied.expired else
                     msg("Your mail was sent to a reply address that does not prove your seat "
                         "(it is another seat's or another game's, or \"{command}\" replaced "
                         "it), so nothing was played.",
                         command=f"{secret_word} {words.word('new', ctx.tr.lang)}"),
                     msg("Reply to the latest mail of the game, or add a line \"{line}\" "
                         "(from your first email from the game) and send your orders again.",
                         line=f"{secret_word} " + ctx.tr(msg("<your secret>")))]
            reason = "reply address expired" if replied.expired else "wrong reply address"
            point = msg("Reply address not valid: nothing played")
        elif letter.secret is None:
            lines = [msg("Your mail had no \"{secret}\" line, so nothing was played.",
                         secret=secret_word),
                     msg("Add a line \"{line}\" (from your first email from the game) "
                         "and send your orders again.",
                         line=f"{secret_word} " + ctx.tr(msg("<your secret>")))]
            reason, point = "no secret", msg("No secret line: nothing played")
        else:
            lines = [msg("The secret in your mail does not match your seat, so nothing "
                         "was played. Check the secret in your first email from the game, "
                         "or ask the game's host to issue a new one.")]
            reason, point = "wrong secret", msg("Wrong secret: nothing played")
        return stranger(ctx, "rejected", reason, lines, game, point, kind="auth")
    ctx.seat = seat
    ctx.seat_index = seat.index
    bounces.clear(ctx.session, seat)
    snapshot = queries.latest_snapshot(ctx.session, game.id or 0)
    ctx.state = ctx.known_rules.from_json(json.loads(snapshot.state_json))
    return None


def _proved(ctx: MailContext) -> Seat | None:
    if ctx.stored and (ctx.letter.secret == MARK or ctx.token_blanked):
        # Its secret (or reply address) was checked when the mail came in, then blanked:
        # trust that check, for a seat still held by this address.
        return next((s for s in ctx.candidates if s.index == ctx.row.secret_seat), None)
    return secret_seat(ctx.candidates, ctx.letter.secret)
