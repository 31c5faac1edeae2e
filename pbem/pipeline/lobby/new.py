"""``new <game> [players N] [option=value ...]``: open a table; the sender takes seat 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine import registry
from pbem.engine.contract import BOT_LEVELS, GameRules, option_alternatives, option_problems
from pbem.i18n import Translator, msg, translator
from pbem.pipeline import command_words as words
from pbem.pipeline import game_options
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.controllers import DEFAULT_LEVEL
from pbem.pipeline.lobby.base import Refused, refused
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.seat_mail import seat_reply
from pbem.pipeline.lobby.tables import check_may_open, open_table, seat_name, take_seat
from pbem.pipeline.seat_language import Line

SUBJECT = msg("Your new table was not opened")


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    return [help_row(f"{w('new')} GAME {w('players')} N [option=value ...]", msg(
        "open a table; you take its first seat"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    try:
        wish = read(ctx, argument)
        check_may_open(ctx)
    except Refused as exc:
        return refused("new", SUBJECT, exc)
    table = open_table(ctx, wish.rules, wish.players, wish.options, wish.bots, wish.level)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, "new: table opened", table, seat, code, [msg(
        "You opened table [{tag}]: {title} for {players} players. You take seat 1.",
        tag=table.tag, title=wish.rules.title, players=wish.players)])


def game_named(ctx: Context, name: str) -> Any:
    """The game ``name`` calls (its id, a former id, an alias); refused with the list."""
    try:
        return registry.get(name)
    except registry.UnknownGame:
        raise Refused("unknown game", [
            msg("This host has no game called \"{name}\".", name=name[:40]), games_line(),
            msg("For example: {line}", line=f"{ctx.w('new')} "
                f"{sorted(registry.games())[0] if registry.games() else 'GAME'} "
                f"{ctx.w('players')} 2")]) from None


def games_line() -> Line:
    return msg("The games of this host: {games}.", games=", ".join(
        f"{g.name} ({g.title})" for _, g in sorted(registry.games().items())))


@dataclass(frozen=True)
class Wish:
    """What a ``new`` (or a matchmaking ``join``) line asks for."""

    rules: GameRules
    players: int  # every seat, bot seats included
    options: dict[str, Any]
    bots: int = 0  # the last seats, played by the host's bots
    level: str = DEFAULT_LEVEL
    players_named: bool = False  # "players N" was written
    level_named: bool = False  # and a level after it


def read(ctx: Context, argument: str) -> Wish:
    """The game, the number of seats (the game's least by default, or one more than the
    bots), the bot seats and their level, the options."""
    parts = argument.split()
    if not parts:
        raise Refused("no game named", [
            msg("Name the game: {line}", line=f"{ctx.w('new')} GAME {ctx.w('players')} N "
                "[option=value ...]"), games_line()])
    rules = game_named(ctx, parts[0])
    players: int | None = None
    bots, level = 0, None
    items: list[str] = []
    rest = parts[1:]
    while rest:
        token = rest.pop(0)
        if words.is_word(token, "players") and rest:
            number = rest.pop(0)
            if not number.isdigit() or not (
                    rules.min_players <= int(number) <= rules.max_players):
                raise Refused("players out of range", [msg(
                    "{title} takes {least} to {most} players, not {count}.", title=rules.title,
                    least=rules.min_players, most=rules.max_players, count=number[:10])])
            players = int(number)
        elif words.is_word(token, "bots"):
            bots, level = _bots(ctx, rules, rest)
        elif "=" in token:
            items.append(_whole_value(token, rest))
        else:
            raise Refused("unreadable word", [msg(
                "\"{word}\" is not understood here. Write: {line}", word=token[:40],
                line=f"{ctx.w('new')} {rules.name} {ctx.w('players')} N "
                     f"[{ctx.w('bots')} N [{ctx.w('strong')}]] [option=value ...]")])
    seats = players if players is not None else max(rules.min_players, bots + 1)
    if bots >= seats or seats > rules.max_players:
        raise Refused("no seat for a person", [msg(
            "A table needs at least one seat for a person: {title} takes {least} to {most} "
            "players, bots included, and {bots} bots leave none of {players} seats.",
            title=rules.title, least=rules.min_players, most=rules.max_players, bots=bots,
            players=seats)])
    defaults = rules.default_options()
    try:
        options = game_options.from_text(rules.title, defaults, items,
                                            option_alternatives(rules))
    except game_options.OptionError as exc:
        raise Refused("bad option", [msg("The options were not accepted: {error}.",
                                         error=exc.message)]) from None
    # The game's own check, now: its setup would refuse the same options only when the table
    # starts, after every player had joined. Its words are in the game's catalogue.
    problems = option_problems(rules, {**defaults, **options})
    if problems:
        tr = translator(ctx.tr.lang, rules.name)
        raise Refused("bad game option", [msg("The options were not accepted: {error}.",
                                              error=tr(problem)) for problem in problems])
    return Wish(rules, seats, options, bots, level or DEFAULT_LEVEL, players is not None,
                level is not None)


def _whole_value(token: str, rest: list[str]) -> str:
    """``name=value`` with the words after it that a JSON value written with spaces was
    split into (``colours=["red", "blue"]``), taken from ``rest`` until its brackets close."""
    while rest and _open_brackets(token) > 0:
        token += " " + rest.pop(0)
    return token


def _open_brackets(text: str) -> int:
    """How many of ``text``'s ``[`` and ``{`` are still open (those inside strings aside)."""
    depth, quoted, escaped = 0, False, False
    for char in text:
        if quoted:
            escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth


def _bots(ctx: Context, rules: GameRules, rest: list[str]) -> tuple[int, str | None]:
    """``bots N [level]``: how many bot seats and how well they play (None: not said), taken
    from ``rest``."""
    number = rest.pop(0) if rest else ""
    if not number.isdigit() or int(number) >= rules.max_players:
        raise Refused("bots out of range", [msg(
            "Write how many seats the computer plays, from 0 to {most}, not \"{count}\": "
            "{line}", most=rules.max_players - 1, count=number[:10],
            line=f"{ctx.w('bots')} 1 [{' | '.join(ctx.w(lv) for lv in BOT_LEVELS)}]")])
    level = next((lv for lv in BOT_LEVELS if rest and words.is_word(rest[0], lv)), None)
    if level is not None:
        rest.pop(0)
    return int(number), level

