"""``never``: the host never mails this address again (kept as a hash); no answer, either."""

from __future__ import annotations

from pbem.pipeline.lobby.base import Context, Reply
from pbem.store import lobby as store
from pbem.store.tables import NeverMail


def run(ctx: Context, argument: str) -> Reply:
    del argument
    if not store.said_never(ctx.session, ctx.sender):
        ctx.session.add(NeverMail(address_hash=store.address_hash(ctx.sender), created=ctx.now))
    return Reply("applied", "never: this address gets no more mail", "never", [],
                 send=False)
