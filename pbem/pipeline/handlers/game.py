"""Which game the mail is for (a [tag] in its subject, else a "game" line); that game locked."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import command_words as words
from pbem.pipeline import untagged
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.identify import identify_game
from pbem.pipeline.replies import stranger
from pbem.store import queries


def handle(ctx: MailContext) -> Result | None:
    # Locked before its seats are read: a seat read first stays as it was in this
    # session, though another worker changes it before the lock is ours (a drop, a
    # vacation), and the move would then play, mail and time its clock by the old one.
    game = identify_game(ctx.session, ctx.mail.subject or "", ctx.letter, lock=True)
    if game is None:  # a player who forgot the tag is still answered
        seated = untagged.seated_game(ctx)
        if isinstance(seated, Result):
            return seated
        game = None if seated is None else queries.lock_game(ctx.session, seated.id or 0)
    if game is None:
        return stranger(ctx, "rejected", "no game identified", [
            msg("Hello! This is an automatic play-by-email game host."),
            msg("We could not tell which game your mail is for. Please reply to one of the "
                "game's emails, keeping its tag such as [name-12] in the subject, or add a "
                "line \"{game} name-12\" to your mail.",
                game=words.word("game", ctx.tr.lang)),
        ], None, msg("Which game? Your mail was not used"))
    ctx.game_id, ctx.game = game.id, game
    return None
