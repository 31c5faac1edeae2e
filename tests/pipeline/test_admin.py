"""Operator actions on a running game: each is logged, mailed, and checked by replay."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.ops import admin, api, exchange
from pbem.ops.hostkey import HostKey
from pbem.pipeline import history
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import LogEntry, OutboundMessage, SessionFactory
from pbem.store.tables import InboundMessage
from tests.pipeline.conftest import ALICE, BOB, Table, hand, queued
from tests.support.playermail import mail

CAROL = "carol@players.test"


def play(factory: SessionFactory, host: Host, table: Table, who: str, seat: int,
         secret: str | None = None) -> str:
    """Send ``who``'s lowest card by mail; returns the result status."""
    card = hand(factory, table, seat)[0]
    raw = mail(who, f"Re: [{table.tag}] Test Cards",
               f"play {card}\nsecret {secret or table.secrets[seat]}")
    return process_raw(factory, raw, host).status


def entries(factory: SessionFactory, table: Table) -> list[tuple[str, int | None, str]]:
    with factory() as s:
        return [(e.kind, e.seat, e.text) for e in api.game_log(s, api.get_game(s, table.tag))]


def replay_ok(factory: SessionFactory, table: Table) -> int:
    with factory() as s:
        return api.replay_game(s, api.get_game(s, table.tag)).entries


def act(factory: SessionFactory, host: Host, table: Table, fn: str, *args: object) -> object:
    with factory() as s:
        out = getattr(admin, fn)(s, host, api.get_game(s, table.tag), *args)
        s.commit()
        return out


def clear_outbox(factory: SessionFactory) -> None:
    with factory() as s:
        for row in s.exec(select(OutboundMessage)):
            s.delete(row)
        s.commit()


def test_takeover_mails_newcomer_a_secret_and_tells_the_old_address(
        factory: SessionFactory, host: Host, table: Table) -> None:
    assert play(factory, host, table, ALICE, 0) == "applied"
    clear_outbox(factory)
    secret = act(factory, host, table, "takeover", 1, "Carol", CAROL)
    assert isinstance(secret, str)
    sent = queued(factory)
    assert [to for to, _ in sent] == [CAROL, BOB]
    assert f"Your secret is: {secret}" in sent[0][1]
    assert "You take over the seat of Bob." in sent[0][1]
    assert "It is your turn." in sent[0][1]
    assert "Carol has taken over your seat" in sent[1][1]
    assert entries(factory, table)[-1] == ("admin", 1, "takeover seat 2: Bob → Carol")
    # Bob's old secret and address no longer play; Carol's do.
    assert play(factory, host, table, BOB, 1) == "rejected"
    assert play(factory, host, table, CAROL, 1, secret) == "applied"
    assert replay_ok(factory, table) == 3


def test_undo_revokes_the_last_turn_and_replay_verifies_it(
        factory: SessionFactory, host: Host, table: Table) -> None:
    first = hand(factory, table, 0)
    assert play(factory, host, table, ALICE, 0) == "applied"
    clear_outbox(factory)
    assert act(factory, host, table, "undo") == [1]
    assert hand(factory, table, 0) == first  # the card is back in Alice's hand
    kinds = entries(factory, table)
    assert kinds[-1][0] == "admin" and kinds[-1][2].startswith("undo 1 (the last turn: Alice)")
    sent = queued(factory)
    assert [to for to, _ in sent] == [ALICE, BOB]
    assert all("The game's host undid the last turn (Alice: log #1)" in t for _, t in sent)
    assert "It is your turn." in sent[0][1]
    assert replay_ok(factory, table) == 2
    # The game goes on from the undone state, and a second undo takes back the new move.
    assert play(factory, host, table, ALICE, 0) == "applied"
    assert act(factory, host, table, "undo") == [3]
    assert replay_ok(factory, table) == 4
    with factory() as s:
        assert history.revoked(api.game_log(s, api.get_game(s, table.tag))) == {1: 2, 3: 4}


def test_nothing_to_undo(factory: SessionFactory, host: Host, table: Table) -> None:
    with pytest.raises(admin.AdminError, match="nothing to undo in testcards-1: no move"):
        act(factory, host, table, "undo")


