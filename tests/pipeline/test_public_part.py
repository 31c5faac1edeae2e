"""The part of a status every seat sees alike (a game's ``public.*.j2``) is drawn once from the
spectator's view and shared: each seat's mail must read exactly as if it drew that part from
its own view, and the shared part may show nothing of any seat's hidden holdings."""

from __future__ import annotations

from typing import Any

import pytest

from pbem import rendering as render
from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME as REEF
from pbem.games.reef_encounter.state import State
from pbem.rendering import StatusMail, render_status
from tests.games.reef_encounter.suite import BEN_A, BEN_B, twin

NAMES = ["Ann", "Ben", "Cy"]


def states() -> list[State]:
    begun = REEF.setup(3, REEF.default_options(), Chance("public"))
    answered = REEF.apply(begun, 0, REEF.parse(begun, 0, REEF.default_order(begun, 0)),
                          Chance("answer")).state  # setup: Ann's picks are hers alone
    return [begun, answered, twin(*BEN_A), twin(*BEN_B)]


def mail(state: State, seat: int, lang: str, shared: bool) -> StatusMail:
    view: dict[str, Any] = dict(REEF.view(state, seat))
    return StatusMail("Reef Encounter", "reef-1", seat, NAMES[seat], view, names=NAMES,
                      lang=lang, public=REEF.view(state, None) if shared else None)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_seats_mail_reads_as_if_it_drew_the_shared_part_itself(lang: str) -> None:
    render.TEMPLATES.public.clear()
    for state in states():  # one after another: a part kept from the last state must not show
        for seat in (2, 0, 1):
            assert render_status(REEF, mail(state, seat, lang, shared=True)) == \
                render_status(REEF, mail(state, seat, lang, shared=False)), (state.phase, seat)


def test_the_shared_part_is_kept_by_its_view_and_language() -> None:
    render.TEMPLATES.public.clear()
    first, second = states()[1:3]
    for state in (first, second):
        render_status(REEF, mail(state, 0, "en", shared=True))
    render_status(REEF, mail(first, 1, "fr", shared=True))
    assert len(render.TEMPLATES.public) == 3
    render_status(REEF, mail(second, 2, "en", shared=True))
    assert len(render.TEMPLATES.public) == 3  # the same board for another seat: drawn once


def test_a_view_whose_key_is_written_once_draws_and_keeps_the_same_part() -> None:
    """MoveMails.public hands the renders of a move a PublicView: its JSON written once, the
    same key as the plain view's, the same mail drawn from it."""
    for state in states():
        plain = mail(state, 0, "fr", shared=True)
        written = mail(state, 0, "fr", shared=True)
        assert written.public is not None
        written.public = render.PublicView(written.public)
        render.TEMPLATES.public.clear()
        drawn = render_status(REEF, written)
        assert len(render.TEMPLATES.public) == 1
        render_status(REEF, plain)
        assert len(render.TEMPLATES.public) == 1  # found by the plain view's JSON too
        render.TEMPLATES.public.clear()
        assert render_status(REEF, plain) == drawn


def test_the_spectators_view_shows_no_seats_holdings() -> None:
    """What the shared part is drawn from: Ben's screen and parrotfish are not in it."""
    a, b = (REEF.view(twin(*ben), None) for ben in (BEN_A, BEN_B))
    assert a == b and "you" not in a


_PICTURE = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" data-band="">'
            '<rect x="1" y="1" width="4" height="4" fill="#123456"/></svg>'
            '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" data-band="">'
            '<text x="2" y="8">A &amp; B</text></svg>')


def test_styling_moves_the_sheet_onto_the_elements_and_leaves_each_picture_as_written() -> None:
    """The inliner rewrites what it parses (``<rect/>`` as ``<rect></rect>``): pictures stand
    aside while the rest is styled, and come back byte for byte where they were."""
    page = ("<html><head><style>p { color: red }</style></head><body><p>a</p>" + _PICTURE
            + "<p>b</p><svg width=\"5\" height=\"5\"><circle r=\"2\"/></svg></body></html>")
    done = render.styled(page)
    assert _PICTURE in done and '<svg width="5" height="5"><circle r="2"/></svg>' in done
    assert done.count('<p style="color: red;">') == 2 and "<style>" not in done
    assert done.index("<p style") < done.index(_PICTURE) < done.rindex("<p style")
    fragment = render.styled("<p>a</p>" + _PICTURE, "p { color: red }")
    assert fragment.startswith('<p style="color: red;">a</p>') and _PICTURE in fragment
    # Without pictures: just what the inliner makes of it.
    plain = "<html><head><style>p { color: red }</style></head><body><p>a</p></body></html>"
    assert render.styled(plain) == render._INLINER.inline(plain)


