"""One inbound email, start to finish, in ONE database transaction.

record → identify the game → authenticate the seat → parse → apply → log entry + snapshot →
queued mail for every seat. Whatever cannot be handled is quarantined with its reason (in a
transaction of its own) and can be reprocessed; nothing is ever dropped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets as pysecrets
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from pbem.engine import registry
from pbem.engine.contract import canonical_order, localise_order, takes_orders
from pbem.engine.contract import help_text as game_help
from pbem.engine.errors import IllegalOrder, IllegalOrders, OrderSyntaxError
from pbem.engine.every_error import every_syntax_error, suggestion
from pbem.engine.replay import play
from pbem.i18n import LANGUAGES, Msg, Translator, msg, nmsg, translator
from pbem.mail import authresults
from pbem.mail.addresses import deliverable
from pbem.mail.reading import IncomingMail, read_message, text_safe
from pbem.mail.redact import MARK, blank, redact
from pbem.pipeline import bounces, clock, commands, talk
from pbem.pipeline import command_words as words
from pbem.pipeline import outgoing as mails
from pbem.pipeline.echo import clip
from pbem.pipeline.history import MOVE_KINDS
from pbem.pipeline.movelog import record_move
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.pipeline.seat_secrets import check_secret
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem.store.faults import TransientFault, describe, is_transient
from pbem.store.tables import INBOUND_WITHOUT_BYTES, Game, InboundMessage, LogEntry, Seat, utcnow

log = logging.getLogger(__name__)

TAG_RE = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]*)\]")
ECHO_LINES = 40  # order lines quoted back in a reply
TAG_MAX = 100  # of a "game" line: a game's tag is far shorter
SECRET_MAX = 200  # a secret is 22 characters: a longer one is wrong without hashing it


def _english_free(err: OrderSyntaxError, tr: Translator) -> str:
    """An unlocated syntax error as ``str(err)`` says it, in ``tr``'s language."""
    parts = []
    if err.line is not None:
        parts.append(tr(msg("line {line}, column {column}: ", line=err.line, column=err.column)
                        if err.column is not None else msg("line {line}: ", line=err.line)))
    parts.append(tr(err.message))
    if err.text:
        parts.append(f' "{err.text.strip()}"')
    if err.hint:
        parts.append(f" — {tr(err.hint)}")
    return "".join(parts)


@dataclass
class Result:
    """What became of one message (``duplicate`` when its Message-ID was seen before)."""

    status: str
    reason: str = ""
    inbound_id: int | None = None
    queued: list[int] = field(default_factory=list)
    # The queued rows, until :func:`handle` flushes them with the mail's outcome (one flush
    # for both) and lists their ids in ``queued``.
    rows: list[Any] = field(default_factory=list, repr=False, compare=False)


@dataclass
class Letter:
    """An email body split into the host's own lines and the game's order lines."""

    game_tag: str | None = None
    secret: str | None = None
    # check | help | status | log | waiting | vacation | resign | secret (new)
    command: str | None = None
    argument: str = ""  # the rest of a command's line ("until 2026-12-24" for vacation)
    orders: list[tuple[int, str]] = field(default_factory=list)  # (line number in body, text)
    marked: bool = False  # the orders stand between a line "orders" and a line "end"
    talk: list[str] = field(default_factory=list)  # "say" lines, without their "say"
    ignored: int = 0  # lines outside those markers, left unread

    @property
    def order_text(self) -> str:
        return "\n".join(t for _, t in self.orders)




def read_letter(body: str) -> Letter:
    """Split a body into host lines (game, secret, a command) and order lines.

    With a line ``orders``, only the lines after it up to a line ``end`` (or the signature or
    quoted text, already cut by the mail reader) are orders; greetings and notes around them
    are left alone (counted in ``ignored``). Without it every line must be an order or a
    host line, so nothing a player meant as an order is silently skipped.
    """
    letter = Letter()
    lines = body.splitlines()
    letter.marked = any(_orders_start(raw) for raw in lines)
    inside = done = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if letter.marked and not done and (_orders_end(line) if inside
                                           else _orders_start(line)):
            inside, done = not inside, inside
            continue
        if _host_line(letter, line):
            continue
        first, _, said = line.partition(" ")
        if (inside or not letter.marked) and said.strip() and words.is_word(first, "say"):
            letter.talk.append(said)
        elif inside or not letter.marked:
            letter.orders.append((number, line))
        else:
            letter.ignored += 1
    return letter


def _orders_start(line: str) -> bool:
    """A line ``orders`` (``orders:``; ``ordres``, ``Befehle``… in the other languages)."""
    return words.is_word(line.strip().rstrip(":"), "orders")


def _orders_end(line: str) -> bool:
    """A line ``end`` (``end.``, ``end orders``; ``fin``, ``Ende``… in the other languages)."""
    parts = line.strip().rstrip(".").split()
    return bool(parts) and words.is_word(parts[0], "end") and (
        len(parts) == 1 or (len(parts) == 2 and words.is_word(parts[1], "orders")))


_GREETINGS = frozenset((
    "hi", "hello", "hey", "dear", "greetings", "cheers", "thanks", "thank", "regards", "best",
    "bye", "ciao", "bonjour", "salut", "bonne", "merci", "hallo", "hola"))


def looks_like_prose(line: str) -> bool:
    """A greeting, sign-off or sentence rather than an order (orders never end in . ! ? ,)."""
    words = line.lower().replace(",", " ").replace("!", " ").split()
    return bool(words) and (line.rstrip()[-1] in ".!?,;" or words[0] in _GREETINGS)


# A secret line in any spelling: "secret x", "secret: x", "SECRET:x", "Secret = x" (any case,
# any whitespace; the word in any of the host's languages).
_SECRET_HEAD = re.compile(r"([^\s:=]+)\s*[:=]?\s*")


