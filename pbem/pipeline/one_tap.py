"""One-tap orders: where a turn's legal orders are few, the seat's HTML status offers each as a
``mailto:`` link to the seat's reply address (pbem.pipeline.reply_tokens), the subject kept
and the order written in, so playing is a tap and a send."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from pbem.engine.contract import GameRules, Seat, localise_order
from pbem.mail.compose import clean_header
from pbem.pipeline.reply_tokens import ReplyAddress
from pbem.store.tables import Seat as SeatRow

ONE_TAP_MAX = 8
"""More choices than this are no tap's work: the mail offers none."""


def one_tap_orders(game: GameRules, state: Any, seat: Seat, lang: str = "en") -> list[str]:
    """The orders ``seat`` may give now with one tap, in ``lang``'s words (see
    :meth:`Game.one_tap_orders`): none when it is not the seat's turn, when there are more
    than :data:`ONE_TAP_MAX`, or when the game's hook fails (a courtesy never stops a mail)."""
    if seat not in game.waiting_for(state):
        return []
    try:
        orders = [str(o).strip() for o in game.one_tap_orders(state, seat)]
        return [localise_order(game, o, lang) for o in orders if o] \
            if len(orders) <= ONE_TAP_MAX else []
    except Exception:
        return []


def one_tap_links(rules: GameRules, state: Any, seat: SeatRow, lang: str, reply_to: ReplyAddress,
                  subj: str) -> list[tuple[str, str]]:
    """The seat's one-tap orders (:func:`one_tap_orders`), each with the
    ``mailto:`` link that opens a reply to its reply address, the subject kept (its tag
    names the game) and the order as the body."""
    if rules.outcome(state) is not None:
        return []
    reply_subject = quote(clean_header(f"Re: {subj}", 250), safe="")
    return [(order, f"mailto:{reply_to.address}?subject={reply_subject}"
                    f"&body={quote(order, safe='')}")
            for order in one_tap_orders(rules, state, seat.index, lang)]

