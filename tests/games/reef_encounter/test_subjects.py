"""Reef Encounter through the real pipeline: the others' subjects name who moved."""

from __future__ import annotations

import email
from email import policy

from pbem.games.reef_encounter import GAME
from pbem.pipeline.history import MOVE_KINDS
from pbem.store import SessionFactory, queries
from pbem.store.tables import OutboundMessage
from tests.games.reef_encounter.mailtable import ANN, BEN, CY, seat_table


def test_others_read_who_moved_and_the_next_mover_reads_your_move(
        factory: SessionFactory) -> None:
    table = seat_table(factory, players=3)
    while len(GAME.waiting_for(state := table.state())) > 1:  # the simultaneous setup step
        seat = min(GAME.waiting_for(state))
        assert table.send(seat, GAME.default_order(state, seat))[0].status == "applied"
    # The turn the status bodies show ("Turn 2: ... is to move"), not the log's count of
    # entries, which holds the setup answers too.
    turn = GAME.view(state, None)["turn"] + 1
    with factory() as s:
        assert queries.moves_made(s, table.game_id, MOVE_KINDS) + 1 != turn
    [mover] = GAME.waiting_for(state)
    result, _ = table.send(mover, GAME.default_order(state, mover))
    assert result.status == "applied", result.reason
    nxt = GAME.waiting_for(table.state())
    now = GAME.view(table.state(), None)["turn"] + 1  # every mail names the turn now played
    names = {ANN: "Ann", BEN: "Ben", CY: "Cy"}
    movers_address = [ANN, BEN, CY][mover]
    with factory() as s:
        subjects = {}
        for q in result.queued:
            row = s.get(OutboundMessage, q)
            assert row is not None
            msg = email.message_from_bytes(row.raw, policy=policy.default)
            subjects[row.to_addr] = str(msg["Subject"])
    for address, subject in subjects.items():
        seat = [ANN, BEN, CY].index(address)
        if address == movers_address:
            expected = f"[{table.tag}] Orders accepted"
            if seat in nxt:
                expected = f"[{table.tag}] Turn {now} — your move"
        elif seat in nxt:
            expected = f"[{table.tag}] Turn {now} — your move"
        else:
            expected = f"[{table.tag}] Turn {now} — {names[movers_address]} moved"
        assert subject == expected
    assert any(s.endswith("moved") for s in subjects.values())