def secret_value(line: str) -> str | None:
    """The secret a line gives, if it is a secret line."""
    head = _SECRET_HEAD.match(line.strip())
    if head is None or not words.is_word(head.group(1), "secret"):
        return None
    return line.strip()[head.end():].strip() or None


def _host_line(letter: Letter, line: str) -> bool:
    """Read ``line`` into ``letter`` if it is the host's (game, secret, a command)."""
    word, _, rest = line.partition(" ")
    free = not letter.orders and letter.command is None  # a command comes before any order
    secret = secret_value(line)
    if words.is_word(word, "game") and rest.strip() and letter.game_tag is None:
        letter.game_tag = rest.strip()[:TAG_MAX]
    elif secret is not None and words.is_word(secret, "new") and free:
        letter.command, letter.argument = "secret", "new"  # rotate: see commands.rotate
    elif secret is not None:
        letter.secret = secret
    elif free and not rest.strip() and (
            line.lower() == "preview" or words.is_word(line, "check")):
        letter.command = "check"
    elif free and not rest.strip() and (
            command := next((c for c in ("help", "status", "waiting", "resign", "log")
                             if words.is_word(line, c)), None)):
        letter.command = command
    elif free and (command := next((c for c in ("vacation", "log", "mail", "language",
                                                "timezone") if words.is_word(word, c)), None)):
        letter.command, letter.argument = command, rest.strip()
    else:
        return False
    return True


def synthetic_message_id(raw: bytes) -> str:
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


MAX_KEY = 250  # a longer Message-ID (PostgreSQL's btree rows hold ~2,700 bytes) is digested


def message_key(mid: str) -> str:
    """The Message-ID as stored and indexed: kept as is when short and printable ASCII, else a
    digest of it, so no sender can choose a key the unique index cannot hold."""
    if len(mid) <= MAX_KEY and mid.isascii() and mid.isprintable():
        return mid
    digest = hashlib.sha256(mid.encode("utf-8", "surrogatepass")).hexdigest()
    return f"<sha256-{digest}@long-id.pbem.invalid>"


def conflict_key(raw: bytes) -> str:
    """The key of a mail reusing a recorded Message-ID with a different body."""
    return f"<conflict-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _body_bytes(raw: bytes) -> bytes:
    """What stays the same when one mail arrives twice (relays add headers, not body)."""
    text = raw.replace(b"\r\n", b"\n")
    return text.partition(b"\n\n")[2].rstrip()


def _same_mail(stored: InboundMessage, raw: bytes) -> bool:
    """Whether ``raw`` is the mail already stored as ``stored`` (delivered twice). The stored
    copy has its secret blanked and may be cut short (see :func:`seal`), so compare the digest
    of the bytes as received, else the bodies with what reads as a secret blanked on both."""
    if stored.raw_sha256 and stored.raw_sha256 == hashlib.sha256(raw).hexdigest():
        return True
    if len(raw) > 2 * len(stored.raw) + 65536:  # cut short when stored: the digest decides
        return False
    return _body_bytes(redact(stored.raw)) == _body_bytes(redact(raw))


def kept_bytes(raw: bytes, limit: int) -> bytes:
    """What is stored of a mail: all of it, or for a mail over ``limit`` its headers (up to
    ``limit``) and the first ``limit`` bytes of its body: a 28 MB mail costs no 28 MB row."""
    if len(raw) <= limit:
        return raw
    cut = raw.replace(b"\r\n", b"\n").find(b"\n\n")
    head = min(cut if cut >= 0 else limit, limit)
    return raw[:head + limit]


def process_raw(factory: SessionFactory, raw: bytes, host: Host) -> Result:
    """Handle one raw email; never raises for a bad message (it is quarantined instead).

    Raises :class:`TransientFault` when the database or disk failed for a reason that is not
    the message's (locked, full, disconnected): nothing was recorded, and the mail must stay
    in the inbox to be tried again.
    """
    try:
        with factory() as session:
            result = handle(session, raw, host, existing=None)
            session.commit()
            return result
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        failure = exc
    try:
        if isinstance(failure, IntegrityError) and _recorded(factory, raw):
            # Usually another worker recorded the same Message-ID first. Any other
            # constraint (say two log entries with one index) must not pass for a duplicate:
            # the mail would leave the inbox unapplied. It is quarantined instead.
            log.info("message recorded concurrently; treated as duplicate")
            return Result("duplicate", "recorded by another worker")
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        _log_fault("duplicate check failed", exc)
    fresh = _unrecorded(factory, raw)
    _log_fault("a mail could not be handled; kept for the operator", failure)
    result = quarantine(factory, raw, _reason(failure), inbound_id=None, host=host)
    if fresh and result.status == "quarantined":  # the sender is told once, not per delivery
        _answer_fault(factory, raw, host)
    return result


def _log_fault(what: str, exc: BaseException) -> None:
    """One line for the operator's log; the traceback only at debug level."""
    log.error("%s: %s", what, _reason(exc))
    log.debug("%s", what, exc_info=exc)


def _unrecorded(factory: SessionFactory, raw: bytes) -> bool:
    try:
        return not _recorded(factory, raw)
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        return False  # unknown: better no answer than a second one


