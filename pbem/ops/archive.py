"""A game's history as one self-contained HTML page: every step's events, draws and board.

The page is built from the log alone, replayed (:func:`pbem.pipeline.history.replay_log`)
so that every step it shows is a verified state; the board of each step is the game's own
``<game>/status.html.j2`` fed with ``view(state, viewer)``, so the page can hold nothing the
viewer could not read in their own mail. For spectators (the default) that means: public
events only, no order text (a sealed order may be a secret until revealed), each chance
draw's outcome only where the game says it lands on the table (:func:`draw_audience`), and
player names only — no address, never a secret (secrets are not even stored in clear).
Once the game is over (its replay verified) nothing is left to hide: each step shows every
seat's board too (its holdings) and every draw — unless the game was created with the host
option ``hidden_for_good``. Events keep their audience. The boards travel as compact data
the page draws (:mod:`pbem.ops.archive_boards`): a board per step written out was 2.6 MB.

The page speaks one language: a seat's page its seat's, spectators' the game's (or the one
asked for). Events are rendered from their data (each event's message) in it, and so are the
board, the scores' explanation and the page's own words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.engine import registry
from pbem.engine.chance import ChanceMismatch
from pbem.engine.contract import GameRules, draw_audience
from pbem.engine.hashing import state_hash
from pbem.engine.replay import ReplayMismatch, draws_from_json
from pbem.i18n import LANGUAGES, Translator, msg, translator
from pbem.ops.archive_boards import Boards
from pbem.pipeline import history
from pbem.pipeline.commands.base import status_word
from pbem.pipeline.seat_language import render, render_lines
from pbem.pipeline.stand_in import BACK, RESIGNED
from pbem.rendering import environment, language_context
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, Seat

# Tried only where a run of its first characters starts (the lookbehind): a long run with no
# "@" costs one scan, not one per character of it.
ADDRESS_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class Viewer:
    """Whom a page is for: spectators (``seat`` None) or one seat; addresses only on request."""

    seat: int | None = None
    addresses: bool = False


@dataclass
class DrawLine:
    label: str
    shown: str | None  # None: hidden from this viewer


@dataclass
class Step:
    number: int  # the log entry's index: a step hidden from the viewer leaves a gap
    kind: str
    who: str
    order: str | None  # the order's text, when the viewer may read it
    events: list[str]
    draws: list[DrawLine]
    state_hash: str
    when: str
    # The step's boards in :attr:`Archive.boards` (the viewer's, then each seat's where the
    # archive reveals them); none when the step left the state as step ``same_as`` shows it.
    boards: list[int] = field(default_factory=list)
    undone_by: int | None = None
    same_as: int | None = None


@dataclass
class Archive:
    title: str
    tag: str
    game_type: str
    status: str
    players: list[str]
    viewer: str
    steps: list[Step] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    outcome: list[str] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)
    verified: bool = False
    problem: str = ""  # why verification failed, when it did
    final_hash: str = ""
    entries: int = 0  # log entries after the setup, all verified where ``verified``
    lang: str = "en"  # the page's language
    status_label: str = ""  # ``status`` in that language
    boards: Boards = field(default_factory=Boards)
    # After the end (unless the game keeps them hidden for good): whose boards each step
    # shows besides the viewer's, every seat's holdings on them, and every draw.
    revealed: list[str] = field(default_factory=list)
    hidden_for_good: bool = False  # over, but the host option keeps the holdings hidden

    @property
    def last_move(self) -> Step | None:
        return next((s for s in reversed(self.steps) if s.kind in history.MOVE_KINDS), None)


def display_name(seat: Seat, viewer: Viewer, tr: Translator) -> str:
    """The seat's name; an address only when the operator opted in. A name that is itself an
    address (a seat created without a display name) becomes "Seat N"."""
    if viewer.addresses:
        return f"{seat.name} <{seat.address}>"
    if ADDRESS_RE.search(seat.name):
        return tr(msg("Seat {n}", n=seat.index + 1))
    return seat.name


def _scrub(text: str, viewer: Viewer, tr: Translator) -> str:
    return text if viewer.addresses else ADDRESS_RE.sub(tr(msg("(address hidden)")), text)


def page_language(game: Game, seats: list[Seat], viewer: Viewer, lang: str | None) -> str:
    """``lang`` if asked for, else the seat's own language, else the game's; English where
    the stored one is none we speak (the page says the language its words are in)."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise LookupError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
        return lang
    own = seats[viewer.seat].language if viewer.seat is not None else None
    for stored in (own, game.language):
        if stored in LANGUAGES:
            return stored
    return "en"


