"""`pbem games` lists Reef with its provenance, which the help reply repeats: the card list is a
public transcription."""

from __future__ import annotations

from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.games.reef2018 import GAME
from pbem.store import SessionFactory
from tests.support.seated import seat_table


def test_pbem_games_lists_reef_and_says_the_cards_are_a_transcription() -> None:
    assert registry.get("reef2018") is GAME
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "reef-2018: Reef (2–4 players)" in result.output
    listed = " ".join(result.output.split("reef-2018: Reef")[1].split())
    assert "The 60 cards are a public transcription (GitHub ethomas2/reef" in listed


def test_the_help_reply_names_the_source_of_the_cards(factory: SessionFactory) -> None:
    table = seat_table(factory, "reef2018")
    _, reply = table.send(0, "help")
    assert "public transcription" in " ".join(reply.split())