def _answer_fault(factory: SessionFactory, raw: bytes, host: Host) -> None:
    """Tell the sender of a mail the host failed on that the operator has it: in the language
    of the sender's seat (else the game's, else their client's), with a fixed subject, limited
    like every answer to unproven mail. A robot is never answered; a failure here is logged."""
    try:
        mail = read_message(raw, max_bytes=host.max_message_bytes)
        sender = (mail.from_addr or "").lower()
        if mail.bounces or mail.automatic or not deliverable(sender):
            return
        with factory() as session:
            if not mails.may_answer(session, host, sender, "fault"):
                log.info("no answer to a failed mail from %s: reply limit reached", sender)
                return
            game, lang = _sender_game(session, mail, sender)
            tr = translator(lang)
            subj = (mails.subject(game, msg("about your mail"), tr) if game
                    else tr(msg("About your mail to the game host")))
            mid = mail.message_id or synthetic_message_id(raw)
            mails.queue_notice(session, host, to=sender, subj=subj, kind="fault", game=game,
                               in_reply_to=mid, references=[*mail.references, mid], tr=tr,
                               lines=[msg("Your mail could not be handled: the game host ran "
                                          "into a fault of its own. Nothing was played and "
                                          "nothing changed."),
                                      msg("The host's operator has been told and has kept your "
                                          "mail.")])
            session.commit()
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        _log_fault("the sender of a failed mail could not be told", exc)


def _sender_game(session: Session, mail: IncomingMail, sender: str) -> tuple[Game | None, str]:
    """The game a mail names (by the tag in its subject, else its game line) and the language
    to answer in: its sender's seat's, else the game's, else the sender's client's."""
    try:
        letter = read_letter(mail.body_text or "")
    except Exception:  # the very fault being answered may be in reading the body
        letter = Letter()
    game = identify_game(session, mail.subject or "", letter)
    langs = [mail.language]
    if game is not None:
        seats = queries.seat_by_address(session, game.id or 0, sender)
        langs = [*(s.language for s in seats[:1]), game.language, *langs]
    return game, next((lang for lang in langs if lang in LANGUAGES), "en")


def _recorded(factory: SessionFactory, raw: bytes) -> bool:
    mid = message_key(_message_id_of(raw))
    with factory() as session:
        q = select(InboundMessage.id).where(InboundMessage.message_id == mid)
        return session.exec(q).first() is not None


def reprocess(factory: SessionFactory, inbound_id: int, host: Host) -> Result:
    """Run a quarantined message through the pipeline again, once: a mail whose Message-ID
    was applied meanwhile (or whose own row fed the log) is a duplicate, as on first arrival."""
    with factory() as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            raise LookupError(f"no inbound message {inbound_id}")
        if row.status != "quarantined":
            raise ValueError(f"message {inbound_id} is {row.status}, not quarantined")
        raw = row.raw
    try:
        with factory() as session:
            # SKIP LOCKED (PostgreSQL): two operators reprocessing at once handle it once.
            row = session.exec(select(InboundMessage)
                               .where(InboundMessage.id == inbound_id,
                                      InboundMessage.status == "quarantined")
                               .with_for_update(skip_locked=True)).first()
            if row is None:
                return Result("duplicate", "being reprocessed elsewhere", inbound_id)
            done = _already_handled(session, row, raw)
            if done is not None:
                row.status, row.reason = "ignored", f"duplicate: {done}"
                row.processed_at = utcnow()
                session.add(row)
                session.commit()
                return Result("duplicate", done, inbound_id)
            result = handle(session, raw, host, existing=row)
            session.commit()
            return result
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        _log_fault(f"message {inbound_id} quarantined again", exc)
        return quarantine(factory, raw, _reason(exc), inbound_id=inbound_id, host=host)


def _already_handled(session: Session, row: InboundMessage, raw: bytes) -> str | None:
    """Why reprocessing ``row`` would handle its mail twice, or None: its own row fed the log,
    or (for a conflicting duplicate) the first mail of its Message-ID was applied."""
    entry = session.exec(select(LogEntry.index).where(
        LogEntry.source_message_id == row.id)).first()
    if entry is not None:
        return f"it is already log entry {entry}"
    key = message_key(_message_id_of(raw))
    first = None if key == row.message_id else session.exec(
        select(InboundMessage).where(InboundMessage.message_id == key)
        .options(INBOUND_WITHOUT_BYTES)).first()
    if first is not None:
        fed = session.exec(select(LogEntry.index).where(
            LogEntry.source_message_id == first.id)).first()
        if first.status == "applied" or fed is not None:
            return f"message {first.id} with the same Message-ID was applied"
    return None


def _reason(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {tb[-1].filename}:{tb[-1].lineno})" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _safe_reason(reason: str) -> str:
    """A reason any database stores: no NUL or lone surrogate, bounded."""
    return text_safe(reason)[:2000]


def quarantine(factory: SessionFactory, raw: bytes, reason: str,
               inbound_id: int | None, host: Host | None = None) -> Result:
    """Keep a mail that cannot be handled, with the reason. Never touches a row that has an
    outcome already (applied, rejected...): that mail was handled, this is its duplicate.

    The record holds nothing parsed from the message but its bounded key, so it cannot fail
    on the message's content; should it fail anyway, a last record under a digest of the
    bytes is tried. Raises :class:`TransientFault` when the database itself is failing.
    """
    reason = _safe_reason(reason)
    limit = (host or Host()).max_message_bytes
    try:
        return _quarantine(factory, raw, reason, inbound_id, limit)
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        _log_fault("quarantine failed; keeping a minimal record", exc)
        first = describe(exc)
    try:
        with factory() as session:
            key = synthetic_message_id(raw)
            row = session.exec(select(InboundMessage).where(
                InboundMessage.message_id == key)).first()
            row = row or InboundMessage(message_id=key, raw=kept_bytes(raw, limit))
            row.status, row.processed_at = "quarantined", utcnow()
            row.reason = _safe_reason(f"{reason} (recorded after: {first})")
            session.add(row)
            session.commit()
            return Result("quarantined", row.reason, row.id)
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        # Not in the database, but not lost: the inbox moves it to its failed folder.
        _log_fault("message could not be recorded; left in the failed folder", exc)
        return Result("quarantined", f"{reason} (not recorded: {describe(exc)})")