def build(session: Session, game: Game, viewer: Viewer = Viewer(),
          lang: str | None = None) -> Archive:
    """Replay ``game`` and collect every step as ``viewer`` may see it, in ``lang`` (default:
    :func:`page_language`). Once the game is over (its replay verified), every seat's
    holdings and every draw are shown too, unless the game keeps them hidden for good."""
    rules = registry.get(game.game_type)
    seats = queries.seats(session, game.id or 0)
    if viewer.seat is not None and not 0 <= viewer.seat < len(seats):
        raise LookupError(f"game {game.tag} has no seat {viewer.seat + 1}")
    tr = translator(page_language(game, seats, viewer, lang), rules.name)
    names = [display_name(s, viewer, tr) for s in seats]
    entries = queries.log(session, game.id or 0)
    undone = history.revoked(entries)
    archive = Archive(
        title=rules.title, tag=game.tag, game_type=game.game_type, status=game.status,
        players=names, lang=tr.lang, status_label=render(status_word(game.status), tr),
        viewer=tr(msg("spectators")) if viewer.seat is None
        else tr(msg("{name} (seat {n})", name=names[viewer.seat], n=viewer.seat + 1)))
    setup = queries.setup_record(game, entries[0], len(seats))
    replayed: list[tuple[LogEntry, Any]] = []

    def observe(entry: LogEntry | None, after: Any) -> None:
        replayed.append((entry or entries[0], after))

    try:
        history.replay_log(rules, setup, entries[1:], observe=observe)
        final = state_hash(rules.to_json(replayed[-1][1]))
        stored = state_hash(json.loads(queries.latest_snapshot(session, game.id or 0)
                                       .state_json))
        if final != stored:
            raise ReplayMismatch(len(entries) - 1, stored, final)
        archive.verified, archive.final_hash = True, final
        archive.entries = len(entries) - 1
    except (ReplayMismatch, history.BadAdminEntry, ChanceMismatch, ValueError) as exc:
        archive.problem = _scrub(str(exc), viewer, tr)
    state = replayed[-1][1] if replayed else None
    outcome = rules.outcome(state) if state is not None else None
    over = archive.verified and outcome is not None
    reveal = over and not game.hidden_for_good
    archive.hidden_for_good = over and game.hidden_for_good
    others = [s.index for s in seats if s.index != viewer.seat] if reveal else []
    archive.revealed = [names[i] for i in others]
    _collect_steps(archive, rules, replayed, names, viewer, tr, undone,
                   _board_renderer(rules, game, names, tr), others)
    if state is not None:
        waiting = rules.waiting_for(state)
        archive.waiting = [names[s.index] for s in seats if s.index in waiting]
        if outcome is not None:
            archive.outcome = [
                f"{place}. " + ", ".join(f"{names[s]} ({outcome.scores.get(s, 0)})"
                                         for s in group)
                for place, group in enumerate(outcome.ranking, start=1)]
            archive.explanation = [_scrub(x, viewer, tr)
                                   for x in render_lines(outcome.explanation, tr, names)]
    return archive


def _collect_steps(archive: Archive, rules: GameRules, replayed: list[tuple[LogEntry, Any]],
                   names: list[str], viewer: Viewer, tr: Translator, undone: dict[int, int],
                   board: Callable[[Any, int | None], str], others: list[int]) -> None:
    """One step per replayed entry the viewer may read of; ``others``: the seats whose boards
    (and so holdings) each step shows too, revealed with every draw."""
    revealed = bool(others)
    shown: int | None = None  # the viewer's board last drawn
    resigned: set[int] = set()  # seats whose player resigned: the host plays them
    for e, after in replayed:
        if e.kind == history.ADMIN and e.seat is not None:
            kinds = {ev.kind for ev in queries.entry_events(e)}
            if RESIGNED in kinds:
                resigned.add(e.seat)
            elif BACK in kinds or history.admin_action(e) == "takeover":
                resigned.discard(e.seat)
        # Events keep their audience even once revealed: one for a seat speaks to it ("You
        # drew ..."), and the boards and draws show what it held.
        seen = [ev for ev in queries.entry_events(e) if ev.visible(viewer.seat)]
        if e.kind == history.TALK and not seen:  # table talk this viewer was not part of
            continue
        # A step that changed nothing (talk, most admin entries) points to the board shown:
        # the page grows with what was said, not by a board per line of talk.
        prior = archive.steps[-1] if archive.steps else None
        same = prior is not None and prior.state_hash == e.state_hash
        boards: list[int] = []
        if not same:
            shown = archive.boards.add(board(after, viewer.seat), shown)
            boards = [shown] + [archive.boards.add(board(after, seat), shown) for seat in others]
        archive.steps.append(Step(
            number=e.index, kind=e.kind,
            who=_who(e, names, tr, e.seat in resigned), order=_order_text(e, viewer),
            events=[_scrub(ev.render(tr, names), viewer, tr) for ev in seen],
            draws=_draws(rules, e, len(names), viewer, revealed), state_hash=e.state_hash,
            when=f"{e.created:%Y-%m-%d %H:%M} UTC", boards=boards,
            undone_by=undone.get(e.index),
            same_as=(prior.same_as if prior.same_as is not None else prior.number)
            if same and prior is not None else None))


