"""Bot seats and bots standing in for absent players: the host plays them in the pass that
makes them the seat to move (bounded per pass), logs their orders like any order (replay
checks them), mails them nothing, and every status mail says which seats a bot plays."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.pipeline import controllers
from pbem.pipeline.clock import run_clocks
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.config import Bots, MailConfig
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from pbem.store.tables import LogEntry, Seat
from tests.pipeline.clocked import FakeClock, clocked_host, flat
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail

HOST = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))


def bot_table(factory: SessionFactory, host: Host, bots: dict[int, str], players: int = 3,
              rounds: int = 2, **clocks: object) -> Table:
    seats = [("Alice", ALICE), ("Bob", BOB), ("", ""), ("", "")][:players]
    seats = [(controllers.bot_name(i, bots[i]), "") if i in bots else s
             for i, s in enumerate(seats)]
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", seats, seed="bots", host=host,
                                        options={"rounds": rounds},
                                        bots=bots, now=host.clock(),
                                        clocks=ClockSettings(**clocks))  # type: ignore[arg-type]
        s.commit()
        assert game.id is not None
        return Table(game.id, game.tag, secrets)


def entries(factory: SessionFactory, table: Table) -> list[LogEntry]:
    with factory() as s:
        return list(s.exec(select(LogEntry).where(LogEntry.game_id == table.game_id)
                           .order_by(col(LogEntry.index))))


def all_outbound(factory: SessionFactory) -> list[OutboundMessage]:
    with factory() as s:
        return list(s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))))


def text_of(row: OutboundMessage) -> str:
    parsed = email.message_from_bytes(row.raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    body = parsed.get_body(("plain",))
    assert body is not None
    return flat(str(body.get_content()))


def send(factory: SessionFactory, host: Host, table: Table, seat: int, body: str) -> Result:
    return process_raw(factory, mail((ALICE, BOB)[seat], f"Re: [{table.tag}]",
                                     f"{body}\nsecret {table.secrets[seat]}"), host)


def queued(factory: SessionFactory, result: Result) -> dict[str, str]:
    """The flattened text of each mail a result queued, by recipient."""
    out: dict[str, str] = {}
    with factory() as s:
        for q in result.queued:
            row = s.get(OutboundMessage, q)
            assert row is not None
            out[row.to_addr] = (out.get(row.to_addr, "") + " " + text_of(row)).strip()
    return out


def play(factory: SessionFactory, table: Table, seat: int, host: Host = HOST) -> None:
    result = send(factory, host, table, seat, f"play {hand(factory, table, seat)[0]}")
    assert result.status == "applied", result.reason


def test_a_bot_seat_plays_at_once_gets_no_mail_and_is_named_in_every_status(
        factory: SessionFactory) -> None:
    table = bot_table(factory, HOST, {2: "normal"})
    log = entries(factory, table)
    # The game waits for every seat at once: the bot played in the pass that created it.
    assert [(e.kind, e.seat) for e in log] == [("setup", None), ("bot", 2)]
    assert log[1].text.startswith("play ") and log[1].draws_json
    assert table.secrets[2] == ""
    welcomes = all_outbound(factory)
    assert sorted(m.to_addr for m in welcomes) == [ALICE, BOB]  # nothing for the bot
    for m in welcomes:
        assert "Played by the computer: Bot 3." in text_of(m)
    with factory() as s:
        bot = next(x for x in s.exec(select(Seat).where(Seat.game_id == table.game_id))
                   if x.index == 2)
        assert (bot.address, bot.controller) == ("", "bot:normal")


def test_a_game_with_a_bot_seat_ends_and_replays_and_never_mails_the_bot(
        factory: SessionFactory) -> None:
    table = bot_table(factory, HOST, {2: "strong"})
    for _ in range(2):  # two rounds: each human plays, the bot played when its turn came
        play(factory, table, 0)
        play(factory, table, 1)
    kinds = [(e.kind, e.seat) for e in entries(factory, table)]
    assert kinds.count(("bot", 2)) == 2
    with factory() as s:
        game = api.get_game(s, table.game_id)
        assert game.status == "finished"
        assert api.replay_game(s, game).entries == 6
    assert all(m.to_addr in (ALICE, BOB) for m in all_outbound(factory))


def test_a_table_of_bots_plays_at_most_moves_per_pass_then_goes_on_next_pass(
        factory: SessionFactory) -> None:
    clock = FakeClock()
    host = Host(mail=MailConfig(from_address="games@host.test"), bots=Bots(moves_per_pass=2),
                clock=clock)
    table = bot_table(factory, host, {0: "random", 1: "random", 2: "normal"})
    assert len(entries(factory, table)) == 1 + 2  # setup, then the bound
    run_clocks(factory, host, clock.advance(seconds=1))
    assert len(entries(factory, table)) == 1 + 4
    for _ in range(5):
        run_clocks(factory, host, clock.advance(seconds=1))
    assert len(entries(factory, table)) == 1 + 6  # two rounds of three: over
    with factory() as s:
        assert api.get_game(s, table.game_id).status == "finished"
    assert all_outbound(factory) == []  # nobody to mail at a table of bots


def test_resign_under_the_bot_policy_hands_the_seat_to_a_bot_and_back_returns_it(
        factory: SessionFactory) -> None:
    table = bot_table(factory, HOST, {}, players=2, rounds=3, timeout_policy="bot")
    play(factory, table, 0)
    resigned = send(factory, HOST, table, 1, "resign")
    assert resigned.status == "applied"
    texts = queued(factory, resigned)
    assert "A bot plays your seat from now on" in texts[BOB]
    assert '"back"' in texts[BOB]
    assert "Bob has resigned from" in texts[ALICE]
    assert "From now on a bot plays for them" in texts[ALICE]
    log = entries(factory, table)
    # The stand-in played Bob's first round, then (all play at once) his second.
    assert [e.kind for e in log[-3:]] == ["admin", "bot", "bot"]
    assert log[-3].text.startswith("stand-in seat 2")
    # Bob's orders are refused while the bot stands in, with the way back.
    refused = send(factory, HOST, table, 1, "play 1")
    assert refused.status == "rejected"
    assert "A bot plays your seat in" in queued(factory, refused)[BOB]
    back = send(factory, HOST, table, 1, "back")
    assert back.status == "applied"
    mails = queued(factory, back)
    assert "Welcome back!" in mails[BOB]
    assert "Bob is back in" in mails[ALICE]
    with factory() as s:
        seat = next(x for x in s.exec(select(Seat).where(Seat.game_id == table.game_id))
                    if x.index == 1)
        assert (seat.status, seat.controller) == ("active", "human")
    play(factory, table, 0)
    play(factory, table, 1)  # Bob plays his own third round
    play(factory, table, 0)
    assert [e.kind for e in entries(factory, table)].count("bot") == 2
    with factory() as s:
        game = api.get_game(s, table.game_id)
        assert game.status == "finished"
        api.replay_game(s, game)


def test_back_when_no_bot_stands_in_changes_nothing_and_says_so(
        factory: SessionFactory) -> None:
    table = bot_table(factory, HOST, {}, players=2)
    result = send(factory, HOST, table, 0, "back")
    assert result.status == "ignored"
    assert "No bot plays your seat" in queued(factory, result)[ALICE]


def test_at_a_deadline_under_the_bot_policy_the_bot_takes_over_and_everyone_is_told(
        factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = bot_table(factory, host, {}, players=2, rounds=3, deadline_hours=24,
                      timeout_policy="bot")
    play(factory, table, 0, host)
    report = run_clocks(factory, host, clock.advance(hours=25))
    # Bob's first round, then his second (all seats play each round at once).
    assert report.bot_moves == 2 and report.timeouts == 0
    log = entries(factory, table)
    assert [e.kind for e in log[-3:]] == ["admin", "bot", "bot"]
    last = {m.to_addr: text_of(m) for m in all_outbound(factory)}
    assert "a bot plays your seat from now on" in last[BOB]
    assert "Played by the computer: Bob (a bot stands in)." in last[ALICE]
    assert "Bob sent no orders by the deadline; a bot plays for them" in last[ALICE]
    # Alice plays rounds two and three; the stand-in plays Bob's third at once; it ends.
    play(factory, table, 0, host)
    play(factory, table, 0, host)
    with factory() as s:
        game = api.get_game(s, table.game_id)
        assert game.status == "finished"
        api.replay_game(s, game)


def test_a_takeover_by_a_new_player_ends_the_bots_play(factory: SessionFactory) -> None:
    from pbem.ops import admin

    table = bot_table(factory, HOST, {2: "normal"})
    with factory() as s:
        game = api.get_game(s, table.game_id)
        admin.takeover(s, HOST, game, 2, "Cy", "cy@players.test")
        s.commit()
    with factory() as s:
        seat = next(x for x in s.exec(select(Seat).where(Seat.game_id == table.game_id))
                    if x.index == 2)
        assert (seat.controller, seat.address) == ("human", "cy@players.test")
    play(factory, table, 0)
    play(factory, table, 1)
    # Round two waits for Cy now: no bot plays seat 3.
    assert [e.kind for e in entries(factory, table)].count("bot") == 1


def test_a_bot_seat_secret_never_checks() -> None:
    from pbem.pipeline.seat_secrets import check_secret

    assert not check_secret("", "", controllers.NO_SECRET)
    assert not check_secret("bot$", "", controllers.NO_SECRET)


def test_a_reminder_is_never_due_for_a_seat_a_bot_plays(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = Host(mail=MailConfig(from_address="games@host.test"), bots=Bots(moves_per_pass=1),
                clock=clock)
    table = bot_table(factory, host, {0: "random", 1: "random", 2: "random"},
                      deadline_hours=24, reminder_hours=12)
    run_clocks(factory, host, clock.advance(hours=13))
    assert all_outbound(factory) == []
    assert len(entries(factory, table)) == 3  # one more bot move, no reminder



def test_a_seat_dropped_under_the_bot_policy_is_played_by_a_bot_and_cannot_come_back(
        factory: SessionFactory) -> None:
    from pbem.ops import admin

    table = bot_table(factory, HOST, {}, players=2, timeout_policy="bot")
    play(factory, table, 0)
    with factory() as s:
        admin.drop(s, HOST, api.get_game(s, table.game_id), 1)
        s.commit()
    assert [e.kind for e in entries(factory, table)][-3:] == ["admin", "bot", "bot"]
    back = send(factory, HOST, table, 1, "back")
    assert back.status == "rejected"
    assert "already dropped" in queued(factory, back)[BOB]
    refused = send(factory, HOST, table, 1, "play 1")
    assert "is dropped, so your orders were not played" in queued(factory, refused)[BOB]


def test_an_export_keeps_its_bot_seats_and_an_import_plays_them_again(
        factory: SessionFactory) -> None:
    import json

    from pbem.ops import exchange
    from pbem.ops.hostkey import HostKey

    key = HostKey(b"k" * 32)
    table = bot_table(factory, HOST, {2: "strong"}, rounds=3)
    play(factory, table, 0)
    with factory() as s:
        data = json.loads(json.dumps(exchange.export_json(s, api.get_game(s, table.game_id),
                                                          key=key)))
    assert data["seats"][2]["controller"] == "bot:strong"
    assert "controller" not in data["seats"][0]  # a player's seat, as exports always said
    with factory() as s:
        game, secrets = exchange.import_game(s, data, key=key, tag="moved-1", host=HOST)
        s.commit()
        assert secrets[2] == "" and all(secrets[:2])
        seats = {x.index: x for x in s.exec(select(Seat).where(Seat.game_id == game.id))}
        assert (seats[2].address, seats[2].controller) == ("", "bot:strong")
    moved = Table(game.id or 0, "moved-1", secrets)
    play(factory, moved, 1)  # the round closes; the bot seat plays round two at once
    assert [e.kind for e in entries(factory, moved)].count("bot") == 2


def test_game_new_seats_bots_from_the_command_line(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()
    assert runner.invoke(app, ["init"]).exit_code == 0
    made = runner.invoke(app, ["game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
                               "--seat", "bot", "--seat", "bot:strong", "--timeout", "bot"])
    assert made.exit_code == 0, made.output
    assert "(a bot, normal)" in made.output and "Bot 3 (strong)" in made.output
    bad = runner.invoke(app, ["game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
                              "--seat", "bot:genius"])
    assert bad.exit_code == 1
    assert bad.output.startswith("error: seat 'bot:genius': unknown bot level 'genius'")
    factory = api.connect(f"sqlite:///{tmp_path / 'data' / 'pbem.sqlite'}")
    with factory() as s:
        game = api.get_game(s, "testcards-1")
        assert game.timeout_policy == "bot"
        seats = sorted(s.exec(select(Seat).where(Seat.game_id == game.id)),
                       key=lambda x: x.index)
        assert [(x.name, x.address, x.controller) for x in seats] == [
            ("Alice", ALICE, "human"), ("Bot 2", "", "bot:normal"),
            ("Bot 3 (strong)", "", "bot:strong")]
        # Both bots played the first round as the game was made; only Alice was mailed.
        assert [e.kind for e in api.game_log(s, game)] == ["setup", "bot", "bot"]
        assert [m.to_addr for m in s.exec(select(OutboundMessage))] == [ALICE]


def test_back_works_in_the_players_language_and_help_lists_it(
        factory: SessionFactory) -> None:
    from pbem.i18n import translator
    from pbem.pipeline.handlers.help import help_lines

    table = bot_table(factory, HOST, {}, players=2, timeout_policy="bot")
    assert send(factory, HOST, table, 1, "abandonner").status == "applied"  # resign, in French
    back = send(factory, HOST, table, 1, "revenir")
    assert back.status == "applied"
    assert "Bob is back in" in queued(factory, back)[ALICE]
    lines = "\n".join(help_lines(translator("fr")))
    assert "revenir" in lines and "après qu'un bot l'a reprise" in lines
    assert "back " in "\n".join(help_lines(translator("en")))