def _quarantine(factory: SessionFactory, raw: bytes, reason: str, inbound_id: int | None,
                limit: int) -> Result:
    with factory() as session:
        row = session.get(InboundMessage, inbound_id) if inbound_id is not None else None
        if row is None:
            key = message_key(_message_id_of(raw))
            row = session.exec(
                select(InboundMessage).where(InboundMessage.message_id == key)).first()
            if row is not None and not _same_mail(row, raw):
                key = conflict_key(raw)  # another mail under this id: keep this one apart
                row = session.exec(
                    select(InboundMessage).where(InboundMessage.message_id == key)).first()
            if row is None:
                seen = _verdict(session, raw)
                row = InboundMessage(message_id=key, from_addr=seen.sender,
                                     subject=seen.subject, game_id=seen.game_id)
                seal(row, raw, seen.seat, seen.secret, limit=limit)  # its bytes, blanked
        if row.id is not None and row.status != "quarantined":
            return Result("duplicate", f"already {row.status}", row.id)
        row.status = "quarantined"
        row.reason = blank(reason)
        row.processed_at = utcnow()
        session.add(row)
        session.commit()
        return Result("quarantined", reason, row.id)


def _message_id_of(raw: bytes) -> str:
    try:
        mid = read_message(raw).message_id
    except Exception:
        mid = None
    return mid or synthetic_message_id(raw)


def _finish(row: InboundMessage, status: str, reason: str, queued: list[Any]) -> Result:
    row.status = status
    row.reason = _safe_reason(reason)
    row.processed_at = utcnow()
    return Result(status, row.reason, row.id, rows=list(queued))


def handle(session: Session, raw: bytes, host: Host, existing: InboundMessage | None) -> Result:
    """The pipeline proper, inside the caller's transaction."""
    mail = read_message(raw, max_bytes=host.max_message_bytes)
    mid = mail.message_id or synthetic_message_id(raw)
    if existing is None:
        key = message_key(mid)
        # (Its bytes only if the digest cannot tell: see _same_mail.)
        seen = session.exec(select(InboundMessage).where(InboundMessage.message_id == key)
                            .options(INBOUND_WITHOUT_BYTES)).first()
        if seen is not None and _same_mail(seen, raw):
            return Result("duplicate", f"already {seen.status}", seen.id)
        conflict = seen is not None
        if conflict:  # the same Message-ID, another body: kept apart, for the operator
            key = conflict_key(raw)
            again = session.exec(select(InboundMessage).where(
                InboundMessage.message_id == key).options(INBOUND_WITHOUT_BYTES)).first()
            if again is not None:
                return Result("duplicate", f"already {again.status}", again.id)
        # Its bytes are written once, blanked, by seal (in this transaction).
        row = InboundMessage(message_id=key, from_addr=mail.from_addr[:320],
                             subject=blank(mail.subject)[:500])
        session.add(row)
        session.flush()
        if conflict:
            assert seen is not None
            seal(row, raw, None, None, limit=host.max_message_bytes)
            return _finish(row, "quarantined", f"conflicting duplicate: message {seen.id} "
                           "has this Message-ID with a different body", [])
    else:
        row = existing
        row.from_addr = mail.from_addr[:320]
        row.subject = blank(mail.subject)[:500]
    handler = _Handler(session, host, mail, row, mid, stored=existing is not None, raw=raw)
    result = handler.run()
    # In this same transaction: the secret as written is never committed.
    seal(row, raw, handler.verified, handler.secret, limit=host.max_message_bytes,
         also=handler.said.secrets)
    # The mail's outcome and the mail it queued go in one flush (it was one each).
    session.flush()
    result.queued = [q.id for q in result.rows if q.id is not None]
    result.rows = []  # a pass keeps its results: not the ~70 kB of each mail
    return result


def seal(row: InboundMessage, original: bytes, seat: int | None, secret: str | None,
         limit: int | None = None, also: Sequence[str] = ()) -> None:
    """Store the mail without its secret: the digest of the bytes as received (for audit),
    the seat its secret proved (what a reprocess trusts), the text with the secret blanked
    (of a mail over ``limit``, only the part that is kept: see :func:`kept_bytes`); ``also``:
    other secrets it holds (typed into its talk)."""
    if not row.raw_sha256:
        row.raw_sha256 = hashlib.sha256(original).hexdigest()
    if seat is not None:
        row.secret_seat = seat
    tokens = [*([secret] if secret else []), *also]
    row.raw = redact(original if limit is None else kept_bytes(original, limit), tokens)
    row.reason = blank(row.reason, tokens)  # an error may quote the line that held it
    row.subject = blank(row.subject, tokens)  # "Re: [reef-1] my secret is ..."


def identify_game(session: Session, subject: str, letter: Letter) -> Game | None:
    """The game a mail is for: a known [tag] in its subject, else its "game" line."""
    for tag in TAG_RE.findall(subject):
        game = queries.game_by_tag(session, tag)
        if game is not None:
            return game
    if letter.game_tag:
        return queries.game_by_tag(session, letter.game_tag.strip("[]"))
    return None


def secret_seat(candidates: list[Seat], secret: str | None) -> Seat | None:
    """The seat among ``candidates`` (one address may hold several) whose secret this is."""
    if secret is None or len(secret) > SECRET_MAX:
        return None
    return next((seat for seat in candidates
                 if check_secret(secret, seat.secret_salt, seat.secret_hash)), None)


@dataclass
class _Verdict:
    """What a mail quarantined before it was read shows of itself, for the operator."""

    seat: int | None = None  # the seat whose secret it carries
    secret: str | None = None  # the secret as written (to blank it)
    sender: str = ""
    subject: str = ""  # its secret blanked
    game_id: int | None = None


