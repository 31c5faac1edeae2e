"""Bot players, and a driver that plays a whole game through the real mail path.

A bot is a seat that reads the mail the host sends it and answers like a person would: it
learns its secret from the welcome email, and when the game waits for it, it replies to its
newest email with an order from the game's ``random_order`` and its ``secret`` line, written in
its seat's language (the game's ``localise_order``, the host's command words). The driver
runs the loop a mail server and people would: host inbox → one processing pass → host outbox →
each bot reads its new mail → bots' replies go into the host inbox, until the game's outcome.

Nothing here names a game; any game implementing pbem.engine.Game can be played out (tests run
every game this way, ``pbem demo`` shows one).
"""

from __future__ import annotations

import email
import mailbox
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from functools import cached_property
from pathlib import Path
from typing import Protocol

from pbem.engine import registry
from pbem.engine.contract import GameRules, Outcome, bot_order, localise_order
from pbem.i18n import msg, translator
from pbem.mail.inbound import Inbox, MaildirInbox
from pbem.mail.outbound import Sender
from pbem.ops import api
from pbem.pipeline.command_words import word
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem.store.tables import InboundMessage, OutboundMessage


def secret_pattern(lang: str) -> re.Pattern[str]:
    """How the welcome mail in ``lang`` gives the secret (``Votre secret est : X``)."""
    shown = translator(lang)(msg("Your secret is: {secret}", secret="\0"))
    before, _, after = shown.partition("\0")
    return re.compile(re.escape(before) + r"(\S+)" + re.escape(after.rstrip(".")))
TAG_RE = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]*)\]")
# Game-agnostic nonsense: every game's parser refuses it, so the demo can show an error reply.
NONSENSE_ORDER = "dance the macarena"


class BotGameError(RuntimeError):
    """The game could not be played out: a bot's mail was not handled as expected, or stuck."""


