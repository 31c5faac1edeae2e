"""Which game a mail is for, and which seat its secret proves."""

from __future__ import annotations

from sqlmodel import Session

from pbem.pipeline.letter import Letter
from pbem.pipeline.seat_secrets import check_secret
from pbem.pipeline.tags import TAG_RE
from pbem.store import queries
from pbem.store.tables import Game, Seat

SECRET_MAX = 200  # a secret is 22 characters: a longer one is wrong without hashing it


def identify_game(session: Session, subject: str, letter: Letter, *,
                  lock: bool = False) -> Game | None:
    """The game a mail is for: a known [tag] in its subject, else its "game" line;
    ``lock``: locked too (:func:`pbem.store.queries.lock_game`)."""
    for tag in TAG_RE.findall(subject):
        game = queries.game_by_tag(session, tag, lock=lock)
        if game is not None:
            return game
    if letter.game_tag:
        return queries.game_by_tag(session, letter.game_tag.strip("[]"), lock=lock)
    return None


def secret_seat(candidates: list[Seat], secret: str | None) -> Seat | None:
    """The seat among ``candidates`` (one address may hold several) whose secret this is."""
    if secret is None or len(secret) > SECRET_MAX:
        return None
    return next((seat for seat in candidates
                 if check_secret(secret, seat.secret_salt, seat.secret_hash)), None)
