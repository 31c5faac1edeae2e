"""The players' guide pages as `pbem site build` writes them, read back: the text of each
game's help on its page, by language, for the games' tests to parse every example shown."""

from __future__ import annotations

import html
import re
from pathlib import Path

from pbem.i18n import LANGUAGES
from pbem.ops.guide import write_guides
from pbem.ops.site import _write
from pbem.settings.guide_links import guide_path

GAME_HELP = re.compile(r'<pre class="help game-help">(.*?)</pre>', re.S)


def game_help_on_pages(folder: Path, game: str) -> dict[str, str]:
    """The game's help as its guide page in each language shows it (the pages written into
    ``folder`` first)."""
    write_guides(folder, _write)
    shown = {}
    for lang in LANGUAGES:
        page = (folder / guide_path(game, lang)).read_text(encoding="utf-8")
        found = GAME_HELP.search(page)
        assert found, f"{game} {lang}: no help on the page"
        shown[lang] = html.unescape(found[1])
    return shown
