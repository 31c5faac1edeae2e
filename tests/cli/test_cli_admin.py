"""The operator's admin commands through the CLI, on the embedded defaults (SQLite + Maildirs)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from tests.cli.test_cli import body, home, outbox, pbem  # noqa: F401  (home is a fixture)

ALICE, BOB = "alice@players.test", "bob@players.test"


def new_game() -> str:
    pbem("init")
    out = pbem("game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
               "--seat", f"Bob <{BOB}>", "--seed", "cli-admin", "--deadline-hours", "0")
    found = re.search(r"game (\S+) created", out)
    assert found is not None
    return found.group(1)


def lowest(tag: str, seat: int) -> int:
    found = re.search(r"Your hand: ([\d, ]+)", pbem("game", "show", tag, "--as", str(seat)))
    assert found is not None
    return min(int(c) for c in found.group(1).split(","))


def test_game_show_without_a_seat_shows_what_a_spectator_sees(home: Path) -> None:  # noqa: F811
    tag = new_game()
    assert re.search(r"Your hand: \d", pbem("game", "show", tag, "--as", "1"))
    public = pbem("game", "show", tag)
    assert f"[{tag}] — spectators" in public
    assert "Your hand: none" in public  # no seat's cards, where seat 1's view shows its own


def test_force_pause_resume_abandon(home: Path) -> None:  # noqa: F811
    tag = new_game()
    card = lowest(tag, 2)  # seats are numbered from 1, as in the players' mails
    assert f"orders played for seat 2 of {tag} as log entry 1" in pbem(
        "game", "force", tag, "2", f"play {card}")
    out = " ".join(pbem("game", "force", tag, "2", "play 1", code=1).split())
    assert "it is not the turn of seat 2 (Bob)" in out
    out = pbem("game", "force", tag, "1", "play 99", code=1)
    assert "the orders were not played: you have no card 99" in " ".join(out.split())
    for wrong in ("5", "0"):
        out = " ".join(pbem("game", "force", tag, wrong, "play 1", code=1).split())
        assert f"has no seat {wrong}" in out and "its seats are: 1 (Alice), 2 (Bob)" in out
    assert "seats count from 1" in pbem("game", "force", tag, "0", "play 1", code=1)
    assert f"{tag} paused" in pbem("game", "pause", tag, "--reason", "rules question")
    assert "is paused; cannot pause it" in " ".join(pbem("game", "pause", tag, code=1).split())
    assert f"{tag} resumed" in pbem("game", "resume", tag)
    assert "is not finished; `pbem game abandon" in " ".join(
        pbem("game", "archive", tag, code=1).split())
    assert f"{tag} abandoned and archived" in pbem("game", "abandon", tag)
    log = pbem("game", "log", tag)
    assert "pause: rules question" in log and "resume" in log and "abandon" in log
    assert "replay ok: 4 entries" in pbem("game", "replay", tag)
    pbem("process")
    texts = [body(m) for m in outbox(home)]
    assert any("abandoned [testcards-1]" in t for t in texts)


def test_export_then_import_and_a_tampered_export(home: Path, tmp_path: Path) -> None:  # noqa: F811
    tag = new_game()
    pbem("game", "force", tag, "1", f"play {lowest(tag, 1)}")
    pbem("game", "undo", tag)
    text = pbem("game", "export", tag, "--format", "text")
    assert "#1 " in text and "forced Alice" in text and "(undone by #2)" in text
    exported = tmp_path / "game.json"
    assert f"{tag} exported to {exported}" in pbem("game", "export", tag, "-o", str(exported))
    data = json.loads(exported.read_text())
    assert [e["kind"] for e in data["log"]] == ["setup", "forced", "admin"]
    out = pbem("game", "import", str(exported), "--tag", "moved-1")
    assert "imported as moved-1 (signed by this host): 3 log entries replayed and verified" in out
    assert "replay ok: 2 entries" in pbem("game", "replay", "moved-1")

    data["log"][1]["state_hash"] = "f" * 64
    exported.write_text(json.dumps(data))
    out = " ".join(pbem("game", "import", str(exported), code=1).split())
    assert ("import refused: the export's checksum does not match its content: the file was "
            "edited or damaged; nothing was imported") in out
    exported.write_text("{not json")
    assert "cannot read" in pbem("game", "import", str(exported), code=1)
    assert "--format must be json, text or html, not 'xml'" in pbem(
        "game", "export", tag, "--format", "xml", code=1)
    assert "--as, --addresses and --lang go with --format html" in pbem(
        "game", "export", tag, "--as", "1", code=1)


def test_admin_commands_have_help() -> None:
    game_help = pbem("game", "--help")
    for command in ("pause", "resume", "archive", "abandon", "force", "undo", "export",
                    "import"):
        assert command in game_help
    assert "takeover" in pbem("seat", "--help") and "drop" in pbem("seat", "--help")
    takeover = " ".join(pbem("seat", "takeover", "--help").split())
    assert "--name" in takeover and "--address" in takeover and "fresh secret" in takeover
    export_help = " ".join(pbem("game", "export", "--help").split())
    assert "json (for `game import`), text (a readable" in export_help
    assert "html (a page that replays the" in export_help
    assert "--as" in export_help and "--addresses" in export_help


def test_replay_names_a_tampered_admin_entry(home: Path) -> None:  # noqa: F811
    tag = new_game()
    pbem("game", "force", tag, "1", f"play {lowest(tag, 1)}")
    pbem("game", "force", tag, "2", f"play {lowest(tag, 2)}")
    pbem("game", "undo", tag)
    assert "replay ok: 3 entries" in pbem("game", "replay", tag)
    with sqlite3.connect(home / "pbem.sqlite") as db:  # revoke the older move instead
        db.execute("update logentry set text = 'undo 1' where kind = 'admin'")
    out = " ".join(pbem("game", "replay", tag, code=1).split())
    assert ("replay FAILED at entry 3: undo may only revoke the newest live moves (2), not 1"
            in out)
