"""Whether orders can be played now: the seat active, the game active, orders in the mail,
and the seat's turn. Otherwise a reply says why; nothing is played."""

from __future__ import annotations

from pbem.engine.contract import canonical_order, takes_orders
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.engine.every_error import Reader, every_syntax_error
from pbem.i18n import msg
from pbem.pipeline import command_words as words
from pbem.pipeline.commands.base import status_word
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.controllers import stands_in
from pbem.pipeline.order_errors import reason_lines
from pbem.pipeline.replies import notice
from pbem.pipeline.seat_language import Line


def handle(ctx: MailContext) -> Result | None:
    game, seat = ctx.game, ctx.seat
    assert game is not None and seat is not None
    if stands_in(seat) and seat.status != "dropped":  # a resigned player may come back too
        return notice(ctx, "rejected", "a bot stands in", [
            msg("A bot plays your seat in [{tag}] now, so your orders were not played.",
                tag=game.tag),
            msg("To play it yourself again, mail \"{back}\" with your secret line, then "
                "send your orders.", back=words.word("back", ctx.tr.lang))], game,
            msg("A bot plays your seat: nothing played"))
    if seat.status != "active":
        return notice(ctx, "rejected", f"seat {seat.status}", [msg(
            "Your seat in [{tag}] is {status}, so your orders were not played.",
            tag=game.tag, status=status_word(seat.status))], game,
            msg("Your seat is {status}: nothing played", status=status_word(seat.status)))
    if game.status == "paused":  # the mail stays stored (inbound, status rejected)
        return notice(ctx, "rejected", "game paused", [
            msg("Game [{tag}] is paused by its host, so your orders were not played.",
                tag=game.tag),
            msg("Your mail is kept. Everyone gets a new status mail when the game goes on; "
                "please send your orders again then.")], game,
            msg("Game paused: nothing played"))
    if game.status != "active":
        return notice(ctx, "rejected", f"game {game.status}", [msg(
            "Game [{tag}] is {status}; it takes no orders now.", tag=game.tag,
            status=status_word(game.status))], game,
            msg("Game {status}: nothing played", status=status_word(game.status)))
    if not ctx.letter.orders:
        return notice(ctx, "rejected", "no orders", [
            msg("Your mail held no orders, so nothing was played."),
            msg("Send \"{help}\" to get the list of orders.",
                help=words.word("help", ctx.tr.lang))], game,
            msg("No orders found: nothing played"))
    if not takes_orders(ctx.known_rules, ctx.state, seat.index):
        waiting = ctx.known_rules.waiting_for(ctx.state)
        names = [s.name for s in ctx.seats if s.index in waiting]
        lines: list[Line] = [
            msg("It is not your turn, so nothing was played."),
            msg("Waiting for: {names}.", names=", ".join(names)) if names
            else msg("Waiting for: nobody.")]
        if ctx.letter.command == "check":  # checked as far as a turn not yet come allows
            return notice(ctx, "ignored", "not your turn; checked", [
                *lines, "", *_read_out_of_turn(ctx)], game, msg("Check: not your turn"))
        return notice(ctx, "rejected", "not your turn", lines, game,
                      msg("Not your turn: nothing played"))
    return None


def _read_out_of_turn(ctx: MailContext) -> list[Line]:
    """What ``check`` can say of orders sent before the seat's turn: whether each line reads
    as an order (the rules of the board are tried on the seat's turn only)."""
    rules, state, seat, tr = ctx.known_rules, ctx.state, ctx.seat, ctx.tr
    assert seat is not None
    text = canonical_order(rules, state, seat.index, ctx.letter.order_text, seat.language)
    check = words.word("check", tr.lang)
    try:
        rules.parse(state, seat.index, text)
    except OrderSyntaxError as err:
        out: list[Line] = [msg("{check}: these lines could not be read:", check=check)]
        for error in every_syntax_error(rules, state, seat.index, text, err):
            out += ["", *reason_lines(ctx.letter, error, tr, Reader(
                rules, state, seat.index, seat.language or tr.lang))[0]]
        return out
    except IllegalOrder as err:  # the game reads no orders of this seat now
        return [msg("{check}: {reason}", check=check, reason=tr(err.message))]
    return [msg("{check}: your orders read well. Whether the rules allow them is tried on "
                "your turn: send them again then.", check=check)]
