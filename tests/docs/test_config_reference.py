"""The configuration reference is written from the settings' definitions, and says every
setting the config reader takes, no more: a setting added to the reader shows up (or this
fails), a setting the reader does not take is not documented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.settings import config, reader, reference

EXAMPLE = Path(__file__).parents[2] / "config.example.toml"


def _asked(raw: dict[str, Any]) -> set[str]:
    """Every key the reader looks for, as ``table.key``, with ``raw`` as the file."""
    table = reader.Table(raw, "")
    config._build(table, Path("."))

    def walk(t: reader.Table) -> set[str]:
        keys = {f"{t.where}.{k}" if t.where else k for k in t.asked
                if k not in reader.REFUSED and not isinstance(t.get(k), dict)}
        for sub in t.tables.values():
            keys |= walk(sub)
        return keys

    return walk(table)


def documented() -> set[str]:
    return {f"{t.name}.{s.key}" if t.name else s.key
            for t in reference.tables() for s in t.settings}


def test_the_reference_names_every_setting_the_reader_takes() -> None:
    raw = {"inbound": {"imap": {"host": "imap.test"}, "maildir": {}},
           "outbound": {"smtp": {"host": "smtp.test"}, "maildir": {}},
           "database": {}, "mail": {}, "limits": {}, "deadlines": {}, "bots": {}, "lobby": {},
           "retention": {}, "watch": {}, "secrets": {}, "dns": {}, "site": {}}
    assert documented() == _asked(raw)


def test_every_setting_has_a_default_column_and_a_description() -> None:
    for table in reference.tables():
        assert table.about
        for setting in table.settings:
            assert setting.note, f"[{table.name}] {setting.key} has no comment in its class"


def test_the_page_shows_the_defaults_of_the_definitions() -> None:
    page = reference.markdown()
    assert page.startswith("# Configuration reference\n")
    assert f"| `sent_mail_days` | `{config.Retention.sent_mail_days}` |" in page
    assert f"| `seconds_per_move` | `{config.Bots.seconds_per_move}` |" in page
    assert "| `enabled` | `false` |" in page and '| `open` | `"anyone"` |' in page
    assert "## [inbound.imap]" in page and "| `password_env` |" in page


@pytest.mark.parametrize("key", sorted(documented() - {"data_dir", "host_key_file"}))
def test_every_documented_table_is_in_the_example_config(key: str) -> None:
    table = key.rpartition(".")[0]
    assert f"\n[{table}]\n" in EXAMPLE.read_text(encoding="utf-8"), key
