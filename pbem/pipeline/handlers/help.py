"""``help``: the game's orders and the host's commands, answered without a secret (limited
like any note to a sender who proved nothing)."""

from __future__ import annotations

import json

from pbem.engine.contract import BOT_LEVELS, GameRules
from pbem.engine.contract import help_text as game_help
from pbem.i18n import LANGUAGES, Translator, msg
from pbem.i18n.translate import ENGLISH
from pbem.pipeline import command_words as words
from pbem.pipeline.command_words import word
from pbem.pipeline.commands.log import LOG_DEFAULT
from pbem.pipeline.context import MailContext, Result
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
    return stranger(ctx, "ignored", "help", [
        msg("Help for {title} [{tag}]", title=rules.title, tag=game.tag),
        *([msg(rules.about)] if rules.about else []), "",
        help_for(ctx, rules, game, tr.lang), "",
        msg("Write your orders one per line, with a line \"{secret}\".",
            secret=f"{words.word('secret', tr.lang)} " + tr(msg("<your secret>"))),
        REPLY_NEEDS_NO_SECRET,
        msg("Start the mail with \"{check}\" to see what would happen without "
            "playing.", check=words.word("check", tr.lang)),
        "", *help_lines(tr, ctx.host),
    ], game, msg("Help for {title}", title=rules.title), kind="help")


def help_for(ctx: MailContext, rules: GameRules, game: Game, lang: str = "en") -> str:
    """The game's help in ``lang`` with examples from this game's state (public places
    only: the game's help shows nothing hidden, as help is answered without a secret)."""
    snapshot = queries.latest_snapshot(ctx.session, game.id or 0)
    return game_help(rules, rules.from_json(json.loads(snapshot.state_json)), lang)


def _help_row(command: str, what: Line, tr: Translator) -> str:
    return f"  {command:<23} {tr(what) if not isinstance(what, str) else what}"


def help_lines(tr: Translator, host: Host | None = None) -> list[str]:
    """The host's commands, as ``help`` lists them, in ``tr``'s language (the command words
    too; the English ones always work as well); ``host``'s limits on table talk."""
    talk = host or Host()
    def w(english: str) -> str:
        return word(english, tr.lang)

    text, name = tr(msg("<text>")), tr(msg("NAME"))

    return [
        tr(msg("Other commands, each alone on the first line of a mail with your secret line:")),
        _help_row(w("status"), msg("your current status, sent again"), tr),
        _help_row(f"{w('log')} [N]", msg("the last N moves (default {count}), as you may see "
                                         "them", count=LOG_DEFAULT), tr),
        _help_row(w("waiting"), msg("who the game is waiting for, and until when"), tr),
        f"  {w('vacation')} {w('until')} YYYY-MM-DD   " + tr(msg(
            "pause your clock until that day ({off}: back early)",
            off=f"{w('vacation')} {w('off')}")),
        _help_row(w("resign"), msg("leave the game; from then on it plays for you (its "
                                   "default orders, or a bot)"), tr),
        _help_row(w("back"), msg("play your seat yourself again after a bot took it over (a "
                                 "missed deadline, or resign)"), tr),
        _help_row(w("forget"), msg("ask the host to forget your address and name (done once "
                                   "the operator confirms, or your games have ended)"), tr),
        _help_row(f"{w('secret')} {w('new')}", msg(
            "a new secret, mailed to your registered address; the old one stops working (do "
            "it if a mail of yours may have been seen)"), tr),
        _help_row(f"{w('mail')} {w('every')}", msg("a full status after every move (the "
                                                   "default)"), tr),
        _help_row(f"{w('mail')} {w('turn')}", msg("full status only when it is your move; a "
                                                  "line on other moves"), tr),
        _help_row(f"{w('mail')} {w('digest')}", msg("full status when it is your move; one "
                                                    "summary a day besides"), tr),
        _help_row(f"{w('language')} XX", msg("the language of your mails: {codes}",
                                             codes=", ".join(LANGUAGES)), tr),
        _help_row(f"{w('timezone')} Europe/Paris", msg(
            "the time zone of the dates in your mails (an IANA name; UTC by default)"), tr),
        _help_row(f"{w('name')} Ann Example", msg(
            "the name the standings and the game pages show you by (never your address)"), tr),
        _help_row(f"{w('standings')} GAME", msg(
            "the top of that game's standings and your place (no secret needed)"), tr),
        _help_row(w("help"), msg("this text (no secret needed)"), tr),
        tr(msg("Your profile: \"{name}\", \"{language}\", \"{timezone}\" and \"{mail}\" in a mail "
               "without a game's tag (with your secret line of any game) set the defaults of "
               "every game you join later; \"{standings}\" needs no tag either.",
               name=w("name"), language=w("language"), timezone=w("timezone"), mail=w("mail"),
               standings=w("standings"))),
        tr(msg("Table talk, in any mail, beside orders or alone (with your secret line):")),
        _help_row(f"{w('say')} {text}", msg("a message to every other player"), tr),
        _help_row(f"{w('say')} {w('to')} {name}: {text}", msg(
            "a message to one player ({name}, or their number 1, 2, ...)", name=name), tr),
        tr(msg("All the talk of one mail reaches each player as one mail, up to {chars} "
               "characters (more is cut, and you are told); talk goes out in at most {mails} "
               "of your mails a day. A secret typed in talk is blanked.",
               chars=talk.talk_chars_per_mail, mails=talk.talk_mails_per_day)),
        *lobby_lines(tr),
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
        _help_row(w("games"), msg("the open tables, and your own tables and games"), tr),
        _help_row(f"{w('new')} GAME {w('players')} N [option=value ...]", msg(
            "open a table; you take its first seat"), tr),
        _help_row(f"{w('join')} TAG", msg("take a free seat at that table"), tr),
        _help_row(f"{w('join')} GAME", msg("the first free seat of that game (or a new "
                                           "table)"), tr),
        _help_row(f"{w('confirm')} CODE", msg("confirm your seat (or just reply to the join "
                                              "mail)"), tr),
        _help_row(f"{w('leave')} TAG CODE", msg("give your seat back before the game starts"),
                  tr),
        _help_row(f"{w('start')} TAG CODE", msg("the opener starts the game before the table "
                                                "is full"), tr),
        _help_row(f"{w('invite')} TAG ADDRESS CODE", msg("mail someone an invitation to your "
                                                         "table"), tr),
        _help_row(w("never"), msg("no more mail from this host, ever"), tr),
        tr(msg("CODE is your seat's code, in the subject of the mail that gave you the seat: "
               "simply reply to that mail with the line, and leave out TAG and CODE.")),
        tr(msg("Playing against the computer: \"{line}\" opens a table whose last N seats "
               "are bots ({levels}; {normal} if not said); they need no confirmation, and the "
               "game starts once the seats for people are confirmed.",
               line=f"{w('new')} GAME {w('players')} N {w('bots')} N {w('strong')}",
               levels=", ".join(w(level) for level in BOT_LEVELS), normal=w("normal"))),
    ]


HELP_LINES = help_lines(ENGLISH)  # the English list, as `help` sends it to an English seat
