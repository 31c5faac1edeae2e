"""The game contract is declared once: every optional hook has its default on
:class:`~pbem.engine.contract.Game` only, the registry admits nothing else, and no host module
asks a game what it has (``getattr``/``hasattr``)."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import pbem
from pbem.engine import contract, registry
from pbem.engine.chance import Chance, Draw
from pbem.engine.contract import Applied, Game, Outcome, Seat, View
from pbem.ops.operator_errors import Explained, explain
from tests.support.testgame import GAME as TEST_GAME

PBEM = Path(pbem.__file__).resolve().parent
CONTRACT = PBEM / "engine" / "contract.py"
GAME_LIKE = {"rules", "game", "known_rules", "game_rules"}  # names the host gives a game


def _game_class() -> ast.ClassDef:
    tree = ast.parse(CONTRACT.read_text(encoding="utf-8"))
    return next(node for node in tree.body
                if isinstance(node, ast.ClassDef) and node.name == "Game")


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return body[1:]
    return body


def _is_ellipsis(body: list[ast.stmt]) -> bool:
    rest = _without_docstring(body)
    return (len(rest) == 1 and isinstance(rest[0], ast.Expr)
            and isinstance(rest[0].value, ast.Constant) and rest[0].value.value is Ellipsis)


def members() -> tuple[set[str], set[str]]:
    """The contract's (required, optional) members, read from ``Game``'s source: a method
    whose body is ``...`` or an attribute without a value is required; anything else is an
    optional hook and its body or value is its default."""
    required: set[str] = set()
    optional: set[str] = set()
    for node in _game_class().body:
        if isinstance(node, ast.FunctionDef):
            (required if _is_ellipsis(node.body) else optional).add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            (required if node.value is None else optional).add(node.target.id)
    return required, optional


def host_modules() -> Iterator[Path]:
    """Every module of pbem outside its games (a game may look at itself as it likes)."""
    games = PBEM / "games"
    return (p for p in sorted(PBEM.rglob("*.py")) if games not in p.parents)


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def game_probes(source: str, contract_names: set[str]) -> list[tuple[int, str]]:
    """Each ``getattr``/``hasattr`` call in ``source`` that asks a game what it has: by a
    contract member's name, or with any name on a value the host names as a game; and each
    signature read of a contract member (sniffing which arguments a game's method takes)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        if _last_name(node.func) == "signature" and node.args:
            if _last_name(node.args[0]) in contract_names | GAME_LIKE:
                found.append((node.lineno, ast.unparse(node)))
            continue
        if not (isinstance(node.func, ast.Name) and node.func.id in {"getattr", "hasattr"}
                and len(node.args) >= 2):
            continue
        target, attr = node.args[0], node.args[1]
        named = attr.value if isinstance(attr, ast.Constant) else None
        if named in contract_names or _last_name(target) in GAME_LIKE:
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_contract_has_required_members_and_hooks_with_defaults() -> None:
    required, optional = members()
    assert {"name", "setup", "parse", "apply", "view", "help_text"} <= required
    assert {"check_options", "takes_orders_out_of_turn", "example_order", "canonical_order",
            "localise_order", "order_words", "redeal", "bot_order", "draw_audience",
            "warm_up", "former_ids", "tag_prefix", "showcase"} <= optional
    assert not required & optional


def test_no_host_module_asks_a_game_what_it_has() -> None:
    required, optional = members()
    probes = {f"{path.relative_to(PBEM.parent)}:{line}": call
              for path in host_modules()
              for line, call in game_probes(path.read_text(encoding="utf-8"),
                                            required | optional)}
    assert probes == {}


def test_the_scan_finds_a_probe_of_a_game() -> None:
    """The scan above catches the probes the contract replaced (run over the host before the
    contract declared its hooks, it finds each of them, 20 in all)."""
    required, optional = members()
    names = required | optional
    assert game_probes('hook = getattr(rules, "warm_up", None)', names)
    assert game_probes('if hasattr(game, "example_order"): pass', names)
    assert game_probes('about = getattr(obj, "about", "")', names)
    assert game_probes("x = getattr(ctx.known_rules, name)", names)
    assert game_probes("sig = inspect.signature(cls.help_text)", names)
    assert not game_probes("sig = inspect.signature(handler)", names)
    assert not game_probes('line = getattr(err, "line", None)', names)
    assert not game_probes('g = getattr(module, "GAME", None)', names)


def test_every_default_is_declared_once_on_game_and_nowhere_else_in_the_host() -> None:
    """A hook's default lives on Game: no other class of the host defines a method or a class
    attribute of that name, so nothing else can hold a second default for it (a data field
    that carries a hook's answer, as a mail's ``example_order``, is no default)."""
    _, optional = members()
    elsewhere = []
    for path in host_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or (path == CONTRACT and node.name == "Game"):
                continue
            for item in node.body:
                name = (item.name if isinstance(item, ast.FunctionDef)
                        else item.target.id if isinstance(item, ast.AnnAssign)
                        and isinstance(item.target, ast.Name)
                        and "ClassVar" in ast.unparse(item.annotation) else None)
                if name in optional:
                    elsewhere.append(f"{path.relative_to(PBEM.parent)}:{node.name}.{name}")
    assert elsewhere == []


class Bare(Game[int, str]):
    """A game with the required members only: every hook is the contract's default."""

    name = "bare"
    title = "Bare"
    about = ""
    min_players = 1
    max_players = 2

    def default_options(self) -> dict[str, Any]:
        return {}

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> int:
        return 0

    def waiting_for(self, state: int) -> frozenset[Seat]:
        return frozenset({0}) if state < 3 else frozenset()

    def parse(self, state: int, seat: Seat, text: str) -> str:
        return text

    def apply(self, state: int, seat: Seat, order: str, chance: Chance) -> Applied[int]:
        return Applied(state + 1)

    def view(self, state: int, seat: Seat | None) -> View:
        return {"count": state}

    def outcome(self, state: int) -> Outcome | None:
        return None if state < 3 else Outcome({0: state}, [[0]])

    def to_json(self, state: int) -> dict[str, Any]:
        return {"count": state}

    def from_json(self, data: Mapping[str, Any]) -> int:
        return int(data["count"])

    def random_order(self, state: int, seat: Seat, rng: random.Random) -> str:
        return f"step {rng.randint(1, 9)}"

    def default_order(self, state: int, seat: Seat) -> str:
        return "step 1"

    def help_text(self, state: int | None = None, lang: str = "en") -> str:
        return "step N"

    def template_dirs(self) -> Sequence[Path]:
        return ()

    def template_helpers(self) -> Mapping[str, Any]:
        return {}


def test_a_game_without_hooks_gets_every_default_from_the_contract() -> None:
    _, optional = members()
    bare = Bare()
    for name in optional:  # nothing of Bare's own: each comes from Game
        assert name not in vars(Bare), name
        assert name in vars(Game), name
    draw = Draw("deal", 3, "7")
    assert contract.option_problems(bare, {}) == []
    assert contract.option_alternatives(bare) == {}
    assert not contract.takes_orders(bare, 0, 1) and contract.takes_orders(bare, 0, 0)
    assert bare.example_order(0, 0) == "step 1"
    assert contract.canonical_order(bare, 0, 0, "stap 2", "nl") == "stap 2"
    assert contract.localise_order(bare, "step 2", "fr") == "step 2"
    assert contract.order_words(bare) == frozenset()
    assert bare.redeal(2, 0, random.Random(1)) == 2
    assert contract.bot_order(bare, 0, 0, random.Random(5), "strong") == \
        bare.random_order(0, 0, random.Random(5))
    assert contract.draw_audience(bare, draw, 2) == frozenset()
    bare.warm_up()  # nothing to build, and no error
    assert (bare.former_ids, bare.aliases, bare.showcase) == ((), (), False)
    assert registry.tag_prefix(bare) == "bare"


def test_the_registry_admits_a_game_that_derives_from_the_contract() -> None:
    registry.register(Bare())
    try:
        assert registry.get("bare").name == "bare"
        assert registry.get("BARE").title == "Bare"
    finally:
        registry.unregister("bare")
    assert registry.admit(TEST_GAME) is TEST_GAME


# Bare's own members on a class that does not derive from Game: a game written to the
# contract's required members alone, which lacks every hook the host calls.
LooksLikeAGame = type("LooksLikeAGame", (), {k: v for k, v in vars(Bare).items()
                                              if not k.startswith("__")})


@pytest.mark.parametrize("offered", [object(), LooksLikeAGame()], ids=["object", "lookalike"])
def test_the_registry_refuses_what_is_not_a_game_with_a_fix(offered: object) -> None:
    with pytest.raises(registry.InvalidGame) as refused:
        registry.admit(offered)
    where = f"{type(offered).__module__}.{type(offered).__qualname__}"
    assert refused.value.message == f"{where} is not a pbem game"
    assert refused.value.fix == ("derive its class from pbem.engine.contract.Game and implement "
                                 "the members that contract leaves as `...`")
    assert "bare" not in registry.games()
    # The operator reads it as one error line and one fix line, never a traceback.
    assert explain(refused.value) == Explained(refused.value.message, refused.value.fix)


class Nameless(Bare):
    name = ""


class Backwards(Bare):
    min_players = 3
    max_players = 2


def test_the_registry_refuses_a_game_without_a_name_or_with_no_player_count() -> None:
    with pytest.raises(registry.InvalidGame) as nameless:
        registry.register(Nameless())
    assert nameless.value.fix == "set both class attributes"
    with pytest.raises(registry.InvalidGame) as backwards:
        registry.register(Backwards())
    assert backwards.value.message == "bare: players 3–2"
    assert backwards.value.fix == "set 1 <= min_players <= max_players"


@pytest.mark.parametrize(("view", "turn"), [
    ({"turn": 4}, 4), ({"turn": 0}, 0), ({}, None), ({"turn": True}, None),
    ({"turn": "4"}, None), (None, None)])
def test_the_view_s_turn_is_read_only_as_the_contract_declares_it(
        view: dict[str, Any] | None, turn: int | None) -> None:
    assert contract.view_turn(view) == turn
