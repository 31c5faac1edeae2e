"""Every game, pruned: once retention has cut every stored mail of an ended game to its
headers (and dropped its snapshots between setup and the latest), `pbem game replay`
still verifies it, and its export imports (replayed again) on every database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.outbound import MaildirSender
from pbem.ops.retention import headers_of
from pbem.outbox.delivery import deliver_outbox
from pbem.store import SessionFactory
from pbem.store.tables import InboundMessage, OutboundMessage, Snapshot
from tests.games.suite.games import every_game, games
from tests.support.seated import HOST, play_moves

MOVES = 6


def _cli(config: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--config", str(config), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("name", "rules", "hooks"), every_game(), ids=list(games()))
def test_a_pruned_game_replays_exports_and_imports(
        name: str, rules: Any, hooks: Any, db_url: str, factory: SessionFactory,
        tmp_path: Path) -> None:
    table, moves = play_moves(factory, name, rules, MOVES)
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n',
                      encoding="utf-8")
    _cli(config, "game", "abandon", table.tag)  # ended: its received mail's time runs
    deliver_outbox(factory, MaildirSender(tmp_path / "out"), HOST)
    with factory() as s:
        before = {m.id: m.raw for m in s.exec(select(OutboundMessage))}
        snapshots = len(s.exec(select(Snapshot).where(Snapshot.game_id == table.game_id)).all())
    assert snapshots > 2

    dry = _cli(config, "prune", "--dry-run", "--days", "0")
    assert f"sent mails cut to their headers: {len(before)} " in dry
    with factory() as s:  # a dry run changes nothing
        assert all(m.pruned_at is None for m in s.exec(select(OutboundMessage)))
    out = _cli(config, "prune", "--days", "0")
    assert f"sent mails cut to their headers: {len(before)} " in out
    assert f"received mails cut to their headers: {moves} " in out
    assert f"snapshots between setup and latest state: {snapshots - 2} " in out

    with factory() as s:
        for m in s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))):
            assert m.raw == headers_of(before[m.id]) and len(m.raw) < len(before[m.id])
            assert m.raw_size == len(before[m.id]) and m.raw_sha256 and m.pruned_at
        received = s.exec(select(InboundMessage)).all()
        assert len(received) == moves
        for r in received:
            assert r.pruned_at and r.raw.endswith(b"\n\n") and b"secret" not in r.raw
    assert "replay ok: " in _cli(config, "game", "replay", table.tag)
    export = tmp_path / "export.json"
    _cli(config, "game", "export", table.tag, "--output", str(export))
    assert len(json.loads(export.read_text("utf-8"))["log"]) >= moves + 1
    imported = _cli(config, "game", "import", str(export), "--tag", "pruned-again")
    assert "imported as pruned-again" in imported and "replayed and verified" in imported
    assert "replay ok: " in _cli(config, "game", "replay", "pruned-again")
    again = _cli(config, "prune", "--days", "0")  # what was cut is not cut twice; the
    assert "sent mails cut to their headers: 0 " in again  # import's mail waits to be sent
    assert "received mails cut to their headers: 0 " in again
