"""The ``help`` reply: Reef Encounter's whole order language, with examples, per language.

Each paragraph is one message of the game's catalogue, so a translation keeps the layout
(examples on the left, at two or five spaces; explanations in the right-hand column) and writes
its examples in its own order words (tests parse every example line of every language).

The examples are written for boards 2, 1 and 3. For a game in progress they are moved onto
that game's own boards (a 3-player game may have no board 1), each cell onto the nearest rock
cell of its board, and the parrotfish and attack examples onto polyps really on the reef —
all public: help is answered without a secret. Cells are moved the same way in every language
(the English text decides which example cell goes where).
"""

from __future__ import annotations

import re

from pbem.games.reef_encounter.board import board_of, name
from pbem.games.reef_encounter.keywords import alternatives
from pbem.games.reef_encounter.nearest import nearest
from pbem.games.reef_encounter.state import State
from pbem.i18n.msg import Msg, cmsg, msg
from pbem.i18n.translate import translator

PARAGRAPHS: tuple[Msg, ...] = (
    msg("""\
REEF ENCOUNTER — HOW TO WRITE YOUR ORDERS"""),
    msg("""\
Write your whole turn in one email, one action per line, in the order you do them.
Capitals, extra spaces, commas, colons and full stops do not matter. Lines starting
with # or // are comments; blank lines are ignored. You may also put several actions
on one line separated by ";"."""),
    msg("""\
Cells are board + column + row: {ex} is board {exb}, column {exc}, row {exr} ({spaced} and
{dashed} work too). Columns are A-G from left to right, rows 1-6 from top to bottom.
Coral colours: grey, orange, pink, white, yellow (or g, o, p, w, y).
Alga colours:  blue, green, purple, red (or b, g, p, r).
Coral tiles are numbered 1 to 10, as in your status email."""),
    msg("""\
SETUP (once, at the start, in secret)
  parrotfish pink; larvae white yellow
      one polyp from behind your screen goes into your parrotfish, and you choose two
      larva cubes. Short: pf p; l w y"""),
    msg("""\
YOUR TURN (actions 1-10 of the rules)
  1  eat 2F4                      your parrotfish eats the coral on 2F4 (first line only;
                                  short: feed 2F4, parrotfish eats 2F4)
  2  larva white: 2F3 2E4 2G4     play a white larva cube and place white polyps from
                                  behind your screen on 2F3, 2E4 and 2G4
     larva yellow: 1C5 consumed 1D5 1E5
                                  after the word "consumed", the polyps come from the
                                  consumed polyps in front of your screen (here 1D5, 1E5)
  3  larva pink: 3A2 3B2          a second larva cube, the same way
     place 2F5 / consumed 2G6     more placements for the current larva on their own line
                                  (a line of cells alone, like "2F5 2F6", also works)
  4  shrimp new 2F4               a new shrimp from behind your screen onto 2F4
                                  (short: s n 2F4, new shrimp 2F4, shrimp on 2F4)
  5  move shrimp 2F4 to 2G4       move a shrimp (at any moment, even between two
                                  placements; short: mv 2F4 2G4, shrimp 2F4 -> 2G4)
     move shrimp 2F4 home         take it back behind your screen (also: remove 2F4)
  6  consumed pink for larva      a consumed pink polyp becomes a pink larva cube
  7  alga purple on tile 3 paying pink
                                  a consumed pink polyp buys a purple alga, played at
                                  once on coral tile 3 (short: a p t 3 c p)
     alga red on space paying white
                                  ... or on the alga space (also written:
                                  consumed white for alga red on space)
  8  larva orange for polyp       an orange larva cube becomes an orange polyp
  9  pass                         do nothing (also: nothing, skip)
  10 take pink                    end your turn: take the pink larva cube from the open
                                  sea with its polyps (compulsory, always last)"""),
    msg("""\
ATTACKING: PLACE A POLYP ON THE ENEMY POLYP'S CELL
  larva {att_word}: 2D3{pad}if 2D3 holds a {victim} polyp, your {att} polyp eats it and
                                  takes its place (the eaten polyp goes in front of your
                                  screen as consumed). You may attack when:
                                  - a coral tile shows {att} on top of {victim} ({att}
                                    dominates {victim}; see "Coral tiles" in your status),
                                  - an {att} coral of at least two polyps is next to 2D3,
                                  - no shrimp guards the {victim} coral (on 2D3 or next to it).
  larva {att_word}: 2D3 2D4{pad}attack twice in one larva action, one cell after another"""),
    msg("""\
A WHOLE TURN, FOR EXAMPLE
  eat 2F4
  larva white: 2F3 2E4
  move shrimp 2B2 to 2E4
  2G4 2F5
  shrimp new 2F3
  consumed pink for alga purple on tile 3
  take yellow"""),
    msg("""\
PLAYING AGAINST THE COMPUTER
A computer player sees only what its seat may see: the reefs, the open sea, everyone's
larva cubes and consumed polyps, its own screen and parrotfish. What it cannot see (the
bag, the other screens, the polyp each other player fed the parrotfish at setup) it
imagines afresh every turn. It builds several whole turns from the legal actions (eating
its best meal, growing and guarding its corals, taking the richest open-sea space), plays
each one out and keeps the one that leaves it furthest ahead of the best other player.
Expect it to grow big corals under its shrimps before it eats them: attack them early."""),
    msg("""\
Start your email with "check" to see what would happen without playing."""),
)

