"""What a host process sets up once, before its first command or mail: :func:`start`.

The layers below the games (the translators of :mod:`pbem.i18n`) cannot look a game up
themselves; rather than a module filling another's globals as it is imported, start-up hands
them what they need, once and in one place. The CLI starts before any command runs; a bench,
a test's worker process and the test session itself (tests/conftest.py) start likewise.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem import rendering
from pbem.engine import registry
from pbem.i18n import translate
from pbem.i18n.translate import Catalogues
from pbem.rendering import MailTemplates


@dataclass(frozen=True)
class Services:
    """The process's shared services, as :func:`start` set them up."""

    # Every language's translator; a game's words found in its package through the registry.
    catalogues: Catalogues
    # Each game's mail templates and the parts their renders keep (pbem.rendering).
    templates: MailTemplates


def start() -> Services:
    """Set up this process's services; starting again keeps those already set up (and the
    translators they made), so a command run twice in one process pays once."""
    catalogues = translate.catalogues()
    if catalogues.game_locales is not registry.locale_dir:
        catalogues = translate.use_catalogues(Catalogues(registry.locale_dir))
    return Services(catalogues=catalogues, templates=rendering.TEMPLATES)
