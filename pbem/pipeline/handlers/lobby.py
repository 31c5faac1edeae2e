"""Mail to the lobby (``games``, ``new``, ``join``, ``leave``, ``start``, ``invite``,
``never``, ``confirm`` or a reply to a join mail; ``help`` with no game): answered in the
sender's language, no game tag needed. Mail naming a game goes on down the chain."""

from __future__ import annotations

import dataclasses

from pbem.i18n import LANGUAGES, msg
from pbem.mail.redact import blank
from pbem.pipeline import command_registry
from pbem.pipeline.commands.base import Context, Reply, Scope
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.handlers.help import lobby_lines, watch_lines
from pbem.pipeline.lobby import never, new
from pbem.pipeline.lobby.answer import answer
from pbem.pipeline.lobby.profile import profile_for
from pbem.pipeline.lobby.read import PROVED_BY_CODE, LobbyMail, read_lobby
from pbem.pipeline.lobby.tables import known, refresh
from pbem.pipeline.tags import TAG_RE
from pbem.store import queries

LOBBY_WORDS = tuple(c.word for c in command_registry.in_scope(Scope.LOBBY))
ARGUMENT_MAX = 200  # a lobby line: a game, a few options; longer is cut before it is read


def handle(ctx: MailContext) -> Result | None:
    letter = ctx.letter
    if letter.game_tag:
        return None
    read = read_lobby(ctx.mail.subject or "", ctx.mail.body_text or "", LOBBY_WORDS)
    # (A game's mail has no lobby command: the one look-up below is for lobby mail only.)
    if (read is None and letter.command != "help") or _names_a_game(ctx):
        return None
    lobby = ctx.host.lobby
    # "never" works with the lobby off too: a watch's mail carries its link.
    if not lobby.enabled and not _never(ctx, read):
        if read is None:
            return None  # help with no game: answered as before
        return _answer(ctx, _context(ctx), Reply(
            "rejected", "lobby: disabled",
            [msg("This game host does not open tables by mail: its operator starts each "
                 "game. Please ask the operator for a game."),
             msg("If you play here already, reply to one of your game's mails, keeping its "
                 "tag such as [name-12] in the subject.")],
            subject=msg("About your mail to the game host")))
    lctx = _context(ctx)
    domain = ctx.sender.rpartition("@")[2]
    if profile_for(ctx.session, ctx.sender).banned or (
            lobby.domains and domain not in lobby.domains):
        return finish(ctx.row, "rejected", "lobby: sender not allowed (banned or its domain "
                      "is not in [lobby] domains); no answer", [])
    refresh(ctx.session, lctx.now)
    # Decided as the mail comes: leaving a table must not make its answer an unproven one.
    proven = known(ctx.session, ctx.sender)
    if read is None:  # help
        reply = Reply("ignored", "lobby: help",
                      [*lobby_lines(lctx.tr), *watch_lines(lctx.tr), "", new.games_line()],
                      subject=msg("How to find a game here"))
    else:
        if read.code:  # blanked in the mail as stored, like a secret
            ctx.secret = read.code
            ctx.said.secrets.extend({read.code.upper(), read.code.lower()} - {read.code})
            ctx.row.subject = blank(ctx.row.subject, [read.code, read.code.upper()])
        reply = run(lctx, read)
        if read.command in PROVED_BY_CODE:
            # Acting for a seat: only its code, not the From line, makes the answer a proven one.
            proven = reply.proved
        else:  # a code that confirms a seat proves the address reads its mail
            proven = proven or (read.command == "confirm" and reply.status == "applied")
    return _answer(ctx, lctx, reply, proven)


def run(ctx: Context, read: LobbyMail) -> Reply:
    command = command_registry.find(Scope.LOBBY, read.command)
    assert command is not None, "read_lobby reads the registry's lobby commands alone"
    ctx.code, ctx.more = read.code, [m[:ARGUMENT_MAX] for m in read.more]
    reply = command.run(ctx, read.argument[:ARGUMENT_MAX])
    return reply if reply.subject is not None else dataclasses.replace(
        reply, subject=command.subject)


def _never(ctx: MailContext, read: LobbyMail | None) -> bool:
    return read is not None and (read.command == "never" or (
        read.command == "confirm" and never.is_never_code(_context(ctx), read.code)))


def _names_a_game(ctx: MailContext) -> bool:
    return any(queries.game_by_tag(ctx.session, tag) is not None
               for tag in TAG_RE.findall(ctx.mail.subject or ""))


def _context(ctx: MailContext) -> Context:
    profile = profile_for(ctx.session, ctx.sender)
    lang = next((lang for lang in (profile.language, ctx.mail.language) if lang in LANGUAGES),
                "en")
    return Context(ctx.session, ctx.host, ctx.sender, lang,
                   sender_name=ctx.mail.from_name or "")


def _answer(ctx: MailContext, lctx: Context, reply: Reply, proven: bool = False) -> Result:
    reason, queued = answer(lctx, reply, proven, ctx.mid, ctx.refs)
    return finish(ctx.row, reply.status, f"lobby: {reason}", [*queued, *reply.queued])

