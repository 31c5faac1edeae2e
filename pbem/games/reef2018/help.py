"""The ``help`` reply: Reef's whole order language, with examples, in the player's language.

Each paragraph is one message of the game's catalogue; every example is an English order
written in the reader's words by :func:`words.localise_order`, so the examples always read
back (tests/games/reef2018/test_words.py parses each one in every language).
"""

from __future__ import annotations

from pbem.games.reef2018.keywords import GAME_NAME, localise_order
from pbem.games.reef2018.state import State
from pbem.i18n.msg import Msg, msg
from pbem.i18n.translate import Translator, translator

EXAMPLE_WIDTH = 27  # the example column; its description shares the line when 3 spaces
GAP = 3             # still part them (the help's readers split example from description so)
DESCRIPTION = " " * 32
PARAGRAPH = " " * 6  # deeper than the examples (5), so no paragraph line reads as one

# Host commands are the host catalogue's words (context "host command", the first of its
# alternatives is the written form), so the game's catalogue does not repeat them.
HOST_COMMANDS = "host command"

# The examples, in English; each help in another language shows them in its words.
EXAMPLES = (
    "start: red B2, yellow C2, green B3, purple C3",
    "start: red A1, yellow A1, green D4, purple B1",
    "take 17", "take deck", "take deck, token on 23", "take deck paying 23",
    "play 17: red B2, yellow B2", "play 17: B2, C4",
)


def examples(state: State | None = None) -> tuple[str, ...]:
    """:data:`EXAMPLES`, with a game in progress naming cards of its (face-up) market: the
    lowest to take, the highest for the token; the play examples keep card 17 (a hand is
    hidden, and help is answered without a secret)."""
    market = sorted(state.market) if state is not None and state.market else []
    if not market:
        return EXAMPLES
    take, token = market[0], market[-1]
    return (EXAMPLES[0], EXAMPLES[1], f"take {take}", "take deck",
            f"take deck, token on {token}", f"take deck paying {token}", *EXAMPLES[6:])


