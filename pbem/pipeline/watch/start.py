"""``watch TAG [every|turn|digest]``: the host mails the sender a confirmation, whose code
(in its subject) a reply carries back; only then does the watch start (``confirm``). Anyone
can write any From line, so an address is asked at most once a day (again only once it
answered: a watcher watching a second game the same day)."""

from __future__ import annotations

from datetime import timedelta

from pbem.engine import registry
from pbem.i18n import msg
from pbem.pipeline.deadlines import aware
from pbem.pipeline.lobby.base import Context, Refused, Reply, refused
from pbem.pipeline.watch.base import (
    ASK_KIND,
    MODE_TEXT,
    NOT_WATCHING,
    code_for,
    game_named,
    mode_words,
)
from pbem.pipeline.watch.read import WatchMail
from pbem.store import queries, watchers
from pbem.store.tables import Game, utcnow

DAY = timedelta(days=1)


def run(ctx: Context, read: WatchMail) -> Reply:
    try:
        game = may_watch(ctx, read)
    except Refused as exc:
        return refused("watch", NOT_WATCHING, exc)
    mode = read.mode or "every"
    if asked_today(ctx, ASK_KIND):
        return Reply("ignored", "watch: asked already today; no answer", [],
                     subject=NOT_WATCHING, send=False)
    code = code_for(ctx, f"watch {mode}", game)
    return Reply("ignored", "watch: confirmation asked", [
                     msg("A mail from this address asked to watch [{tag}] ({title}): the game "
                         "as its spectators see it, {mode}.", tag=game.tag,
                         title=_title(game), mode=MODE_TEXT[mode]),
                     msg("If it was you, reply to this mail keeping its subject: the watch "
                         "starts then."),
                     msg("If it was not you, do nothing: nothing changes.")],
                 subject=msg("Watch this game? code {code}", code=code), tag=game.tag, secret=code,
                 kind=ASK_KIND)


def may_watch(ctx: Context, read: WatchMail) -> Game:
    """The game the sender may watch, or why not (checked again at the confirmation)."""
    allowed = ctx.host.watch.open
    if allowed == "off":
        raise Refused("watching is off", [msg(
            "This game host has no watchers: its operator turned watching off.")])
    game = game_named(ctx, read, "watch")
    if allowed == "players" and not watchers.plays_here(ctx.session, ctx.sender):
        raise Refused("not a player here", [msg(
            "Only the players of this game host may watch its games, and {address} has "
            "played none here.", address=ctx.sender)], tag=game.tag)
    if game.status in ("finished", "archived"):
        raise Refused("game over", [msg("[{tag}] has ended: there is nothing more to watch.",
                                        tag=game.tag)], tag=game.tag)
    if watchers.seated(ctx.session, game, ctx.sender):
        raise Refused("plays the game", [msg(
            "You play in [{tag}]: your seat's mail tells you every move already.",
            tag=game.tag)], tag=game.tag)
    watch = watchers.watch_of(ctx.session, game.id or 0, ctx.sender)
    if watch is not None:
        raise Refused("already watching", [
            msg("You already watch [{tag}] ({setting}).", tag=game.tag,
                setting=mode_words(ctx, watch.mode)),
            msg("To change how often you hear from it, send \"{unwatch}\", then \"{watch}\" "
                "with the new setting.", unwatch=f"{ctx.w('unwatch')} {game.tag}",
                watch=f"{ctx.w('watch')} {game.tag}")], tag=game.tag)
    limits = ctx.host.watch
    if watchers.count_of_game(ctx.session, game.id or 0) >= limits.max_per_game:
        raise Refused("game's cap reached", [msg(
            "[{tag}] has as many watchers as this host allows ({limit}). Try again when "
            "someone stops watching.", tag=game.tag, limit=limits.max_per_game)], tag=game.tag)
    if watchers.count_of_address(ctx.session, ctx.sender) >= limits.max_per_address:
        raise Refused("address's cap reached", [msg(
            "You watch as many games as this host allows ({limit}). Send \"{unwatch}\" for "
            "one of them first.", limit=limits.max_per_address,
            unwatch=f"{ctx.w('unwatch')} TAG")], tag=game.tag)
    return game


def asked_today(ctx: Context, kind: str) -> bool:
    """Whether the address was asked (``kind``) in the last day and has not answered since:
    a watch it confirmed after the ask proves it reads its mail, so it may ask again."""
    answered = watchers.newest_of_address(ctx.session, ctx.sender)
    window = DAY if answered is None else min(DAY, utcnow() - aware(answered))
    return bool(queries.recent_replies(ctx.session, ctx.sender, (kind,), window))


def _title(game: Game) -> str:
    return str(registry.get(game.game_type).title)
