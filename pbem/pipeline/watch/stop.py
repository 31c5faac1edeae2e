"""``unwatch TAG``: the watch ends once the sender proves it reads the address's mail: a
watcher mail's ``List-Unsubscribe`` (its subject carries the watch's unwatch code), or a
reply to the mail the host sends to ask first."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.lobby.base import Context, Refused, Reply, refused
from pbem.pipeline.watch.base import (
    NOT_WATCHING,
    UNWATCH_ASK_KIND,
    code_for,
    game_named,
    is_unwatch_code,
)
from pbem.pipeline.watch.read import WatchMail
from pbem.pipeline.watch.start import DAY
from pbem.store import queries, watchers

STOPPED = msg("You no longer watch this game")


def run(ctx: Context, read: WatchMail) -> Reply:
    try:
        game = game_named(ctx, read, "unwatch")
    except Refused as exc:
        return refused("unwatch", STOPPED, exc)
    watch = watchers.watch_of(ctx.session, game.id or 0, ctx.sender)
    if watch is None:
        return Reply("rejected", "unwatch: not watching", [
            msg("This address does not watch [{tag}], so nothing changed.", tag=game.tag)],
                     subject=NOT_WATCHING, tag=game.tag)
    if is_unwatch_code(ctx, game, read.code):
        ctx.session.delete(watch)
        return Reply("applied", "unwatch: proven, watch ended", [
            msg("You no longer watch [{tag}]: the host sends you no more of its mail.",
                tag=game.tag)], subject=STOPPED, tag=game.tag)
    if queries.recent_replies(ctx.session, ctx.sender, (UNWATCH_ASK_KIND,), DAY):
        return Reply("ignored", "unwatch: asked already today; no answer", [],
                     subject=STOPPED, send=False)
    code = code_for(ctx, "unwatch", game)
    return Reply("ignored", "unwatch: not proven; asked first", [
                     msg("A mail from this address asked to stop watching [{tag}]. Anyone can "
                         "write any sender, so the host asks first.", tag=game.tag),
                     msg("If it was you, reply to this mail keeping its subject: the watch "
                         "ends then."),
                     msg("If it was not you, do nothing: nothing changes.")],
                 subject=msg("Stop watching this game? code {code}", code=code), tag=game.tag,
                 secret=code, kind=UNWATCH_ASK_KIND)
