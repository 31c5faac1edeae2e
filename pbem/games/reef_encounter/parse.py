"""Reef Encounter's order language: text a player types on a phone <-> :class:`Order`.

One step per line (or per ``;``-separated part of a line), case-insensitive, with comments
(``#`` or ``//``), blank lines, commas, colons and trailing full stops ignored. The grammar is
``grammar.lark``; this module adds what a grammar cannot say well: colour names and letters,
cell and tile ranges, the setup answer split over lines, and errors that quote the line and
show the nearest valid form. :func:`format_order` writes the canonical text that
:func:`parse_order` reads back.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbem.engine.errors import OrderSyntaxError
from pbem.games.reef_encounter.keywords import foreign_keyword_forms
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
    Step,
    Take,
)
from pbem.i18n.msg import Msg, cmsg, msg

CORAL_COLOURS = ("grey", "orange", "pink", "white", "yellow")
ALGA_COLOURS = ("blue", "green", "purple", "red")
_CORAL_NAMES = {c: c for c in CORAL_COLOURS} | {c[0]: c for c in CORAL_COLOURS} | {"gray": "grey"}
_ALGA_NAMES = {c: c for c in ALGA_COLOURS} | {c[0]: c for c in ALGA_COLOURS}
BOARDS, COLUMNS, ROWS, TILES = range(1, 5), "ABCDEFG", range(1, 7), range(1, 11)

# The nearest valid form for each way a line can start, for error hints.
# Context "order example": each language's catalogue writes them in its own order words.
FORMS: dict[str, Msg] = {
    "eat": cmsg("order example", "eat 2F4"),
    "larva": cmsg("order example",
                  "larva white: 2F3 2E4 consumed 2G4  (or: larva orange for polyp)"),
    "place": cmsg("order example", "place 2F3 2E4  (or: consumed 2G4)"),
    "shrimp": cmsg("order example",
                   "shrimp new 2F4  (or: move shrimp 2F4 to 2G4, move shrimp 2F4 home)"),
    "move": cmsg("order example", "move shrimp 2F4 to 2G4  (or: move shrimp 2F4 home)"),
    "consumed": cmsg("order example", "consumed pink for larva  (or: consumed 2G4 to place one)"),
    "alga": cmsg("order example",
                 "alga purple on tile 3 paying pink  (or: alga red on space paying white)"),
    "take": cmsg("order example", "take pink"),
    "pass": cmsg("order example", "pass"),
    "parrotfish": cmsg("order example", "parrotfish pink; larvae white yellow"),
}
_KEYWORD_FORM = {
    "eat": "eat", "eats": "eat", "feed": "eat",
    "larva": "larva", "larvae": "larva", "cube": "larva", "cubes": "larva", "l": "larva",
    "lv": "larva", "play": "larva", "use": "larva",
    "place": "place", "polyp": "place", "polyps": "place", "put": "place", "pl": "place",
    "shrimp": "shrimp", "sh": "shrimp", "s": "shrimp", "new": "shrimp", "n": "shrimp",
    "move": "move", "mv": "move", "m": "move", "remove": "move", "withdraw": "move",
    "retire": "move",
    "consumed": "consumed", "eaten": "consumed", "cons": "consumed", "c": "consumed",
    "trade": "consumed", "swap": "consumed", "exchange": "consumed", "convert": "consumed",
    "alga": "alga", "algae": "alga", "cylinder": "alga", "alg": "alga", "a": "alga",
    "take": "take", "pick": "take", "collect": "take", "tk": "take", "t": "take",
    "pass": "pass", "nothing": "pass", "do": "pass", "skip": "pass",
    "parrotfish": "parrotfish", "parrot": "parrotfish", "fish": "parrotfish", "pf": "parrotfish",
}
_EVERY_FORM = msg("each line starts with one of: eat, larva, place, shrimp, move, consumed, "
                  "alga, take, pass, parrotfish (send \"help\" for examples)")
# Possessive quantifiers: the digits, separators and letter are disjoint classes, so giving
# nothing back matches the same text, and a long run of digits or spaces costs linear time.
_CELL = re.compile(r"([0-9]++)[ -]*+([a-z])[ -]*+([0-9]++)")
_COMMENT_MARK = re.compile(r"#|//")


@cache
def _parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


def warm_parser() -> None:
    """Build the parser now (see ReefEncounter.warm_up)."""
    _parser()


def _lower(text: str) -> str:
    """Lower-case without changing any character's position (columns must stay right)."""
    if text.isascii():
        return text.lower()
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class _Line:
    """One step's text: where it came from, for error messages."""

    def __init__(self, number: int, start: int, raw: str, full: str) -> None:
        self.number, self.start, self.raw, self.full = number, start, raw, full

    def typed(self, tok: Token) -> str:
        """The token as the player typed it (the parser saw it lower-cased)."""
        if tok.start_pos is None or tok.end_pos is None:
            return str(tok)
        return self.raw[tok.start_pos:tok.end_pos]

    def word_at(self, tok: Token) -> tuple[str, int | None]:
        """The whole word a token lies in, as typed, and its column: the lexer may read a
        keyword off the front of a longer word ("n" of "nwe"), and the player wrote "nwe"."""
        if tok.start_pos is None or tok.end_pos is None:
            return str(tok), tok.column
        start, end = tok.start_pos, tok.end_pos
        while start > 0 and self.raw[start - 1].isalnum():
            start -= 1
        while end < len(self.raw) and self.raw[end].isalnum():
            end += 1
        return self.raw[start:end], start + 1

    def error(self, message: Msg, column: int | None = None, hint: Msg | None = None
              ) -> OrderSyntaxError:
        col = self.start + (column if column is not None else 1)
        return OrderSyntaxError(message, line=self.number, column=col, text=self.full, hint=hint)


