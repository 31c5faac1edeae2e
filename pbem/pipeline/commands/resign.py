"""``resign``: the seat leaves; the game plays its default orders from then on (or, under the
``bot`` timeout policy, a bot stands in, and ``back`` gives the seat back)."""

from __future__ import annotations

from pbem.engine.contract import Event
from pbem.i18n import Translator, msg
from pbem.pipeline import autoplay, clock, stand_in
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Reply, help_row, status_word, tell_others, words_of
from pbem.pipeline.movelog import log_admin
from pbem.pipeline.seat_language import Line
from pbem.pipeline.stand_in import RESIGNED
from pbem.store.tables import OutboundMessage


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("resign"), msg(
        "leave the game; from then on it plays for you (its default orders, or a bot)"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    game, seat = ctx.game, ctx.seat
    if game.status == "finished":
        return Reply("rejected", "game finished", [msg("Game [{tag}] is over.", tag=game.tag)])
    if seat.status != "active":
        return Reply("rejected", f"seat {seat.status}", [msg(
            "Your seat in [{tag}] is already {status}, so nothing changed.", tag=game.tag,
            status=status_word(seat.status))])
    seat.status = "resigned"
    ctx.session.add(seat)
    by_bot = game.timeout_policy == "bot"
    # Logged like an operator's action: visible in `game log`, checked by `game replay`.
    if by_bot:
        stand_in.take_over(ctx.session, ctx.rules, game, ctx.state, seat,
                           ctx.host.bots.stand_in_level, msg(
                               "{name} resigned; a bot plays for them from now on.",
                               name=seat.name), kind=RESIGNED)
    else:
        log_admin(ctx.session, ctx.rules, game, ctx.state,
                  f"resign seat {seat.index + 1}: {seat.name}",
                  [Event.of(RESIGNED, msg(
                      "{name} resigned; the game plays their default orders from now on.",
                      name=seat.name))], seat=seat.index)
    # The operator's notes stay English: the host's operator reads the host's language.
    queued = _tell_operator(ctx, [
        f"{seat.name} (seat {seat.index + 1}, {seat.address}) resigned from [{game.tag}] "
        f"({ctx.rules.title}) at {clock.when(ctx.host.clock())}.",
        ("A bot plays that seat from now on (the game's timeout policy is bot)." if by_bot
         else "The game plays the default orders for that seat from now on.") +
        " To give it to a new player: "
        f"pbem seat takeover {game.tag} {seat.index + 1} --name NAME --address ADDRESS"])
    news: list[Line] = [msg(
        "{name} has resigned from [{tag}]. From now on a bot plays for them.",
        name=seat.name, tag=game.tag) if by_bot else msg(
        "{name} has resigned from [{tag}]. From now on the game plays its default orders for "
        "them.", name=seat.name, tag=game.tag)]
    lines: list[Line] = [
        msg("You have resigned from [{tag}]. A bot plays your seat from now on. You will "
            "still get its news until it ends; if you change your mind, mail \"{back}\" with "
            "your secret line.", tag=game.tag, back=ctx.w("back")) if by_bot else
        msg("You have resigned from [{tag}]. The game plays its default orders for your seat "
            "from now on. You will still get its news until it ends.", tag=game.tag),
        msg("Thank you for playing.")]
    result = autoplay.settle(ctx.session, ctx.rules, game, ctx.state, ctx.state,
                             ctx.host.clock(), host=ctx.host)
    # One mail to each seat: the resigner's is the reply; the others read the news in the
    # status the host's play for the seat makes, or in a notice when it played nothing.
    if result.played or result.failed:
        queued += clock.tell_autoplay(ctx.session, ctx.host, ctx.rules, game, result,
                                      ctx.host.clock(), skip_seat=seat.index, news=news)
    else:
        queued += tell_others(ctx, news, msg("{name} resigned", name=seat.name))
    if result.failed:  # the others' pause notice, in the reply
        lines.insert(0, msg("Game [{tag}] is paused: {reason}.", tag=game.tag,
                            reason=result.failed[0][1]))
    return Reply("applied", "resigned", lines, queued)


def _tell_operator(ctx: Context, lines: list[Line]) -> list[OutboundMessage]:
    if not ctx.host.mail.operator_address:
        return []
    note = mails.queue_notice(
        ctx.session, ctx.host, to=ctx.host.mail.operator_address, kind="operator", game=ctx.game,
        subj=mails.subject(ctx.game, f"{ctx.rules.title}: a seat resigned"), lines=lines)
    return [note] if note is not None else []
