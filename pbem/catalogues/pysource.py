"""Find the translatable messages in Python source with Python's own parser.

Babel's Python extractor reads tokens, and what it makes of a marker call nested in a
comprehension or subscript has changed between its releases; the catalogue check must not go
red because a library was upgraded. ``ast`` sees exactly the calls the interpreter makes, so a
message is extracted when, and only when, its marker is called with string literals.

The markers and their argument layouts are those :mod:`pbem.i18n.msg` and gettext define.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Layout:
    """Where a marker's texts are among its positional arguments (0-based)."""

    ids: tuple[int, ...]  # the msgid, then the plural msgid when there is one
    context: int | None = None


MARKERS: dict[str, Layout] = {
    "_": Layout((0,)),
    "gettext": Layout((0,)),
    "N_": Layout((0,)),
    "msg": Layout((0,)),  # msg(id, **fields)
    "ngettext": Layout((0, 1)),
    "nmsg": Layout((0, 1)),  # nmsg(singular, plural, n, **fields)
    "pgettext": Layout((1,), context=0),
    "cmsg": Layout((1,), context=0),  # cmsg(context, id, **fields)
    "npgettext": Layout((1, 2), context=0),
}


@dataclass(frozen=True)
class Found:
    """One message: the line of its call, its id (a pair with a plural) and its context."""

    lineno: int
    id: str | tuple[str, str]
    context: str | None


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(node: ast.expr) -> str | None:
    """A plain string: a literal, adjacent literals, or an f-string with nothing to fill in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(
            isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return None


def _message(call: ast.Call, layout: Layout) -> Found | None:
    args = call.args
    needed = [*layout.ids, *([layout.context] if layout.context is not None else [])]
    if any(i >= len(args) or isinstance(args[i], ast.Starred) for i in needed):
        return None
    texts = [_literal(args[i]) for i in layout.ids]
    context = _literal(args[layout.context]) if layout.context is not None else None
    if any(t is None for t in texts) or (layout.context is not None and context is None):
        return None
    strings = [t for t in texts if t is not None]
    if not strings[0]:
        return None
    ident: str | tuple[str, str] = strings[0] if len(strings) == 1 else (strings[0], strings[1])
    return Found(call.lineno, ident, context)


def messages(source: str, filename: str = "<source>") -> Iterator[Found]:
    """Every marked message in ``source``, in the order of the source."""
    found: list[Found] = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        layout = MARKERS.get(name) if name is not None else None
        if layout is None:
            continue
        message = _message(node, layout)
        if message is not None:
            found.append(message)
    yield from sorted(found, key=lambda m: m.lineno)


def messages_in(path: Path) -> Iterator[Found]:
    return messages(path.read_text(encoding="utf-8"), str(path))
