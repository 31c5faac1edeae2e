"""The sender's address holds a seat in the game (one address may hold several)."""

from __future__ import annotations

from pbem.engine import registry
from pbem.i18n import msg
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.replies import stranger
from pbem.store import queries


def handle(ctx: MailContext) -> Result | None:
    game = ctx.game
    assert game is not None
    ctx.seats = queries.seats(ctx.session, game.id or 0)
    ctx.candidates = queries.at_address(ctx.seats, ctx.sender)
    if not ctx.candidates:
        return stranger(ctx, "rejected", "unknown sender", [
            msg("Hello! This is an automatic play-by-email game host."),
            msg("The address {address} does not play in [{tag}], so your mail was not "
                "used. If you are a player, please write from the address you registered "
                "with.", address=ctx.sender, tag=game.tag),
        ], game, msg("Your address does not play in this game"))
    ctx.rules = registry.get(game.game_type)
    # Until a secret proves which, the address's seat speaks for the language.
    languages = {c.language for c in ctx.candidates}
    ctx.seat = ctx.candidates[0] if len(languages) == 1 else None
    return None
