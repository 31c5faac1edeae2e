"""Das Riff (Christine & Wolfgang Lehmann, Kosmos 2000): the complete rules, by email.

``GAME`` is what the host discovers. Modules: components (the box, the reconstructed card
mix and the options), state, setup, area (turning cards, the water, the refill), worms (dice,
preferences, paying), breeding (parents, crosses), buying (cards and boats), context (what a
turn remembers), rules (one order = one turn), legal (the legal next steps, from the rules),
scoring (the end), parse and orders (orders as text), keywords (order words in each
language), terms (names as messages), bot (random and default orders), strategy (the
computer player), redeal (what a seat may see, for its bot), view/render (what a seat may
see, drawn), help, templates/, locale/.

Where every component lives in a State (for invariants):
- reef cards (60): ``area`` slots, ``pile``, ``discard``, and per player ``fish`` (unattached),
  the parents on ``corals``, ``pearls`` and ``sharks`` (corals themselves are reef cards);
- breeding cards (21): ``breeding_open``, ``breeding_pile``, each coral's ``cross``;
- boats (15): ``boats_left`` and each player's ``boats``;
- worms (8 per colour): ``worm_supply`` and each player's ``worms``.
"""

from pbem.games.riff.game import GAME, Riff

__all__ = ["GAME", "Riff"]
