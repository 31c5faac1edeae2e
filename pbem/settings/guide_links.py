"""Where a host's players' guide pages live: ``guide/<game-id>/<lang>.html`` beside the game
archive (written by `pbem site build`), and their address once ``[site] url`` says where the
site is served, for the mails that link to them."""

from __future__ import annotations

GUIDE_FOLDER = "guide"


def guide_path(game: str, lang: str) -> str:
    """The page's path inside the site's folder, e.g. ``guide/reef-2018/fr.html``."""
    return f"{GUIDE_FOLDER}/{game}/{lang}.html"


def guide_url(site_url: str, game: str, lang: str) -> str | None:
    """The page's address on a site served at ``site_url``; None when no address is set."""
    if not site_url:
        return None
    return f"{site_url.rstrip('/')}/{guide_path(game, lang)}"
