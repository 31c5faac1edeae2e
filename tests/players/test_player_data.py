"""A player's data on request: `pbem player export` tells all the host holds about an
address; `pbem player forget` leaves no trace of it (nor of its name) in any column of any
table or any stored mail, while its games still replay, export and import, its ratings stay
under the pseudonym, and the host never mails the address again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.mail.outbound import MaildirSender
from pbem.ops import api, player_data
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import process_raw
from pbem.store import SessionFactory, lobby
from pbem.store.tables import LobbyInvite, LobbySeat, LobbyTable, OutboundMessage, Player, Rating
from tests.processor.conftest import mail
from tests.processor.test_secrets_at_rest import every_stored_byte
from tests.support.seated import HOST, play_moves
from tests.support.testgame import GAME

ZELDA = "Zelda.Quintero@Players.test"  # as she writes it; stored lower-cased
BOB = "bob@players.test"
TRACES = (b"zelda", b"quintero")


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def _cli(config: Path, *args: str, input: str | None = None, code: int = 0) -> str:
    result = CliRunner().invoke(app, ["--config", str(config), *args], input=input)
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def config(db_url: str, tmp_path: Path) -> Path:
    path = tmp_path / "pbem.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n', "utf-8")
    return path


def a_year_of_zelda(factory: SessionFactory, tmp_path: Path) -> str:
    """Zelda plays a whole rated game by mail, writes once outside any game, opens a lobby
    table and is invited to another; every mail is sent. Returns the game's tag."""
    table, played = play_moves(factory, GAME.name, GAME, 200,
                               players=[("Zelda Quintero", ZELDA), ("Bob Marsh", BOB)])
    assert 0 < played < 200  # the game ended
    assert process_raw(factory, mail(ZELDA, "hello", "help"), HOST).status != "quarantined"
    with factory() as s:
        opened = LobbyTable(tag="zq-table", game_type=GAME.name, players=2, options_json="{}",
                            opener=ZELDA.lower())
        other = LobbyTable(tag="bob-table", game_type=GAME.name, players=2, options_json="{}",
                           opener=BOB)
        s.add(opened)
        s.add(other)
        s.flush()
        s.add(LobbySeat(table_id=opened.id or 0, address=ZELDA.lower(), name="Zelda Quintero",
                        code_salt="s", code_hash="h"))
        s.add(LobbyInvite(table_id=other.id or 0, inviter=BOB,
                          address_hash=lobby.address_hash(ZELDA)))
        s.commit()
    deliver_outbox(factory, MaildirSender(tmp_path / "out"), HOST)
    return table.tag


def test_export_tells_what_the_host_holds_about_an_address(
        factory: SessionFactory, config: Path, tmp_path: Path) -> None:
    tag = a_year_of_zelda(factory, tmp_path)
    out = tmp_path / "zelda.json"
    _cli(config, "player", "export", ZELDA, "--output", str(out))
    data = json.loads(out.read_text("utf-8"))
    assert data["format"] == "pbem-player-data" and data["address"] == ZELDA.lower()
    assert [(s["game"], s["seat"], s["name"]) for s in data["seats"]] == [
        (tag, 1, "Zelda Quintero")]
    assert data["log_entries"] and all(e["game"] == tag for e in data["log_entries"])
    assert [r["game_type"] for r in data["ratings"]] == [GAME.name]
    assert len(data["mails_received"]) == len(data["log_entries"]) + 1  # her orders, her help
    assert all("Zelda.Quintero@Players.test" in m["bytes"] for m in data["mails_received"])
    assert data["mails_sent"] and all(m["bytes"] for m in data["mails_sent"])
    assert data["lobby"] == {"seats": [{"table": "zq-table", "name": "Zelda Quintero",
                                        "joined": data["lobby"]["seats"][0]["joined"],
                                        "confirmed": None}],
                             "tables_opened": ["zq-table"]}
    assert data["never_mailed"] is False
    with factory() as s:  # her mails, not Bob's
        assert len(data["mails_sent"]) == len(s.exec(select(OutboundMessage).where(
            OutboundMessage.to_addr == ZELDA.lower())).all()) < len(
            s.exec(select(OutboundMessage)).all())


def test_forget_leaves_no_trace_and_the_games_still_verify(
        factory: SessionFactory, config: Path, tmp_path: Path) -> None:
    tag = a_year_of_zelda(factory, tmp_path)
    stored = every_stored_byte(factory).lower()
    assert all(trace in stored for trace in TRACES)  # the scan sees them before
    with factory() as s:
        ratings_before = [(r.mu, r.sigma, r.games) for r in s.exec(select(Rating))]

    refused = _cli(config, "player", "forget", ZELDA, input="n\n", code=1)
    assert "error: nothing was forgotten" in refused and "fix: answer y, or pass --yes" in refused
    assert all(trace in every_stored_byte(factory).lower() for trace in TRACES)

    said = _cli(config, "player", "forget", ZELDA, "--yes")
    assert "forgot zelda.quintero@players.test: 1 seat(s)" in said
    stored = every_stored_byte(factory).lower()
    for trace in TRACES:
        assert trace not in stored, stored[max(0, stored.find(trace) - 300):][:600]

    with factory() as s:
        game = api.get_game(s, tag)
        assert api.replay_game(s, game).entries > 2
        former = s.exec(select(Player).where(Player.name == player_data.FORMER_NAME)).one()
        assert former.address.endswith("@" + player_data.FORMER_DOMAIN)
        assert [(r.mu, r.sigma, r.games) for r in s.exec(select(Rating))] == ratings_before
        assert s.exec(select(Rating).where(Rating.player_id == former.id)).one()
        assert lobby.said_never(s, ZELDA) and lobby.said_never(s, former.address)
        assert lobby.seats_of(s, ZELDA) == []
    assert "replay ok: " in _cli(config, "game", "replay", tag)
    export = tmp_path / "game.json"
    _cli(config, "game", "export", tag, "--output", str(export))
    assert player_data.FORMER_NAME in export.read_text("utf-8")
    assert "replayed and verified" in _cli(config, "game", "import", str(export),
                                           "--tag", "after-forget")

    # She writes again: the host answers nobody at her address.
    assert process_raw(factory, mail(ZELDA, "hello again", "help"), HOST).status != \
        "quarantined"
    sent = deliver_outbox(factory, MaildirSender(tmp_path / "out2"), HOST)
    with factory() as s:
        to_her = s.exec(select(OutboundMessage).where(
            OutboundMessage.to_addr == ZELDA.lower())).all()
        assert to_her and all(m.status == "dropped" for m in to_her)
    assert not any(b"zelda" in f.read_bytes().lower()
                   for f in (tmp_path / "out2").rglob("*") if f.is_file()), sent
    again = _cli(config, "player", "forget", "someone.else@players.test", "--yes", code=1)
    assert "error: this host holds nothing about someone.else@players.test" in again
