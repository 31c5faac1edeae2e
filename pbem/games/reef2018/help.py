"""The ``help`` reply: Reef's whole order language, with examples.

For a game in progress the "take" examples name cards really in its market (the market is
face up); the "play" examples keep card 17, as a hand is hidden and help needs no secret.
"""

from __future__ import annotations

from pbem.games.reef2018.state import State

HELP_TEXT = """\
REEF — HOW TO WRITE YOUR ORDER

One email is one turn: write one order (it may run over several lines). Capitals,
commas, colons, the words "on" and "card", and a full stop at the end do not matter.
Lines starting with # or // are comments.

Squares of your reef: columns A-D from left to right, rows 1-4 from top to bottom
(B2 is column B, row 2). Cards are named by their number, as in your status email
(17, R17 and #17 all work). Colours: red, yellow, green, purple (or r, y, g, p).

SETUP (once, at the start; everybody answers at the same time)
  start: red B2, yellow C2, green B3, purple C3
      your 4 starting corals, one of each colour, one on each central square
      (B2 C2 B3 C3) in the order you like.
      Advanced variant (if the game was set up with it): any squares but the
      4 central ones, stacking allowed, e.g.  start: red A1, yellow A1, green D4, purple B1

YOUR TURN: exactly one of these
  A  take {take:<21} take card {take} from the market, with any point tokens
                                on it; the deck's top card takes its place
     take deck                  take the deck's top card, paying one of your points
                                as a token onto the market card with the lowest
                                printed value (not allowed with 0 points)
     take deck, token on {token:<6} the same, naming the card for the token when several
                                tie as the cheapest (also: take deck paying {token})
      You may not take a card while you hold 4.
  B  play 17: red B2, yellow B2
                                play card 17 from your hand: its two corals go on
                                the squares named, in the order written (here the
                                yellow ends on top of the red). A coral goes on an
                                empty square or on a stack; no stack grows above 4.
     play 17: B2, C4            without colours the card's corals go in printed order
      If a supply cannot give a coral, name only the corals it can give. Then the card's
      pattern scores (see your status email): its points for every time it appears on
      your reef, in any right-angle rotation, looking only at the top pieces, each top
      piece used once.

PATTERNS, AS DRAWN IN YOUR STATUS EMAIL
  R, Y, G, P  a top piece of that colour at any height; * any colour
  Y3          a yellow top piece exactly 3 high;  P2+  purple at least 2 high
  highest Y: +2 per P   2 points for each purple top next to (8 neighbours) your highest
                        yellow stack (the best of tied highest stacks is taken for you)

THE END
  When a colour's supply runs out the game ends with the round (the player before the
  first player plays last); if the deck runs out it ends at once. Each card still in hand
  then scores its pattern once if it is on your reef. Ties: most covered squares, then
  most stacks 4 high, then shared.

Start your email with "check" to see what would happen without playing.
"""


def help_text(state: State | None) -> str:
    """The help; its market examples from ``state``'s market (cards 17 and 23 when None)."""
    market = sorted(state.market) if state is not None else []
    take = market[0] if market else 17
    token = market[-1] if market else 23
    return HELP_TEXT.format(take=take, token=token)
