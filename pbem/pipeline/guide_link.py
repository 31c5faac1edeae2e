"""The line of the welcome and ``help`` mails that points a player at the players' guide page
in their language (`pbem site build` writes it), once ``[site] url`` says where it is served."""

from __future__ import annotations

from pbem.i18n import Msg, msg
from pbem.settings.guide_links import guide_url


def guide_line(site_url: str, game: str, lang: str) -> list[Msg]:
    """The link as a one-line list; empty without a site address."""
    page = guide_url(site_url, game, lang)
    return [msg("The players' guide for this game, in your language: {url}", url=page)] \
        if page else []