def _without_comment(line: str) -> str:
    """``line`` without its comment (from the first ``#`` or ``//``) and the blanks before it."""
    mark = _COMMENT_MARK.search(line)
    return line if mark is None else line[:mark.start()].rstrip()


def _segments(text: str) -> list[_Line]:
    """Split order text into step texts, dropping comments, blanks and trailing full stops."""
    out: list[_Line] = []
    for number, full in enumerate(text.splitlines(), start=1):
        body = _without_comment(full)
        start = 0
        for part in body.split(";"):
            stripped = part.rstrip().rstrip(".!").rstrip()
            lead = len(stripped) - len(stripped.lstrip())
            if stripped.strip():
                out.append(_Line(number, start + lead, stripped.strip(), full))
            start += len(part) + 1
    return out


def _hint_for(first_word: str) -> Msg:
    """The nearest form for a line's first word, in English or in any language's order words
    (canonical_order leaves a word it does not know as typed, so a misspelt "prendr" still
    finds "take")."""
    words = _KEYWORD_FORM | foreign_keyword_forms()
    key = words.get(first_word)
    if key is None:
        if _CELL.match(first_word):
            key = "place"
        else:
            close = difflib.get_close_matches(first_word, list(words), n=1, cutoff=0.6)
            key = words[close[0]] if close else None
    if key is None:
        return _EVERY_FORM
    return msg("for example: {form}", form=FORMS[key])


def _syntax_error(line: _Line, err: UnexpectedInput) -> OrderSyntaxError:
    lowered = _lower(line.raw)
    first = re.split(r"[\W_]+", lowered.strip(), maxsplit=1)[0] if lowered.strip() else ""
    hint = _hint_for(first)
    column = getattr(err, "column", None)
    column = column if isinstance(column, int) and column > 0 else None
    if first not in _KEYWORD_FORM and first not in _CORAL_NAMES and not _CELL.match(first):
        return line.error(msg("I do not know the order \"{word}\":", word=first), 1, hint)
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        return line.error(msg("this line stops too early:"), len(line.raw) + 1, hint)
    if isinstance(err, UnexpectedCharacters):
        bad = line.raw[(column or 1) - 1:].split()[0] if column else line.raw
        return line.error(msg("I cannot read \"{word}\" here:", word=bad), column, hint)
    assert isinstance(err, UnexpectedToken)
    word, column = line.word_at(err.token)
    return line.error(msg("I did not expect \"{word}\" here:", word=word), column, hint)


def _coral(line: _Line, tok: Token) -> str:
    colour = _CORAL_NAMES.get(str(tok))
    if colour is None:
        raise line.error(msg("\"{word}\" is not a coral colour:", word=line.typed(tok)),
                         tok.column, msg("coral colours are grey, orange, pink, white, yellow "
                                         "(or g, o, p, w, y)"))
    return colour


