"""The mails of one move: every seat's status or note, made from what they share, read or built
once for all of them (the seats, the moves made, the log since each seat's last move, the
views and the game's turn count)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import GameRules, View, localise_order, view_turn
from pbem.i18n import LANGUAGES, Msg, msg, translator
from pbem.pipeline.calendar import deadline_calendar
from pbem.pipeline.deadlines import deadline_of, waiting_label
from pbem.pipeline.history import MOVE_KINDS
from pbem.pipeline.one_tap import one_tap_links
from pbem.pipeline.outgoing import (
    Moves,
    bot_labels,
    events_since_last_turn,
    moved,
    played_by,
    played_for,
    queue,
    queue_notice,
    ranking_lines,
    status_subject,
    subject,
    unmailed,
    with_played,
)
from pbem.pipeline.reply_tokens import reply_address
from pbem.pipeline.seat_language import Line, footer, render_lines, seat_tr
from pbem.rendering import PublicView, StatusMail, has_public_part, render_status
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat


def game_turn(rules: GameRules, state: Any) -> int | None:
    """The game's own turn count in ``state`` (the ``turn`` its views declare, the same for
    every seat), else None."""
    return view_turn(rules.view(state, None))


def shown_turn(view: Any, moves: int) -> int:
    """The turn a mail names, now to be played: the game's own count where its view gives one
    (``turn``, from 0), as its status shows it; else the moves made so far plus one (setup
    answers are moves in the log, not turns on the board, so the game's count comes first)."""
    turn = view_turn(view)
    return moves + 1 if turn is None else turn + 1


@dataclass
class MoveMails:
    """What every seat's mail of one move is made of, read once: the game after the move
    (``state``), its seats, the moves it has made, the log from the earliest of the mailed
    seats' last moves on (each seat reads its part), and who moved (``mover``: one name or
    several moves counted). Views are built once per seat (and once for spectators, whose
    view is every seat's public part and the game's turn count).

    ``before``: the game before the move, when the caller has it (whether the move began a
    new turn: :attr:`same_turn`).
    Made with :meth:`read`; each seat's mail is :meth:`queue_status` or :meth:`queue_update`.
    A status outside a move (asked for, a reminder, a welcome) is made the same way, with the
    seats to be mailed (``mailed``) read.
    """

    session: Session
    rules: GameRules
    game: Game
    state: Any
    seats: list[Seat]
    moves: int
    log: list[LogEntry]
    mover: str | Moves | None = None
    before: Any = None
    _views: dict[int | None, View] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, session: Session, rules: GameRules, game: Game, state: Any, *,
             mover: str | Moves | None = None, before: Any = None,
             seats: list[Seat] | None = None,
             mailed: Collection[int] | None = None) -> MoveMails:
        """Read what the mails share, in two statements. ``seats``: the game's seats if the
        caller has read them; ``mailed``: the seats to be mailed (all by default), whose log
        is read."""
        seats = seats if seats is not None else queries.seats(session, game.id or 0)
        moves, log = queries.moves_and_log_since(
            session, game.id or 0, [s.index for s in seats] if mailed is None else mailed,
            MOVE_KINDS)
        return cls(session, rules, game, state, seats, moves, log, mover, before)

    def view(self, seat: int | None) -> View:
        """``seat``'s view of the game after the move (None: a spectator's), built once."""
        if seat not in self._views:
            self._views[seat] = self.rules.view(self.state, seat)
        return self._views[seat]

    @cached_property
    def public(self) -> PublicView | None:
        """The spectator's view, which the public part of every seat's status is drawn from
        (None when the game's status has no such part)."""
        return PublicView(self.view(None)) if has_public_part(self.rules) else None

    @cached_property
    def turn_before(self) -> int | None:
        """The game's own turn count before the move (None: it counts none, or no ``before``)."""
        return None if self.before is None else game_turn(self.rules, self.before)

    @property
    def same_turn(self) -> bool:
        """Whether the game counts its own turns and this move did not advance the count. A
        game that does not count them makes each move a turn."""
        turn = self.turn_before
        return turn is not None and turn == view_turn(self.view(None))

    @cached_property
    def first_turn(self) -> int | None:
        """For several moves counted (:class:`Moves`), the turn the first was played in, as
        the mails name turns."""
        if not isinstance(self.mover, Moves):
            return None
        start = self.turn_before if self.mover.start is self.before and self.before is not None \
            else game_turn(self.rules, self.mover.start)
        made = self.moves - len(self.mover.names)
        return made + 1 if start is None else start + 1

    def status_mail(self, seat: Seat, intro: Sequence[Line] = (),
                    secret: str | None = None) -> StatusMail:
        """``seat``'s status, as its mail and ``pbem game show --as`` show it."""
        rules, game, state, seats = self.rules, self.game, self.state, self.seats
        waiting = rules.waiting_for(state)
        outcome = rules.outcome(state)
        tr = seat_tr(seat, rules)
        names = [s.name for s in seats]
        to_move = seat.index in waiting and not played_for(seat)
        return StatusMail(
            title=rules.title, tag=game.tag, seat=seat.index, seat_name=seat.name,
            view=self.view(seat.index), intro=render_lines(intro, tr, names),
            events=events_since_last_turn(self.log, seat.index, tr, names),
            waiting=[waiting_label(game, s, tr, seat.timezone) for s in seats
                     if s.index in waiting],
            waiting_names=[s.name for s in seats if s.index in waiting],
            your_turn=to_move,
            deadline=tr.datetime(due, seat.timezone) if to_move
            and (due := deadline_of(game, seat)) else None,
            outcome=ranking_lines(outcome, seats) if outcome is not None else [],
            explanation=render_lines(outcome.explanation, tr, names) if outcome is not None
            else [],
            secret=secret, names=names, mail_mode=seat.mail_mode,
            example_order=_example_order(rules, state, seat.index, tr.lang)
            if to_move and outcome is None else None,
            lang=tr.lang, timezone=seat.timezone or "UTC", footer=footer(tr),
            public=self.public, bots=bot_labels(seats, tr),
        )

    def queue_status(self, host: Host, seat: Seat, *, kind: str = "status",
                     intro: Sequence[Line] = (), secret: str | None = None,
                     in_reply_to: str | None = None, references: list[str] | None = None,
                     point: Line | None = None) -> OutboundMessage | None:
        """``seat``'s status mail (none to a bot seat: :func:`unmailed`). Other seats'
        subjects name the :attr:`mover`; ``point`` replaces the subject's lead, e.g.
        ``Orders accepted`` in the reply to a move."""
        if unmailed(seat):
            return None
        mail = self.status_mail(seat, intro, secret)
        turn = shown_turn(mail.view, self.moves)
        due = deadline_of(self.game, seat) if mail.your_turn else None
        tr = seat_tr(seat, self.rules)
        subj = status_subject(
            self.game, mail, turn=turn, kind=kind, mover=self.mover, point=point, due=due,
            outcome=self.rules.outcome(self.state), seats=self.seats, tr=tr,
            played=played_by(seat), first_turn=self.first_turn)
        reply_to = reply_address(host, self.game, seat)
        if mail.your_turn:  # the links carry this seat's reply address: its mail alone
            mail.one_tap = one_tap_links(self.rules, self.state, seat, mail.lang, reply_to,
                                         subj)
        text, html = render_status(self.rules, mail)
        return queue(self.session, host, to=seat.address, to_name=seat.name,
                     subj=subj, text=text, html=html, kind=kind,
                     game_id=self.game.id, in_reply_to=in_reply_to, references=references,
                     auto_reply=in_reply_to is not None, secret=secret, tag=self.game.tag,
                     language=mail.lang,
                     calendar=deadline_calendar(self.session, host, self.game, seat,
                                                title=self.rules.title, turn=turn, due=due,
                                                tr=tr),
                     reply_to=reply_to)

    def queue_update(self, host: Host, seat: Seat, *, intro: Sequence[Line] = (),
                     talk: Sequence[Line] = ()) -> OutboundMessage | None:
        """What ``seat`` gets after someone else's move, as its mail setting says; ``talk``:
        the table talk it is owed from the mover's mail, at the head of a full status or
        after a note.

        Its own move, the end of the game and mail to ``every`` seats are full statuses; a
        ``turn`` seat gets a one-line note, a ``digest`` seat nothing now (the day's digest
        tells it, see pbem.pipeline.digest), a bot seat nothing ever.
        """
        if unmailed(seat):
            return None
        rules, state = self.rules, self.state
        waiting = rules.waiting_for(state)
        to_move = seat.index in waiting and not played_for(seat)
        if (seat.mail_mode == "every" or to_move or rules.outcome(state) is not None
                or intro):  # an intro says something to this seat (e.g. its default was played)
            return self.queue_status(host, seat, intro=[*intro, *talk])
        if seat.mail_mode == "digest":
            return None
        turn = shown_turn(self.view(seat.index), self.moves)
        tr = seat_tr(seat, rules)
        names = ", ".join(s.name for s in self.seats if s.index in waiting) or tr(msg("nobody"))
        said: Msg
        if isinstance(self.mover, Moves):
            what = moved(turn, self.mover, self.first_turn)
            said = msg("{what}, by {movers}. Waiting for: {names}.", what=what,
                       movers=", ".join(dict.fromkeys(self.mover.names)), names=names)
        else:
            who = self.mover or tr(msg("The game"))
            what = moved(turn, who)
            said = msg("Turn {turn}: {mover} moved. Waiting for: {names}.", turn=turn,
                       mover=who, names=names)
        return queue_notice(
            self.session, host, to=seat.address, kind="status", game=self.game, seat=seat,
            rules=rules, names=[s.name for s in self.seats],
            subj=subject(self.game, with_played(what, played_by(seat)), tr),
            lines=[said,
                   "",
                   msg("Your mail setting is \"mail turn\": full status mails come when it is "
                       "your move. Send \"status\" for the board now, or \"mail every\" for a "
                       "full status after every move."),
                   *([""] if talk else []), *talk])