def test_undo_of_the_final_move_reopens_the_game(factory: SessionFactory, host: Host,
                                                 table: Table) -> None:
    for _ in range(2):
        assert play(factory, host, table, ALICE, 0) == "applied"
        assert play(factory, host, table, BOB, 1) == "applied"
    with factory() as s:
        assert api.get_game(s, table.tag).status == "finished"
    act(factory, host, table, "undo")
    with factory() as s:
        assert api.get_game(s, table.tag).status == "active"
    assert play(factory, host, table, BOB, 1) == "applied"
    assert replay_ok(factory, table) == 6


def test_replay_catches_a_tampered_undo(factory: SessionFactory, host: Host,
                                        table: Table) -> None:
    assert play(factory, host, table, ALICE, 0) == "applied"
    assert play(factory, host, table, BOB, 1) == "applied"
    act(factory, host, table, "undo")
    with factory() as s:  # someone edits the undo to revoke the older move instead
        row = s.exec(select(LogEntry).where(LogEntry.kind == "admin")).one()
        row.text = "undo 1"
        s.add(row)
        s.commit()
    with factory() as s, pytest.raises(history.BadAdminEntry,
                                       match="undo may only revoke the newest live moves"):
        api.replay_game(s, api.get_game(s, table.tag))


def test_force_plays_for_a_seat_and_says_so(factory: SessionFactory, host: Host,
                                            table: Table) -> None:
    card = hand(factory, table, 1)[-1]
    act(factory, host, table, "force", 1, f"play {card}")
    assert entries(factory, table)[-1] == ("forced", 1, f"play {card}")
    sent = dict(queued(factory))
    assert "The game's host entered orders for Bob." in sent[ALICE]
    assert f"The orders entered for you: play {card}" in sent[BOB]
    assert "The orders entered for you" not in sent[ALICE]
    with pytest.raises(admin.AdminError, match=r"it is not the turn of seat 2 \(Bob\)"):
        act(factory, host, table, "force", 1, "play 1")
    with pytest.raises(admin.AdminError, match="the orders were not played: you have no card"):
        act(factory, host, table, "force", 0, "play 99")
    assert replay_ok(factory, table) == 1


def test_paused_game_refuses_orders_politely_and_keeps_the_mail(
        factory: SessionFactory, host: Host, table: Table) -> None:
    act(factory, host, table, "pause", "a rules question")
    sent = queued(factory)
    assert all("The game's host has paused [testcards-1]: a rules question." in t
               for _, t in sent)
    clear_outbox(factory)
    assert play(factory, host, table, ALICE, 0) == "rejected"
    [(to, text)] = queued(factory)
    assert to == ALICE
    assert f"Game [{table.tag}] is paused by its host, so your orders were not played." in text
    assert "Your mail is kept." in text
    with factory() as s:
        kept = s.exec(select(InboundMessage).order_by(col(InboundMessage.id).desc())).first()
        assert kept is not None and kept.reason == "game paused" and b"play" in kept.raw
    with pytest.raises(admin.AdminError, match="is paused; cannot pause it"):
        act(factory, host, table, "pause")
    clear_outbox(factory)
    act(factory, host, table, "resume")
    assert all("goes on: the game's host has resumed it" in t for _, t in queued(factory))
    assert play(factory, host, table, ALICE, 0) == "applied"
    assert [k for k, _, _ in entries(factory, table)] == ["setup", "admin", "admin", "order"]
    assert replay_ok(factory, table) == 3


def test_drop_plays_the_default_for_the_seat_when_due(factory: SessionFactory, host: Host,
                                                       table: Table) -> None:
    low = hand(factory, table, 1)[0]
    act(factory, host, table, "drop", 1)
    log = entries(factory, table)
    assert log[1] == ("admin", 1, "drop seat 2: Bob")
    assert log[2] == ("timeout", 1, f"play {low}")  # Bob's turn: his default played at once
    assert any("The game's host has dropped you" in t for to, t in queued(factory) if to == BOB)
    with pytest.raises(admin.AdminError, match=r"seat 2 \(Bob\) is already dropped"):
        act(factory, host, table, "drop", 1)
    assert replay_ok(factory, table) == 2