def _alga_colour(line: _Line, tok: Token) -> str:
    colour = _ALGA_NAMES.get(str(tok))
    if colour is None:
        raise line.error(msg("\"{word}\" is not an alga colour:", word=line.typed(tok)),
                         tok.column, msg("alga colours are blue, green, purple, red "
                                         "(or b, g, p, r)"))
    return colour


def _cell(line: _Line, tok: Token) -> Cell:
    m = _CELL.fullmatch(str(tok))
    assert m is not None  # the grammar's CELL has this shape
    board, column, row = int(m[1]), m[2].upper(), int(m[3])
    if board not in BOARDS or column not in COLUMNS or row not in ROWS:
        raise line.error(msg("there is no cell \"{word}\":", word=line.typed(tok)), tok.column,
                         msg("a cell is board 1-4, column A-G, row 1-6, like 2F4"))
    return Cell(board, column, row)


def _tile(line: _Line, tok: Token) -> int:
    if int(tok) not in TILES:
        raise line.error(msg("there is no coral tile {tile}:", tile=str(tok)), tok.column,
                         msg("the coral tiles are numbered 1 to 10"))
    return int(tok)


def _placements(line: _Line, items: list[Token | Tree[Token]]) -> list[Step]:
    """Cells to place; a ``consumed`` word makes every later cell on the line a consumed polyp."""
    steps: list[Step] = []
    consumed = False
    for item in items:
        if isinstance(item, Tree):
            consumed = True
        else:
            steps.append(Place(_cell(line, item), consumed=consumed))
    return steps


def _words(kids: list[Token | Tree[Token]]) -> list[Token]:
    return [k for k in kids if isinstance(k, Token) and k.type == "WORD"]


def _steps(line: _Line, tree: Tree[Token]) -> list[Step]:
    node = tree.children[0]
    assert isinstance(node, Tree)
    kind, kids = str(node.data), node.children
    words = _words(kids)
    cells = [k for k in kids if isinstance(k, Token) and k.type == "CELL"]
    if kind == "eat":
        return [Eat(_cell(line, cells[0]))]
    if kind == "larva":
        return [Larva(_coral(line, words[0])), *_placements(line, kids[1:])]
    if kind == "place":
        return _placements(line, kids)
    if kind == "new_shrimp":
        return [NewShrimp(_cell(line, cells[0]))]
    if kind == "move_shrimp":
        target = _cell(line, cells[1]) if len(cells) > 1 else None
        return [MoveShrimp(_cell(line, cells[0]), target)]
    if kind == "for_larva":
        return [ConsumedForLarva(_coral(line, words[0]))]
    if kind in ("alga", "consumed_alga"):
        where = next(k for k in kids if isinstance(k, Tree) and k.data in ("on_tile", "on_space"))
        tile = None
        if where.data == "on_tile":
            tok = where.children[0]
            assert isinstance(tok, Token)
            tile = _tile(line, tok)
        if kind == "consumed_alga":
            paid, colour = _coral(line, words[0]), _alga_colour(line, words[1])
        else:
            colour = _alga_colour(line, words[0])
            if len(words) < 2:
                raise line.error(msg("say which consumed polyp pays for the alga:"), None,
                                 msg("for example: {form}", form=FORMS["alga"]))
            paid = _coral(line, words[1])
        return [Alga(colour, tile, paid)]
    if kind == "for_polyp":
        return [LarvaForPolyp(_coral(line, words[0]))]
    if kind == "pass":
        return [Pass()]
    if kind == "take":
        return [Take(_coral(line, words[0]))]
    raise AssertionError(kind)  # setup is merged by parse_order


