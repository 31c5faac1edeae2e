"""Start-up: the services a host process sets up once, explicitly, before its first command."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pbem import rendering
from pbem.engine import registry
from pbem.i18n import translate
from pbem.i18n.translate import Catalogues
from pbem.ops.services import start


def test_importing_the_registry_hands_i18n_nothing_start_up_does() -> None:
    """No module fills another's globals as it is imported: after every import a fresh
    process knows no game's words, and start() alone tells the translators where they are."""
    code = ("from pbem.engine import registry\n"
            "from pbem.i18n import translate\n"
            "import pbem.cli, pbem.pipeline.one_mail\n"
            "assert translate.catalogues().game_locales is None\n"
            "from pbem.ops.services import start\n"
            "assert start().catalogues.game_locales is registry.locale_dir\n"
            "assert translate.catalogues().game_locales is registry.locale_dir\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_games_words_before_start_up_are_refused_with_what_to_do() -> None:
    name = sorted(registry.games())[0]
    with pytest.raises(RuntimeError, match=r"call pbem\.ops\.services\.start\(\) first"):
        Catalogues().translator("fr", name)
    assert Catalogues().translator("fr").lang == "fr"  # the host's own words need nothing
    found = Catalogues(registry.locale_dir)
    assert found.locale_dir(name) == registry.locale_dir(name)
    assert found.translator("fr", name) is found.translator("fr", name)  # made once


def test_starting_again_keeps_the_services_and_their_translators() -> None:
    first = start()
    made = first.catalogues.translator("de", sorted(registry.games())[0])
    again = start()
    assert again.catalogues is first.catalogues is translate.catalogues()
    assert again.catalogues.translator("de", sorted(registry.games())[0]) is made
    assert again.templates is rendering.TEMPLATES


def test_mail_templates_are_kept_by_the_game_itself_not_its_id() -> None:
    """Each game object has its own environment, found by the object: an id is reused once
    its object is gone and would hand a new game another's templates."""
    game = registry.games()[sorted(registry.games())[0]]
    env = rendering.environment(game)
    assert rendering.environment(game) is env
    assert any(key is game for _, key in rendering.TEMPLATES.environments)
    assert all(not isinstance(key, int) for _, key in rendering.TEMPLATES.environments)
    assert rendering.environment(type(game)()) is not env  # another object, its own
