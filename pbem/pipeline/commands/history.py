"""``history`` (in a game's mail) or ``history TAG``: the game so far as this seat saw it,
the page ``pbem game export --format html --as SEAT`` writes, attached to the reply. A page
too large for this host's mail is not sent: the reply says so and how to get it."""

from __future__ import annotations

import re

from pbem.i18n import Translator, msg
from pbem.mail.compose import Attachment
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of

# Room the reply's own text and headers take beside the page, and base64's growth (4 to 3).
ROOM = 16_000
SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("history"), msg(
        "the game so far as your seat saw it, attached as one page"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    tag = ctx.game.tag
    named = argument.strip().strip("[]")
    if named and named.lower() != tag.lower():
        return Reply("rejected", "history: another game's tag", [msg(
            "\"{named}\" is not the tag of this mail's game, [{tag}]: write \"{history}\" "
            "alone in a mail of the game you mean.", named=named[:40], tag=tag,
            history=ctx.w("history"))])
    make = ctx.host.archive_page
    page = make(ctx.session, ctx.game, ctx.seat.index).encode() if make is not None else None
    limit = ctx.host.limits.max_message_bytes
    if page is None or len(page) * 4 // 3 + ROOM > limit:
        operator = ctx.host.mail.operator_address or ctx.tr(msg("the operator"))
        return Reply("rejected", "history: page too large to mail" if page is not None
                     else "history: no pages on this host", [
                         msg("The history of [{tag}] is too large to mail here ({size} kB; "
                             "mail from this host is at most {limit} kB).", tag=tag,
                             size=len(page) // 1000, limit=limit // 1000)
                         if page is not None else
                         msg("This host does not mail the history of a game."),
                         msg("Ask {operator} for the page: they write it with \"{command}\".",
                             operator=operator,
                             command=f"pbem game export {tag} --format html "
                                     f"--as {ctx.seat.index + 1}")])
    return Reply("ignored", "history", [
        msg("The history of [{tag}] as your seat saw it is attached: one page, to open in a "
            "web browser.", tag=tag)],
        attachment=Attachment('text/html; charset="utf-8"', page,
                              f"{SAFE_NAME.sub('-', tag)}-history.html"))
