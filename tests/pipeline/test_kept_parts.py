"""How to reply (templates/reply.*.j2) is the same in most mails of a game: it is rendered once
and kept (pbem.rendering.kept), by every value it reads, and never with a secret."""

from __future__ import annotations

from pbem import rendering as render
from pbem.rendering import StatusMail, render_status
from tests.pipeline.test_public_part import REEF, mail, states

SECRET = "Zq8v-LmN3xTr0pQa7sWd1e"


def test_the_part_is_kept_by_every_value_it_reads() -> None:
    reads = render._reads(render.environment(REEF), "reply.txt.j2")
    assert reads is not None  # the seat's language's _ and pgettext too, not only globals
    assert {"tag", "secret", "mail_mode", "footer", "_", "pgettext"} <= set(reads)
    assert render._reads(render.environment(REEF), "layout.txt.j2") is None  # includes
    render.TEMPLATES.kept.clear()
    state = states()[2]
    seen: dict[tuple[str, str], tuple[str, str]] = {}
    for lang in ("en", "fr", "en"):
        for mode in ("every", "turn", "digest", "every"):
            m = mail(state, 1, lang, shared=True)
            m.mail_mode = mode
            got = render_status(REEF, m)
            render.TEMPLATES.kept.clear()
            assert render_status(REEF, m) == got  # drawn afresh: the same
            render_status(REEF, m)
            seen.setdefault((lang, mode), got)
            assert seen[(lang, mode)] == got
    assert len({text for text, _ in seen.values()}) == 6  # each language and setting its own
    assert "mail turn." in seen[("en", "turn")][0] and "mail every." in seen[("en", "every")][0]


def test_a_mail_holding_a_secret_shows_it_and_is_kept_nowhere() -> None:
    render.TEMPLATES.kept.clear()
    state = states()[2]
    m: StatusMail = mail(state, 0, "en", shared=True)
    m.secret = SECRET
    text, html = render_status(REEF, m)
    assert f"secret {SECRET}" in text and SECRET in html
    assert not render.TEMPLATES.kept
    m.secret = None
    text, html = render_status(REEF, m)
    assert SECRET not in text + html and "secret <your secret>" in text
    assert len(render.TEMPLATES.kept) == 2  # the text's part and the HTML's
