"""A new game set up: its seats, its first state and log entry, the welcome mails with each
player's secret. The operator's ``pbem game new`` and a table of the lobby that fills (or is
started) both create their games here."""

from __future__ import annotations

import secrets as pysecrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem.engine import registry
from pbem.engine.contract import option_alternatives
from pbem.engine.hashing import canonical_json
from pbem.engine.replay import draws_to_json, start
from pbem.i18n import LANGUAGES, Msg, msg
from pbem.pipeline import controllers, game_options, operator_input
from pbem.pipeline.autoplay import settle
from pbem.pipeline.clock import tell_autoplay
from pbem.pipeline.guide_link import guide_line
from pbem.pipeline.move_mails import MoveMails
from pbem.pipeline.reply_tokens import REPLY_NEEDS_NO_SECRET
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret
from pbem.settings.config import TIMEOUT_POLICIES, Deadlines
from pbem.settings.host import Host
from pbem.store import players, queries
from pbem.store.tables import Game, LogEntry, Seat, Snapshot, utcnow


@dataclass(frozen=True)
class ClockSettings:
    """A game's clock: hours per turn (None: no deadline), the reminder's lead time (None:
    none), what a timeout does ("default", "pause" or "bot"), vacation days per seat."""

    deadline_hours: int | None = None
    reminder_hours: int | None = None
    timeout_policy: str = Deadlines.timeout
    vacation_days: int = Deadlines.vacation_days

    def check(self) -> None:
        if self.timeout_policy not in TIMEOUT_POLICIES:
            raise ValueError(f"timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}, "
                             f"not {self.timeout_policy!r}")
        if self.deadline_hours is not None and self.deadline_hours <= 0:
            raise ValueError("deadline hours must be positive (or none for no deadline)")
        if self.reminder_hours is not None and (
                self.reminder_hours <= 0 or self.deadline_hours is None
                or self.reminder_hours >= self.deadline_hours):
            raise ValueError("reminder hours must be positive and less than the deadline hours")
        if self.vacation_days < 0:
            raise ValueError("vacation days cannot be negative")


