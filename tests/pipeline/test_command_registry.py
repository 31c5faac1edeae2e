"""The one registry of mail commands: every command in it is a word of the catalogue, heard
by the reader of its kind of mail, and listed by ``help``; none is listed twice."""

from __future__ import annotations

import pytest

from pbem.i18n import LANGUAGES, translator
from pbem.pipeline import command_registry
from pbem.pipeline.command_words import ENGLISH_WORDS, word
from pbem.pipeline.commands.base import Scope
from pbem.pipeline.handlers.help import help_lines
from pbem.pipeline.handlers.lobby import LOBBY_WORDS
from pbem.pipeline.letter import read_letter
from pbem.pipeline.lobby.read import read_lobby

COMMANDS = command_registry.COMMANDS


def test_every_command_is_a_catalogue_word_and_one_per_word_and_scope() -> None:
    assert {c.word for c in COMMANDS} <= ENGLISH_WORDS
    keys = [(c.scope, c.word) for c in COMMANDS]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_letter_reader_hears_every_command_of_a_mail_to_a_game_or_the_host(
        lang: str) -> None:
    for command in command_registry.in_scope(Scope.SEAT, Scope.PROFILE, Scope.PUBLIC):
        if command.form == "secret line":
            continue
        written = word(command.word, lang)
        letter = read_letter(written)
        assert (letter.command, letter.argument) == (command.word, "")
        if command.form == "argument":
            letter = read_letter(f"{written} something")
            assert (letter.command, letter.argument) == (command.word, "something")
        else:  # alone on its line, or the line is an order
            assert read_letter(f"{written} something").command is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_hears_every_lobby_command(lang: str) -> None:
    for command in command_registry.in_scope(Scope.LOBBY):
        read = read_lobby("", f"{word(command.word, lang)} something", LOBBY_WORDS)
        assert read is not None and read.command == command.word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_lists_every_command_that_has_a_usage_in_the_registry_order(lang: str) -> None:
    tr = translator(lang)
    listed = help_lines(tr)
    for scope in (Scope.SEAT, Scope.LOBBY):
        rows = command_registry.usage(scope, tr)
        assert rows and all(row in listed for row in rows)
        at = [listed.index(row) for row in rows]
        assert at == sorted(at)
    assert all(c.usage is not None for c in command_registry.in_scope(Scope.SEAT, Scope.LOBBY))
