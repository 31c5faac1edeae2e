"""A game's whole log out of the host (JSON, or a readable transcript) and back in.

The JSON export holds everything needed to rebuild the game elsewhere: type, options, seed,
seats, and every log entry with its draws, events and state hash. Importing replays it all
(:mod:`pbem.pipeline.history`) before writing anything, so an edited or damaged export is
refused with the place where it went wrong. Secrets are never exported: an imported game issues
fresh ones.

Each export is signed with this host's key (:mod:`pbem.ops.hostkey`): edits a replay
cannot see (a seat's address, a game's status or clock) are refused too, even with the
checksum recomputed. An export signed by another host (or by none) is only imported when the
operator says they trust it (``trust_foreign``), after reviewing it; it is replayed and
verified all the same.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem.engine import registry
from pbem.engine.hashing import canonical_json, state_hash
from pbem.engine.replay import ReplayMismatch, SetupRecord, draws_from_json, replay
from pbem.ops.hostkey import HostKey
from pbem.pipeline import controllers, history, operator_input, standings
from pbem.pipeline.move_mails import MoveMails
from pbem.pipeline.reply_tokens import REPLY_NEEDS_NO_SECRET
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret
from pbem.settings.host import Host
from pbem.store import players, queries
from pbem.store.tables import Game, LogEntry, Seat, Snapshot, utcnow

FORMAT = "pbem-game-export"
VERSION = 1


class ImportRefused(ValueError):
    """An export that cannot be imported; the message says why. Nothing was written."""


class ForeignExport(ImportRefused):
    """An export this host did not sign; importing it needs the operator's word."""


def _checksum(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def _body(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("checksum", "signature")}


def export_json(session: Session, game: Game, *, key: HostKey) -> dict[str, Any]:
    """The game as a JSON-ready dict, with a checksum over the rest and this host's signature
    (``host`` names the key that signed it)."""
    rules = registry.get(game.game_type)
    seats = queries.seats(session, game.id or 0)
    entries = queries.log(session, game.id or 0)
    snap = queries.latest_snapshot(session, game.id or 0)
    body: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "game": {"type": game.game_type, "title": rules.title, "tag": game.tag,
                 "status": game.status, "options": json.loads(game.options_json),
                 "seed": game.seed, "created": game.created.isoformat(),
                 "deadline_hours": game.deadline_hours, "reminder_hours": game.reminder_hours,
                 "timeout_policy": game.timeout_policy, "vacation_days": game.vacation_days},
        "seats": [{"index": s.index, "name": s.name, "address": s.address, "status": s.status,
                   **({} if s.controller == controllers.HUMAN else
                      {"controller": s.controller})}
                  for s in seats],
        "log": [{"index": e.index, "kind": e.kind, "seat": e.seat, "text": e.text,
                 "draws": json.loads(e.draws_json), "events": json.loads(e.events_json),
                 "state_hash": e.state_hash, "created": e.created.isoformat()}
                for e in entries],
        "final_state_hash": state_hash(json.loads(snap.state_json)),
        "host": key.id,
    }
    return {**body, "checksum": _checksum(body), "signature": key.sign(canonical_json(body))}


def export_text(session: Session, game: Game) -> str:
    """A readable transcript: every entry with all its events (private ones marked)."""
    rules = registry.get(game.game_type)
    seats = queries.seats(session, game.id or 0)
    names = {s.index: s.name for s in seats}
    undone = history.revoked(queries.log(session, game.id or 0))
    lines = [f"{rules.title} [{game.tag}] — {game.status}",
             f"options: {game.options_json}", "",
             *[f"seat {s.index + 1}: {s.name} <{s.address}> ({s.status})" for s in seats], ""]
    for e in queries.log(session, game.id or 0):
        who = f" {names.get(e.seat, e.seat)}" if e.seat is not None else ""
        head = f"#{e.index} {e.created:%Y-%m-%d %H:%M} {e.kind}{who}"
        if e.index in undone:
            head += f" (undone by #{undone[e.index]})"
        lines.append(head)
        if e.text.strip() and e.kind != "setup":
            lines += [f"    > {t}" for t in e.text.splitlines()]
        for ev in queries.entry_events(e):
            to = ("" if ev.visible_to is None else
                  f" [to {', '.join(str(names.get(s, s)) for s in sorted(ev.visible_to))} only]")
            lines.append(f"    - {ev.text}{to}")
        draws = len(json.loads(e.draws_json))
        lines.append(f"    ({draws} draw{'s' if draws != 1 else ''}, state {e.state_hash[:16]})")
    return "\n".join(lines) + "\n"


