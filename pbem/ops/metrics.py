"""What `pbem serve --metrics 127.0.0.1:PORT` shows Prometheus: the passes and what they did,
and the state of the queues, read from the database at each scrape (so they are right even
while a `pbem process` from a timer or a second worker does the work).

Counters count this process's passes since it started (Prometheus's ``rate()`` and
``increase()`` are made for that); gauges are read when scraped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from threading import Thread
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func
from sqlmodel import col, select

from pbem.ops.api import Pass
from pbem.pipeline import tally
from pbem.store.db import SessionFactory
from pbem.store.tables import Game, InboundMessage, OutboundMessage, Seat, utcnow

log = logging.getLogger(__name__)

# A pass is a fetch, the handling of each mail and the sending: from milliseconds (nothing
# new) to minutes (a backlog after an outage).
PASS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


class BadAddress(ValueError):
    """``--metrics`` given something other than ``HOST:PORT``."""


@dataclass(frozen=True)
class Listen:
    host: str
    port: int


def listen_address(text: str) -> Listen:
    """``127.0.0.1:9464`` (or ``[::1]:9464``) as host and port."""
    host, colon, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BadAddress(f"--metrics {text!r} is not an address to listen on")
    return Listen(host, int(port))


class _Queues(Collector):
    """The quarantine, the outbox and the bouncing seats, counted in the database."""

    def __init__(self, factory: SessionFactory) -> None:
        self.factory = factory

    def collect(self) -> Iterator[Metric]:
        try:
            counts = self._counts()
        except Exception as exc:  # the database down: the scrape still answers, and says so
            log.warning("metrics: cannot read the database: %s", exc)
            yield GaugeMetricFamily("pbem_database_readable",
                                    "1 when the last scrape could read the database", value=0)
            return
        yield GaugeMetricFamily("pbem_database_readable",
                                "1 when the last scrape could read the database", value=1)
        yield from counts

    def _counts(self) -> list[Metric]:
        with self.factory() as s:
            quarantined = s.exec(select(func.count()).select_from(InboundMessage)
                                 .where(InboundMessage.status == "quarantined")).one()
            backlog, oldest = s.exec(
                select(func.count(), func.min(OutboundMessage.created))
                .where(OutboundMessage.status == "queued")).one()
            failed = s.exec(select(func.count()).select_from(OutboundMessage)
                            .where(OutboundMessage.status == "failed")).one()
            bouncing = s.exec(
                select(func.count()).select_from(Seat)
                .join(Game, col(Game.id) == col(Seat.game_id))
                .where(col(Seat.bounced_at).is_not(None),
                       col(Game.status).in_(["active", "paused"]))).one()
        age = 0.0 if oldest is None else max(0.0, (utcnow() - oldest).total_seconds())
        return [
            GaugeMetricFamily("pbem_quarantine_size",
                              "Mails kept in quarantine (see `pbem quarantine list`)",
                              value=quarantined),
            GaugeMetricFamily("pbem_outbox_backlog", "Mails queued, not yet sent", value=backlog),
            GaugeMetricFamily("pbem_outbox_oldest_age_seconds",
                              "How long the oldest queued mail has waited (0: none waits)",
                              value=age),
            GaugeMetricFamily("pbem_outbox_failed", "Mails that failed for good", value=failed),
            GaugeMetricFamily("pbem_seats_bouncing",
                              "Seats of running games whose address bounces", value=bouncing)]


class _Tallies(Collector):
    """The totals no row keeps (pbem.pipeline.tally)."""

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily("pbem_bot_cpu_seconds",
                                  "CPU seconds the host's bots spent choosing moves",
                                  value=tally.total(tally.BOT_CPU_SECONDS))
        yield CounterMetricFamily("pbem_bounces", "Delivery reports (bounces) read",
                                  value=tally.total(tally.BOUNCE_REPORTS))


class Metrics:
    """The metrics of one `serve`: :meth:`passed` after each pass, :meth:`listen` to serve
    them over HTTP."""

    def __init__(self, factory: SessionFactory) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.passes = Counter("pbem_passes", "Passes run", registry=r)
        self.faults = Counter("pbem_pass_faults", "Passes a database or disk fault stopped, "
                              "or that failed and were retried", registry=r)
        self.duration = Histogram("pbem_pass_duration_seconds", "How long a pass took",
                                  buckets=PASS_BUCKETS, registry=r)
        self.last_pass = Gauge("pbem_last_pass_timestamp_seconds",
                               "When the last pass ended (Unix time)", registry=r)
        self.mails_in = Counter("pbem_mails_in", "Mails fetched and handled, by outcome",
                                ["status"], registry=r)
        self.mails_out = Counter("pbem_mails_out", "Mails handed to the mail server, by "
                                 "outcome (sent, retrying, failed)", ["outcome"], registry=r)
        self.replies = Counter("pbem_replies_sent", "Mails sent that answer a mail",
                               registry=r)
        for outcome in ("sent", "retrying", "failed"):
            self.mails_out.labels(outcome)  # shown at 0 before the first mail
        r.register(_Queues(factory))
        r.register(_Tallies())

    def passed(self, done: Pass, seconds: float) -> None:
        self.passes.inc()
        self.duration.observe(seconds)
        self.last_pass.set(time.time())
        if done.fault:
            self.faults.inc()
        for result in done.results:
            self.mails_in.labels(result.status).inc()
        d = done.delivery
        for outcome, count in (("sent", d.sent), ("retrying", d.retrying),
                               ("failed", d.failed)):
            self.mails_out.labels(outcome).inc(count)
        self.replies.inc(d.replies)

    def failed(self) -> None:
        """A pass that raised (serve retries it)."""
        self.faults.inc()

    def listen(self, where: Listen) -> tuple[WSGIServer, Thread]:
        """Serve ``/metrics`` on ``where`` from a daemon thread."""
        return start_http_server(where.port, where.host, registry=self.registry)