def test_a_slot_mark_the_inliner_copies_sends_the_mail_the_long_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If styling ever copied the mark where the shared part goes, the part would appear
    twice: the mail is then styled whole, and reads as if it drew the part itself."""
    state = states()[2]
    expected = render_status(REEF, mail(state, 1, "en", shared=False))
    kept = render.styled

    def copying(html: str, style: str | None = None) -> str:
        done = kept(html, style)
        return done.replace(render._SLOT, render._SLOT * 2)

    monkeypatch.setattr(render, "styled", copying)
    render.TEMPLATES.public.clear()
    got = render_status(REEF, mail(state, 1, "en", shared=True))
    assert got[1].count(render._SLOT) == 0
    assert got == expected



def test_the_kept_part_says_you_to_no_seat_and_each_mail_to_its_own_seat_only() -> None:
    """The players' table is in the shared part: " — you" stays in it as a mark per seat,
    so the part kept for the move names no reader, and each mail settles the marks for its
    own seat (its row says " — you", no other row does, no mark is left)."""
    render.TEMPLATES.public.clear()
    state = states()[2]
    for seat in (0, 1, 2):
        text, html = render_status(REEF, mail(state, seat, "en", shared=True))
        own = f"{NAMES[seat]}, player {seat + 1}) — you"
        assert text.count(" — you") == html.count(" — you") == 1, seat
        assert own in text and own in html
        assert render.MARK not in text + html and "\ue002" not in text + html
    (part,) = render.TEMPLATES.public.values()
    kept = part["public_txt"] + part["public_html"] + "".join(part["public_parts"].values())
    assert " — you" not in kept.replace("\ue001 — you\ue002", "")
    for seat in (0, 1, 2):  # a mark for every row, in the text, the HTML and its styled copy
        assert kept.count(f"{render.MARK}{seat}\ue001 — you\ue002") == 3


def test_for_reader_decides_for_a_seat_and_marks_for_the_shared_part() -> None:
    env = render.environment()
    tmpl = env.from_string("[{{ for_reader(1, words) }}]")
    assert tmpl.render(words="<you>", seat=1) == "[<you>]"
    assert tmpl.render(words="<you>", seat=0) == tmpl.render(words="<you>", seat=None) == "[]"
    marked = tmpl.render(words="<you>")  # no seat: the shared part
    assert marked == f"[{render.MARK}1\ue001<you>\ue002]"
    assert render.for_seat(marked, 1) == "[<you>]"
    assert render.for_seat(marked, 0) == render.for_seat(marked, None) == "[]"
    html = env.from_string("{% autoescape true %}{{ for_reader(0, words) }}{% endautoescape %}")
    assert html.render(words="<you>") == f"{render.MARK}0\ue001&lt;you&gt;\ue002"


def test_a_players_words_cannot_forge_a_readers_mark() -> None:
    """A name written like a mark (private-use characters, a seat, words) is a player's text
    like any other: every seat's mail shows it as written, none drops or keeps it alone."""
    env = render.environment()
    forged = "Ann\ue0001\ue001 only Ben reads this\ue002"
    part = env.from_string("{{ name }}: {{ for_reader(1, ' — you') }}").render(name=forged)
    assert render.for_seat(part, 1) == forged + ":  — you"
    assert render.for_seat(part, 0) == render.for_seat(part, None) == forged + ": "


def test_in_the_setup_step_a_seats_own_picks_stay_in_its_own_mail() -> None:
    """While the setup is answered, a seat's larva picks are its own: the players' table is
    then drawn per seat, not in the shared part."""
    render.TEMPLATES.public.clear()
    answered = states()[1]
    assert answered.phase == "setup"
    picks = REEF.view(answered, 0)["players"][0]["larvae"]
    assert picks and not REEF.view(answered, 1)["players"][0]["larvae"]
    ann = render_status(REEF, mail(answered, 0, "en", shared=True))
    ben = render_status(REEF, mail(answered, 1, "en", shared=True))
    (part,) = render.TEMPLATES.public.values()
    assert "THE PLAYERS" not in part["public_txt"] and "The players" not in part["public_html"]
    assert "THE PLAYERS" in ann[0] and "THE PLAYERS" in ben[0]
    assert ann[0] != ben[0]
