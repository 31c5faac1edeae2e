"""Where an order's time goes: each stage's functions wrapped with a timer while it is on."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from pbem.mail.inbound import ImapInbox
from pbem.store.db import SessionFactory

STAGES = ("fetch", "parse", "rules", "store", "render", "pictures", "compose", "redact", "send")


class Stages:
    """Seconds spent in each stage while ``on``, by wrapping the functions that do it.

    fetch is IMAP; parse reads the mail and its orders; store is every SQL statement and
    commit (engine events and the dialect's commit), so it includes the flushes wherever they
    happen; render is the templates; pictures the PNGs of their SVGs; compose builds and
    serialises the MIME; redact blanks secrets (the inbound mail, each mail once sent); the
    rest is the host's own Python ("other": ORM objects, clocks, bookkeeping)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(STAGES, 0.0)
        self.on = False
        self._undo: list[Callable[[], None]] = []

    def timed(self, stage: str, fn: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*a: object, **k: object) -> object:
            if not self.on:
                return fn(*a, **k)
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.seconds[stage] += time.perf_counter() - t0
        return wrapper

    def patch(self, owner: object, name: str, stage: str) -> None:
        original = getattr(owner, name, None)
        if original is None:  # an older tree without this step: nothing to time
            return
        setattr(owner, name, self.timed(stage, original))
        self._undo.append(lambda: setattr(owner, name, original))

    def timed_iter(self, stage: str, fn: Callable[..., Iterator[object]]
                   ) -> Callable[..., Iterator[object]]:
        def wrapper(*a: object, **k: object) -> Iterator[object]:
            it = fn(*a, **k)
            while True:
                t0 = time.perf_counter()
                try:
                    item = next(it)
                except StopIteration:
                    return
                finally:
                    if self.on:
                        self.seconds[stage] += time.perf_counter() - t0
                yield item
        return wrapper

    def install(self, factory: SessionFactory, rules: object) -> None:
        from sqlalchemy import event

        from pbem.outbox import delivery as outbox
        from pbem.pipeline import move_mails, stored
        from pbem.pipeline import one_mail as pipeline
        from pbem.pipeline import outgoing as mails

        engine = factory().get_bind()
        t0: list[float] = []

        def before(*_a: object) -> None:
            t0.append(time.perf_counter())

        def after(*_a: object) -> None:
            start = t0.pop()
            if self.on:
                self.seconds["store"] += time.perf_counter() - start
        event.listen(engine, "before_cursor_execute", before)
        event.listen(engine, "after_cursor_execute", after)
        self.patch(engine.dialect, "do_commit", "store")
        original_fetch = ImapInbox.fetch
        ImapInbox.fetch = self.timed_iter("fetch", original_fetch)  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: setattr(ImapInbox, "fetch", original_fetch))
        timed: list[tuple[object, str, str]] = [
            (ImapInbox, "mark_processed", "fetch"), (ImapInbox, "mark_all_processed", "fetch"),
            (pipeline, "read_message", "parse"), (rules, "parse", "parse"),
            (rules, "apply", "rules"),
            (mails, "render_status", "render"), (move_mails, "render_status", "render"),
            (mails, "render_notice", "render"),
            (mails, "inline_pictures", "pictures"),
            (mails, "compose", "compose"), (mails, "mail_bytes", "compose"),
            (mails, "compose_bytes", "compose"), (outbox, "as_email", "compose"),
            *((module, "redact", "redact") for module in (mails, outbox, stored))]
        for owner, name, stage in timed:
            self.patch(owner, name, stage)

    def uninstall(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
