"""The developers' pages name what they document: every member of the game contract, and
every layer of ``[tool.importlinter]``, so a new member or layer shows up here first."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

from pbem.engine.contract import Game

ROOT = Path(__file__).parents[2]
PAGE = ROOT / "docs" / "developers" / "index.md"


def test_the_contract_page_names_every_member_a_game_may_write() -> None:
    text = PAGE.read_text(encoding="utf-8")
    members = [name for name, value in vars(Game).items()
               if inspect.isfunction(value) and not name.startswith("_")]
    assert len(members) > 20
    assert [m for m in members if f"`{m}`" not in text] == []


def test_the_layers_page_names_every_layer() -> None:
    text = PAGE.read_text(encoding="utf-8")
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in contracts["contracts"] if c["id"] == "layers")["layers"]
    for layer in layers:
        for module in layer.replace(":", "|").split("|"):
            assert module.strip() in text, module
