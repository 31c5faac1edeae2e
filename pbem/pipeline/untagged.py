"""A player's mail that names no game (no [tag] in its subject, no "game" line): the game its
sender sits in, when that is one game; the list of them, when several. A known player's mail
is never met with silence, nor played in a game it does not name unless there is no other."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.replies import stranger
from pbem.pipeline.seat_language import Line
from pbem.store import queries
from pbem.store.tables import Game

LISTED = 20  # games named in the list to a player who sits in several


def seated_game(ctx: MailContext) -> Game | Result | None:
    """The one running game the sender sits in (every reply to the mail then reminds them
    of its tag: the chain proves the secret as for any mail); a note listing their games,
    when they sit in several (limited like any answer to an unproven mail); None for an
    address that sits in no running game."""
    if ctx.letter.game_tag:  # it names a game, one that does not exist: not guessed at
        return None
    games = sorted(queries.games_of_address(ctx.session, ctx.sender), key=lambda g: g.id or 0)
    if not games:
        return None
    if len(games) == 1:
        game = games[0]
        ctx.reminders.append(msg(
            "Your mail's subject named no game, so it was read for [{tag}], the one game you "
            "play in. Next time reply to the game's mails, or keep [{tag}] in the subject.",
            tag=game.tag))
        return game
    lines: list[Line] = [
        msg("Your mail's subject named no game, and you play in several, so nothing was "
            "played. Your games:")]
    lines += [f"  [{g.tag}]" for g in games[:LISTED]]
    lines += ["", msg("Reply to that game's latest mail, or put its tag (such as [{tag}]) in "
                      "your subject, and send your mail again.", tag=games[0].tag)]
    return stranger(ctx, "rejected", f"no game named; the sender plays in {len(games)}",
                    lines, None, msg("Which game? Your mail named none"), kind="auth")
