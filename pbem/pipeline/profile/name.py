"""``name Ann Example``: the name the standings and the game pages show this player by."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.store.players import NAME_MAX, usable_name


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('name')} Ann Example", msg(
        "the name the standings and the game pages show you by (never your address)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    typed = " ".join(argument.split())
    name = usable_name(typed) if len(typed) <= NAME_MAX else None
    command = ctx.w("name")
    if name is None:
        return Reply("rejected", "bad name", [
            msg("Write the name others should see after \"{command}\", for example "
                "\"{command} Ann Example\": at most {limit} characters, and no email "
                "address (the standings are public).", command=command, limit=NAME_MAX)])
    ctx.player.name = name
    ctx.session.add(ctx.player)
    return Reply("applied", "name set", [msg(
        "Your name is now \"{name}\": the standings and the game pages show you by it, never "
        "by your address.", name=name)])