@dataclass(frozen=True)
class Mail:
    """One email the host sent; ``ref`` says where it can be found (a file path, an index)."""

    ref: str
    raw: bytes

    @cached_property
    def message(self) -> EmailMessage:
        msg = email.message_from_bytes(self.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg

    @property
    def to_addr(self) -> str:
        return parseaddr(str(self.message["To"] or ""))[1].lower()

    @cached_property
    def text(self) -> str:
        part = self.message.get_body(("plain",))
        return "" if part is None else str(part.get_content())


class Mailroom(Protocol):
    """The world outside the host: where its sent mail arrives, and how mail reaches it."""

    def new_mail(self) -> list[Mail]:
        """Mail the host sent since the last call, oldest first."""
        ...

    def post(self, raw: bytes) -> None:
        """Deliver ``raw`` into the host's inbox, as a mail server would."""
        ...


_MAILDIR_KEY = re.compile(r"^(\d+)\.M(\d+)P(\d+)Q(\d+)")


def _maildir_order(key: str) -> tuple[int, ...]:
    # Maildir keys are "<sec>.M<usec>P<pid>Q<n>.<host>" with unpadded numbers: sort numerically.
    m = _MAILDIR_KEY.match(key)
    return tuple(int(g) for g in m.groups()) if m else (0, 0, 0, 0)


class MaildirMailroom:
    """Local Maildirs: the host's outbox is read where MaildirSender writes it; mail for the
    host is added to its inbox Maildir."""

    def __init__(self, inbox: Path, outbox: Path) -> None:
        self.inbox = Path(inbox)
        self.outbox = Path(outbox)
        self._seen: set[str] = set()

    def skip_existing(self) -> None:
        """Treat mail already in the outbox (an earlier run's) as read."""
        self._seen.update(mailbox.Maildir(self.outbox, create=True).iterkeys())

    def new_mail(self) -> list[Mail]:
        box = mailbox.Maildir(self.outbox, create=True)
        keys = sorted((k for k in box.iterkeys() if k not in self._seen), key=_maildir_order)
        out = []
        for key in keys:
            self._seen.add(key)
            out.append(Mail(str(self._path(key)), box.get_bytes(key)))
        return out

    def _path(self, key: str) -> Path:
        for sub in ("new", "cur"):
            for path in (self.outbox / sub).glob(f"{key}*"):
                return path
        return self.outbox / "new" / key

    def post(self, raw: bytes) -> None:
        mailbox.Maildir(self.inbox, create=True).add(raw)


@dataclass
class Bot:
    """One seat played by a program, through its mail only (plus the game's ``random_order``)."""

    seat: int
    name: str
    address: str
    rng: random.Random
    lang: str = "en"  # the seat's language: the bot reads and writes it
    secret: str | None = None
    # Whether its replies carry the secret line; without it, the reply address of the mail
    # it answers proves the seat, as for a player who just replies.
    types_secret: bool = True
    last: Mail | None = None  # the newest mail, the one to reply to
    unanswered: bool = False  # a mail arrived since the bot last wrote
    received: list[Mail] = field(default_factory=list)

    def read(self, mail: Mail) -> None:
        found = secret_pattern(self.lang).search(mail.text)
        if found:
            self.secret = found.group(1)
        self.received.append(mail)
        self.last = mail
        self.unanswered = True

    def reply(self, body_lines: list[str], domain: str = "bots.invalid") -> EmailMessage:
        """A reply to the newest mail, quoting it below the orders as mail clients do."""
        if self.last is None or (self.types_secret and self.secret is None):
            raise BotGameError(f"{self.name} has no mail with a secret to answer")
        original = self.last.message
        subject = str(original["Subject"] or "")
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = str(original["Reply-To"] or original["From"])  # as mail clients answer
        msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        msg["Date"] = formatdate()
        msg["Message-ID"] = make_msgid(domain=domain)
        if original["Message-ID"]:
            msg["In-Reply-To"] = str(original["Message-ID"])
            refs = str(original["References"] or "").split()
            msg["References"] = " ".join([*refs, str(original["Message-ID"])][-10:])
        quoted = "\n".join(f"> {line}".rstrip() for line in self.last.text.splitlines()[:40])
        secret = [f"{word('secret', self.lang)} {self.secret}"] if self.types_secret else []
        msg.set_content("\n".join([*body_lines, *secret, "",
                                   f"On {original['Date']}, {original['From']} wrote:", quoted])
                        + "\n")
        return msg


@dataclass
class Played:
    """How a played-out game ended, and the mail it took."""

    tag: str
    outcome: Outcome
    turns: int
    mails: list[Mail]
    bots: list[Bot]
    showcase: dict[str, Mail] = field(default_factory=dict)  # "check"/"nonsense" -> the reply


@dataclass
class _Expect:
    seat: int
    status: str  # what the pipeline must make of this mail: applied | rejected | ignored
    label: str


def play_out(factory: SessionFactory, tag: str, inbox: Inbox, sender: Sender,
             mailroom: Mailroom, host: Host, *, seed: str = "bots", max_rounds: int = 5000,
             showcase: bool = False, level: str = "random", type_secret: bool = True,
             on_round: Callable[[int], None] | None = None) -> Played:
    """Play game ``tag`` to its end with a bot in every seat, through the mail path only.

    The game must have been created with its welcome mails queued. With ``showcase``, the
    first bot to move also sends a ``check`` dry run and an unreadable order first, so the
    mail shows both kinds of reply. ``level``: how the bots choose (``random``: the game's
    random order; else the engine's ``bot_order`` at that level, from what the seat may
    see). Seats the host plays itself (bot seats: no address) are left to the host. Without
    ``type_secret`` the bots only reply, as a player may: no secret line after the welcome.
    """
    with factory() as s:
        game = api.get_game(s, tag)
        rules: GameRules = registry.get(game.game_type)
        seats = [(seat.index, seat.name, seat.address, seat.language)
                 for seat in queries.seats(s, game.id or 0)]
    bots = {i: Bot(i, name, addr, random.Random(f"{seed}/{i}"), lang, types_secret=type_secret)
            for i, name, addr, lang in seats}
    by_address = {b.address: b for b in bots.values()}
    mails: list[Mail] = []
    expected: dict[str, _Expect] = {}
    labels: dict[str, str] = {}  # Message-ID of a showcase mail -> its label
    replies: dict[str, Mail] = {}
    showcase_seat: int | None = None
    turns = 0
    for rounds in range(max_rounds):
        if on_round is not None:
            on_round(rounds)
        done = api.process_inbox(factory, inbox, sender, host)
        turns += _check(factory, done.results, expected)
        for mail in mailroom.new_mail():
            mails.append(mail)
            label = labels.get(str(mail.message["In-Reply-To"] or ""))
            if label is not None:
                replies[label] = mail
            bot = by_address.get(mail.to_addr)
            if bot is not None and TAG_RE.search(str(mail.message["Subject"] or "")):
                bot.read(mail)
        with factory() as s:
            state = api.current_state(s, api.get_game(s, tag))
        outcome = rules.outcome(state)
        if outcome is not None:
            return Played(tag, outcome, turns, mails, list(bots.values()), replies)
        waiting = sorted(rules.waiting_for(state))
        for index in waiting:
            bot = bots[index]
            if not bot.unanswered:
                continue  # its reply is in flight (or the host plays the seat itself)
            chosen = rules.random_order(state, index, bot.rng) if level == "random" else \
                bot_order(rules, state, index, bot.rng, level, host.bots.seconds_per_move)
            # Written as a player of the seat's language would (the host reads it back).
            order = localise_order(rules, chosen, bot.lang)
            if showcase and not labels:
                showcase_seat = index
            if index == showcase_seat and len(labels) < 2:
                # The first bot to move first sends a dry run, then an unreadable order.
                label, lines, status = (("check", [word("check", bot.lang), *order.splitlines()],
                                         "ignored")
                                        if not labels else
                                        ("nonsense", [NONSENSE_ORDER], "rejected"))
                labels[_send(mailroom, bot, lines, expected,
                             _Expect(index, status, label))] = label
                continue
            _send(mailroom, bot, order.splitlines(), expected, _Expect(index, "applied", order))
        if not waiting:
            raise BotGameError(f"[{tag}] waits for nobody but has no outcome")
        host_plays = any(not bots[i].address for i in waiting)  # its next pass does
        if not expected and not host_plays:  # nothing in flight and nobody could answer
            raise BotGameError(f"[{tag}] is stuck: seats {waiting} have no mail to answer")
    raise BotGameError(f"[{tag}] did not end within {max_rounds} rounds")


def _send(mailroom: Mailroom, bot: Bot, lines: list[str], expected: dict[str, _Expect],
          expect: _Expect) -> str:
    msg = bot.reply(lines)
    mid = str(msg["Message-ID"])
    expected[mid] = expect
    bot.unanswered = False
    mailroom.post(bytes(msg))
    return mid


def _check(factory: SessionFactory, results: list[api.Result],
           expected: dict[str, _Expect]) -> int:
    """Each bot mail must fare as meant; a refused order is a bug in the game (or host)."""
    applied = 0
    with factory() as s:
        for r in results:
            row = s.get(InboundMessage, r.inbound_id) if r.inbound_id is not None else None
            want = expected.pop(row.message_id, None) if row is not None else None
            if want is None:
                continue
            if r.status != want.status:
                replies = [s.get(OutboundMessage, q) for q in r.queued]
                text = "\n".join(Mail("", q.raw).text for q in replies if q is not None)
                raise BotGameError(
                    f"seat {want.seat}'s mail ({want.label!r}) was {r.status}, not "
                    f"{want.status}: {r.reason}\n{text}")
            applied += r.status == "applied"
    return applied


def maildir_table(inbox: Path, outbox: Path) -> tuple[Inbox, MaildirMailroom]:
    """The embedded default's mail: an inbox to read, and the mailroom around both Maildirs."""
    return MaildirInbox(inbox), MaildirMailroom(inbox, outbox)
