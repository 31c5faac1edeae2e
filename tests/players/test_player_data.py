"""A player's data on request: `pbem player export` tells all the host holds about an
address; `pbem player forget` leaves no trace of it (nor of its name) in any column of any
table or any stored mail, while its games still replay, export and import, its ratings stay
under the pseudonym, and the host never mails the address again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.mail.outbound import MaildirSender
from pbem.ops import admin, api, player_data
from pbem.ops.bots import Mail
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import SessionFactory, lobby, players
from pbem.store.tables import (
    LobbyInvite,
    LobbySeat,
    LobbyTable,
    OutboundMessage,
    Player,
    Rating,
    Seat,
)
from tests.pipeline.test_secrets_at_rest import every_stored_byte
from tests.support.playermail import mail
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


OPERATOR = "ops@host.test"


def _ask(factory: SessionFactory, host: Host, tag: str, secret: str) -> tuple[str, str]:
    """Zelda mails "forget" with ``secret``: the inbound status, and the text of every mail
    it queued, by recipient."""
    done = process_raw(factory, mail(ZELDA, f"Re: [{tag}]", f"forget\nsecret {secret}"), host)
    texts = {}
    with factory() as s:
        for q in done.queued:
            row = s.get(OutboundMessage, q)
            assert row is not None
            texts[row.to_addr] = Mail("", row.raw).text
    return done.status, json.dumps(texts)


def _zelda_at_a_table(factory: SessionFactory, host: Host) -> tuple[str, list[str]]:
    with factory() as s:
        game, secrets = api.create_game(s, GAME.name, [("Zelda Quintero", ZELDA),
                                                       ("Bob Marsh", BOB)], host=host)
        s.commit()
        return game.tag, secrets


def _asked_at(factory: SessionFactory) -> object:
    with factory() as s:
        player = players.find(s, ZELDA)
        return None if player is None else player.forget_asked_at


def test_a_player_asks_by_mail_and_the_operator_confirms(factory: SessionFactory) -> None:
    host = replace(HOST, mail=replace(HOST.mail, operator_address=OPERATOR))
    tag, secrets = _zelda_at_a_table(factory, host)
    status, _ = _ask(factory, host, tag, "not-her-secret")
    assert status != "applied" and _asked_at(factory) is None  # no proof, no request

    status, texts = _ask(factory, host, tag, secrets[0])
    assert status == "applied" and _asked_at(factory) is not None
    told = json.loads(texts)
    assert ("Your request to be forgotten is noted, and the host's operator told. Once they "
            "confirm it, the host removes your address and name") in told[ZELDA.lower()]
    assert (f"zelda.quintero@players.test (seat 1 of [{tag}]) asked by mail, with the seat's "
            "secret, to be forgotten") in told[OPERATOR]
    assert "To confirm: pbem player forget zelda.quintero@players.test" in told[OPERATOR]
    with factory() as s:  # the operator's word is still to come, even once the game is over
        admin.archive(s, host, api.get_game(s, tag), abandon=True)
        s.commit()
        assert player_data.asked(s)[0].address == ZELDA.lower()
        assert s.exec(select(Seat.address).where(Seat.index == 0)).one() == ZELDA.lower()
    status, texts = _ask(factory, host, tag, secrets[0])
    assert OPERATOR not in json.loads(texts)  # asked twice: the operator is told once


def test_with_after_games_the_host_forgets_them_once_their_games_end(
        factory: SessionFactory, tmp_path: Path) -> None:
    host = replace(HOST, mail=replace(HOST.mail, operator_address=OPERATOR),
                   retention=replace(HOST.retention, forget_by_mail="after_games"))
    tag, secrets = _zelda_at_a_table(factory, host)
    status, texts = _ask(factory, host, tag, secrets[0])
    assert status == "applied"
    told = json.loads(texts)
    assert "Once your games have ended, the host removes your address and name" in \
        told[ZELDA.lower()]
    assert "forgets them by itself once all their games have ended" in told[OPERATOR]
    with factory() as s:
        assert player_data.forget_after_games(s) == []  # her game goes on
        admin.archive(s, host, api.get_game(s, tag), abandon=True)
        s.commit()
    with factory() as s:
        gone = player_data.forget_after_games(s)
        s.commit()
    assert [g.address for g in gone] == [ZELDA.lower()]
    # Bob's welcome and the abandon notice name her: still unsent, they go out as they are
    # and lose their bytes as they are sent.
    assert any(t in every_stored_byte(factory).lower() for t in TRACES)
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out"), host).sent >= 2
    assert any(b"zelda" in f.read_bytes().lower() for f in (tmp_path / "out").rglob("*")
               if f.is_file())
    assert not any(t in every_stored_byte(factory).lower() for t in TRACES)
    with factory() as s:
        assert player_data.forget_after_games(s) == [] and player_data.asked(s) == []
        assert api.replay_game(s, api.get_game(s, tag)).entries >= 1  # its abandon
