"""``standings reef-2018``: the top of that game's ranking and the sender's own place."""

from __future__ import annotations

from babel.numbers import format_decimal

from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n import msg, nmsg
from pbem.pipeline.commands.base import Reply
from pbem.pipeline.profile.base import ProfileContext
from pbem.pipeline.seat_language import Line
from pbem.store.ratings import standings

TOP = 10  # the lines a reply lists; the sender's own place comes after them


def game_of(typed: str) -> GameRules | None:
    """The game a player names (its id, a former id or an alias), if it is one."""
    if not typed:
        return None
    try:
        return registry.get(typed.strip().lower())
    except KeyError:
        return None


def run(ctx: ProfileContext, argument: str) -> Reply:
    typed = argument.strip()
    rules = game_of(typed)
    command = ctx.w("standings")
    if rules is None:
        known = registry.games()
        return Reply("rejected", "unknown game", [
            msg("\"{command} {typed}\" names no game of this host. Write one of:",
                command=command, typed=typed) if typed else
            msg("Write the game after \"{command}\", one of:", command=command),
            *(f"  {command} {name}   {game.title}" for name, game in sorted(known.items()))])
    return Reply("ignored", f"standings {rules.name}", lines(ctx, rules))


def lines(ctx: ProfileContext, rules: GameRules) -> list[Line]:
    """The reply: the top :data:`TOP` players, then the sender's place."""
    title = rules.title
    table = standings(ctx.session, rules.name)
    if not table:
        return [msg("No game of {title} has finished with a rated result yet, so it has no "
                    "standings.", title=title)]

    def number(value: float) -> str:
        return format_decimal(value, format="0.0", locale=ctx.lang)

    out: list[Line] = [msg("Standings of {title}, best first. A rating is the estimate of a "
                           "player's skill less three times its uncertainty: it grows as you "
                           "play and win.", title=title), ""]
    out += [nmsg("{place}. {name}: {rating} ({n} game, {wins} won)",
                 "{place}. {name}: {rating} ({n} games, {wins} won)", s.games, place=s.place,
                 name=s.name, rating=number(s.rating), wins=s.wins) for s in table[:TOP]]
    mine = next((s for s in table if s.player_id == ctx.player.id), None)
    out.append("")
    if mine is None:
        out.append(msg("You have no rating in {title} yet: it comes with your first finished "
                       "game.", title=title))
    else:
        out.append(msg("Your place: {place} of {count}, rating {rating}.", place=mine.place,
                       count=len(table), rating=number(mine.rating)))
    return out
