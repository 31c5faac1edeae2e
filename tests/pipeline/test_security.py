"""Security through the real pipeline: escaping, headers, hidden holdings, authentication."""

from __future__ import annotations

import email
import json
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import LogEntry, OutboundMessage, SessionFactory, Snapshot
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail


def outgoing(factory: SessionFactory, after: int = 0) -> list[tuple[OutboundMessage,
                                                                    EmailMessage]]:
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id) > after)
                      .order_by(col(OutboundMessage.id))).all()
    out = []
    for r in rows:
        msg = email.message_from_bytes(r.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        out.append((r, msg))
    return out


def part(msg: EmailMessage, kind: str) -> str:
    body = msg.get_body((kind,))
    assert body is not None
    return str(body.get_content())


def last_id(factory: SessionFactory) -> int:
    with factory() as s:
        return max((i or 0 for i in s.exec(select(col(OutboundMessage.id)))), default=0)


EVIL_NAME = '<script>alert("x")</script> & <b onmouseover=steal()>Bob</b>'


def test_html_injection_in_a_player_name_is_escaped(factory: SessionFactory,
                                                     host: Host) -> None:
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), (EVIL_NAME, BOB)],
                                        seed="esc", host=host)
        s.commit()
    card = hand(factory, Table(game.id or 0, game.tag, secrets), 0)[0]
    assert process_raw(factory, mail(ALICE, f"[{game.tag}]",
                                     f"play {card}\nsecret {secrets[0]}"), host).status \
        == "applied"
    mails = outgoing(factory)
    assert len(mails) == 4  # 2 welcomes, 2 after the order
    seen_name = 0
    for _, msg in mails:
        html = part(msg, "html")
        assert "<script" not in html and "<b onmouseover" not in html
        seen_name += "&lt;script&gt;alert(" in html
    assert seen_name >= 2  # Alice sees Bob's name in "waiting for"; Bob sees his own
    bob_welcome = next(m for r, m in mails if r.to_addr == BOB and r.kind == "welcome")
    assert EVIL_NAME in part(bob_welcome, "plain")  # plain text needs no escaping


def test_no_header_injection_through_a_seat_name(factory: SessionFactory, host: Host) -> None:
    with factory() as s:
        api.create_game(s, "testcards", [("Alice\r\nBcc: all@evil.test", ALICE),
                                         ("Bob\nX-Injected: 1", BOB)], seed="hdr", host=host)
        s.commit()
    for row, msg in outgoing(factory):
        names = {k.lower() for k in msg}
        assert "bcc" not in names and "x-injected" not in names
        assert [a.addr_spec for a in msg["To"].addresses] == [row.to_addr]
        raw_head = row.raw.split(b"\n\n", 1)[0].replace(b"\r\n", b"\n")
        assert not re.search(rb"^(Bcc|X-Injected):", raw_head, re.M | re.I)


def hide_other_hand(factory: SessionFactory, game_id: int) -> list[int]:
    """Give seat 1 a different hidden hand (swapped with the deck) in the latest snapshot."""
    with factory() as s:
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == game_id)
                      .order_by(col(Snapshot.log_index).desc())).first()
        assert snap is not None
        state = json.loads(snap.state_json)
        size = len(state["hands"][1])
        state["hands"][1], state["deck"][:size] = state["deck"][:size], state["hands"][1]
        snap.state_json = json.dumps(state)
        s.add(snap)
        s.commit()
        return list(state["hands"][1])


def test_no_email_reveals_another_seats_hidden_hand(factory: SessionFactory,
                                                    host: Host) -> None:
    """Two games alike but for Bob's hidden hand: every mail Alice can get is the same."""
    tables = []
    with factory() as s:
        for tag in ("twin-a", "twin-b"):
            game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                            seed="twins", tag=tag)
            tables.append(Table(game.id or 0, tag, secrets))
        s.commit()
    a, b = tables
    assert hand(factory, a, 1) != hide_other_hand(factory, b.game_id)
    assert hand(factory, a, 0) == hand(factory, b, 0)
    card = hand(factory, a, 0)[0]
    # (notes to a wrong secret are rate-limited per address, so they are left out here)
    letters = ["status", "help", f"check\nplay {card}", "play 99", "play", "play 1 2",
               f"play {card}"]  # the last one is played for real
    texts: dict[str, list[str]] = {}
    for t in tables:
        start = last_id(factory)
        for n, text in enumerate(letters):
            process_raw(factory, mail(ALICE, f"[{t.tag}]", f"{text}\nsecret {t.secrets[0]}",
                                      message_id=f"<{t.tag}-{n}@players.test>"), host)
        texts[t.tag] = [(part(m, "plain") + (part(m, "html") if m.get_body(("html",)) else ""))
                        .replace(t.tag, "TAG")
                        for r, m in outgoing(factory, start) if r.to_addr == ALICE]
    assert len(texts["twin-a"]) == len(letters)
    assert texts["twin-a"] == texts["twin-b"]


def test_forged_from_or_wrong_secret_never_moves_a_seat(factory: SessionFactory, host: Host,
                                                        table: Table) -> None:
    bob_card = hand(factory, table, 1)[0]
    tries = [
        mail(BOB, f"[{table.tag}]", f"play {bob_card}\nsecret {table.secrets[0]}"),  # A's
        mail(BOB, f"[{table.tag}]", f"play {bob_card}\nsecret {table.secrets[1][:-1]}"),
        mail(ALICE, f"[{table.tag}]", f"play {bob_card}\nsecret {table.secrets[1]}"),  # forged
        mail(f"Bob <{BOB}>", f"[{table.tag}]", f"play {bob_card}\nsecret {table.secrets[1]}x"),
    ]
    for raw in tries:
        result = process_raw(factory, raw, host)
        assert (result.status, result.reason) == ("rejected", "wrong secret")
    with factory() as s:
        assert s.exec(select(LogEntry).where(LogEntry.kind == "order")).all() == []


def test_only_the_admin_cli_sees_or_moves_past_the_secrets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator (shell access) may show any seat and reissue a secret; mail may not."""
    from pbem.engine import registry
    from tests.support.testgame import GAME

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    registry.register(GAME)
    runner = CliRunner()
    try:
        assert runner.invoke(app, ["init"]).exit_code == 0
        out = runner.invoke(app, ["game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
                                  "--seat", f"Bob <{BOB}>", "--seed", "cli"])
        assert out.exit_code == 0, out.output
        factory = api.connect(f"sqlite:///{tmp_path / 'data' / 'pbem.sqlite'}")
        with factory() as s:
            game = api.list_games(s)[0]
            bob_hand = sorted(api.current_state(s, game).hands[1])
        shown = runner.invoke(app, ["game", "show", game.tag, "--as", "2"])
        assert shown.exit_code == 0
        assert f"Your hand: {', '.join(map(str, bob_hand))}" in shown.output
        reissued = runner.invoke(app, ["seat", "secret", game.tag, "2"])
        assert reissued.exit_code == 0, reissued.output
        new_secret = reissued.output.strip().rsplit(" ", 1)[-1]
        host = Host()
        ok = process_raw(factory, mail(BOB, f"[{game.tag}]",
                                       f"play {bob_hand[0]}\nsecret {new_secret}"), host)
        assert ok.status == "applied"
    finally:
        registry.unregister(GAME.name)
