"""Status rendering: text grids, the SVG picture and both templates, against golden files.

Regenerate the golden files with ``PBEM_UPDATE_GOLDEN=1 pytest tests/games/reef_encounter``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.render import (
    board_grid,
    cell_symbol,
    counts,
    player_label,
    reef_svg,
    score_terms,
    template_helpers,
)
from pbem.rendering import environment
from tests.support.bands import banded_pictures, worst_difference

GOLDEN = Path(__file__).parent / "golden"

# Boards 2 and 4 as printed (components.toml): ~ sand, . rock, letters are starting polyps.
BOARD_ROWS = {
    2: ["~~~...~", "...G..~", "..Y.~..", ".~...W.", "..O.P..", "~.....~"],
    4: ["~.....~", "...O~..", "..~.G..", ".W.....", "~.P.Y.~", "~..~..~"],
}
NAMES = {"G": "grey", "O": "orange", "P": "pink", "W": "white", "Y": "yellow"}


def sample_board(number: int, shrimps: dict[str, int]) -> dict[str, Any]:
    rows = []
    for r, text in enumerate(BOARD_ROWS[number], start=1):
        row = []
        for c, ch in enumerate(text):
            name = f"{'ABCDEFG'[c]}{r}"
            row.append({"sand": ch == "~", "polyp": NAMES.get(ch), "shrimp": shrimps.get(name),
                        "extra_growth": name == "D4"})
        rows.append(row)
    return {"number": number, "rows": rows}


def sample_view(seat: int | None, behind: dict[str, int] | None = None) -> dict[str, Any]:
    """A view of a two-player game in its first turns, in the documented shape."""
    view: dict[str, Any] = {
        "phase": "play",
        "to_move": 1,
        "turn": 7,
        "boards": [sample_board(2, {"D2": 0}), sample_board(4, {"E3": 1})],
        "open_sea": [
            {"colour": "white", "cube": True, "polyps": ["pink", "grey", "white"]},
            {"colour": "yellow", "cube": True, "polyps": ["orange", "orange", "yellow"]},
            {"colour": "orange", "cube": False, "polyps": []},
            {"colour": "pink", "cube": True, "polyps": ["white", "grey"]},
            {"colour": "grey", "cube": True, "polyps": ["yellow"]},
        ],
        "tiles": [
            {"number": 1, "strong": "white", "weak": "yellow", "large_alga": "green",
             "small_alga": "blue", "cylinder": None},
            {"number": 3, "strong": "pink", "weak": "white", "large_alga": "purple",
             "small_alga": "green", "cylinder": "purple"},
        ],
        "coral_values": {"grey": 3, "orange": 3, "pink": 4, "white": 3, "yellow": 2},
        "alga_space": "red",
        "players": [
            {"seat": 0, "colour": "purple", "consumed": ["orange", "orange"],
             "larvae": ["white"], "polyps_behind": 4, "shrimps_behind": 3, "sea_shrimp": False},
            {"seat": 1, "colour": "green", "consumed": [], "larvae": ["grey", "pink"],
             "polyps_behind": 9, "shrimps_behind": 3, "sea_shrimp": True},
        ],
    }
    if seat is not None:
        view["you"] = {"seat": seat, "colour": view["players"][seat]["colour"],
                       "polyps": behind or {"white": 2, "pink": 2}, "parrotfish": ["yellow"],
                       "to_move": seat == 1}
    return view


def render(name: str, view: dict[str, Any], seat: int | None) -> str:
    env = environment(GAME)  # the game's templates come with the game
    env.globals.update(template_helpers())
    return env.get_template(f"reef-encounter/{name}").render(view=view, seat=seat)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with PBEM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_a_board_is_a_labelled_grid_with_shrimps_and_the_extra_growth_space() -> None:
    grid = board_grid(sample_board(2, {"D2": 0}))
    assert grid.splitlines() == [
        "Board 2",
        "     A  B  C  D  E  F  G",
        "  1  ~  ~  ~  .  .  .  ~",
        "  2  .  .  .  G1 .  .  ~",
        "  3  .  .  Y  .  ~  .  .",
        "  4  .  ~  .  *  .  W  .",
        "  5  .  .  O  .  P  .  .",
        "  6  ~  .  .  .  .  .  ~",
    ]


def test_cell_symbols() -> None:
    assert cell_symbol({"sand": True}) == "~ "
    assert cell_symbol({"sand": False, "polyp": "pink", "shrimp": 3}) == "P4"
    assert cell_symbol({"sand": False, "extra_growth": True, "polyp": None}) == "* "
    assert cell_symbol({"sand": False, "polyp": None, "shrimp": 0}) == ".1"


def test_counts_reads_lists_and_mappings() -> None:
    assert counts(["pink", "white", "pink"]) == "2 pink, 1 white"
    assert counts({"grey": 0, "yellow": 3}) == "3 yellow"
    assert counts([]) == counts(None) == "none"


def test_the_svg_draws_every_cell_and_escapes_what_it_prints() -> None:
    view = sample_view(None)
    svg = str(reef_svg(view))
    # One picture per board (a move redraws only what it changed), the sea's, the tiles'; a
    # board in bands (its unchanging words, then a band per row), the sea in five (each of
    # its two rows' names, then boxes; the alga space and shrimps).
    assert svg.count("<svg") == svg.count("</svg>") == 7 * len(view["boards"]) + 5 + 1
    assert svg.count("<span ") == len(view["boards"]) + 2  # a picture's bands stay together
    assert svg.count('width="26" height="26"') == 2 * 42
    view["open_sea"][0]["colour"] = "<b>white</b>"
    assert "<b>" not in str(reef_svg(view))


@pytest.mark.parametrize("seat", [0, 1, None])
def test_status_text_matches_golden(seat: int | None) -> None:
    check_golden(f"sample_status_seat{seat}.txt", render("status.txt.j2", sample_view(seat), seat))


@pytest.mark.parametrize("seat", [0, None])
def test_status_html_matches_golden(seat: int | None) -> None:
    check_golden(f"sample_status_seat{seat}.html",
                 render("status.html.j2", sample_view(seat), seat))


def test_only_a_seat_sees_its_own_screen() -> None:
    text = render("status.txt.j2", sample_view(0), 0)
    assert "YOUR SCREEN" in text and "2 pink, 2 white" in text and "1 yellow" in text
    assert "YOUR SCREEN" not in render("status.txt.j2", sample_view(None), None)


def test_html_escapes_view_text() -> None:
    view = sample_view(None)
    view["players"][0]["colour"] = "<script>x</script>"
    html = render("status.html.j2", view, None)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_score_terms_show_how_a_parrotfish_scores() -> None:
    values = {"grey": 3, "orange": 3, "pink": 4, "white": 2, "yellow": 3}
    assert score_terms(["pink", "white", "pink"], values) == "2 pink × 4 + 1 white × 2 = 10"
    assert score_terms({"grey": 1}, values) == "1 grey × 3 = 3"
    assert score_terms([], values) == "empty = 0"


def test_players_are_named_by_colour_name_and_number() -> None:
    player = {"seat": 1, "colour": "green"}
    assert player_label(player, ["Ann", "Ben"]) == "Green (Ben, player 2)"
    assert player_label(player) == "Green (player 2)"


def test_the_svg_shows_locks_the_alga_space_and_shrimps_at_sea() -> None:
    svg = str(reef_svg(sample_view(None)))
    assert "locked by a purple alga" in svg
    assert "<title>red alga</title>" in svg
    assert "green (player 2)" in svg  # Ben's shrimp rests on the open sea
    assert svg.count("beats") == 2  # one drawing per coral tile in the view
    # the legend is text after the picture (readable on a phone), not drawn in it
    html = render("status.html.j2", sample_view(None), None)
    assert "beats the coral below it" in html.split("</svg>")[-1]
    assert "beats the coral below it" not in svg


def test_the_bands_of_each_picture_show_it_drawn_whole() -> None:
    """A board is cut into a band per row (and its title's), the sea into five: stacked, their
    PNGs show the picture drawn whole, even where a shrimp's token reaches over a row's top
    line into the band above (a shrimp in every row here, on the first board's edge too)."""
    view = sample_view(None)
    view["boards"][0] = sample_board(2, {f"{col}{r}": r % 2 for r in range(1, 7)
                                         for col in "AG"})
    pictures = banded_pictures(str(reef_svg(view)))
    rows = len(view["boards"][0]["rows"])
    assert [len(bands) for bands in pictures] == [1 + rows] * len(view["boards"]) + [5]
    for bands in pictures:
        assert worst_difference(bands) <= 16, bands[0][:120]
