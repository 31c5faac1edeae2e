"""The mail pipeline, top to bottom: each handler either decides what becomes of the mail
(and the chain stops) or notes what it found and hands the mail on. One module each, in
``pbem.pipeline.handlers``; the mail commands (a seat's, a profile's, the lobby's), one shape
(``pbem.pipeline.commands.base``), in one registry (``pbem.pipeline.command_registry``)."""

from __future__ import annotations

from collections.abc import Callable

from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.handlers import (
    aside,
    authenticate,
    automatic,
    banned,
    body,
    bounce,
    command,
    game,
    help,
    lobby,
    orders,
    ready,
    say,
    sender,
    status,
    tagless,
    unreadable,
    verified,
    watch,
)
from pbem.pipeline.replies import close

Handler = Callable[[MailContext], Result | None]

CHAIN: tuple[Handler, ...] = (
    # intake: what is no player's mail, or cannot be read
    bounce.handle,        # a delivery report: the failed address noted, never answered
    banned.handle,        # from an address the host bans: kept, never answered
    automatic.handle,     # an auto-reply or a list's mail: kept, never answered
    unreadable.handle,    # too large, or its structure unreadable: a note
    # identify and authenticate
    body.handle,          # the body read: game line, secret, command, talk, orders
    watch.handle,         # watch, unwatch, a reply to a watch mail (any game, any sender)
    lobby.handle,         # no game named: games, new, join, leave, start, invite, confirm
    tagless.handle,       # no game named: the sender's profile, a game's standings
    game.handle,          # the game it names (subject tag, else "game" line), locked
    sender.handle,        # the sender holds a seat in that game
    help.handle,          # "help": answered without a secret
    verified.handle,      # the receiving server vouches for the sender (if required)
    authenticate.handle,  # the secret proves the seat; the game's state read
    aside.handle,         # greeting, closing, signature: set aside, named in the reply
    # play: talk, one command, or orders
    say.handle,           # table talk, delivered whatever becomes of the rest
    status.handle,        # "status"
    command.handle,       # log, waiting, vacation, resign, secret new, mail, language, ...
    ready.handle,         # orders can be played now (seat and game active, the seat's turn)
    orders.handle,        # the orders played (or checked), every seat mailed
)


def run(ctx: MailContext) -> Result:
    """The mail down the chain to the handler that decides it; then the replies and notices
    that follow any outcome (``replies.close``)."""
    for handler in CHAIN:
        result = handler(ctx)
        if result is not None:
            return close(ctx, result)
    raise AssertionError("the last handler decides every mail")