def spectator_mail(session: Session, rules: GameRules, game: Game, state: Any) -> StatusMail:
    """The game as a spectator sees it now (the operator's ``game show`` without a seat),
    in the game's language: the spectator's view, whom it waits for, the outcome."""
    seats = queries.seats(session, game.id or 0)
    waiting, outcome = rules.waiting_for(state), rules.outcome(state)
    tr = translator(game.language if game.language in LANGUAGES else "en", rules.name)
    names = [s.name for s in seats]
    view = rules.view(state, None)
    return StatusMail(
        title=rules.title, tag=game.tag, seat=None, seat_name=tr(msg("spectators")),
        view=view,
        waiting=[waiting_label(game, s, tr) for s in seats if s.index in waiting],
        waiting_names=[s.name for s in seats if s.index in waiting],
        outcome=ranking_lines(outcome, seats) if outcome is not None else [],
        explanation=render_lines(outcome.explanation, tr, names) if outcome is not None
        else [], names=names, lang=tr.lang,
        public=PublicView(view) if has_public_part(rules) else None)


def _example_order(rules: GameRules, state: Any, seat: int, lang: str = "en") -> str | None:
    """An order to copy (in the seat's words), shown at the top of the mover's mail: the
    game's ``example_order`` where it has one (a turn that does something), else its safe
    default order. Only its first line: the mail shows it inline."""
    try:
        return localise_order(rules, rules.example_order(state, seat).strip().splitlines()[0],
                              lang)
    except Exception:  # a courtesy line must never stop a status mail
        return None
