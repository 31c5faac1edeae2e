"""``timezone Europe/Paris``: the dates in this seat's mails are in that time zone."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.i18n.translate import valid_zone
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of


def zone_of(typed: str) -> str | None:
    """The IANA zone a player wrote (``Europe/Paris``, ``utc``), if it is one; a bare
    abbreviation such as ``CET`` is none (it names no place's rules)."""
    typed = typed.strip()
    if not typed or ("/" not in typed and typed.upper() != "UTC") or not valid_zone(typed):
        return None
    return "UTC" if typed.upper() == "UTC" else typed


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('timezone')} Europe/Paris", msg(
        "the time zone of the dates in your mails (an IANA name; UTC by default)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    command = ctx.w("timezone")
    zone_name = zone_of(typed)
    if zone_name is None:
        return Reply("rejected", "bad time zone", [
            msg("\"{command} {typed}\" is not a time zone: write an IANA name such as "
                "\"{command} Europe/Paris\", \"{command} Europe/Rome\", \"{command} "
                "America/New_York\" or \"{command} UTC\".", command=command, typed=typed),
            msg("Your time zone stays {zone}.", zone=ctx.seat.timezone)])
    ctx.seat.timezone = zone_name
    ctx.session.add(ctx.seat)
    return Reply("applied", f"timezone {zone_name}", [msg(
        "The dates in your mails in [{tag}] are now in the time zone {zone}: it is "
        "{now} there.", tag=ctx.game.tag, zone=zone_name,
        now=ctx.tr.datetime(ctx.host.clock(), zone_name))])
