"""The orders played (or, after ``check``, tried without playing): the log entry and its
snapshot, the clock restarted, every seat's mail of the move; a refusal explained."""

from __future__ import annotations

import secrets as pysecrets

from pbem.engine.contract import canonical_order
from pbem.engine.errors import IllegalOrder, IllegalOrders, OrderSyntaxError
from pbem.engine.every_error import every_syntax_error
from pbem.engine.replay import play
from pbem.i18n import msg, nmsg
from pbem.pipeline import autoplay, clock
from pbem.pipeline import command_words as words
from pbem.pipeline import outgoing as mails
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.echo import clip
from pbem.pipeline.move_mails import MoveMails
from pbem.pipeline.movelog import record_move
from pbem.pipeline.order_errors import error_lines, refusal
from pbem.pipeline.replies import notice
from pbem.pipeline.seat_language import Line
from pbem.store import queries

ECHO_LINES = 40  # order lines quoted back in a reply


def handle(ctx: MailContext) -> Result | None:
    game, seat, letter = ctx.game, ctx.seat, ctx.letter
    rules, state = ctx.known_rules, ctx.state
    assert game is not None and seat is not None
    index = queries.next_log_index(ctx.session, game.id or 0)
    dry = letter.command == "check"
    # A dry run must not reveal the real chance outcomes of the next entry.
    seed = f"preview/{pysecrets.token_hex(8)}" if dry else f"{game.seed}/{index}"
    echo: list[Line] = [f"> {clip(t)}" for _, t in letter.orders[:ECHO_LINES]]
    if len(letter.orders) > ECHO_LINES:  # a 10,000-line mail gets no 10,000-line answer
        echo.append(msg("> ... ({count} more lines not shown)",
                        count=len(letter.orders) - ECHO_LINES))
    # The seat's words made English, line for line: the log keeps the canonical text, so
    # history and replay read the same in every language.
    text = canonical_order(rules, state, seat.index, letter.order_text, seat.language)
    try:
        applied, record = play(rules, state, seat.index, text, seed)
    except (OrderSyntaxError, IllegalOrder) as err:
        errors: list[Exception] = [err]
        if isinstance(err, OrderSyntaxError):  # every bad line, in one reply
            errors = list(every_syntax_error(rules, state, seat.index, text, err))
        elif isinstance(err, IllegalOrders):  # the game checked the other lines too
            errors = list(err.errors)
        return notice(ctx, "ignored" if dry else "rejected", f"{type(err).__name__}: {err}",
                      error_lines(ctx.tr, rules, state, seat, letter, errors, echo, dry),
                      game, point=refusal(letter, errors, dry))
    tr = ctx.tr
    if dry:
        names = [s.name for s in ctx.seats]
        shown = [f"  - {e.render(tr, names)}" for e in applied.events
                 if e.visible(seat.index)]
        return notice(ctx, "ignored", "dry run", [
            msg("{check}: these orders are legal. Nothing was played.",
                check=words.word("check", tr.lang)), *echo, "",
            msg("If you send them without \"{check}\", this would happen (any chance "
                "outcomes below are examples, not the real draws):",
                check=words.word("check", tr.lang)),
            *(shown or ["  " + tr(msg("(nothing visible)"))]),
        ], game, point=msg("Check: orders legal"))
    # Read once for the clock and every seat's mail of this move (before the entry: the
    # entry, its snapshot and the clock's restart then go in one flush).
    seats = ctx.seats
    record_move(ctx.session, rules, game, index=index, kind="order", seat=seat.index,
                text=text, record=record, state=applied.state,
                source_message_id=ctx.row.id, rate_bots=ctx.host.bots.rated)
    # The clock restarts for a new wait; resigned and bot seats whose turn came are played
    # for (the mails below show the state after them).
    settled = autoplay.settle(ctx.session, rules, game, state, applied.state, ctx.host.clock(),
                              seats=seats, host=ctx.host)
    applied.state = settled.state
    # The clock pass after this one need not look at the game just to find nothing due:
    # its next event goes in the flush that writes the entry (which wrote "look now"
    # there, and the event in another UPDATE at the end). Should the mails below change
    # the game, a seat or the log after all, that flush makes it "look now" again.
    clock.schedule_move(ctx.session, game, clock.Looked(settled.state, seats), with_entry=True)
    move = MoveMails.read(ctx.session, rules, game, applied.state, before=state, seats=seats,
                          mover=mails.movers([seat.name, *(s.name for s, _ in settled.played)],
                                             state))
    # An answer to a step other seats still owe answers to, within one turn of the game's own
    # count (a setup choice): only its sender is mailed. The others' mail would name the same
    # turn again; those still to answer hold their "your move", those done wait for the
    # step's end, when each gets one mail of all of it (every event since its own last move).
    before = rules.waiting_for(state)
    shared = seat.index in before and rules.outcome(applied.state) is None and bool(
        (before & rules.waiting_for(applied.state)) - {seat.index}) and move.same_turn
    queued = []
    for other in seats:
        if other.id == seat.id:
            queued.append(move.queue_status(
                ctx.host, other, kind="reply",
                intro=[msg("Done. Your orders were played:"), *echo, *(
                    [nmsg("({n} line outside \"{orders}\" ... \"{end}\" was left unread.)",
                          "({n} lines outside \"{orders}\" ... \"{end}\" were left unread.)",
                          letter.ignored, orders=words.word("orders", tr.lang),
                          end=words.word("end", tr.lang))]
                    if letter.ignored else []), *ctx.asides],
                in_reply_to=ctx.mid, references=ctx.refs, point=msg("Orders accepted")))
        elif not shared:
            update = move.queue_update(ctx.host, other, talk=ctx.said.note(other, game)
                                       if ctx.said.owed(other) else ())
            if update is not None:
                queued.append(update)
                ctx.told.add(other.index)
    queued += clock.tell_autoplay(ctx.session, ctx.host, rules, game,
                                  autoplay.Autoplay(settled.state, failed=settled.failed),
                                  ctx.host.clock())
    return finish(ctx.row, "applied", f"log entry {index}", queued)
