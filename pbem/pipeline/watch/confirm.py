"""A reply to a watch mail (its code in the subject, or ``watch TAG CODE``): the watch starts,
or, for the code of the mail that asks before an ``unwatch``, it ends."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.lobby.base import Context, Refused, Reply, refused
from pbem.pipeline.watch import start, stop
from pbem.pipeline.watch.base import (
    MODE_TEXT,
    NOT_WATCHING,
    game_named,
    is_unwatch_code,
    watch_mode_of,
)
from pbem.pipeline.watch.mail import game_now
from pbem.pipeline.watch.read import WatchMail
from pbem.store.tables import Watch


def run(ctx: Context, read: WatchMail) -> Reply:
    try:
        game = game_named(ctx, read, "watch")
    except Refused as exc:
        return refused("watch confirm", NOT_WATCHING, exc)
    if is_unwatch_code(ctx, game, read.code):
        return stop.run(ctx, read)
    mode = watch_mode_of(ctx, game, read.code)
    if mode is None:
        return Reply("rejected", "watch confirm: not the code of a watch", [
            msg("This code confirms no watch of [{tag}] by this address, so nothing changed.",
                tag=game.tag),
            msg("Send \"{line}\" for a new confirmation mail.",
                line=f"{ctx.w('watch')} {game.tag}")], subject=NOT_WATCHING, tag=game.tag)
    try:  # the rules again: the game may have ended, or filled, since the code was mailed
        start.may_watch(ctx, read)
    except Refused as exc:
        return refused("watch confirm", NOT_WATCHING, exc)
    # Its first mail comes with the next move: this answer is the one mail to this one.
    current = game_now(ctx.session, game)
    ctx.session.add(Watch(game_id=game.id or 0, address=ctx.sender, mode=mode,
                          language=ctx.tr.lang, created=ctx.now, told_index=current.last,
                          told_turn=current.turn, mailed_at=ctx.now))
    return Reply("applied", "watch: confirmed, watching", [
        msg("You now watch [{tag}]: the game as its spectators see it, {mode}.",
            tag=game.tag, mode=MODE_TEXT[mode]),
        msg("Send \"{line}\" to stop; every mail of the game to you also has an unsubscribe "
            "link. Your watch ends with the game.", line=f"{ctx.w('unwatch')} {game.tag}")],
                 subject=msg("You watch this game"), tag=game.tag)