def _entries(data: dict[str, Any]) -> list[LogEntry]:
    out = []
    for raw in data["log"]:
        out.append(LogEntry(game_id=0, index=int(raw["index"]), kind=str(raw["kind"]),
                            seat=None if raw["seat"] is None else int(raw["seat"]),
                            text=str(raw["text"]), draws_json=canonical_json(raw["draws"]),
                            events_json=canonical_json(raw["events"]),
                            state_hash=str(raw["state_hash"]),
                            created=_aware(raw["created"], f"log entry {raw['index']}")))
    return out


def _aware(text: Any, where: str) -> datetime:
    """A timestamp with its timezone: the database keeps every time in UTC."""
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        raise ImportRefused(f"{where}: {str(text)[:40]!r} is not a timestamp; nothing was "
                            "imported") from None
    if when.tzinfo is None:
        raise ImportRefused(f"{where}: timestamp {text!r} has no timezone; nothing was "
                            "imported")
    return when


SEAT_STATUSES = ("active", "resigned", "dropped")


def _controller(seat: Any) -> str:
    """Who plays an exported seat (exports before bots name none: its player)."""
    kind = str(seat.get("controller", controllers.HUMAN))
    try:
        return controllers.checked(kind)
    except ValueError:
        raise operator_input.InputError(
            f"the export's seat controller {kind[:40]!r} is not human, bot:<level> or "
            "stand-in:<level>") from None
GAME_STATUSES = ("active", "paused", "finished", "archived")


def check_signature(data: dict[str, Any], key: HostKey, trust_foreign: bool) -> bool:
    """Whether this host signed ``data`` (True), or it is trusted on the operator's word
    (False); raises when it was signed here and edited since, or is foreign and not trusted."""
    body = _body(data)
    host = data.get("host")
    if host == key.id:
        if not key.verify(canonical_json(body), data.get("signature")):
            raise ImportRefused("the export's signature does not match its content: it was "
                                "made on this host and edited since; nothing was imported")
        return True
    if not trust_foreign:
        origin = (f"another host (key {host})" if isinstance(host, str) and host
                  else "a host that did not sign it (an older pbem?)")
        raise ForeignExport(
            f"this export was made by {origin}, not by this one (key {key.id}), so this host "
            "cannot vouch that it was not edited since, e.g. a seat's address. Review it "
            "(its seats, addresses and status), then import it with --trust-foreign: its "
            "whole log is still replayed and verified. Nothing was imported")
    return False


