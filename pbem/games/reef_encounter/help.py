"""The ``help`` reply: Reef Encounter's whole order language, with examples, per language.

Each paragraph is one message of the game's catalogue, so a translation keeps the layout
(examples on the left, at two or five spaces; explanations in the right-hand column) and writes
its examples in its own order words (tests parse every example line of every language).
"""

from __future__ import annotations

from pbem.i18n.msg import Msg, msg
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
Cells are board + column + row: 2F4 is board 2, column F, row 4 (2 f 4 and 2-F-4 work
too). Columns are A-G from left to right, rows 1-6 from top to bottom.
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
  larva orange: 2D3               if 2D3 holds a pink polyp, your orange polyp eats it and
                                  takes its place (the eaten polyp goes in front of your
                                  screen as consumed). You may attack when:
                                  - a coral tile shows orange on top of pink (orange
                                    dominates pink; see "Coral tiles" in your status),
                                  - an orange coral of at least two polyps is next to 2D3,
                                  - no shrimp guards the pink coral (on 2D3 or next to it).
  larva orange: 2D3 2D4           attack twice in one larva action, one cell after another"""),
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
Start your email with "check" to see what would happen without playing."""),
)


def help_text(lang: str = "en") -> str:
    """The whole help in ``lang`` (English for a language without a catalogue)."""
    tr = translator(lang, "reef")
    return "\n\n".join(tr(p) for p in PARAGRAPHS) + "\n"

