"""The pass and `pbem serve`'s loop around it: when to pass, how long to wait after a failure,
when the operator hears of persisting faults, serve's heartbeat, the daily retention and the
metrics of each pass.

The CLI parses the options and prints what this module tells it (:class:`Notice`). Waiting is
injected (``sleep``, ``wait``) so the backoff can be checked without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pbem.ops import api, heartbeat, hostkey, player_data, retention
from pbem.ops.alerts import FaultWatch
from pbem.ops.operator_errors import EX_CONFIG, explain
from pbem.settings.config import Config
from pbem.settings.transports import open_inbox, open_sender
from pbem.store.db import SessionFactory

if TYPE_CHECKING:
    from pbem.ops.metrics import Metrics

FAULT_PAUSE_CAP = 900.0  # seconds: a database down for hours is still tried every 15 minutes
FAILURE_PAUSE_CAP = 30.0  # seconds: a mail server down is tried again soon


@dataclass(frozen=True)
class Notice:
    """A line serve has to say: ``said`` to the operator's log, ``fault`` (a database or disk
    fault left mail in the inbox) and ``failed`` (the pass raised; serve retries) as warnings.
    ``text`` is plain text, never markup."""

    kind: Literal["said", "fault", "failed"]
    text: str


Tell = Callable[[Notice], None]


def one_pass(cfg: Config, factory: SessionFactory) -> api.Pass:
    """Fetch new mail, apply it, send the queue; then count the pass for the fault watch."""
    host = hostkey.mail_host(cfg)
    inbox = open_inbox(cfg)
    sender = open_sender(cfg)
    try:
        done = api.process_inbox(factory, inbox, sender, host)
    finally:
        inbox.close()
    watch = FaultWatch(cfg.data_dir / "faults.json", host)
    if done.fault:
        watch.failed(done.fault, sender)
    else:
        watch.clean()
    return done


def daily_prune(cfg: Config, factory: SessionFactory, tell: Tell) -> None:
    """serve's once-a-day retention, between passes (so never while one holds the database)."""
    daily = retention.Daily(cfg.data_dir / "last-prune.json")
    now = retention.utcnow()
    if daily.due(now):
        if cfg.retention.forget_by_mail == "after_games":
            with factory() as session:
                for gone in player_data.forget_after_games(session):
                    tell(Notice("said", f"forgot {gone.address}, as they asked by mail"))
                session.commit()
        done = retention.prune(factory, sent_days=cfg.retention.sent_mail_days,
                               received_days=cfg.retention.received_mail_days, now=now)
        daily.done(now)
        tell(Notice("said", "retention: " + "; ".join(done.lines())))


@dataclass
class Backoff:
    """How long serve pauses after a pass that did not go through. A database or disk fault
    doubles the pause pass after pass (the database needs a moment, not a hammering); any
    other failure (a mail server down) pauses at most :data:`FAILURE_PAUSE_CAP`."""

    interval: float
    faults: int = 0  # database or disk faults in a row

    def fault(self) -> float:
        self.faults += 1
        return min(self.interval * 2 ** (self.faults - 1), FAULT_PAUSE_CAP)

    def clean(self) -> None:
        self.faults = 0

    def failure(self) -> float:
        return min(self.interval, FAILURE_PAUSE_CAP)


class Runner:
    """`pbem serve`: pass, then wait for new mail (IMAP IDLE where available), until stopped.

    ``sleep`` pauses after a failed pass; ``wait`` waits for new mail up to ``interval``
    seconds (by default on the configured inbox).
    """

    def __init__(self, cfg: Config, factory: SessionFactory, interval: float, tell: Tell, *,
                 metrics: Metrics | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 wait: Callable[[float], None] | None = None) -> None:
        self.cfg = cfg
        self.factory = factory
        self.interval = interval
        self.tell = tell
        self.metrics = metrics
        self.sleep = sleep
        self.wait = wait if wait is not None else self._wait_for_mail

    def serve(self) -> None:
        """Pass after pass until Ctrl-C; serve's heartbeat says it runs meanwhile. A wrong
        setting stops it (no pause fixes one): its error is raised."""
        heartbeat.beat(self.cfg.data_dir, self.interval)
        try:
            self._loop()
        finally:
            heartbeat.stopped(self.cfg.data_dir)

    def _loop(self) -> None:
        backoff = Backoff(self.interval)
        while True:
            try:
                started = time.monotonic()
                done = one_pass(self.cfg, self.factory)
                if self.metrics is not None:
                    self.metrics.passed(done, time.monotonic() - started)
                heartbeat.beat(self.cfg.data_dir, self.interval)
                if done.fault:
                    self.tell(Notice("fault", done.fault))
                    self.sleep(backoff.fault())
                    continue
                backoff.clean()
                daily_prune(self.cfg, self.factory, self.tell)
                self.wait(self.interval)
            except KeyboardInterrupt:
                return
            except Exception as exc:  # an outage must not end the service; retry after a pause
                told = explain(exc)
                if told is not None and told.code == EX_CONFIG:
                    raise  # no pause fixes a wrong setting: stop with its error and fix lines
                if self.metrics is not None:
                    self.metrics.failed()
                self.tell(Notice("failed", str(exc)))
                self.sleep(backoff.failure())

    def _wait_for_mail(self, seconds: float) -> None:
        inbox = open_inbox(self.cfg)
        try:
            inbox.wait(seconds)
        finally:
            inbox.close()
