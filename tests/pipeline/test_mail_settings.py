"""Each seat's ``mail`` setting over a whole bot game, counted mail by mail."""

from __future__ import annotations

import email
import random
from datetime import timedelta
from email import policy
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.pipeline.digest import send_digests
from pbem.store import OutboundMessage, SessionFactory
from tests.support.seated import ANN, BEN, CY, HOST, seat_table

ADDRESSES = [ANN, BEN, CY]


def outbox(factory: SessionFactory, after: int = 0) -> list[tuple[str, str, EmailMessage]]:
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id) > after)
                      .order_by(col(OutboundMessage.id))).all()
        out = []
        for r in rows:
            msg = email.message_from_bytes(r.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append((r.to_addr, r.kind, msg))
        return out


def last_id(factory: SessionFactory) -> int:
    with factory() as s:
        ids = s.exec(select(OutboundMessage.id).order_by(col(OutboundMessage.id).desc())).first()
        return ids or 0


# A whole game by mail: a long run (CI runs it in its slow step).
@pytest.mark.slow
def test_every_turn_and_digest_over_a_whole_game(factory: SessionFactory) -> None:
    table = seat_table(factory, "reef2018", players=3)
    for seat, mode in enumerate(("every", "turn", "digest")):
        result, reply = table.send(seat, f"mail {mode}")
        assert result.status == "applied", result.reason
        assert f"is now \"mail {mode}\"" in reply
    start = last_id(factory)
    rng = random.Random(13)
    expected = {a: {"full": 0, "note": 0} for a in ADDRESSES}
    moves = 0
    while (waiting := table.rules.waiting_for(state := table.state())):
        mover = min(waiting)
        result, _ = table.send(mover, table.rules.random_order(state, mover, rng))
        assert result.status == "applied", result.reason
        moves += 1
        after = table.state()
        over = table.rules.outcome(after) is not None
        now_waiting = table.rules.waiting_for(after)
        # An answer to a step the others still owe (the setup) mails its sender only.
        shared = (len(waiting) > 1 and bool(now_waiting) and not over
                  and table.rules.view(after, None).get("turn")
                  == table.rules.view(state, None).get("turn"))
        for seat, address in enumerate(ADDRESSES):
            mode = ("every", "turn", "digest")[seat]
            if shared and seat != mover:
                continue
            if seat == mover or mode == "every" or seat in now_waiting or over:
                expected[address]["full"] += 1
            elif mode == "turn":
                expected[address]["note"] += 1
    got = {a: {"full": 0, "note": 0} for a in ADDRESSES}
    for to, kind, msg in outbox(factory, start):
        full = msg.get_body(("html",)) is not None
        got[to]["full" if full else "note"] += 1
        if to == CY:  # digest: only its own replies, its moves and the end are mailed
            text = str(msg.get_body(("plain",)).get_content())  # type: ignore[union-attr]
            assert ("It is your turn." in text or "Orders accepted" in msg["Subject"]
                    or "Game over" in msg["Subject"]), msg["Subject"]
        if to == BEN and not full:
            assert str(msg["Subject"]).endswith("moved") and kind == "status"
    assert got == expected
    # every: one full status per move (but for the others' setup answers)
    assert moves - 2 <= got[ANN]["full"] <= moves
    assert got[BEN]["full"] < moves and got[BEN]["note"] > 0
    assert got[CY]["full"] < got[BEN]["full"] + got[BEN]["note"]
    # The day's digest gathers what Cy was not mailed; a second pass the same day sends none.
    now = HOST.clock() + timedelta(days=1, minutes=1)
    before = last_id(factory)
    assert send_digests(factory, HOST, now) == 1
    [(to, kind, digest)] = outbox(factory, before)
    assert (to, kind) == (CY, "digest")
    assert str(digest["Subject"]).startswith(f"[{table.tag}] Daily digest — Turn ")
    assert "what happened since your last digest" in str(digest.get_body(("plain",))
                                                          .get_content())  # type: ignore[union-attr]
    assert send_digests(factory, HOST, now + timedelta(hours=1)) == 0


def test_a_mail_setting_is_shown_in_every_status_and_a_bad_one_explained(
        factory: SessionFactory) -> None:
    table = seat_table(factory, "reef2018", players=2)
    result, reply = table.send(0, "mail sometimes")
    assert result.status == "rejected"
    assert "\"mail sometimes\" is not understood. Write one of:" in reply
    assert "  mail turn    a full status when it is your move" in reply
    assert "Your setting stays \"mail every\"." in reply
    table.send(1, "mail turn")
    _, status = table.send(1, "status")
    assert ('Your mail setting: mail turn. Others: "mail every" or "mail digest" (see "help").'
            in status)
