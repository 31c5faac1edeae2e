"""What the watch commands share: the game a line names, the refusals every one of them may
give, the codes, and how a watcher's mail setting reads."""

from __future__ import annotations

import hmac

from pbem.i18n import Msg, msg
from pbem.pipeline.lobby.base import Context, Refused
from pbem.pipeline.lobby_codes import watch_code
from pbem.pipeline.watch.read import MODES, WatchMail
from pbem.store import queries
from pbem.store.tables import Game

ASK_KIND = "watch-ask"  # a mail that asks before a watch starts: one a day per address
UNWATCH_ASK_KIND = "unwatch-ask"  # one that asks before a watch ends: one a day likewise
WATCH_KIND = "watch"  # a watcher's mail of the game
NOT_WATCHING = msg("Not watching")

MODE_TEXT: dict[str, Msg] = {
    "every": msg("a full status after every move"),
    "turn": msg("a full status when a new turn begins"),
    "digest": msg("one summary a day"),
}


def game_named(ctx: Context, read: WatchMail, command: str) -> Game:
    """The game the line names, or the refusal that says what is wrong with the line."""
    if read.tag is None:
        raise Refused(f"{command}: no tag", [msg(
            "Write the game's tag after \"{command}\", as in: {line}",
            command=ctx.w(command), line=f"{ctx.w(command)} name-12")])
    if read.unknown is not None:
        raise Refused(f"{command}: a word not understood", [msg(
            "\"{word}\" is not understood: write \"{command} TAG\", then \"{every}\", "
            "\"{turn}\" or \"{digest}\" if you like.", word=read.unknown[:40],
            command=ctx.w(command), every=ctx.w("every"), turn=ctx.w("turn"),
            digest=ctx.w("digest"))])
    game = queries.game_by_tag(ctx.session, read.tag[:80])
    if game is None:
        raise Refused(f"{command}: unknown tag", [msg(
            "No game here has the tag [{tag}]. A game's tag is in the subject of its mails, "
            "in square brackets, such as [name-12].", tag=read.tag[:80])])
    return game


def mode_words(ctx: Context, mode: str) -> str:
    return f"{ctx.w('mail')} {ctx.w(mode)}"


def code_for(ctx: Context, purpose: str, game: Game) -> str:
    return watch_code(ctx.host, purpose, game.id or 0, ctx.sender)


def watch_mode_of(ctx: Context, game: Game, code: str | None) -> str | None:
    """The mail setting a watch confirmation ``code`` was mailed for, if it is one."""
    if code is None:
        return None
    typed = code.strip().upper()
    return next((m for m in MODES
                 if hmac.compare_digest(typed, code_for(ctx, f"watch {m}", game))), None)


def is_unwatch_code(ctx: Context, game: Game, code: str | None) -> bool:
    return code is not None and hmac.compare_digest(code.strip().upper(),
                                                    code_for(ctx, "unwatch", game))
