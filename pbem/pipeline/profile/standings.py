"""``standings reef-2018``: the top of that game's ranking and the sender's own place."""

from __future__ import annotations

from babel.numbers import format_decimal

from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n import Translator, msg, nmsg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
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


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('standings')} GAME", msg(
        "the top of that game's standings and your place (no secret needed)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    # In a game's mail, that game's standings unless the line names another.
    typed = argument.strip() or (ctx.game.game_type if ctx.seated is not None else "")
    rules = game_of(typed)
    command = ctx.w("standings")
    if rules is None:
        known = registry.games()
        return Reply("rejected", "unknown game", [
            msg("\"{command} {typed}\" names no game of this host. Write one of:",
                command=command, typed=typed) if typed else
            msg("Write the game after \"{command}\", one of:", command=command),
            *(f"  {command} {name}   {game.title}" for name, game in sorted(known.items()))])
    # A game's mail is answered under its game's subject; one to the host itself names the game.
    named = None if ctx.seated is not None else msg("Standings: {title}", title=rules.title)
    return Reply("ignored", f"standings {rules.name}", lines(ctx, rules), subject=named)


def lines(ctx: Context, rules: GameRules) -> list[Line]:
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
