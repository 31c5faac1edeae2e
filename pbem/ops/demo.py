"""``pbem demo``: a whole game played by bots on the embedded defaults, to look at afterwards.

Everything lives in one folder (its own SQLite file and Maildirs), never in the operator's
database or real mail servers: bots' replies go into ``inbox/``, every email the host sends
lands in ``outbox/`` — open it with any mail client (``mutt -f pbem-demo/outbox``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.engine import registry
from pbem.mail.outbound import MaildirSender
from pbem.ops import api
from pbem.ops.bots import Mail, Played, maildir_table, play_out
from pbem.pipeline import outgoing as mails
from pbem.settings.config import from_dict
from pbem.settings.host import Host
from pbem.store import queries

# ``pbem demo --bots``: how the demo's players choose their orders (a bot level).
BOT_KINDS = {"random": "random", "good": "normal"}

PLAYERS = [("Ann", "ann@example.org"), ("Ben", "ben@example.org"),
           ("Cleo", "cleo@example.org"), ("Dev", "dev@example.org")]


class DemoFolderError(ValueError):
    """A folder the demo will not use or empty; the message says why."""


# With the database's WAL companions, which SQLite keeps beside it while it is open.
DEMO_FILES = frozenset({"pbem.sqlite", "pbem.sqlite-wal", "pbem.sqlite-shm", "inbox", "outbox"})


def prepare_folder(folder: Path, fresh: bool) -> int:
    """How many games an earlier demo left in ``folder`` (0: none, or emptied by ``fresh``).

    Only a folder holding nothing but a demo's own files (its database and Maildirs) is ever
    emptied, so a mistyped ``--dir`` cannot delete anything else.
    """
    if not folder.exists():
        return 0
    if not folder.is_dir():
        raise DemoFolderError(f"{folder} is not a folder")
    names = {p.name for p in folder.iterdir()}
    if not names:
        return 0
    if not names <= DEMO_FILES:
        raise DemoFolderError(f"{folder} holds other files than a demo's "
                              f"({', '.join(sorted(names - DEMO_FILES))}); choose another --dir")
    if fresh:
        for name in names:
            path = folder / name
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        return 0
    if "pbem.sqlite" not in names:
        return 0
    with api.connect(f"sqlite:///{folder / 'pbem.sqlite'}")() as s:
        return len(api.list_games(s))


@dataclass
class DemoReport:
    folder: Path
    outbox: Path
    tag: str
    turns: int
    mails: int
    replay_entries: int
    scores: list[str]
    interesting: list[tuple[str, Mail]]


def run_demo(folder: Path, game_type: str, players: int, seed: str | None = None,
             on_round: Callable[[int], None] | None = None, bots: str = "random"
             ) -> DemoReport:
    """Create a game in ``folder``, let bots play it to the end by mail, verify its replay.

    ``bots``: ``random`` (any legal order) or ``good`` (the game's strategy at level normal,
    from what each seat may see). Every seat is a bot either way, and each plays by mail, as
    a person would: the demo is there to show the mail a game makes."""
    if bots not in BOT_KINDS:
        raise ValueError(f"--bots must be one of {', '.join(BOT_KINDS)}, not {bots!r}")
    rules = registry.get(game_type)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.title} takes {registry.player_range(rules)} players, "
                         f"not {players}")
    cfg = from_dict({"data_dir": str(folder), "mail": {"from_address": "host@example.org",
                                                       "from_name": "pbem demo"}})
    folder.mkdir(parents=True, exist_ok=True)
    host = Host.from_config(cfg)
    factory = api.connect(cfg.database_url)
    inbox, mailroom = maildir_table(cfg.inbound.maildir, cfg.outbound.maildir)
    mailroom.skip_existing()  # an earlier demo's mail stays, but is not this game's
    with factory() as s:
        game, _ = api.create_game(s, rules.name, PLAYERS[:players], seed=seed, host=host)
        s.commit()
        tag = game.tag
    try:
        played = play_out(factory, tag, inbox, MaildirSender(cfg.outbound.maildir), mailroom,
                          host, seed=seed or tag, showcase=True, on_round=on_round,
                          level=BOT_KINDS[bots])
    finally:
        inbox.close()
    with factory() as s:
        game = api.get_game(s, tag)
        report = api.replay_game(s, game)
        scores = mails.outcome_lines(played.outcome, queries.seats(s, game.id or 0))
    return DemoReport(folder, cfg.outbound.maildir, tag, played.turns, len(played.mails),
                      report.entries, scores, _interesting(played))


def _interesting(played: Played) -> list[tuple[str, Mail]]:
    """A few emails worth opening: a welcome, the two showcase replies, a turn, the end."""
    first = played.bots[0]
    picks: list[tuple[str, Mail]] = []
    if first.received:
        picks.append((f"welcome to {first.name}", first.received[0]))
    if "check" in played.showcase:
        picks.append(("reply to a 'check' dry run", played.showcase["check"]))
    if "nonsense" in played.showcase:
        picks.append(("reply to an unreadable order", played.showcase["nonsense"]))
    statuses = [m for m in first.received if m.message.get_body(("html",)) is not None]
    if len(statuses) > 4:
        picks.append((f"a status email to {first.name} in mid-game",
                       statuses[len(statuses) // 2]))
    for bot in played.bots:
        if bot.received:
            picks.append((f"final email to {bot.name}", bot.received[-1]))
    return picks
