"""``help``: the game's orders and the host's commands, answered without a secret (limited
like any note to a sender who proved nothing)."""

from __future__ import annotations

import json

from pbem.engine.contract import BOT_LEVELS, GameRules
from pbem.engine.contract import help_text as game_help
from pbem.i18n import Translator, msg
from pbem.i18n.translate import ENGLISH
from pbem.pipeline import command_registry
from pbem.pipeline import command_words as words
from pbem.pipeline.command_words import word
from pbem.pipeline.commands.base import Scope, help_row
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.guide_link import guide_line
from pbem.pipeline.replies import stranger
from pbem.pipeline.reply_tokens import REPLY_NEEDS_NO_SECRET
from pbem.pipeline.seat_language import Line
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game


def handle(ctx: MailContext) -> Result | None:
    if ctx.letter.command != "help":
        return None
    game, rules, tr = ctx.game, ctx.known_rules, ctx.tr
    assert game is not None
    link: list[Line] = list(guide_line(ctx.host.site.url, rules.name, tr.lang))
    return stranger(ctx, "ignored", "help", [
        msg("Help for {title} [{tag}]", title=rules.title, tag=game.tag),
        *([msg(rules.about)] if rules.about else []), "",
        help_for(ctx, rules, game, tr.lang), "",
        *how_to_reply(tr), "", *help_lines(tr, ctx.host),
        *(["", *link] if link else []),
    ], game, msg("Help for {title}", title=rules.title), kind="help")


def how_to_reply(tr: Translator) -> list[Line]:
    """The secret line and ``check``, in ``tr``'s words: the help's lines between the game's
    orders and the host's commands (the players' guide page shows the same)."""
    return [
        msg("Write your orders one per line, with a line \"{secret}\".",
            secret=f"{words.word('secret', tr.lang)} " + tr(msg("<your secret>"))),
        REPLY_NEEDS_NO_SECRET,
        msg("Start the mail with \"{check}\" to see what would happen without "
            "playing.", check=words.word("check", tr.lang)),
    ]


def help_for(ctx: MailContext, rules: GameRules, game: Game, lang: str = "en") -> str:
    """The game's help in ``lang`` with examples from this game's state (public places
    only: the game's help shows nothing hidden, as help is answered without a secret)."""
    snapshot = queries.latest_snapshot(ctx.session, game.id or 0)
    return game_help(rules, rules.from_json(json.loads(snapshot.state_json)), lang)


def help_lines(tr: Translator, host: Host | None = None) -> list[str]:
    """The host's commands, as ``help`` lists them, in ``tr``'s language (the command words
    too; the English ones always work as well); ``host``'s limits on table talk."""
    talk = host or Host()
    def w(english: str) -> str:
        return word(english, tr.lang)

    text, name = tr(msg("<text>")), tr(msg("NAME"))

    return [
        tr(msg("Other commands, each alone on the first line of a mail with your secret line:")),
        help_row(w("status"), msg("your current status, sent again"), tr),
        *command_registry.usage(Scope.SEAT, tr),
        help_row(w("help"), msg("this text (no secret needed)"), tr),
        tr(msg("Your profile: \"{name}\", \"{language}\", \"{timezone}\" and \"{mail}\" in a mail "
               "without a game's tag (with your secret line of any game) set the defaults of "
               "every game you join later; \"{standings}\" needs no tag either.",
               name=w("name"), language=w("language"), timezone=w("timezone"), mail=w("mail"),
               standings=w("standings"))),
        tr(msg("Table talk, in any mail, beside orders or alone (with your secret line):")),
        help_row(f"{w('say')} {text}", msg("a message to every other player"), tr),
        help_row(f"{w('say')} {w('to')} {name}: {text}", msg(
            "a message to one player ({name}, or their number 1, 2, ...)", name=name), tr),
        tr(msg("All the talk of one mail reaches each player as one mail, up to {chars} "
               "characters (more is cut, and you are told); talk goes out in at most {mails} "
               "of your mails a day. A secret typed in talk is blanked.",
               chars=talk.limits.talk_chars_per_mail, mails=talk.limits.talk_mails_per_day)),
        *lobby_lines(tr),
        *watch_lines(tr),
        tr(msg("Notes around your orders: put your orders between a line \"{orders}\" and a "
               "line \"{end}\"; only those lines are read, greetings and signatures around "
               "them are left alone.", orders=w("orders"), end=w("end"))),
    ]


def lobby_lines(tr: Translator) -> list[str]:
    """The lobby's commands, each alone in a mail to the host (no game tag, no secret)."""
    def w(english: str) -> str:
        return word(english, tr.lang)

    return [
        tr(msg("Finding a game, each in a mail of its own to this address (no tag, no "
               "secret):")),
        *command_registry.usage(Scope.LOBBY, tr),
        tr(msg("CODE is your seat's code, in the subject of the mail that gave you the seat: "
               "simply reply to that mail with the line, and leave out TAG and CODE.")),
        tr(msg("Playing against the computer: \"{line}\" opens a table whose last N seats "
               "are bots ({levels}; {normal} if not said); they need no confirmation, and the "
               "game starts once the seats for people are confirmed.",
               line=f"{w('new')} GAME {w('players')} N {w('bots')} N {w('strong')}",
               levels=", ".join(w(level) for level in BOT_LEVELS), normal=w("normal"))),
    ]


def watch_lines(tr: Translator) -> list[str]:
    """Watching a game, each in a mail of its own (no secret)."""
    def w(english: str) -> str:
        return word(english, tr.lang)

    return [
        tr(msg("Watching a game, each in a mail of its own (no secret):")),
        help_row(f"{w('watch')} TAG [{w('every')}|{w('turn')}|{w('digest')}]", msg(
            "follow that game as its spectators see it (confirmed by a reply to the mail it "
            "asks with)"), tr),
        help_row(f"{w('unwatch')} TAG", msg("stop watching it"), tr),
    ]


HELP_LINES = help_lines(ENGLISH)  # the English list, as `help` sends it to an English seat