def _board_renderer(rules: GameRules, game: Game, names: list[str], tr: Translator
                    ) -> Callable[[Any, int | None], str]:
    """Renders a state's board with the game's own status template, from the view of a seat
    (None: spectators) only, in ``tr``'s language."""
    template = environment(rules).get_template(f"{rules.name}/status.html.j2")
    speech = language_context(tr)

    def render(state: Any, seat: int | None) -> str:
        ctx = {**speech, "title": rules.title, "tag": game.tag, "seat": seat,
               "seat_name": "" if seat is None else names[seat],
               "view": rules.view(state, seat), "intro": [], "events": [],
               "waiting": [], "your_turn": False, "deadline": None, "outcome": [],
               "explanation": [], "secret": None, "names": names, "game_name": rules.name}
        return str(template.render(ctx))

    return render


def _who(entry: LogEntry, names: list[str], tr: Translator, resigned: bool = False) -> str:
    """Who played ``entry``; ``resigned``: its seat's player had resigned, so the host
    played it (a bot standing in, or the game's default orders)."""
    if entry.kind == "setup":
        return tr(msg("setup"))
    if entry.kind == history.ADMIN:  # the operator's command, as typed at the CLI
        return tr(msg("the host ({action})", action=history.admin_action(entry).rstrip(":")))
    name = names[entry.seat] if entry.seat is not None and entry.seat < len(names) else "?"
    if entry.kind == history.TALK:
        return tr(msg("{name} (table talk)", name=name))
    if entry.kind == history.FORCED:
        return tr(msg("{name} (orders entered by the host)", name=name))
    if entry.kind == "timeout":
        return tr(msg("{name} (resigned: the game's default orders)", name=name) if resigned
                  else msg("{name} (deadline passed: default orders)", name=name))
    if entry.kind == history.BOT:
        return tr(msg("{name} (resigned: played by a bot standing in)", name=name) if resigned
                  else msg("{name} (played by a bot)", name=name))
    return name


def _order_text(entry: LogEntry, viewer: Viewer) -> str | None:
    """Only a seat's own orders: another's may hold a secret choice not yet revealed."""
    if entry.kind in history.MOVE_KINDS and viewer.seat is not None and entry.seat == viewer.seat:
        return entry.text.strip()
    return None


def _draws(rules: GameRules, entry: LogEntry, seats: int, viewer: Viewer, revealed: bool
           ) -> list[DrawLine]:
    out = []
    for draw in draws_from_json(json.loads(entry.draws_json or "[]")):
        audience = draw_audience(rules, draw, seats)
        may = (revealed or audience is None
               or (viewer.seat is not None and viewer.seat in audience))
        out.append(DrawLine(draw.label, (draw.shown or str(draw.value)) if may else None))
    return out


def render_page(archive: Archive, index_href: str | None = None) -> str:
    """The archive as one HTML document (no external resource); ``index_href`` links back to a
    site's index."""
    page = environment().get_template("archive.html.j2").render(
        a=archive, index_href=index_href, **language_context(translator(archive.lang)))
    return str(page)


def seat_page(session: Session, game: Game, seat: int) -> str:
    """The page of ``game`` as seat ``seat`` (from 0) saw it, in the seat's language: what
    ``pbem game export --format html --as`` writes, and the ``history`` command mails."""
    return render_page(build(session, game, Viewer(seat=seat)))
