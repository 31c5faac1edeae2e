"""Who chooses a seat's orders: its player by mail, or the host's bot (``Seat.controller``).

- ``human``: the player, by mail.
- ``bot:<level>``: a computer seat from the start (``pbem game new --seat bot``): no address,
  no secret, no mail; the host plays it in the pass that makes it the seat to move.
- ``stand-in:<level>``: a bot playing for a player who sent nothing by a deadline (or
  resigned, or was dropped) in a game whose timeout policy is ``bot``. The player still gets
  the game's mail and takes the seat back by mailing ``back`` (pbem.pipeline.commands.back);
  an operator's ``seat takeover`` gives it to a new player.

Levels are the engine's (:data:`pbem.engine.contract.BOT_LEVELS`); the bot's order comes from
:func:`pbem.engine.contract.bot_order` only.
"""

from __future__ import annotations

from pbem.engine.contract import BOT_LEVELS
from pbem.store.tables import Seat

HUMAN = "human"
BOT = "bot"
STAND_IN = "stand-in"
DEFAULT_LEVEL = "normal"
# A bot seat's stored secret: a scheme no secret checks against (pbem.pipeline.seat_secrets).
NO_SECRET = "bot$"


def controller(kind: str, level: str = DEFAULT_LEVEL) -> str:
    """The stored form: ``bot:strong``, ``stand-in:normal``."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
    return f"{kind}:{level}"


def checked(stored: str) -> str:
    """``stored`` if it is a controller this host knows (e.g. read from an export), else
    ValueError."""
    if stored == HUMAN:
        return stored
    kind, _, level = stored.partition(":")
    if kind not in (BOT, STAND_IN):
        raise ValueError(f"unknown seat controller {stored!r}")
    return controller(kind, level)


def is_bot_seat_controller(stored: str) -> bool:
    return stored.partition(":")[0] == BOT


def _parts(seat: Seat) -> tuple[str, str]:
    kind, _, level = (seat.controller or HUMAN).partition(":")
    return kind, level or DEFAULT_LEVEL


def bot_level(seat: Seat) -> str | None:
    """The level the host's bot plays ``seat`` at; None when its player does."""
    kind, level = _parts(seat)
    return level if kind in (BOT, STAND_IN) else None


def is_bot_seat(seat: Seat) -> bool:
    """A computer seat from the start: it has no player, so nothing is mailed to it."""
    return _parts(seat)[0] == BOT


def stands_in(seat: Seat) -> bool:
    """A bot plays for the seat's player, who may come back."""
    return _parts(seat)[0] == STAND_IN


def bot_seat_level(text: str) -> str | None:
    """The level a ``--seat`` of ``bot`` or ``bot:<level>`` asks for; None for a person."""
    kind, sep, level = text.strip().partition(":")
    if kind.strip().lower() != BOT:
        return None
    level = level.strip().lower() if sep else DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        raise ValueError(f"seat {text.strip()!r}: unknown bot level {level!r}; write bot or "
                         f"bot:<level> with one of {', '.join(BOT_LEVELS)}")
    return level


def bot_name(index: int, level: str) -> str:
    """A bot seat's name as players read it: ``Bot 2``, ``Bot 3 (strong)``."""
    return f"Bot {index + 1}" + ("" if level == DEFAULT_LEVEL else f" ({level})")