def create_game(session: Session, game_type: str, seats: Sequence[tuple[str, str]],
                options: Mapping[str, Any] | None = None, seed: str | None = None,
                tag: str | None = None, host: Host | None = None, *,
                clocks: ClockSettings | None = None,
                now: datetime | None = None, language: str = "en",
                languages: Sequence[str | None] = (),
                bots: Mapping[int, str] | None = None,
                hidden_for_good: bool = False) -> tuple[Game, list[str]]:
    """Set up a game and its seats; returns the game and each seat's secret (shown once;
    "" for a bot seat, which has none).

    With ``host`` given, every player is queued a welcome email holding their secret.
    ``clocks`` sets deadlines (none by default); the first wait starts at ``now``.
    ``language`` is the game's default language; ``languages`` a seat's own (by seat, None
    or missing: the game's). ``bots``: the bot seats (seat index → level); their address is
    ignored (they have none), and they play at once if the game starts with their move.
    ``hidden_for_good``: the archive keeps what play hides hidden even after the end.
    """
    bots = dict(bots or {})
    for index, level in bots.items():
        controllers.controller(controllers.BOT, level)  # a known level, or ValueError
        if not 0 <= index < len(seats):
            raise ValueError(f"bot seat {index + 1} is not one of the {len(seats)} seats")
    rules = registry.get(game_type)
    for lang in (language, *languages):
        if lang is not None and lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; the host speaks "
                             f"{', '.join(LANGUAGES)}")
    if len(languages) > len(seats):
        raise ValueError("more seat languages than seats")
    clocks = clocks or ClockSettings()
    clocks.check()
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise ValueError(f"{rules.title} takes {rules.min_players}–{rules.max_players} "
                         f"players, not {len(seats)}")
    seats = [(name, "" if i in bots else operator_input.address(address, "seat address"))
             for i, (name, address) in enumerate(seats)]
    operator_input.distinct(address for i, (_, address) in enumerate(seats) if i not in bots)
    refusal = players.ban_refusal(session, (address for _, address in seats))
    if refusal:
        raise ValueError(refusal)
    if tag is not None:
        tag = operator_input.tag(tag)
        if queries.game_by_tag(session, tag) is not None:
            raise ValueError(f"a game tagged {tag} exists already; choose another tag")
    defaults = rules.default_options()
    game_options.check(rules.title, defaults, options or {},
                       option_alternatives(rules))
    opts = {**defaults, **(options or {})}
    seed = seed or pysecrets.token_hex(16)
    state, setup = start(rules, len(seats), opts, seed)
    prefix = registry.tag_prefix(rules)
    game = Game(game_type=rules.name, tag=tag or f"{prefix}-new-{pysecrets.token_hex(6)}",
                options_json=canonical_json(setup.options), seed=seed,
                deadline_hours=clocks.deadline_hours, reminder_hours=clocks.reminder_hours,
                timeout_policy=clocks.timeout_policy, vacation_days=clocks.vacation_days,
                turn_started_at=now or (host.clock() if host else utcnow()), language=language,
                hidden_for_good=hidden_for_good)
    session.add(game)
    session.flush()
    assert game.id is not None
    if tag is None:
        game.tag = f"{prefix}-{game.id}"
    session.add(LogEntry(game_id=game.id, index=0, kind="setup",
                         draws_json=canonical_json(draws_to_json(setup.draws)),
                         events_json="[]", state_hash=setup.state_hash))
    session.add(Snapshot(game_id=game.id, log_index=0,
                         state_json=canonical_json(rules.to_json(state))))
    secrets: list[str] = []
    for index, (name, address) in enumerate(seats):
        own = languages[index] if index < len(languages) else None
        if index in bots:  # no address, no secret: no mail ever speaks for it
            secrets.append("")
            session.add(Seat(game_id=game.id, index=index, name=name, address="",
                             secret_salt="", secret_hash=controllers.NO_SECRET,
                             language=own or language,
                             controller=controllers.controller(controllers.BOT, bots[index])))
            continue
        secret, salt = new_secret(), new_salt()
        secrets.append(secret)
        # The player's profile (made on their first seat) gives a seat its defaults.
        players.ensure(session, address)
        start_with = players.seat_defaults(session, address, language)
        session.add(Seat(game_id=game.id, index=index, name=name, address=address.lower(),
                         secret_salt=salt, secret_hash=hash_secret(secret, salt),
                         language=own or start_with.language, timezone=start_with.timezone,
                         mail_mode=start_with.mail_mode,
                         # a digest covers from the seat's start on
                         digest_at=game.turn_started_at if start_with.mail_mode == "digest"
                         else None))
    session.flush()
    if bots:  # a bot to move first plays now: the welcome mails show the game after it
        played = settle(session, rules, game, state, state, game.turn_started_at or utcnow(),
                        host=host)
        state = played.state
        if played.failed and host is not None:
            tell_autoplay(session, host, rules, game, played, game.turn_started_at or utcnow())
    if host is not None:
        seated = queries.seats(session, game.id)
        move = MoveMails.read(session, rules, game, state, seats=seated)
        for seat, secret in zip(seated, secrets, strict=True):
            if not secret:
                continue  # a bot seat
            move.queue_status(host, seat, secret=secret, kind="welcome", intro=[
                msg("Welcome to {title}! Your secret is: {secret}", title=rules.title,
                    secret=secret),
                msg("Keep it private: put it in every mail you send."),
                REPLY_NEEDS_NO_SECRET,
                # a game translates its about text in its catalogue
                *([Msg(rules.about)] if rules.about else []),
                *guide_line(host.site.url, rules.name, seat.language)])
    return game, secrets


def default_clocks(turn_hours: int, reminder_hours: int, timeout: str,
                   vacation_days: int) -> ClockSettings:
    """A game's clock from the config's [deadlines] (each value possibly overridden by the
    operator): no deadline for 0 hours; the reminder only if it comes before the deadline."""
    remind = reminder_hours if reminder_hours < turn_hours else 0
    return ClockSettings(
        deadline_hours=turn_hours or None,
        reminder_hours=(remind or None) if turn_hours else None,
        timeout_policy=timeout, vacation_days=vacation_days)
