"""Reef Encounter (Richard Breese): the complete rules behind the engine's Game contract.

``GAME`` is what the host discovers. Modules by topic: components/state/setup (the box and a
position), board (cells, corals, coral tiles), placement/attack/shrimps/algae/parrotfish/opensea
(the actions), supply (bag, bonus polyps), context (what a turn remembers), rules (one order =
one turn), steps (each step's check and effect), ending (how the game ends), legal (the legal
steps of a turn, from the rules), scoring (the end), bot (random and default turns), strategy
(the computer player), redeal (what a seat cannot see drawn afresh), orders/parse (orders as
text), keywords (order words in each language), terms (colours as messages), view/render
(what a seat may see, drawn), help, templates/ (its mails), locale/ (its catalogues).

Where every component lives in a State (for invariants; colours are full names):
- polyps (40 per colour): ``polyps`` (cell -> colour), ``bag``, ``bonus``, ``open_sea[i]
  ["polyps"]``, and per seat ``screen``, ``consumed``, ``parrotfish`` (the setup polyp too);
- larva cubes (10 per colour): ``larva_supply``, ``open_sea[i]["larva"]`` (0/1, of the space's
  colour), per seat ``larva``;
- alga cylinders (5 per colour): ``alga_supply``, ``alga_space``, ``cylinders`` (tile id as
  str -> colour);
- shrimps (4 per seat): ``shrimps`` (cell -> seat), per seat ``shrimps_in_hand``,
  ``sea_shrimp`` (0/1) and ``fish_shrimps``.
"""

from pbem.games.reef_encounter.game import GAME, ReefEncounter

__all__ = ["GAME", "ReefEncounter"]
