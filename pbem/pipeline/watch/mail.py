"""The watchers' mail: the game as its spectators see it (``view(state, None)``, never a
seat's), once a pass has something new for them, as each watch's setting says: ``every``
move, each new ``turn``, or a ``digest`` a day. The game's end is told to every watcher, and
ends the watch. An address that holds a seat in the game gets its seat's mail only.

Run once per ``pbem process`` pass, as the digests are."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from sqlmodel import Session

from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n import Translator, msg, translator
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import word
from pbem.pipeline.deadlines import aware
from pbem.pipeline.history import MOVE_KINDS, TALK
from pbem.pipeline.lobby_codes import watch_code
from pbem.pipeline.move_mails import shown_turn, spectator_mail
from pbem.pipeline.seat_language import Line, render_lines
from pbem.pipeline.watch.base import WATCH_KIND
from pbem.rendering import render_notice, render_status
from pbem.settings.host import Host
from pbem.store import queries, watchers
from pbem.store.db import SessionFactory
from pbem.store.tables import Game, LogEntry, Seat, Watch

log = logging.getLogger(__name__)

DIGEST_EVERY = timedelta(days=1)


def send_watch_mail(factory: SessionFactory, host: Host, now: datetime | None = None) -> int:
    """Queue every watcher mail that is due; returns how many were queued."""
    now = now or host.clock()
    with factory() as session:
        games = watchers.watched_games(session)
    sent = 0
    for game_id in games:
        try:
            with factory() as session:
                sent += mail_game(session, host, game_id, now)
                session.commit()
        except Exception:  # one game's watchers must not stop the others'
            log.exception("watcher mail of game %s failed; tried again next pass", game_id)
    return sent


@dataclass
class Now:
    """The game as every watcher's mail of this pass reads it."""

    game: Game
    rules: GameRules
    state: Any
    seats: list[Seat]
    entries: list[LogEntry]
    turn: int
    over: bool

    @property
    def last(self) -> int:
        return self.entries[-1].index if self.entries else -1


def game_now(session: Session, game: Game) -> Now:
    rules = registry.get(game.game_type)
    state = rules.from_json(json.loads(queries.latest_snapshot(session, game.id or 0).state_json))
    made = queries.moves_made(session, game.id or 0, MOVE_KINDS)
    return Now(game, rules, state, queries.seats(session, game.id or 0),
               queries.log(session, game.id or 0),
               shown_turn(rules.view(state, None), made),
               rules.outcome(state) is not None or game.status in ("finished", "archived"))


def mail_game(session: Session, host: Host, game_id: int, now: datetime) -> int:
    game = session.get(Game, game_id)
    if game is None:
        return 0
    current = game_now(session, game)
    sent = 0
    for watch in watchers.watchers(session, game_id):
        if watchers.seated(session, game, watch.address):
            continue  # a player's own seat mail tells the game: no second mail
        sent += mail_one(session, host, current, watch, now)
    return sent


def mail_one(session: Session, host: Host, current: Now, watch: Watch, now: datetime) -> int:
    news = current.last > watch.told_index
    if current.over:
        queue_status(session, host, current, watch, ended=True)
        session.delete(watch)
        return 1
    due = {
        "every": news,
        "turn": news and current.turn > watch.told_turn,
        "digest": news and (watch.mailed_at is None
                            or now - aware(watch.mailed_at) >= DIGEST_EVERY),
    }.get(watch.mode, news)
    if not due:
        return 0
    if watch.mode == "digest":
        queue_digest(session, host, current, watch)
    else:
        queue_status(session, host, current, watch)
    watch.told_index, watch.told_turn, watch.mailed_at = current.last, current.turn, now
    session.add(watch)
    return 1


def events_since(current: Now, since: int, tr: Translator) -> list[str]:
    """What every spectator may read of the moves after entry ``since`` (no table talk: the
    players' words are for the players)."""
    names = [s.name for s in current.seats]
    return [ev.render(tr, names) for e in current.entries
            if e.index > since and e.kind not in ("setup", TALK)
            for ev in queries.entry_events(e) if ev.visible(None)]


def unwatch_line(current: Now, watch: Watch) -> Line:
    return msg("You watch this game as a spectator: you see what every spectator may see, "
               "never a player's hidden holdings. To stop, send \"{line}\".",
               line=f"{word('unwatch', watch.language)} {current.game.tag}")


def queue_status(session: Session, host: Host, current: Now, watch: Watch,
                 ended: bool = False) -> None:
    tr = translator(watch.language, current.rules.name)
    spectator = spectator_mail(session, current.rules, current.game, current.state)
    names = [s.name for s in current.seats]
    events = events_since(current, watch.told_index, tr)
    intro: list[Line] = [msg("The game has ended, so you no longer watch it.") if ended
                         else unwatch_line(current, watch)]
    if events:
        intro += ["", msg("Since your last mail of this game:"), *(f"  - {e}" for e in events)]
    outcome = current.rules.outcome(current.state)
    mail = replace(spectator, lang=tr.lang, seat_name=tr(msg("spectators")), watcher=True,
                   intro=render_lines(intro, tr, names),
                   explanation=render_lines(outcome.explanation, tr, names)
                   if outcome is not None else [])
    text, html = render_status(current.rules, mail)
    subj = mails.status_subject(current.game, mail, turn=current.turn, kind="status",
                                mover=None, point=None, due=None, outcome=outcome,
                                seats=current.seats, tr=tr)
    _queue(session, host, current.game, watch, subj, text, html, tr.lang, ended)


def queue_digest(session: Session, host: Host, current: Now, watch: Watch) -> None:
    tr = translator(watch.language, current.rules.name)
    events = events_since(current, watch.told_index, tr)
    lines: list[Line] = [
        msg("{title} [{tag}]: what happened since your last digest, as you may see it:",
            title=current.rules.title, tag=current.game.tag), "",
        *(f"  - {e}" for e in events or [tr(msg("(nothing visible)"))]), "",
        unwatch_line(current, watch)]
    text = render_notice(render_lines(lines, tr, [s.name for s in current.seats]),
                         current.game.tag, tr)
    subj = mails.subject(current.game, msg("Daily digest — Turn {turn}", turn=current.turn), tr)
    _queue(session, host, current.game, watch, subj, text, None, tr.lang, False)


def _queue(session: Session, host: Host, game: Game, watch: Watch, subj: str, text: str,
           html: str | None, lang: str, ended: bool) -> None:
    # Its List-Unsubscribe mail is a proven "unwatch": only mail to the watcher carries the
    # code. None once the game ended: there is nothing left to stop.
    code = watch_code(host, "unwatch", game.id or 0, watch.address)
    link = (f"<mailto:{host.mail.from_address}?subject="
            f"{quote(f'unwatch {game.tag} {code}')}>")
    mails.queue(session, host, to=watch.address, to_name="", subj=subj, text=text, html=html,
                kind=WATCH_KIND, game_id=game.id, tag=game.tag, language=lang,
                unsubscribe=False if ended else link, codes=[] if ended else [code])