def parse_order(text: str) -> Order:
    """Read a whole email's orders; raises :class:`OrderSyntaxError` at the first bad line.

    ``larva white: 2F3 consumed 2G4`` gives Larva(white), Place(2F3), Place(2G4, consumed).
    The setup answer may be split over lines; it becomes one step where its first part was.
    """
    steps: list[Step] = []
    lines: list[int] = []
    fish: tuple[str, _Line] | None = None
    larvae: tuple[tuple[str, str], _Line] | None = None
    setup_at: int | None = None
    for line in _segments(text):
        try:
            tree = _parser().parse(_lower(line.raw))
        except UnexpectedInput as err:
            raise _syntax_error(line, err) from None
        node = tree.children[0]
        assert isinstance(node, Tree)
        if node.data == "setup":
            if setup_at is None:
                setup_at = len(steps)
            for part in node.children:
                assert isinstance(part, Tree)
                ws = _words(part.children)
                if part.data == "fish_choice":
                    if fish is not None:
                        raise line.error(msg("the parrotfish gets only one polyp:"), None,
                                         msg("answer once: {form}", form=FORMS["parrotfish"]))
                    fish = (_coral(line, ws[0]), line)
                else:
                    if larvae is not None:
                        raise line.error(msg("you choose two larva cubes only once:"), None,
                                         msg("answer once: {form}", form=FORMS["parrotfish"]))
                    larvae = ((_coral(line, ws[0]), _coral(line, ws[1])), line)
            continue
        new = _steps(line, tree)
        steps += new
        lines += [line.number] * len(new)
    if setup_at is not None:
        if fish is None or larvae is None:
            where = (fish or larvae)
            assert where is not None
            missing = (msg("the setup answer also needs two larva cubes:") if fish is not None
                       else msg("the setup answer also needs a polyp for the parrotfish:"))
            raise where[1].error(missing, None, msg("for example: {form}",
                                                    form=FORMS["parrotfish"]))
        steps.insert(setup_at, SetupAnswer(fish[0], larvae[0]))
        lines.insert(setup_at, fish[1].number)
    if not steps:
        raise OrderSyntaxError(msg("I found no orders in your email."),
                               hint=msg("each line starts with one of: eat, larva, place, "
                                        "shrimp, move, consumed, alga, take, pass, parrotfish"))
    return Order(tuple(steps), tuple(lines))


def format_step(step: Step) -> str:
    """One step in canonical text (placements are folded into their larva line by format_order)."""
    if isinstance(step, SetupAnswer):
        return f"parrotfish {step.parrotfish}; larvae {step.larvae[0]} {step.larvae[1]}"
    if isinstance(step, Eat):
        return f"eat {step.cell.name}"
    if isinstance(step, Larva):
        return f"larva {step.colour}"
    if isinstance(step, Place):
        return f"consumed {step.cell.name}" if step.consumed else f"place {step.cell.name}"
    if isinstance(step, NewShrimp):
        return f"shrimp new {step.cell.name}"
    if isinstance(step, MoveShrimp):
        dest = "home" if step.target is None else f"to {step.target.name}"
        return f"move shrimp {step.source.name} {dest}"
    if isinstance(step, ConsumedForLarva):
        return f"consumed {step.colour} for larva"
    if isinstance(step, Alga):
        where = "on space" if step.tile is None else f"on tile {step.tile}"
        return f"alga {step.colour} {where} paying {step.paid}"
    if isinstance(step, LarvaForPolyp):
        return f"larva {step.colour} for polyp"
    if isinstance(step, Pass):
        return "pass"
    if isinstance(step, Take):
        return f"take {step.colour}"
    raise TypeError(f"not a Reef Encounter step: {step!r}")


def format_order(order: Order) -> str:
    """Canonical text for ``order``, one line per action; ``parse_order`` reads it back.

    A larva's placements share its line (``larva white: 2F3 consumed 2G4``) until another
    step, such as a shrimp move, comes between them.
    """
    lines: list[str] = []
    open_larva = False  # the last line is a larva line that placements may still extend
    colon = False  # the last line is a larva line still waiting for its ":"
    consumed = False  # the last line has said "consumed": its later cells are consumed polyps
    for step in order.steps:
        if isinstance(step, Place) and open_larva:
            if not step.consumed and consumed:
                lines.append(f"place {step.cell.name}")
                colon = False
                consumed = False
                continue
            word = "consumed " if step.consumed and not consumed else ""
            lines[-1] += f"{':' if colon else ''} {word}{step.cell.name}"
            colon = False
            consumed = consumed or step.consumed
            continue
        lines.append(format_step(step))
        open_larva = isinstance(step, (Larva, Place))
        colon = isinstance(step, Larva)
        consumed = isinstance(step, Place) and step.consumed
    return "\n".join(lines) + "\n"
