"""The order language: every form reads, round-trips, and every mistake explains itself."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.errors import OrderSyntaxError

pytest.importorskip("pbem.games.reef_encounter.orders", reason="no orders.py yet")

from pbem.games.reef_encounter.help import help_text
from pbem.games.reef_encounter.orders import (
    Alga,
    Cell,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Order,
    Pass,
    Place,
    SetupAnswer,
    Take,
)
from pbem.games.reef_encounter.parse import (
    ALGA_COLOURS,
    CORAL_COLOURS,
    format_order,
    parse_order,
)

C = Cell


def steps(text: str) -> list[object]:
    return list(parse_order(text).steps)


def test_the_issue_sketch_reads_step_by_step() -> None:
    text = """\
eat 2F4
larva white: 2F3 2E4 2G4 2F5
shrimp new 2F4
move shrimp 2F4 to 2G4
larva yellow: 1C5 1D5 consumed 1E5
alga purple on tile 3 paying pink
alga red on space paying white
consumed pink for larva
larva orange for polyp
take pink
"""
    assert steps(text) == [
        Eat(C(2, "F", 4)),
        Larva("white"),
        Place(C(2, "F", 3)), Place(C(2, "E", 4)), Place(C(2, "G", 4)), Place(C(2, "F", 5)),
        NewShrimp(C(2, "F", 4)),
        MoveShrimp(C(2, "F", 4), C(2, "G", 4)),
        Larva("yellow"),
        Place(C(1, "C", 5)), Place(C(1, "D", 5)), Place(C(1, "E", 5), consumed=True),
        Alga("purple", 3, "pink"),
        Alga("red", None, "white"),
        ConsumedForLarva("pink"),
        LarvaForPolyp("orange"),
        Take("pink"),
    ]


def test_each_step_remembers_its_line() -> None:
    order = parse_order("# a comment\n\neat 2F4\nlarva white: 2F3 2E4\ntake pink\n")
    assert list(order.lines) == [3, 4, 4, 4, 5]


@pytest.mark.parametrize(("text", "expected"), [
    ("EAT 2f4.", [Eat(C(2, "F", 4))]),
    ("feed 2 f 4", [Eat(C(2, "F", 4))]),
    ("parrotfish eats coral 2-F-4", [Eat(C(2, "F", 4))]),
    ("l w: 2F3, c 2G4", [Larva("white"), Place(C(2, "F", 3)), Place(C(2, "G", 4), True)]),
    ("play larva Grey 3A1", [Larva("grey"), Place(C(3, "A", 1))]),
    ("gray larva", [Larva("grey")]),
    ("2F3 2F4", [Place(C(2, "F", 3)), Place(C(2, "F", 4))]),
    ("place consumed 2F3", [Place(C(2, "F", 3), True)]),
    ("consumed 2F3 2F4", [Place(C(2, "F", 3), True), Place(C(2, "F", 4), True)]),
    ("new shrimp 4A1", [NewShrimp(C(4, "A", 1))]),
    ("shrimp on 4A1", [NewShrimp(C(4, "A", 1))]),
    ("s n 4A1", [NewShrimp(C(4, "A", 1))]),
    ("mv 2F4->2G4", [MoveShrimp(C(2, "F", 4), C(2, "G", 4))]),
    ("shrimp 2F4 -> 2G4", [MoveShrimp(C(2, "F", 4), C(2, "G", 4))]),
    ("move shrimp 2F4 home", [MoveShrimp(C(2, "F", 4), None)]),
    ("move shrimp 2F4 behind the screen", [MoveShrimp(C(2, "F", 4), None)]),
    ("remove shrimp 2F4", [MoveShrimp(C(2, "F", 4), None)]),
    ("trade consumed p into cube", [ConsumedForLarva("pink")]),
    ("a p t 3 c p", [Alga("purple", 3, "pink")]),
    ("alga b on the alga space, paid with consumed y", [Alga("blue", None, "yellow")]),
    ("consumed w for alga g on tile 10", [Alga("green", 10, "white")]),
    ("swap larva o for polyp", [LarvaForPolyp("orange")]),
    ("do nothing", [Pass()]),
    ("skip", [Pass()]),
    ("take larva Y", [Take("yellow")]),
    ("tk g", [Take("grey")]),
    ("pf p; l w y", [SetupAnswer("pink", ("white", "yellow"))]),
    ("larvae white yellow\nparrotfish pink", [SetupAnswer("pink", ("white", "yellow"))]),
    ("parrotfish pink larvae white white", [SetupAnswer("pink", ("white", "white"))]),
    ("eat 2F4 // first\n  # later\ntake w", [Eat(C(2, "F", 4)), Take("white")]),
])
def test_short_long_and_sloppy_forms(text: str, expected: list[object]) -> None:
    assert steps(text) == expected


def test_a_move_between_placements_keeps_them_apart() -> None:
    order = parse_order("larva white: 2F3\nmove shrimp 2F4 to 2G4\n2F4")
    assert list(order.steps) == [Larva("white"), Place(C(2, "F", 3)),
                                 MoveShrimp(C(2, "F", 4), C(2, "G", 4)), Place(C(2, "F", 4))]
    assert parse_order(format_order(order)) == order


def test_every_help_example_reads() -> None:
    # Examples sit at 2 or 5 spaces (after an action number); prose is indented deeper.
    pattern = re.compile(r"^(?:  \d{1,2} {1,2}|  |     )(?=\S)(.+?)(?:\s{3,}.*)?$")
    examples = [m[1] for ln in help_text(None).splitlines() if (m := pattern.match(ln))]
    assert len(examples) > 20
    for example in examples:
        for part in example.split(" / "):
            assert parse_order(part).steps, part


# --- round trip ---------------------------------------------------------------------------

cells = st.builds(C, st.integers(1, 4), st.sampled_from("ABCDEFG"), st.integers(1, 6))
corals = st.sampled_from(CORAL_COLOURS)
step_strategy = st.one_of(
    st.builds(Eat, cells),
    st.builds(Larva, corals),
    st.builds(Place, cells, st.booleans()),
    st.builds(NewShrimp, cells),
    st.builds(MoveShrimp, cells, st.none() | cells),
    st.builds(ConsumedForLarva, corals),
    st.builds(Alga, st.sampled_from(ALGA_COLOURS), st.none() | st.integers(1, 10), corals),
    st.builds(LarvaForPolyp, corals),
    st.builds(Pass),
    st.builds(Take, corals),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(step_strategy, min_size=1, max_size=14))
def test_format_then_parse_gives_the_same_steps(order_steps: list[object]) -> None:
    order = Order(tuple(order_steps))  # type: ignore[arg-type]
    assert list(parse_order(format_order(order)).steps) == order_steps


@given(st.builds(SetupAnswer, corals, st.tuples(corals, corals)))
def test_the_setup_answer_round_trips(answer: SetupAnswer) -> None:
    assert list(parse_order(format_order(Order((answer,)))).steps) == [answer]


# --- every class of syntax error, with the message a player gets --------------------------

@pytest.mark.parametrize(("text", "message"), [
    ("mvoe shrimp 2F4 to 2G4",
     'line 1, column 1: I do not know the order "mvoe": "mvoe shrimp 2F4 to 2G4" — '
     "for example: move shrimp 2F4 to 2G4  (or: move shrimp 2F4 home)"),
    ("xyzzy",
     'line 1, column 1: I do not know the order "xyzzy": "xyzzy" — each line starts with one '
     "of: eat, larva, place, shrimp, move, consumed, alga, take, pass, parrotfish "
     '(send "help" for examples)'),
    ("eat 2F4\neat",
     'line 2, column 4: this line stops too early: "eat" — for example: eat 2F4'),
    ("take pink 2F4",
     'line 1, column 11: I did not expect "2F4" here: "take pink 2F4" — for example: take pink'),
    ("eat 2F4 ???",
     'line 1, column 9: I cannot read "???" here: "eat 2F4 ???" — for example: eat 2F4'),
    ("larva blue: 2F3",
     'line 1, column 7: "blue" is not a coral colour: "larva blue: 2F3" — coral colours are '
     "grey, orange, pink, white, yellow (or g, o, p, w, y)"),
    ("alga grey on space paying pink",
     'line 1, column 6: "grey" is not an alga colour: "alga grey on space paying pink" — '
     "alga colours are blue, green, purple, red (or b, g, p, r)"),
    ("eat 5H9",
     'line 1, column 5: there is no cell "5H9": "eat 5H9" — a cell is board 1-4, column A-G, '
     "row 1-6, like 2F4"),
    ("alga red on tile 11 paying pink",
     'line 1, column 18: there is no coral tile 11: "alga red on tile 11 paying pink" — '
     "the coral tiles are numbered 1 to 10"),
    ("alga red on tile 3",
     'line 1, column 1: say which consumed polyp pays for the alga: "alga red on tile 3" — '
     "for example: alga purple on tile 3 paying pink  (or: alga red on space paying white)"),
    ("parrotfish pink",
     'line 1, column 1: the setup answer also needs two larva cubes: "parrotfish pink" — '
     "for example: parrotfish pink; larvae white yellow"),
    ("larvae white yellow",
     "line 1, column 1: the setup answer also needs a polyp for the parrotfish: "
     '"larvae white yellow" — for example: parrotfish pink; larvae white yellow'),
    ("parrotfish pink\nparrotfish grey; larvae white yellow",
     'line 2, column 1: the parrotfish gets only one polyp: "parrotfish grey; larvae white '
     'yellow" — answer once: parrotfish pink; larvae white yellow'),
    ("larvae w y; parrotfish p; larvae o o",
     'line 1, column 27: you choose two larva cubes only once: "larvae w y; parrotfish p; '
     'larvae o o" — answer once: parrotfish pink; larvae white yellow'),
    ("# only a comment\n\n",
     "I found no orders in your email. — each line starts with one of: eat, larva, place, "
     "shrimp, move, consumed, alga, take, pass, parrotfish"),
])
def test_syntax_errors_tell_the_player_where_and_what(text: str, message: str) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(text)
    assert str(caught.value) == message


def test_an_error_quotes_the_line_as_typed_and_keeps_the_hint_apart() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order("eat 2F4\n  Larva WHITE: 2F3 9A9  # oops")
    err = caught.value
    assert (err.line, err.column) == (2, 20)
    assert err.text == "  Larva WHITE: 2F3 9A9  # oops"
    assert str(err.hint) == "a cell is board 1-4, column A-G, row 1-6, like 2F4"
