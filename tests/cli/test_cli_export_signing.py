"""Exports are signed with the host's key: an edit is refused even with the checksum
recomputed, and an export from another host is imported only on the operator's word."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest

from pbem.engine.hashing import canonical_json
from tests.cli.test_cli import home, pbem  # noqa: F401  (home is a fixture)
from tests.cli.test_cli_admin import new_game


def one_line(text: str) -> str:
    return " ".join(text.split())


def recheck(data: dict[str, object]) -> None:
    """Recompute the checksum, as someone editing the file would."""
    body = {k: v for k, v in data.items() if k not in ("checksum", "signature")}
    data["checksum"] = hashlib.sha256(canonical_json(body).encode()).hexdigest()


def test_init_makes_a_private_key_that_no_export_holds(home: Path,  # noqa: F811
                                                       tmp_path: Path) -> None:
    out = one_line(pbem("init"))
    key_file = home / "host.key"
    assert f"host key (signs game exports): {key_file} (id " in out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    assert len(bytes.fromhex(key)) == 32
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    text = exported.read_text()
    assert key not in text
    assert json.loads(text)["host"] in out  # only the key's id
    assert key_file.read_text().strip() == key  # made once, kept


def test_an_edited_address_is_refused_even_with_its_checksum_recomputed(
        home: Path, tmp_path: Path) -> None:  # noqa: F811
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    data = json.loads(exported.read_text())
    data["seats"][1]["address"] = "mallory@evil.test"  # a replay cannot see this
    recheck(data)
    exported.write_text(json.dumps(data))
    out = one_line(pbem("game", "import", str(exported), "--tag", "moved-1", code=1))
    assert ("import refused: the export's signature does not match its content: it was made "
            "on this host and edited since; nothing was imported") in out
    # --trust-foreign is for other hosts' exports: it does not excuse an edit of our own.
    assert "signature does not match" in pbem("game", "import", str(exported), "--tag",
                                              "moved-1", "--trust-foreign", code=1)


def test_another_hosts_export_needs_the_operators_word(home: Path, tmp_path: Path,  # noqa: F811
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    theirs = json.loads(exported.read_text())["host"]
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "other-host"))
    ours = one_line(pbem("init")).split("(id ")[1].split(")")[0]
    out = one_line(pbem("game", "import", str(exported), code=1))
    assert (f"import refused: this export was made by another host (key {theirs}), not by "
            f"this one (key {ours}), so this host cannot vouch that it was not edited since, "
            "e.g. a seat's address. Review it (its seats, addresses and status), then import "
            "it with --trust-foreign: its whole log is still replayed and verified. Nothing "
            "was imported") in out
    out = one_line(pbem("game", "import", str(exported), "--trust-foreign"))
    assert (f"imported as {tag} (from another host (key {theirs}), trusted on your word): "
            "1 log entries replayed and verified") in out
    assert "replay ok" in pbem("game", "replay", tag)


def test_an_unsigned_export_is_foreign(home: Path, tmp_path: Path) -> None:  # noqa: F811
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    data = json.loads(exported.read_text())
    del data["host"], data["signature"]  # as an export made before exports were signed
    recheck(data)
    exported.write_text(json.dumps(data))
    out = one_line(pbem("game", "import", str(exported), "--tag", "old-1", code=1))
    assert "this export was made by a host that did not sign it (an older pbem?)" in out
    assert "imported as old-1 (from another host (key none), trusted on your word)" in \
        one_line(pbem("game", "import", str(exported), "--tag", "old-1", "--trust-foreign"))


def test_hosts_sharing_a_configured_key_trust_each_other(tmp_path: Path,
                                                         home: Path) -> None:  # noqa: F811
    for name in ("a", "b"):
        (tmp_path / f"{name}.toml").write_text(
            f'data_dir = "{name}-data"\nhost_key_file = "shared.key"\n')
    pbem("--config", str(tmp_path / "a.toml"), "init")
    pbem("--config", str(tmp_path / "a.toml"), "game", "new", "testcards",
         "--seat", "A <a@players.test>", "--seat", "B <b@players.test>")
    exported = tmp_path / "game.json"
    pbem("--config", str(tmp_path / "a.toml"), "game", "export", "testcards-1", "-o",
         str(exported))
    assert (tmp_path / "shared.key").exists() and not (tmp_path / "a-data" / "host.key").exists()
    pbem("--config", str(tmp_path / "b.toml"), "init")  # only init makes a data folder
    out = one_line(pbem("--config", str(tmp_path / "b.toml"), "game", "import", str(exported)))
    assert "imported as testcards-1 (signed by this host)" in out


def test_a_broken_key_file_is_named(home: Path, tmp_path: Path) -> None:  # noqa: F811
    tag = new_game()  # runs `pbem init`, which would refuse the broken key too
    (home / "host.key").write_text("not hex\n")
    out = one_line(pbem("game", "export", tag, "-o", str(tmp_path / "g.json"), code=1))
    assert f"cannot read the host key {home / 'host.key'}: non-hexadecimal number" in out


def test_a_key_file_in_a_missing_folder_is_named(tmp_path: Path, home: Path) -> None:  # noqa: F811
    (tmp_path / "c.toml").write_text('host_key_file = "nowhere/host.key"\n')
    out = one_line(pbem("--config", str(tmp_path / "c.toml"), "init", code=1))
    assert (f"no host key at {tmp_path / 'nowhere' / 'host.key'}, and its folder does not "
            "exist: run `pbem init`, or create the folder, or set host_key_file") in out


@pytest.mark.parametrize(("field", "value"), [
    ("name", "Bob\r\nBcc: everyone@evil.test"), ("name", "x" * 5000),
    ("status", "active\nX-Injected: 1"), ("status", "winner")])
def test_a_trusted_foreign_export_still_has_its_names_and_statuses_checked(
        home: Path, tmp_path: Path, field: str, value: str) -> None:  # noqa: F811
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    data = json.loads(exported.read_text())
    del data["host"], data["signature"]  # from elsewhere: trusted on the operator's word
    data["seats"][1][field] = value
    recheck(data)
    exported.write_text(json.dumps(data))
    out = one_line(pbem("game", "import", str(exported), "--tag", "far-1", "--trust-foreign",
                        code=1))
    assert f"import refused: the export's seat {field}" in out
    assert "far-1" not in pbem("game", "list")