def test_archive_and_abandon(factory: SessionFactory, host: Host, table: Table) -> None:
    with pytest.raises(admin.AdminError,
                       match="is not finished; `pbem game abandon testcards-1` ends it"):
        act(factory, host, table, "archive")
    with factory() as s:
        admin.archive(s, host, api.get_game(s, table.tag), abandon=True)
        s.commit()
    assert all("abandoned [testcards-1]" in t for _, t in queued(factory))
    assert play(factory, host, table, ALICE, 0) == "rejected"
    assert "is archived; it takes no orders now" in queued(factory)[-1][1]
    assert entries(factory, table)[-1] == ("admin", None, "abandon")
    assert replay_ok(factory, table) == 1


def test_export_import_round_trip_and_tampering(factory: SessionFactory, host: Host,
                                                table: Table) -> None:
    assert play(factory, host, table, ALICE, 0) == "applied"
    act(factory, host, table, "takeover", 1, "Carol", CAROL)
    assert play(factory, host, table, ALICE, 0) == "rejected"  # not Alice's turn
    act(factory, host, table, "undo")
    key = HostKey(b"k" * 32)
    with factory() as s:
        data = exchange.export_json(s, api.get_game(s, table.tag), key=key)
        text = exchange.export_text(s, api.get_game(s, table.tag))
    assert "#1 " in text and "order Alice" in text and "(undone by #3)" in text
    assert "[to Alice only]" in text
    with factory() as s:
        game, secrets = exchange.import_game(s, json.loads(json.dumps(data)), key=key,
                                             host=host)
        s.commit()
        assert game.tag == f"testcards-{game.id}"  # the original tag is taken on this host
        copy = Table(game.id or 0, game.tag, secrets)
    assert replay_ok(factory, copy) == 3
    assert hand(factory, copy, 0) == hand(factory, table, 0)
    assert play(factory, host, copy, ALICE, 0) == "applied"  # the copy goes on

    def refused(edited: dict[str, Any], says: str, trust_foreign: bool = False) -> None:
        with factory() as s, pytest.raises(exchange.ImportRefused, match=says):
            exchange.import_game(s, edited, key=key, trust_foreign=trust_foreign)

    def rechecksummed(edited: dict[str, Any]) -> dict[str, Any]:
        edited["checksum"] = exchange._checksum(exchange._body(edited))
        return edited

    edited = json.loads(json.dumps(data))
    edited["log"][1]["text"] = "play 999"
    refused(edited, "checksum does not match its content")
    # With its checksum recomputed, the host's signature no longer matches.
    refused(rechecksummed(edited), "signature does not match its content: it was made on "
            "this host and edited since")
    # Passed off as another host's and trusted, an edited log still fails its replay.
    edited["host"] = "0123456789abcdef"
    refused(rechecksummed(edited), "cannot be replayed: you have no card 999",
            trust_foreign=True)
    edited = json.loads(json.dumps(data))
    edited["log"][1]["state_hash"] = "0" * 64
    edited["host"] = "0123456789abcdef"
    refused(rechecksummed(edited), "replay of the export failed at entry 1: recorded "
            "hash 000000000000…", trust_foreign=True)
    with factory() as s:
        assert len(api.list_games(s)) == 2  # nothing was written by the refused imports
    refused({"hello": 1}, "not a pbem game export")


def test_after_a_timeout_pause_takeover_and_resume_restart_the_clock(
        factory: SessionFactory) -> None:
    from pbem.pipeline.clock import run_clocks
    from tests.pipeline.clocked import FakeClock, clocked_host, log_kinds, new_game

    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=48, timeout_policy="pause")
    assert play(factory, host, table, ALICE, 0) == "applied"
    clock.at(hours=48)
    assert run_clocks(factory, host).paused == [table.tag]  # Bob never answered
    clock.at(hours=60)
    act(factory, host, table, "takeover", 1, "Carol", CAROL)
    act(factory, host, table, "resume")
    with factory() as s:
        game = api.get_game(s, table.tag)
        assert game.status == "active"
        assert game.turn_started_at is not None
        started = game.turn_started_at.replace(tzinfo=None)
    assert started == clock.now.replace(tzinfo=None)
    # Carol has a whole deadline from the resume: no timeout 47 hours later, one at 48.
    clock.at(hours=60 + 47)
    assert run_clocks(factory, host).paused == []
    clock.at(hours=60 + 48)
    assert run_clocks(factory, host).paused == [table.tag]
    assert log_kinds(factory, table) == [("setup", None), ("order", 0), ("admin", 1),
                                         ("admin", None)]
    assert replay_ok(factory, table) == 3
