"""Mail that cannot be handled is kept with its reason, never dropped: quarantined (in a
transaction of its own, so nothing of the failed attempt is kept with it) to be reprocessed
by the operator; its sender told once that the operator has it."""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass

from sqlmodel import Session, select

from pbem.i18n import LANGUAGES, msg, translator
from pbem.mail.addresses import deliverable
from pbem.mail.reading import IncomingMail, text_safe
from pbem.mail.redact import blank
from pbem.pipeline import outgoing as mails
from pbem.pipeline import reply_tokens
from pbem.pipeline.context import Result
from pbem.pipeline.identify import identify_game, secret_seat
from pbem.pipeline.letter import Letter, read_letter
from pbem.pipeline.reply_tokens import found_in
from pbem.pipeline.stored import (
    Arrived,
    conflict_key,
    kept_bytes,
    safe_reason,
    same_mail,
    seal,
    synthetic_message_id,
)
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem.store.faults import TransientFault, describe, is_transient
from pbem.store.tables import Game, InboundMessage, utcnow

log = logging.getLogger(__name__)


def quarantine(factory: SessionFactory, mail: Arrived | bytes, reason: str,
               inbound_id: int | None, host: Host | None = None) -> Result:
    """Keep a mail that cannot be handled, with the reason. Never touches a row that has an
    outcome already (applied, rejected...): that mail was handled, this is its duplicate.
    ``mail``: as the pipeline read it, or bytes no one has read yet (read here, once).

    The record holds nothing parsed from the message but its bounded key, so it cannot fail
    on the message's content; should it fail anyway, a last record under a digest of the
    bytes is tried. Raises :class:`TransientFault` when the database itself is failing.
    """
    reason = safe_reason(reason)
    limit = (host or Host()).limits.max_message_bytes
    arrived = mail if isinstance(mail, Arrived) else Arrived.read(mail, limit)
    raw = arrived.raw
    try:
        return _quarantine(factory, arrived, reason, inbound_id, host or Host())
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        log_fault("quarantine failed; keeping a minimal record", exc)
        first = describe(exc)
    try:
        with factory() as session:
            key = synthetic_message_id(raw)
            row = session.exec(select(InboundMessage).where(
                InboundMessage.message_id == key)).first()
            row = row or InboundMessage(message_id=key, raw=kept_bytes(raw, limit))
            row.status, row.processed_at = "quarantined", utcnow()
            row.reason = safe_reason(f"{reason} (recorded after: {first})")
            session.add(row)
            session.commit()
            return Result("quarantined", row.reason, row.id)
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        # Not in the database, but not lost: the inbox moves it to its failed folder.
        log_fault("message could not be recorded; left in the failed folder", exc)
        return Result("quarantined", f"{reason} (not recorded: {describe(exc)})")


def _quarantine(factory: SessionFactory, arrived: Arrived, reason: str,
                inbound_id: int | None, host: Host) -> Result:
    limit = host.limits.max_message_bytes
    raw = arrived.raw
    with factory() as session:
        row = session.get(InboundMessage, inbound_id) if inbound_id is not None else None
        if row is None:
            key = arrived.key
            row = session.exec(
                select(InboundMessage).where(InboundMessage.message_id == key)).first()
            if row is not None and not same_mail(row, raw):
                key = conflict_key(raw)  # another mail under this id: keep this one apart
                row = session.exec(
                    select(InboundMessage).where(InboundMessage.message_id == key)).first()
            if row is None:
                tokens = found_in(host, arrived.raw).tokens  # its reply address's: never kept
                seen = _verdict(session, arrived.mail, host, tokens)
                row = InboundMessage(message_id=key, from_addr=seen.sender,
                                     subject=seen.subject, game_id=seen.game_id)
                seal(row, raw, seen.seat, seen.secret, limit=limit,  # its bytes, blanked
                     also=tokens)
        if row.id is not None and row.status != "quarantined":
            return Result("duplicate", f"already {row.status}", row.id)
        row.status = "quarantined"
        row.reason = blank(reason)
        row.processed_at = utcnow()
        session.add(row)
        session.commit()
        return Result("quarantined", reason, row.id)


@dataclass
class _Verdict:
    """What a mail quarantined before it was read shows of itself, for the operator."""

    seat: int | None = None  # the seat whose secret it carries
    secret: str | None = None  # the secret as written (to blank it)
    sender: str = ""
    subject: str = ""  # its secret blanked
    game_id: int | None = None


def _verdict(session: Session, mail: IncomingMail | None, host: Host,
             tokens: tuple[str, ...]) -> _Verdict:
    """Who sent a mail quarantined before it was read, what it is about, whose secret (or
    reply address: ``tokens``) it carries: the quarantine row names its sender and subject,
    never just bytes. (None: a mail that could not be read: only the blanking of its bytes
    applies.)"""
    found = _Verdict()
    if mail is None:
        return found
    try:
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
        held = queries.seat_by_address(session, game.id or 0, mail.from_addr)
        seat = secret_seat(held, letter.secret) or (
            reply_tokens.check(host, game, held, tokens).seat if tokens else None)
        found.seat = seat.index if seat is not None else None
    except Exception:  # a courtesy for a later reprocess; quarantining must go on
        log.debug("no verdict for a quarantined mail", exc_info=True)
    return found


def log_fault(what: str, exc: BaseException) -> None:
    """One line for the operator's log; the traceback only at debug level."""
    log.error("%s: %s", what, fault_reason(exc))
    log.debug("%s", what, exc_info=exc)


def unrecorded(factory: SessionFactory, arrived: Arrived) -> bool:
    """Whether no row holds the mail's Message-ID (False when that cannot be told)."""
    try:
        return not recorded(factory, arrived)
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        return False  # unknown: better no answer than a second one


def answer_fault(factory: SessionFactory, arrived: Arrived, host: Host) -> None:
    """Tell the sender of a mail the host failed on that the operator has it: in the language
    of the sender's seat (else the game's, else their client's), with a fixed subject, limited
    like every answer to unproven mail. A robot, or a mail that could not be read, is never
    answered; a failure here is logged."""
    mail = arrived.mail
    if mail is None:
        log.error("the sender of a failed mail could not be told: the mail cannot be read")
        return
    try:
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
            mid = arrived.message_id
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
        log_fault("the sender of a failed mail could not be told", exc)


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


def recorded(factory: SessionFactory, arrived: Arrived) -> bool:
    """Whether a row holds the mail's Message-ID."""
    mid = arrived.key
    with factory() as session:
        q = select(InboundMessage.id).where(InboundMessage.message_id == mid)
        return session.exec(q).first() is not None


def fault_reason(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {tb[-1].filename}:{tb[-1].lineno})" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"

