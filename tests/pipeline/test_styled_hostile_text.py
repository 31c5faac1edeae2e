"""Styling sets a mail's pictures aside as comment marks (render.styled) and puts its public
part in at a mark (render_status): text a player writes (names, the game's title and tag,
echoed orders, table talk) must never be taken for a mark or a picture, so each picture
lands where the game put it, once, and no other picture joins them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem import rendering as render
from pbem.drawing.pictures import picture_spans
from pbem.games.reef_encounter import GAME as REEF
from pbem.rendering import StatusMail, render_status
from tests.pipeline.test_public_part import mail, states

# Every mark styling uses, and a picture, as a player may type them.
HOSTILE = ('<!--pbem-picture-0--><!--pbem-picture-1--><!--pbem-public-part-->'
           '<svg data-band="" width="9" height="9"><rect width="9" height="9"/></svg>')


def written_by(m: StatusMail, text: str) -> StatusMail:
    return replace(m, title=m.title + text, tag=m.tag + text, seat_name=m.seat_name + text,
                   names=[n + text for n in m.names], intro=[text], events=[text],
                   waiting=[text], example_order=text, footer=text, your_turn=True)


def pictures(html: str) -> list[str]:
    return [html[start:end] for start, end in picture_spans(html)]


@pytest.mark.parametrize("shared", [True, False])
def test_player_text_shaped_as_marks_or_pictures_moves_no_picture(shared: bool) -> None:
    render.TEMPLATES.public.clear()
    for state in states():
        for seat in (0, 1):
            plain = render_status(REEF, written_by(mail(state, seat, "en", shared), "x"))[1]
            hostile = render_status(REEF, written_by(mail(state, seat, "en", shared),
                                                     HOSTILE))[1]
            assert pictures(plain)  # the test reaches the pictures
            assert pictures(hostile) == pictures(plain)
            assert "<!--pbem" not in hostile and "&lt;!--pbem-picture-0--&gt;" in hostile


def test_a_mark_the_inliner_writes_out_of_an_attribute_sends_the_page_the_long_way() -> None:
    """css-inline writes an attribute's ``&lt;`` back as ``<``: a mark spelt in one shows up
    after styling, and the page is then styled whole, its pictures in their places."""
    first = '<svg width="5" height="5" data-band=""><rect width="1" height="1"/></svg>'
    second = '<svg width="6" height="6"><circle r="2"/></svg>'
    page = ('<html><head><style>p { color: red }</style></head><body>'
            '<p title="&lt;!--pbem-picture-1--&gt;">a</p>' + first + "<p>b</p>" + second
            + "</body></html>")
    done = render.styled(page)
    assert done == render._INLINER.inline(page)
    assert len(pictures(done)) == 2
    places = [done.index(s) for s in ('red;">a</p>', '<svg width="5"', 'red;">b</p>',
                                       '<svg width="6"')]
    assert places == sorted(places)
