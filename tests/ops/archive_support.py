"""Games played out by bots over the real mail path, for the archive tests, and HTML helpers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import html5lib
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.engine.replay import SetupRecord, draws_from_json, replay, replay_one
from pbem.ops import api
from pbem.ops.archive_boards import decode
from pbem.ops.demo import run_demo
from pbem.rendering import environment
from pbem.settings.config import from_dict
from pbem.store.db import SessionFactory
from tests.support.testgame import GAME

runner = CliRunner()


def cases() -> list[tuple[str, int]]:
    """Every game type of the host (and the test game) at each of its 2, 3 and 4 players."""
    games = {**registry.games(), GAME.name: GAME}
    return [(name, n) for name, rules in sorted(games.items())
            for n in (2, 3, 4) if rules.min_players <= n <= rules.max_players]


@dataclass
class Played:
    folder: Path
    tag: str
    game_type: str
    players: int

    @property
    def factory(self) -> SessionFactory:
        return api.connect(from_dict({"data_dir": str(self.folder)}).database_url)

    def pbem(self, *args: str, code: int = 0) -> str:
        result = runner.invoke(app, list(args), env={"PBEM_HOME": str(self.folder),
                                                     "PBEM_CONFIG": None})
        assert result.exit_code == code, result.output
        return result.output

    def export(self, path: Path, *extra: str) -> str:
        self.pbem("game", "export", self.tag, "--format", "html", "-o", str(path), *extra)
        return path.read_text(encoding="utf-8")

    def exported_json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.pbem("game", "export", self.tag))
        return data

    def secrets(self) -> list[str]:
        """Every secret the host mailed (the welcome mails in the demo's outbox)."""
        found = []
        for mail in (self.folder / "outbox").rglob("*"):
            if mail.is_file():
                found += re.findall(r"Your secret is: (\S+)",
                                    mail.read_bytes().decode("utf-8", "replace"))
        assert found, "the demo's welcome mails hold the secrets"
        return sorted(set(found))


def hide_for_good(played: Played, hidden: bool = True) -> None:
    """The game's host option hidden_for_good set (as `-o hidden_for_good=yes` at its creation
    would have): its archive reveals nothing after the end."""
    import sqlite3

    with sqlite3.connect(played.folder / "pbem.sqlite") as db:
        db.execute("update game set hidden_for_good = ? where tag = ?", (hidden, played.tag))


BOARDS = re.compile(r'<script type="application/octet-stream" id="boards">([^<]*)</script>')
STEP = re.compile(r'<section class="step" id="(step-\d+)"(.*?)</section>', re.S)


def step_boards(page: str) -> dict[str, list[str]]:
    """Each step's boards (its section's id → the viewer's board, then each revealed seat's;
    none for a step that left the board as it was), inflated from the page's data as its
    script does."""
    found = BOARDS.search(page)
    boards = decode(found.group(1)) if found else []
    out = {}
    for step, body in STEP.findall(page):
        ids = re.search(r'<div class="board" data-boards="([\d ]*)"', body)
        out[step] = [boards[int(k)] for k in ids.group(1).split()] if ids else []
    return out


def readable(page: str) -> str:
    """The page's text with each step's board as its viewer reads it (the first of the step's
    boards), whitespace collapsed."""
    boards = step_boards(page)
    return " ".join([text_of(page)] + [text_of(b[0]) for b in boards.values() if b])


def play(folder: Path, game_type: str, players: int, seed: str = "archive") -> Played:
    report = run_demo(folder, game_type, players, seed)
    return Played(folder, report.tag, game_type, players)


def replayed_states(export: dict[str, Any]) -> list[Any]:
    """The state after setup and after each log entry, replayed from a JSON export with the
    engine alone (bot games have no admin entries): the test's own view of the history."""
    rules = registry.get(export["game"]["type"])
    log = export["log"]
    setup = SetupRecord(len(export["seats"]), export["game"]["options"],
                        draws_from_json(log[0]["draws"]), log[0]["state_hash"])
    from pbem.engine.replay import OrderRecord

    states = [replay(rules, setup, [])]
    for e in log[1:]:
        assert e["kind"] == "order"
        record = OrderRecord(e["seat"], e["text"], draws_from_json(e["draws"]), e["state_hash"])
        states.append(replay_one(rules, states[-1], record, e["index"]))
    return states


def board_html(game_type: str, state: Any, names: list[str], seat: int | None = None) -> str:
    """The game's own status template rendered from ``view(state, seat)``."""
    rules = registry.get(game_type)
    return environment(rules).get_template(f"{rules.name}/status.html.j2").render(
        title=rules.title, tag="", seat=seat, seat_name="", view=rules.view(state, seat),
        intro=[], events=[], waiting=[], your_turn=False, deadline=None, outcome=[],
        explanation=[], secret=None, names=names, game_name=rules.name)


def text_of(html: str) -> str:
    """An HTML fragment's text content, whitespace collapsed (as the DOM's textContent)."""
    tree = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return " ".join("".join(tree.itertext()).split())


def table_rows(html: str, table_id: str) -> list[str]:
    """Each row of a table as its cells' texts joined by " | "."""
    tree = html5lib.parse(html, namespaceHTMLElements=False)
    table = next(t for t in tree.iter("table") if t.get("id") == table_id)
    return [" | ".join(" ".join("".join(c.itertext()).split()) for c in row)
            for row in table.iter("tr")]


def parse_strict(html: str) -> Any:
    """Parse a whole document, failing on any HTML parse error (html5lib's strict mode)."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(html)