def verify(data: Any, *, key: HostKey, trust_foreign: bool = False
           ) -> tuple[list[LogEntry], Any]:
    """Check an export throughout; returns its entries and the final state."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("this is not a pbem game export (made by `pbem game export`)")
    if data.get("version") != VERSION:
        raise ImportRefused(f"export version {data.get('version')!r} is not supported "
                            f"(this pbem reads version {VERSION})")
    if data.get("checksum") != _checksum(_body(data)):
        raise ImportRefused("the export's checksum does not match its content: the file was "
                            "edited or damaged; nothing was imported")
    check_signature(data, key, trust_foreign)
    try:
        rules = registry.stored(data["game"]["type"])  # an older export: the game's former id
    except KeyError:
        raise ImportRefused(f"game type {data['game']['type']!r} is not installed here "
                            "(see `pbem games`)") from None
    try:
        entries = _entries(data)
        if not entries or entries[0].kind != "setup" or [e.index for e in entries] != list(
                range(len(entries))):
            raise ImportRefused("the export's log must start with its setup and have no gaps")
        setup = SetupRecord(len(data["seats"]), dict(data["game"]["options"]),
                            draws_from_json(json.loads(entries[0].draws_json)),
                            entries[0].state_hash)
        final = history.replay_log(rules, setup, entries[1:]).state
    except ReplayMismatch as exc:
        raise ImportRefused(f"replay of the export failed at {exc}: the file was edited or "
                            "damaged; nothing was imported") from exc
    except ImportRefused:
        raise
    except (KeyError, TypeError, ValueError) as exc:  # game errors are ValueErrors too
        what = (f"it has no field {exc}" if isinstance(exc, KeyError) else
                f"a value has the wrong type ({exc})" if isinstance(exc, TypeError) else str(exc))
        raise ImportRefused(f"the export cannot be replayed: {what}; nothing was imported"
                            ) from exc
    got = state_hash(rules.to_json(final))
    if got != data.get("final_state_hash"):
        raise ImportRefused(f"the export's final state hash does not match its replay "
                            f"({got[:12]}…); nothing was imported")
    return entries, final


def import_game(session: Session, data: Any, *, key: HostKey, trust_foreign: bool = False,
                tag: str | None = None, host: Host | None = None) -> tuple[Game, list[str]]:
    """A new game from an export signed by ``key`` (or any, with ``trust_foreign``), verified
    by replay first. With ``host``, every seat is mailed a status with its fresh secret.
    Returns the game and the secrets."""
    entries, final = verify(data, key=key, trust_foreign=trust_foreign)
    g = data["game"]
    rules = registry.stored(g["type"])
    try:
        tag = operator_input.tag(tag) if tag is not None else None
        kinds = [_controller(s) for s in data["seats"]]
        addresses = ["" if controllers.is_bot_seat_controller(kind) else
                     operator_input.address(str(s["address"]), "the export's seat address")
                     for s, kind in zip(data["seats"], kinds, strict=True)]
        operator_input.distinct(a for a in addresses if a)
        refusal = players.ban_refusal(session, addresses)
        if refusal:
            raise operator_input.InputError(refusal)
        # Checked whoever signed it: a foreign export is trusted to replay, not to be clean.
        names = [operator_input.name(str(s["name"]), "the export's seat name")
                 for s in data["seats"]]
        for s in data["seats"]:
            if s["status"] not in SEAT_STATUSES:
                raise operator_input.InputError(
                    f"the export's seat status {str(s['status'])[:40]!r} is not one of "
                    f"{', '.join(SEAT_STATUSES)}")
        if g["status"] not in GAME_STATUSES:
            raise operator_input.InputError(
                f"the export's game status {str(g['status'])[:40]!r} is not one of "
                f"{', '.join(GAME_STATUSES)}")
    except operator_input.InputError as exc:
        raise ImportRefused(str(exc)) from None
    wanted = tag or g["tag"]
    try:
        wanted = operator_input.tag(str(wanted))
    except operator_input.InputError:
        wanted = ""  # the export's own tag is not one this host accepts: named after its id
    if queries.game_by_tag(session, wanted) is not None:
        if tag is not None:
            raise ImportRefused(f"a game tagged {tag} exists already; choose another --tag")
        wanted = ""  # the original tag is taken here: name it after its new id below
    game = Game(game_type=rules.name, tag=wanted or f"import-{new_salt()}",
                options_json=canonical_json(g["options"]), seed=str(g["seed"]),
                status=str(g["status"]), deadline_hours=g.get("deadline_hours"),
                reminder_hours=g.get("reminder_hours"),
                timeout_policy=str(g.get("timeout_policy", "pause")),
                vacation_days=int(g.get("vacation_days", 14)),
                turn_started_at=host.clock() if host else utcnow())
    session.add(game)
    session.flush()
    assert game.id is not None
    if not wanted:
        game.tag = f"{registry.tag_prefix(rules)}-{game.id}"
    for e in entries:
        e.game_id = game.id
        session.add(e)
    setup_state = replay(rules, SetupRecord(
        len(data["seats"]), dict(g["options"]),
        draws_from_json(json.loads(entries[0].draws_json)), entries[0].state_hash), [])
    session.add(Snapshot(game_id=game.id, log_index=0,
                         state_json=canonical_json(rules.to_json(setup_state))))
    if len(entries) > 1:
        session.add(Snapshot(game_id=game.id, log_index=entries[-1].index,
                             state_json=canonical_json(rules.to_json(final))))
    secrets = []
    for s, address, seat_name, kind in zip(data["seats"], addresses, names, kinds, strict=True):
        if controllers.is_bot_seat_controller(kind):  # no address, no secret, no mail
            secrets.append("")
            session.add(Seat(game_id=game.id, index=int(s["index"]), name=seat_name,
                             address="", status=str(s["status"]), secret_salt="",
                             secret_hash=controllers.NO_SECRET, controller=kind))
            continue
        secret, salt = new_secret(), new_salt()
        secrets.append(secret)
        session.add(Seat(game_id=game.id, index=int(s["index"]), name=seat_name,
                         address=address, status=str(s["status"]), controller=kind,
                         secret_salt=salt, secret_hash=hash_secret(secret, salt)))
        players.ensure(session, address)
    session.flush()
    if game.status in standings.RATED_STATUSES and rules.outcome(final) is not None:
        # Rated as a rebuild rates it: dated by the entry of its last snapshot.
        standings.game_finished(session, rules, game, final, entries[-1].created,
                                host is not None and host.bots.rated)
    if host is not None:
        seats = queries.seats(session, game.id)
        move = MoveMails.read(session, rules, game, final, seats=seats)
        for seat, secret in zip(seats, secrets, strict=True):
            if not secret:
                continue  # a bot seat
            move.queue_status(host, seat, secret=secret, kind="welcome", intro=[
                f"[{game.tag}] ({rules.title}) has moved to this host and "
                "goes on from where it was.",
                f"Your new secret is: {secret}",
                "Keep it private: put it in every mail you send.",
                REPLY_NEEDS_NO_SECRET])
    return game, secrets