def _verdict(session: Session, raw: bytes) -> _Verdict:
    """Who sent a mail quarantined before it was read, what it is about, whose secret it
    carries: the quarantine row names its sender and subject, never just bytes."""
    found = _Verdict()
    try:
        mail = read_message(raw)
        found.sender = text_safe(mail.from_addr or "")[:320]
        found.subject = text_safe(mail.subject or "")[:500]
        letter = read_letter(mail.body_text or "")
        found.secret = letter.secret
        found.subject = blank(found.subject, [letter.secret] if letter.secret else [])
    except Exception:  # quarantining must go on; the raw-text blanking still applies
        log.debug("a quarantined mail cannot be read", exc_info=True)
        found.subject = blank(found.subject)
        return found
    try:
        game = identify_game(session, mail.subject or "", letter)
        if game is None:
            return found
        found.game_id = game.id
        seat = secret_seat(queries.seat_by_address(session, game.id or 0, mail.from_addr),
                           letter.secret)
        found.seat = seat.index if seat is not None else None
    except Exception:  # a courtesy for a later reprocess; quarantining must go on
        log.debug("no verdict for a quarantined mail", exc_info=True)
    return found


class _Handler:
    def __init__(self, session: Session, host: Host, mail: IncomingMail, row: InboundMessage,
                 mid: str, stored: bool = False, raw: bytes = b"") -> None:
        self.s = session
        self.raw = raw
        self.stored = stored  # a kept mail run again: its secret was blanked when stored
        self.verified: int | None = None  # the seat whose secret the mail carries
        self.secret: str | None = None  # the secret as written, blanked when the mail is kept
        self.host = host
        self.mail = mail
        self.row = row
        self.mid = mid
        self.sender = (mail.from_addr or "").lower()
        self.refs = [*list(mail.references or []), mid]
        self.said = talk.Said()  # table talk this mail delivered, told in its reply
        self.told: set[int] = set()  # seats whose mail of this pass carries that talk
        self.game: Game | None = None
        self.seat: Seat | None = None  # the seat the mail speaks for, once known
        self.rules: Any = None
        # The row's game and seat, written with its outcome: one UPDATE of the row per mail,
        # not one more for each (autoflush before the next query would write them at once).
        self.game_id: int | None = None
        self.seat_index: int | None = None
        self.game_language: str | None = None  # the game the mail names, once known

    @property
    def tr(self) -> Translator:
        """The language of the replies: the seat's, once its address or secret names it;
        before that the game's, once the mail names one; else the language the sender's
        client says it writes in (Content-Language), else English."""
        if self.seat is not None:
            return seat_tr(self.seat, self.rules)
        lang = next((lang for lang in (self.game_language, self.mail.language)
                     if lang in LANGUAGES), "en")
        return translator(lang, self.rules.name if self.rules is not None else None)

    def reply_subject(self, game: Game | None, *, echo: bool = True) -> str:
        """``Re:`` the sender's subject for a seat that proved its secret; otherwise a fixed
        subject: a forged mail must not get its words mailed to someone else."""
        if not echo:
            return (mails.subject(game, msg("about your mail"), self.tr) if game
                    else self.tr(msg("About your mail to the game host")))
        return mails.reply_subject(blank(self.mail.subject, [self.secret] if self.secret
                                         else []), game)

    def stranger(self, status: str, reason: str, lines: list[Line], game: Game | None,
                 kind: str = "stranger") -> Result:
        """A rate-limited note to a sender who proved nothing (no seat, no or wrong secret,
        asking for help); nothing else changes. Never sent to an address we cannot parse."""
        queued = []
        if not deliverable(self.sender):
            reason += "; no answer: the sender's address is not deliverable"
        elif not mails.may_answer(self.s, self.host, self.sender, kind):
            reason += "; no answer: reply limit reached"
        else:
            queued.append(mails.queue_notice(
                self.s, self.host, to=self.sender, subj=self.reply_subject(game, echo=False),
                lines=lines, kind=kind, game=game, in_reply_to=self.mid, references=self.refs,
                tr=self.tr))
        return _finish(self.row, status, reason, queued)

    def notice(self, status: str, reason: str, lines: list[Line], game: Game,
               point: Line | None = None) -> Result:
        """A threaded reply; ``point`` gives it a subject of its own (``[tag] point``)."""
        subj = mails.subject(game, point, self.tr) if point else self.reply_subject(game)
        lines = [*lines, *([""] if lines and self.said.lines else []), *self.said.lines]
        q = mails.queue_notice(self.s, self.host, to=self.sender, subj=subj,
                               lines=lines, kind="reply", game=game, in_reply_to=self.mid,
                               references=self.refs, seat=self.seat, rules=self.rules,
                               tr=self.tr)
        return _finish(self.row, status, reason, [q])

    def help_for(self, rules: Any, game: Game, lang: str = "en") -> str:
        """The game's help in ``lang`` with examples from this game's state (public places
        only: the game's help shows nothing hidden, as help is answered without a secret)."""
        snapshot = queries.latest_snapshot(self.s, game.id or 0)
        return game_help(rules, rules.from_json(json.loads(snapshot.state_json)), lang)

    def find_game(self, letter: Letter) -> Game | None:
        return identify_game(self.s, self.mail.subject or "", letter)

    def run(self) -> Result:
        result = self.route()
        if self.game_id is not None:
            self.row.game_id = self.game_id
        if self.seat_index is not None:
            self.row.seat = self.seat_index
        if self.game is not None:  # the talk of this mail, to whoever got no mail with it
            result.rows += talk.deliver(self.s, self.host, self.game, self.said, self.told)
        return result

    def route(self) -> Result:
        mail = self.mail
        if mail.bounces:
            reason, queued = bounces.record(self.s, self.host, mail)
            return _finish(self.row, "ignored", reason, queued)
        if mail.automatic:
            return _finish(self.row, "ignored",
                           f"automatic mail ({mail.automatic_reason}); never answered", [])
        if mail.too_large:
            return self.stranger("rejected", "too large", [
                msg("Your message is larger than {limit} bytes, so it was not read. Please "
                    "send your orders as plain text, without attachments.",
                    limit=self.host.max_message_bytes),
            ], None)
        if mail.unreadable:
            return self.stranger("rejected", f"unreadable: {mail.unreadable}", [
                msg("Your message could not be read: {why}. Nothing was played.",
                    why=mail.unreadable),
                msg("Please send your orders as plain text, without attachments."),
            ], None)
        letter = read_letter(mail.body_text or "")
        self.secret = letter.secret
        game = self.find_game(letter)
        if game is None:
            return self.stranger("rejected", "no game identified", [
                msg("Hello! This is an automatic play-by-email game host."),
                msg("We could not tell which game your mail is for. Please reply to one of the "
                    "game's emails, keeping its tag such as [name-12] in the subject, or add a "
                    "line \"{game} name-12\" to your mail.",
                    game=words.word("game", self.tr.lang)),
            ], None)
        # Locked before its seats are read: a seat read first stays as it was in this
        # session, though another worker changes it before the lock is ours (a drop, a
        # vacation), and the move would then play, mail and time its clock by the old one.
        locked = queries.lock_game(self.s, game.id or 0)
        assert locked is not None
        self.game_id, self.game_language, self.game = game.id, game.language, game
        candidates = queries.seat_by_address(self.s, game.id or 0, self.sender)
        if not candidates:
            return self.stranger("rejected", "unknown sender", [
                msg("Hello! This is an automatic play-by-email game host."),
                msg("The address {address} does not play in [{tag}], so your mail was not "
                    "used. If you are a player, please write from the address you registered "
                    "with.", address=self.sender, tag=game.tag),
            ], game)
        rules = registry.get(game.game_type)
        self.rules = rules
        # Until a secret proves which, the address's seat speaks for the language.
        self.seat = candidates[0] if len({c.language for c in candidates}) == 1 else None
        if letter.command == "help":  # needs no secret: limited like a stranger's note
            tr = self.tr
            return self.stranger("ignored", "help", [
                msg("Help for {title} [{tag}]", title=rules.title, tag=game.tag),
                *([msg(rules.about)] if getattr(rules, "about", "") else []), "",
                self.help_for(rules, game, tr.lang), "",
                msg("Write your orders one per line, with a line \"{secret}\".",
                    secret=f"{words.word('secret', tr.lang)} " + tr(msg("<your secret>"))),
                msg("Start the mail with \"{check}\" to see what would happen without "
                    "playing.", check=words.word("check", tr.lang)),
                "", *commands.help_lines(tr, self.host),
            ], game, kind="help")
        if self.host.trusted_authserv_id:
            checked = authresults.verdict(self.raw, self.sender, self.host.trusted_authserv_id)
            if not checked.ok:
                return self.stranger("rejected", f"sender not verified: {checked.why}", [
                    msg("Your mail could not be verified as sent from {address}: {why}. So "
                        "nothing was played.", address=self.sender, why=checked.why),
                    msg("This game's host requires mail signed by your provider (DKIM) or "
                        "sent from its servers (SPF). If you did send it, ask the game's "
                        "host.")], game)
        seat = self.authenticate(letter, candidates)
        if seat is None:
            secret_word = words.word("secret", self.tr.lang)
            lines: list[Line]
            if letter.secret is None:
                lines = [msg("Your mail had no \"{secret}\" line, so nothing was played.",
                             secret=secret_word),
                         msg("Add a line \"{line}\" (from your first email from the game) "
                             "and send your orders again.",
                             line=f"{secret_word} " + self.tr(msg("<your secret>")))]
                reason = "no secret"
            else:
                lines = [msg("The secret in your mail does not match your seat, so nothing "
                             "was played. Check the secret in your first email from the game, "
                             "or ask the game's host to issue a new one.")]
                reason = "wrong secret"
            return self.stranger("rejected", reason, lines, game, kind="auth")
        self.seat = seat
        self.seat_index = seat.index
        bounces.clear(self.s, seat)
        snapshot = queries.latest_snapshot(self.s, game.id or 0)
        state = rules.from_json(json.loads(snapshot.state_json))
        if letter.talk:  # delivered whatever becomes of the orders beside it
            try:
                self.said = talk.say(self.s, self.host, game, seat, letter.talk,
                                     secret=letter.secret)
            except talk.TalkError as err:
                return self.notice("rejected", "bad say", [
                    err.message, msg("Nothing was sent, and nothing else in your mail was "
                                     "done.")], game, point=msg("Message not sent"))
            if not letter.orders and letter.command is None:
                if not self.said.sent:
                    return self.notice("rejected", "talk not sent", [], game,
                                       point=msg("Message not sent"))
                return self.notice("applied", "talk", [], game, point=msg("Message sent"))
        if letter.command == "status":
            q = mails.queue_status(self.s, self.host, rules, game, state, seat, kind="reply",
                                   intro=[msg("Your status, as you asked."),
                                          *([""] if self.said.lines else []),
                                          *self.said.lines],
                                   in_reply_to=self.mid, references=self.refs)
            return _finish(self.row, "ignored", "status", [q])
        if letter.command in commands.COMMANDS:
            return self.command(rules, game, state, seat, letter)
        if seat.status != "active":
            return self.notice("rejected", f"seat {seat.status}", [msg(
                "Your seat in [{tag}] is {status}, so your orders were not played.",
                tag=game.tag, status=commands.status_word(seat.status))], game)
        if game.status == "paused":  # the mail stays stored (inbound, status rejected)
            return self.notice("rejected", "game paused", [
                msg("Game [{tag}] is paused by its host, so your orders were not played.",
                    tag=game.tag),
                msg("Your mail is kept. Everyone gets a new status mail when the game goes on; "
                    "please send your orders again then.")], game)
        if game.status != "active":
            return self.notice("rejected", f"game {game.status}", [msg(
                "Game [{tag}] is {status}; it takes no orders now.", tag=game.tag,
                status=commands.status_word(game.status))], game)
        if not letter.orders:
            return self.notice("rejected", "no orders", [
                msg("Your mail held no orders, so nothing was played."),
                msg("Send \"{help}\" to get the list of orders.",
                    help=words.word("help", self.tr.lang))], game)
        if not takes_orders(rules, state, seat.index):
            waiting = rules.waiting_for(state)
            names = [s.name for s in queries.seats(self.s, game.id or 0) if s.index in waiting]
            return self.notice("rejected", "not your turn", [
                msg("It is not your turn, so nothing was played."),
                msg("Waiting for: {names}.", names=", ".join(names)) if names
                else msg("Waiting for: nobody.")], game)
        return self.play(rules, game, state, seat, letter)

    def command(self, rules: Any, game: Game, state: Any, seat: Seat,
                letter: Letter) -> Result:
        assert letter.command is not None
        reply = commands.run(commands.Context(self.s, self.host, rules, game, state, seat),
                             letter.command, letter.argument)
        lines = reply.lines
        if letter.orders:  # a command and orders in one mail: only the command is done
            lines = [*lines, "", msg("The other lines of your mail were not read as orders; "
                                     "send orders in a mail of their own.")]
        lines += [*([""] if self.said.lines else []), *self.said.lines]
        # To the seat's registered address (the sender's, as authenticated), never elsewhere:
        # a reply may carry a new secret. In the seat's language as it is now (a "language"
        # command's reply already speaks the new one).
        q = mails.queue_notice(self.s, self.host, to=seat.address, subj=self.reply_subject(game),
                               lines=lines, kind="reply", game=game, in_reply_to=self.mid,
                               references=self.refs, secret=reply.secret, seat=seat,
                               rules=rules)
        return _finish(self.row, reply.status, reply.reason, [q, *reply.queued])

    def authenticate(self, letter: Letter, candidates: list[Seat]) -> Seat | None:
        if self.stored and letter.secret == MARK:
            # Its secret was checked when the mail came in, then blanked: trust that check,
            # for a seat still held by this address.
            seat = next((s for s in candidates if s.index == self.row.secret_seat), None)
        else:
            seat = secret_seat(candidates, letter.secret)
        self.verified = seat.index if seat is not None else None
        return seat

    def play(self, rules: Any, game: Game, state: Any, seat: Seat, letter: Letter) -> Result:
        index = queries.next_log_index(self.s, game.id or 0)
        dry = letter.command == "check"
        # A dry run must not reveal the real chance outcomes of the next entry.
        seed = f"preview/{pysecrets.token_hex(8)}" if dry else f"{game.seed}/{index}"
        echo: list[Line] = [f"> {clip(t)}" for _, t in letter.orders[:ECHO_LINES]]
        if len(letter.orders) > ECHO_LINES:  # a 10,000-line mail gets no 10,000-line answer
            echo.append(msg("> ... ({count} more lines not shown)",
                            count=len(letter.orders) - ECHO_LINES))
        # The seat's words made English, line for line: the log keeps the canonical text, so
        # history and replay read the same in every language.
        text = canonical_order(rules, state, seat.index, letter.order_text, seat.language)
        try:
            applied, record = play(rules, state, seat.index, text, seed)
        except (OrderSyntaxError, IllegalOrder) as err:
            errors: list[Exception] = [err]
            if isinstance(err, OrderSyntaxError):  # every bad line, in one reply
                errors = list(every_syntax_error(rules, state, seat.index, text, err))
            elif isinstance(err, IllegalOrders):  # the game checked the other lines too
                errors = list(err.errors)
            return self.notice("ignored" if dry else "rejected", f"{type(err).__name__}: {err}",
                               self.error_lines(rules, state, seat, letter, errors, echo, dry),
                               game, point=self.refusal(letter, errors, dry))
        tr = self.tr
        if dry:
            names = [s.name for s in queries.seats(self.s, game.id or 0)]
            shown = [f"  - {e.render(tr, names)}" for e in applied.events
                     if e.visible(seat.index)]
            return self.notice("ignored", "dry run", [
                msg("{check}: these orders are legal. Nothing was played.",
                    check=words.word("check", tr.lang)), *echo, "",
                msg("If you send them without \"{check}\", this would happen (any chance "
                    "outcomes below are examples, not the real draws):",
                    check=words.word("check", tr.lang)),
                *(shown or ["  " + tr(msg("(nothing visible)"))]),
            ], game, point=msg("Check: orders legal"))
        # Read once for the clock and every seat's mail of this move (before the entry: the
        # entry, its snapshot and the clock's restart then go in one flush).
        seats = queries.seats(self.s, game.id or 0)
        record_move(self.s, rules, game, index=index, kind="order", seat=seat.index,
                    text=text, record=record, state=applied.state,
                    source_message_id=self.row.id)
        # The clock restarts for a new wait; resigned seats whose turn came are played for.
        settled = clock.settle(self.s, rules, game, state, applied.state, self.host.clock(),
                               seats=seats)
        applied.state = settled.state
        # The clock pass after this one need not look at the game just to find nothing due:
        # its next event goes in the flush that writes the entry (which wrote "look now"
        # there, and the event in another UPDATE at the end). Should the mails below change
        # the game, a seat or the log after all, that flush makes it "look now" again.
        clock.schedule_move(self.s, game, clock.Looked(settled.state, seats), with_entry=True)
        queued = []
        moves, since = queries.moves_and_log_since(self.s, game.id or 0,
                                                   [s.index for s in seats], MOVE_KINDS)
        public = mails.public_view(rules, applied.state)  # the board all seats see alike
        for other in seats:
            if other.id == seat.id:
                queued.append(mails.queue_status(
                    self.s, self.host, rules, game, applied.state, other, kind="reply",
                    intro=[msg("Done. Your orders were played:"), *echo, *(
                        [msg("({count} line(s) outside \"{orders}\" ... \"{end}\" were left "
                             "unread.)", count=letter.ignored,
                             orders=words.word("orders", tr.lang),
                             end=words.word("end", tr.lang))]
                        if letter.ignored else []), *self.said.lines],
                    in_reply_to=self.mid,
                    references=self.refs, point=msg("Orders accepted"), seats=seats,
                    moves=moves, public=public, log=since))
            else:
                update = mails.queue_update(self.s, self.host, rules, game, applied.state,
                                            other, mover=seat.name, seats=seats,
                                            moves=moves, public=public, log=since,
                                            talk=self.said.note(other, game)
                                            if self.said.owed(other) else ())
                if update is not None:
                    queued.append(update)
                    self.told.add(other.index)
        queued += clock.tell_autoplay(self.s, self.host, rules, game,
                                      clock.Autoplay(settled.state, failed=settled.failed),
                                      self.host.clock())
        return _finish(self.row, "applied", f"log entry {index}", queued)

    @staticmethod
    def refusal(letter: Letter, errors: list[Exception], dry: bool) -> Msg:
        """``Order refused: line 3`` (lines of the player's mail) when the game says where."""
        numbers = [str(letter.orders[line - 1][0]) for e in errors
                   if (line := getattr(e, "line", None)) is not None
                   and 1 <= line <= len(letter.orders)]
        if not numbers:
            return msg("Check: order refused") if dry else msg("Order refused")
        if dry:
            return nmsg("Check: order refused: line {lines}", "Check: order refused: lines "
                        "{lines}", len(numbers), lines=", ".join(numbers))
        return nmsg("Order refused: line {lines}", "Order refused: lines {lines}", len(numbers),
                    lines=", ".join(numbers))

    def error_lines(self, rules: Any, state: Any, seat: Seat, letter: Letter,
                    errors: list[Exception], echo: list[Line], dry: bool) -> list[Line]:
        tr = self.tr
        head = (msg("{check}: these orders would NOT be accepted.",
                    check=words.word("check", tr.lang)) if dry
                else msg("Your orders were NOT played; nothing changed."))
        lines: list[Line] = [head, *echo]
        if len(errors) > 1:
            illegal = all(isinstance(e, IllegalOrder) for e in errors)
            lines += ["", msg("{count} lines of your mail break a rule:", count=len(errors))
                      if illegal else
                      msg("{count} lines of your mail could not be read:", count=len(errors))]
        prose = False
        for err in errors:
            reason, prose_line = self.reason_lines(letter, err, tr)
            lines += ["", *reason]
            prose = prose or prose_line
        if prose:
            lines += ["", msg("That line reads like a note, not an order. To write greetings "
                              "or notes around your orders, put a line \"{orders}\" before "
                              "them and a line \"{end}\" after them: only the lines between "
                              "are read.", orders=words.word("orders", tr.lang),
                              end=words.word("end", tr.lang))]
        lines.append("")
        try:
            example = localise_order(rules, str(rules.default_order(state, seat.index)),
                                     tr.lang)
            lines.append(msg("A legal order now would be, for example: {order}",
                             order=example))
        except Exception:  # a hint is a courtesy; never let it block the reply
            log.debug("default_order failed", exc_info=True)
        lines.append(msg("Send \"{help}\" for the full list of orders.",
                         help=words.word("help", tr.lang)))
        return lines

    @staticmethod
    def reason_lines(letter: Letter, err: Exception, tr: Translator | None = None
                     ) -> tuple[list[Line], bool]:
        """One error's lines (where, why, hint, a suggestion) in ``tr``'s language, quoting
        the player's own line; and whether that line is prose."""
        tr = tr or seat_tr(None)
        line = getattr(err, "line", None)
        text = ""
        located = line is not None and 1 <= line <= len(letter.orders)
        if isinstance(err, OrderSyntaxError):
            why = tr(err.message) if located else _english_free(err, tr)
        elif isinstance(err, IllegalOrder):
            why = tr(err.message)
        else:
            why = str(err)
        if located:
            assert line is not None
            number, text = letter.orders[line - 1]
            column = getattr(err, "column", None) if isinstance(err, OrderSyntaxError) else None
            # The message is written to be followed by the quoted text, which the head shows.
            reason = clip(why.rstrip(": ") if isinstance(err, OrderSyntaxError) else why, 1000)
            head = (msg("Line {number}, column {column} of your mail (\"{text}\"): {reason}",
                        number=number, column=column, text=clip(text), reason=reason)
                    if column and column > 1 else  # column 1 adds nothing
                    msg("Line {number} of your mail (\"{text}\"): {reason}", number=number,
                        text=clip(text), reason=reason))
            lines: list[Line] = [head]
        else:
            lines = [clip(why, 1000)]
        hint = getattr(err, "hint", None)
        if hint and isinstance(err, IllegalOrder):  # never part of its message
            lines.append(msg("Suggestion: {guess}", guess=tr(hint)))
        elif hint and located:  # else the syntax message already ends with it
            lines.append(msg("Hint: {hint}", hint=tr(hint)))
        if isinstance(err, OrderSyntaxError) and located:
            guess = suggestion(err, tr(hint) if hint else "", tr(err.message), text)
            if guess:
                lines.append(msg("Suggestion: {guess}", guess=guess))
        return lines, located and not letter.marked and looks_like_prose(text)