BOARDS = msg("This game's boards: {boards}. The examples below use them.")


_CELL = re.compile(r"\b([1-4])([A-G])([1-6])\b")
_GENERIC_BOARDS = (2, 1, 3)  # the boards the examples are written for, in this order
_LEFT = 34  # where the help's right-hand column starts
_PAD = "\t"  # stands for the spaces up to the right-hand column (widths differ per language)
_FIELD = re.compile("\x00(\\w+)\x00")  # a field filled in after the cells are moved


def help_text(state: State | None = None, lang: str = "en") -> str:
    """The whole help in ``lang`` (English for a language without a catalogue), its examples
    on ``state``'s boards and polyps (generic when None: boards 2, 1 and 3 as printed, sand
    cells moved onto rock)."""
    boards = list(_GENERIC_BOARDS) if state is None else list(state.boards)
    polyps = {} if state is None else state.polyps
    cells = _Cells(boards, polyps)
    eat = cells.polyp_near("2:F4")
    attacked = cells.polyp_near("2:D3", other_than=polyps.get(eat))
    victim = polyps.get(attacked, "pink")
    att = next(c for c in ("orange", "pink", "white", "yellow", "grey") if c != victim)
    # Which example cell goes where is decided on the English text, so every language
    # shows the same cells whatever order its sentences name them in.
    for p in PARAGRAPHS:
        for m in _CELL.finditer(p.id):
            cells.place(f"{m[1]}:{m[2]}{m[3]}")
    ex = name(eat)
    late = {"ex": ex, "exb": ex[0], "exc": ex[1], "exr": ex[2:],
            "spaced": f"{ex[0]} {ex[1].lower()} {ex[2:]}", "dashed": f"{ex[0]}-{ex[1]}-{ex[2:]}"}
    fields = {k: f"\x00{k}\x00" for k in late} | {
        "att": cmsg("colour", att), "victim": cmsg("colour", victim),
        "att_word": alternatives(lang, att)[0], "pad": _PAD}
    tr = translator(lang, "reef-encounter")
    paragraphs = [tr(Msg(p.id, fields if "{" in p.id else {})) for p in PARAGRAPHS]
    if state is not None:
        paragraphs[2] += "\n" + tr(msg(BOARDS.id, boards=", ".join(str(b) for b in boards)))
    text = "\n\n".join(paragraphs) + "\n"
    text = _CELL.sub(lambda m: name(cells.place(f"{m[1]}:{m[2]}{m[3]}")), text)
    text = _FIELD.sub(lambda m: late[m[1]], text)
    return "\n".join(_aligned(line) for line in text.split("\n"))


def _aligned(line: str) -> str:
    """An example line with its explanation moved to the right-hand column."""
    if _PAD not in line:
        return line
    example, explanation = line.split(_PAD, 1)
    return example + " " * max(3, _LEFT - len(example)) + explanation


class _Cells:
    """Where each generic example cell goes: the same spot on the board standing in for its
    board, or the nearest rock cell there not used by another example (sand is never shown);
    the parrotfish and attack examples on polyps really on the reef."""

    def __init__(self, boards: list[int], polyps: dict[str, str]) -> None:
        self.boards = {g: boards[i % len(boards)] for i, g in enumerate(_GENERIC_BOARDS)}
        self.polyps = polyps
        self.fixed: dict[str, str] = {}
        self.used: set[str] = set()

    def _spot(self, generic: str) -> str:
        return f"{self.boards[int(generic[0])]}:{generic.split(':')[1]}"

    def place(self, generic: str) -> str:
        if generic not in self.fixed:
            spot = self._spot(generic)
            self.fixed[generic] = next(
                (k for k in nearest(spot, [board_of(spot)]) if k not in self.used), spot)
        self.used.add(self.fixed[generic])
        return self.fixed[generic]

    def polyp_near(self, generic: str, other_than: str | None = None) -> str:
        """The polyp nearest the example's spot on its board (of another colour than
        ``other_than``); the spot itself when that board holds none."""
        spot = self._spot(generic)
        for k in nearest(spot, [board_of(spot)]):
            colour = self.polyps.get(k)
            if colour is not None and colour != other_than and k not in self.used:
                self.fixed[generic] = k
                self.used.add(k)
                return k
        return self.place(generic)
