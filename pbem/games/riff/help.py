"""The ``help`` reply: Das Riff's whole order language, with examples, in each language.

One message per paragraph (the catalogue translates each, its example orders written with the
order words of that language: see keywords.py); the English text is the msgids themselves.

The examples use the shipped colour names. A game may rename its colours (the option
``colour_names``); for such a game the examples are written in its own colours, which its
parser reads (shipped names would not parse there).
"""

from __future__ import annotations

import re

from pbem.games.riff.components import default_options
from pbem.games.riff.keywords import words
from pbem.games.riff.state import State
from pbem.i18n.msg import Msg, msg
from pbem.i18n.translate import translator

PARAGRAPHS: tuple[Msg, ...] = (
    msg("""DAS RIFF — HOW TO WRITE YOUR ORDERS"""),
    msg("""The card mix is a reconstruction: no public list of the 60 reef cards exists, so the
counts of fish, corals, pearls, sharks and water cards, the 21 breeding cards and the
colour names keep every known total but are our best guess. A group owning the game
can set its own counts as game options (see RULINGS-ADDENDUM.md); your status email
says which rulings apply."""),
    msg("""Write your whole turn in one email, one action per line, in the order you do them.
Capitals, commas and full stops do not matter; lines starting with # are comments;
several actions may share a line separated by ";"."""),
    msg("""PLACES are a column and a row, as your status email draws them: columns 1-8 from
the sea end (where the boats lie) to the reef end; rows seen from YOUR side:
near (costs 1 worm), middle and far middle (2 each), far (3). "3 near" and
"near 3" are the same place. You fish only in columns where you have a boat."""),
    msg("""THE DICE. Your status email shows the dice for the next turn. Their two worms go to
the player to move at once; the other player takes one worm of a dice colour when
the mover's turn is played, by their standing preference (below). A colour that is
out of the supply is replaced by the first preferred colour still there."""),
    msg("""  prefer red blue green     your worm colours, most wanted first (the rest follow
                            the default: colours your fish need, then colours of
                            the open crosses). Valid in ANY of your mails, also
                            when it is not your turn: a mail holding only "prefer"
                            lines is read at once and changes nothing else."""),
    msg("""YOUR TURN
  buy 3 near                buy the card on 3 near: 1 worm; a fish in its colour,
                            anything else in any colours (a pearl replaces any worm)
  buy 4 far                 3 worms; a face-up middle card costs 2
  buy 5 middle              on a face-down card: the first worm (any colour) turns
                            it, the second buys it (in the fish's colour)
  buy 5 middle if coral or red fish
                            turn it, and buy it only if it is one of these (also:
                            if fish, if red male, if female, if pearl, if shark)
  flip 5 middle             only turn the card (1 worm, any colour); it stays face
                            up; "buy 5 middle" later in the same mail then costs 1
  buy 3 near paying pearl   name the worms (or pearls) yourself; without "paying"
  buy 6 far middle paying blue red red
                            the rules use the fish's colour, else the colours you
                            hold most, and pearls only when worms run out
  boat                      a boat for 3 worms of any colours, under your next
                            column (15 boats in all, 8 at most each)
  attach red male to coral 2
  attach red male and yellow female to coral 1
                            parents on one of your corals (numbered in your status
                            email). A coral takes only parents of one of the 4 open
                            crosses; when both are on, the cross is complete: both
                            fish are discarded, the breeding card goes onto the
                            coral (used up for good) and a new cross is turned —
                            lines after it may complete that one at once.
  shark 4 far               your shark chases any face-up card of the fishing area
  shark my blue female      ... or one of your own fish whose colour fits no open
                            cross (a fish on a coral too)
  pass                      buy nothing (also: done, nothing)"""),
    msg("""At most 5 corals each (completed ones count, unless the game's options say not).
Pearls and sharks you buy are kept for a later turn."""),
    msg("""AFTER YOUR LINES the water flows (cards slide toward the sea, water cards reaching
the sea end are discarded), the area is refilled from the pile (a discard of 7 or
more is shuffled in first), and the dice are rolled for your opponent."""),
    msg("""ONCE A HIDDEN CARD TURNS (a flip, a buy of a face-down card, a new breeding card),
the rest of your mail is played as far as it can be: a line that no longer fits is
skipped and the reply says why. Before that, a line that breaks a rule sends the
whole mail back unplayed, with the reason."""),
    msg("""THE END. The first to complete 5 crosses wins. If the game reaches its turn limit
(an option, 160 turns unless set), the player with more completed crosses wins;
equal is a draw."""),
    msg("""A WHOLE TURN, FOR EXAMPLE
  buy 2 near
  buy 1 middle if coral or fish
  attach red male and yellow female to coral 1
  boat"""),
    msg("""Start your email with "check" to see what would happen without playing (a card
turned in a check is an example, not the real card)."""),
    msg("""PLAYING AGAINST THE COMPUTER. A computer player knows only what its seat may see:
before it thinks, the cards nobody has seen are dealt afresh at random. It tries
every action the rules allow next, judges the game after it (completed crosses,
parents on corals, fish for the open crosses, free corals, boats, pearls, worms)
and takes the best while it gains. It turns a face-down card with "buy ... if",
naming the cards it wants. At level "strong" it imagines more cards and looks one
action further."""),
)


_LEFT = 28  # where the help's right-hand column starts


def help_text(state: State | None = None, lang: str = "en") -> str:
    """The whole help in ``lang`` (English for a language without a catalogue), in
    ``state``'s colour names (the shipped ones when None): a game that renamed its colours
    (option ``colour_names``) gets examples its parser reads."""
    if lang == "en":  # msgids are the English text (and no catalogue is read at import)
        base = "\n\n".join(str(p) for p in PARAGRAPHS) + "\n"
    else:
        tr = translator(lang, "das-riff")
        base = "\n\n".join(tr(p) for p in PARAGRAPHS) + "\n"
    if state is None:
        return base
    shipped: list[str] = default_options()["colour_names"]
    if list(state.colours) == shipped:
        return base
    if lang != "en":  # the help's examples write the first order word of each colour
        table = words(lang)
        shipped = [table[c][0] if c in table else c for c in shipped]
    renamed = dict(zip(shipped, state.colours, strict=False))
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renamed)) + r")\b")
    lines = []
    for line in base.split("\n"):
        new = pattern.sub(lambda m: renamed[m[1]], line)
        example = re.match(r"(  \S.*?)( {2,})(\S.*)$", line)
        if new != line and example and len(example[1]) < _LEFT:  # keep the right column
            left = pattern.sub(lambda m: renamed[m[1]], example[1])
            right = pattern.sub(lambda m: renamed[m[1]], example[3])
            new = f"{left}{' ' * max(2, _LEFT - len(left))}{right}"
        lines.append(new)
    colours = msg("This game's colours: {colours}.", colours=list(state.colours))
    said = str(colours) if lang == "en" else translator(lang, "das-riff")(colours)
    first = "\n\n".join([str(PARAGRAPHS[0]) if lang == "en" else
                         translator(lang, "das-riff")(PARAGRAPHS[0]),
                         str(PARAGRAPHS[1]) if lang == "en" else
                         translator(lang, "das-riff")(PARAGRAPHS[1])])
    text = "\n".join(lines)
    return text.replace(first, f"{first}\n\n{said}", 1) if first in text else text


HELP_TEXT = help_text()
