"""``never``: the host never mails this address again (kept as a hash). Anyone can write any
From line, so it takes effect only with proof that the sender reads the address's mail: a
code only mail to it carries (its "never" code, in every mail to someone without a seat and
in ``List-Unsubscribe``, or one of its lobby seats' codes). Without it the host mails that
code first and asks. It never silences a player of a game still played nor the operator:
they are told what they can do instead."""

from __future__ import annotations

import hmac

from pbem.i18n import Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.lobby.tables import proves
from pbem.pipeline.lobby_codes import never_code
from pbem.store import lobby as store
from pbem.store import watchers
from pbem.store.tables import NeverMail

ASK_KIND = "lobby-never"  # the mail that asks first: one a day to an address


def is_never_code(ctx: Context, code: str | None) -> bool:
    return code is not None and hmac.compare_digest(code.strip().upper(),
                                                    never_code(ctx.host, ctx.sender))


def proven(ctx: Context, code: str | None) -> bool:
    """Whether ``code`` proves the sender reads its mail: its never code, or the code of one
    of its lobby seats."""
    return is_never_code(ctx, code) or (code is not None and any(
        proves(seat, code) for seat in store.seats_of(ctx.session, ctx.sender)))


def usage(tr: Translator) -> list[str]:
    return [help_row(words_of(tr)("never"), msg("no more mail from this host, ever"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    del argument  # the code is read off the line or the subject (ctx.code)
    code = ctx.code
    never = ctx.w("never")
    if ctx.sender == (ctx.host.mail.operator_address or "").lower():
        return Reply("rejected", "never: the operator's address is not silenced", [
                         msg("This address is this host's operator address: the host keeps "
                             "writing to it whatever mail comes from it, since anyone can "
                             "write any sender."),
                         msg("To get the operator's notices elsewhere, or none, change "
                             "operator_address in the host's config.")],
                     subject=msg("This address still gets the host's mail"))
    games = store.games_in_play(ctx.session, ctx.sender)
    if games:
        return Reply("rejected", "never: the address plays, not silenced", [
                         msg("This address plays in {games}: the host keeps writing to it "
                             "while its games go on.", games=", ".join(f"[{g}]" for g in games)),
                         msg("For fewer mails, reply to one of your game's mails with the "
                             "line \"{digest}\": one mail a day. To leave a game, reply with "
                             "the line \"{resign}\" and your secret.",
                             digest=f"{ctx.w('mail')} {ctx.w('digest')}",
                             resign=ctx.w("resign"))],
                     subject=msg("This address still gets the host's mail"))
    if proven(ctx, code):
        if not store.said_never(ctx.session, ctx.sender):
            ctx.session.add(NeverMail(address_hash=store.address_hash(ctx.sender),
                                      created=ctx.now))
        watchers.end_all_of(ctx.session, ctx.sender)  # its watches would only be dropped
        return Reply("applied", "never: proven, this address gets no more mail", [],
                     subject="never", send=False)
    mine = never_code(ctx.host, ctx.sender)
    return Reply("ignored", "never: not proven; asked first", [
                     msg("A mail from this address asked this game host never to write to it "
                         "again. Anyone can write any sender, so the host asks first."),
                     msg("If it was you, reply to this mail keeping its subject, or send a "
                         "mail with the line: {line}. The host then never writes to this "
                         "address again, not even to answer.", line=f"{never} {mine}"),
                     msg("If it was not you, do nothing: nothing changes.")],
                 subject=msg("No more mail from this host? code {code}", code=mine),
                 secret=mine, kind=ASK_KIND)
