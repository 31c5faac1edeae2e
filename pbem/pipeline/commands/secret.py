"""``secret new``: a new secret for the seat; the old one stops working."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    return [help_row(f"{w('secret')} {w('new')}", msg(
        "a new secret, mailed to your registered address; the old one stops working (do it "
        "if a mail of yours may have been seen)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    """A new secret for the seat, in the reply to its registered address only.

    Whoever lifted an old mail (from a sent folder, a forwarded thread) holds a secret that
    stops working; if they asked, the player is mailed the new one and can ask again.
    """
    secret, salt = new_secret(), new_salt()
    ctx.seat.secret_salt, ctx.seat.secret_hash = salt, hash_secret(secret, salt)
    ctx.session.add(ctx.seat)
    return Reply("applied", "new secret", [
        msg("Your new secret for [{tag}] is: {secret}", tag=ctx.game.tag, secret=secret),
        msg("Your old secret no longer works. Keep the new one private: put it in every mail "
            "you send."),
        msg("It was sent only to your registered address, {address}. If you did not ask for "
            "it, someone has seen one of your mails: send \"{command}\" again and tell the "
            "game's host.", address=ctx.seat.address,
            command=f"{ctx.w('secret')} {ctx.w('new')}")], secret=secret)
