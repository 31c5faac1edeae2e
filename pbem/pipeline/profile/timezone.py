"""``timezone Europe/Paris`` to the host itself: the time zone of the games joined later."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.commands.timezone import zone_of


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    command = ctx.w("timezone")
    zone = zone_of(typed)
    if zone is None:
        kept = ctx.player.timezone
        return Reply("rejected", "bad time zone", [
            msg("\"{command} {typed}\" is not a time zone: write an IANA name such as "
                "\"{command} Europe/Paris\", \"{command} Europe/Rome\", \"{command} "
                "America/New_York\" or \"{command} UTC\".", command=command, typed=typed),
            *([msg("Your time zone stays {zone}.", zone=kept)] if kept else [])])
    ctx.player.timezone = zone
    ctx.session.add(ctx.player)
    return Reply("applied", f"profile timezone {zone}", [msg(
        "Your profile's time zone is now {zone} (it is {now} there): the games you join from "
        "now on show their dates in it.", zone=zone,
        now=ctx.tr.datetime(ctx.host.clock(), zone))])
