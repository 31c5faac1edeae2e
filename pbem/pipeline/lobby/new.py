"""``new <game> [players N] [option=value ...]``: open a table; the sender takes seat 1."""

from __future__ import annotations

from typing import Any

from pbem.engine import registry
from pbem.i18n import msg
from pbem.pipeline import command_words as words
from pbem.pipeline import game_options
from pbem.pipeline.lobby.base import Context, Refused, Reply, refused
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.seat_mail import seat_reply
from pbem.pipeline.lobby.tables import check_may_open, open_table, seat_name, take_seat
from pbem.pipeline.seat_language import Line

SUBJECT = msg("Your new table was not opened")


def run(ctx: Context, argument: str) -> Reply:
    try:
        rules, players, options = read(ctx, argument)
        check_may_open(ctx)
    except Refused as exc:
        return refused("new", SUBJECT, exc)
    table = open_table(ctx, rules, players, options)
    seat, code = take_seat(ctx, table, seat_name(ctx, profile_for(ctx.session,
                                                                  ctx.sender).name))
    return seat_reply(ctx, "new: table opened", table, seat, code, [msg(
        "You opened table [{tag}]: {title} for {players} players. You take seat 1.",
        tag=table.tag, title=rules.title, players=players)])


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


def read(ctx: Context, argument: str) -> tuple[Any, int, dict[str, Any]]:
    """The game, the number of seats (the game's least by default), the options."""
    parts = argument.split()
    if not parts:
        raise Refused("no game named", [
            msg("Name the game: {line}", line=f"{ctx.w('new')} GAME {ctx.w('players')} N "
                "[option=value ...]"), games_line()])
    rules = game_named(ctx, parts[0])
    players, items, rest = rules.min_players, [], parts[1:]
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
        elif "=" in token:
            items.append(token)
        else:
            raise Refused("unreadable word", [msg(
                "\"{word}\" is not understood here. Write: {line}", word=token[:40],
                line=f"{ctx.w('new')} {rules.name} {ctx.w('players')} N [option=value ...]")])
    try:
        options = game_options.from_text(rules.title, rules.default_options(), items)
    except game_options.OptionError as exc:
        raise Refused("bad option", [msg("The options were not accepted: {error}.",
                                         error=str(exc))]) from None
    return rules, players, options
