"""Reef (Emerson Matsuuchi, Next Move Games 2018): the complete rules behind the Game contract.

``GAME`` is what the host discovers. Modules: cards (the packaged card list and pattern
placements), state, setup, rules (one order = one turn), legal (the legal orders, from the
rules' checks), scoring (patterns, 'highest' cards, the end), orders/parse (orders as text),
keywords (order words in each language), terms (colours, card lists and the ledger's words as
messages), bot (random and default orders), strategy (the computer player), redeal (what a
seat may see, for its bot), view/render (what a seat may see, drawn), help, templates/ (its
mails), locale/.
"""

from pbem.games.reef2018.game import GAME, Reef

__all__ = ["GAME", "Reef"]