def help_text(state: State | None = None, lang: str = "en") -> str:
    tr = translator(lang, GAME_NAME)
    shown = examples(state)

    def ex(order: str) -> str:
        return localise_order(order, lang)

    def entry(label: str, order: str, description: Msg) -> list[str]:
        example = ex(order)
        lines = tr(description).split("\n")
        if len(example) + GAP <= EXAMPLE_WIDTH:
            head = [f"  {label}  {example.ljust(EXAMPLE_WIDTH)}{lines[0]}"]
            lines = lines[1:]
        else:
            head = [f"  {label}  {example}"]
        return head + [DESCRIPTION + line for line in lines]

    def indented(text: Msg, indent: str) -> list[str]:
        return [indent + line for line in tr(text).split("\n")]

    out = [tr(msg("REEF — HOW TO WRITE YOUR ORDER")), ""]
    out += tr(msg(
        "One email is one turn: write one order (it may run over several lines). Capitals,\n"
        "commas, colons, the words \"{on}\" and \"{card}\", and a full stop at the end do "
        "not matter.\nLines starting with # or // are comments.",
        on=ex("on"), card=ex("card"))).split("\n")
    out.append("")
    out += tr(msg(
        "Squares of your reef: columns A-D from left to right, rows 1-4 from top to bottom\n"
        "(B2 is column B, row 2). Cards are named by their number, as in your status email\n"
        "(17, R17 and #17 all work). Colours: {colours} (or r, y, g, p).",
        colours=", ".join(ex(c) for c in ("red", "yellow", "green", "purple")))).split("\n")
    out.append("")
    out.append(tr(msg("SETUP (once, at the start; everybody answers at the same time)")))
    out.append("  " + ex(shown[0]))
    out += indented(msg(
        "your 4 starting corals, one of each colour, one on each central square\n"
        "(B2 C2 B3 C3) in the order you like.\n"
        "Advanced variant (if the game was set up with it): any squares but the\n"
        "4 central ones, stacking allowed, e.g.  {example}", example=ex(shown[1])), " " * 6)
    out.append("")
    out.append(tr(msg("YOUR TURN: exactly one of these")))
    out += entry("A", shown[2], msg(
        "take card {card} from the market, with any point tokens\n"
        "on it; the deck's top card takes its place", card=shown[2].split()[-1]))
    out += entry(" ", shown[3], msg(
        "take the deck's top card, paying one of your points\n"
        "as a token onto the market card with the lowest\n"
        "printed value (not allowed with 0 points)"))
    out += entry(" ", shown[4], msg(
        "the same, naming the card for the token when several\n"
        "tie as the cheapest (also: {example})", example=ex(shown[5])))
    out += indented(msg("You may not take a card while you hold 4."), PARAGRAPH)
    out += entry("B", shown[6], msg(
        "play card 17 from your hand: its two corals go on\n"
        "the squares named, in the order written (here the\n"
        "{second} ends on top of the {first}). A coral goes on an\n"
        "empty square or on a stack; no stack grows above 4.",
        first=ex("red"), second=ex("yellow")))
    out += entry(" ", shown[7], msg(
        "without colours the card's corals go in printed order"))
    out += indented(msg(
        "If a supply cannot give a coral, name only the corals it can give. Then the card's\n"
        "pattern scores (see your status email): its points for every time it appears on\n"
        "your reef, in any right-angle rotation, looking only at the top pieces, each top\n"
        "piece used once."), PARAGRAPH)
    out.append("")
    out += _patterns(tr)
    out.append("")
    out.append(tr(msg("THE END")))
    out += indented(msg(
        "When a colour's supply runs out the game ends with the round (the player before the\n"
        "first player plays last); if the deck runs out it ends at once. Each card still in hand\n"
        "then scores its pattern once if it is on your reef. Ties: most covered squares, then\n"
        "most stacks 4 high, then shared."), "  ")
    out.append("")
    out.append(tr(msg("PLAYING AGAINST THE COMPUTER")))
    out += indented(msg(
        "A computer player sees only what its seat sees: the reefs, the market, the deck's\n"
        "top card, the cards played and its own hand. It weighs every legal order by the\n"
        "points it scores now plus what the cards it keeps are worth on its reef (half-built\n"
        "patterns count a little); the strong level also looks one of its own turns ahead."),
        "  ")
    out.append("")
    out.append(tr(msg('Start your email with "{check}" to see what would happen without '
                      "playing.", check=_host_command(tr, "check"))))
    return "\n".join(out) + "\n"


def _host_command(tr: Translator, english: str) -> str:
    """A host command as the host tells its players to write it (its catalogue's words)."""
    look_up = tr.pgettext  # not extracted: the word is the host catalogue's, not ours
    return look_up(HOST_COMMANDS, english).split("|")[0]


def _patterns(tr: Translator) -> list[str]:
    out = [tr(msg("PATTERNS, AS DRAWN IN YOUR STATUS EMAIL"))]
    rows = [("R, Y, G, P", msg("a top piece of that colour at any height; * any colour")),
            ("Y3", msg("a yellow top piece exactly 3 high;  P2+  purple at least 2 high")),
            ("highest Y: +2 per P", msg(
                "2 points for each purple top next to (8 neighbours) your highest\n"
                "yellow stack (the best of tied highest stacks is taken for you)"))]
    for i, (symbol, text) in enumerate(rows):
        lines = tr(text).split("\n")
        label = tr(msg("highest {colour}: +{points} per {scored}", colour="Y", points=2,
                       scored="P")) if i == 2 else symbol
        width = 22 if i == 2 else 12
        if len(label) < width:
            out.append(f"  {label.ljust(width)}{lines[0]}")
            lines = lines[1:]
        else:
            out.append(f"  {label}")
        out += [" " * (2 + width) + line for line in lines]
    return out
