"""``forget``: the player asks, with their seat's secret, to be forgotten by the host. The
request is noted on their profile and the operator told; the operator carries it out
(``pbem player forget``), or with ``[retention] forget_by_mail = "after_games"`` the host does
once the player's games have ended (pbem.ops.player_data). Nothing is removed at once: a
request is proof of the address, not yet the end of its games."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline import clock
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.store import players
from pbem.store.tables import OutboundMessage

AFTER_GAMES = "after_games"


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("forget"), msg(
        "ask the host to forget your address and name (done once the operator confirms, or "
        "your games have ended)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    del argument
    player = players.ensure(ctx.session, ctx.seat.address)
    by_host = ctx.host.retention.forget_by_mail == AFTER_GAMES
    queued: list[OutboundMessage] = []
    if player.forget_asked_at is None:
        player.forget_asked_at = ctx.host.clock()
        ctx.session.add(player)
        queued = _tell_operator(ctx, by_host)
    return Reply("applied", "forget asked", [
        msg("Your request to be forgotten is noted. Once your games have ended, the host "
            "removes your address and name; your games stay, played by \"a former player\".")
        if by_host else
        msg("Your request to be forgotten is noted, and the host's operator told. Once they "
            "confirm it, the host removes your address and name; your games stay, played by "
            "\"a former player\"."),
        msg("Until then you play and get mail as before.")], queued)


def _tell_operator(ctx: Context, by_host: bool) -> list[OutboundMessage]:
    if not ctx.host.mail.operator_address:
        return []
    seat = ctx.seat
    # The operator's notes stay English: the host's operator reads the host's language.
    note = mails.queue_notice(
        ctx.session, ctx.host, to=ctx.host.mail.operator_address, kind="operator", game=ctx.game,
        subj=mails.subject(ctx.game, f"{ctx.rules.title}: a player asks to be forgotten"),
        lines=[f"{seat.address} (seat {seat.index + 1} of [{ctx.game.tag}]) asked by mail, "
               f"with the seat's secret, to be forgotten, at {clock.when(ctx.host.clock())}.",
               "The host forgets them by itself once all their games have ended "
               "([retention] forget_by_mail = \"after_games\")." if by_host else
               f"To confirm: pbem player forget {seat.address}  (`pbem player export "
               f"{seat.address}` first writes what the host holds about them)."])
    return [note] if note is not None else []
