"""Reef Encounter, 4 players, over real IMAP and SMTP, beside the fair peer (``peer``) round
by round: where an order's time goes, and ``overhead vs peer`` (goal <= 1.5x)."""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from typing import Any

from bench.common import HOST, TimedSender, fresh_db, ms, reef_tables, wave
from bench.pipeline import peer
from bench.pipeline.stages import Stages
from pbem.drawing.pictures import picture_spans
from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.pipeline import outgoing
from pbem.pipeline.warmup import warm_up
from pbem_testkit.imap import PymapServer
from pbem_testkit.smtp import SmtpTestServer


def bench_reef(args: argparse.Namespace) -> None:
    """Reef Encounter, 4 players, over real IMAP and SMTP, next to the peer."""
    rules = registry.get("reef-encounter")
    imap, smtp = PymapServer().start(), SmtpTestServer(auth=False).start()
    stages = Stages()
    ref, text_only = peer.PeerRun(), peer.PeerRun()
    cpu = 0.0
    # The peer in a process of its own: its picture caches are its own (warm from its own
    # earlier rounds), not the ones the pipeline just filled. Its CPU time is its own plus
    # this process's while it runs (the mail servers run here).
    spawn = multiprocessing.get_context("spawn")
    here, there = spawn.Pipe()
    worker = spawn.Process(target=peer.serve, args=(there,), daemon=True)
    worker.start()

    def peer_round(url: str, seats: dict[str, list[str]], size: int,
                   pictures: list[str] | None) -> peer.PeerRun:
        c0 = time.process_time()
        here.send((url, imap.settings, smtp.settings, seats, size, pictures))
        run: peer.PeerRun = here.recv()
        run.cpu += time.process_time() - c0
        return run

    original_inline = outgoing.inline_pictures
    try:
        with fresh_db(args.db) as factory, fresh_db(args.db) as peer_factory:
            tables = reef_tables(factory, args.reef_games)
            engine = peer_factory().get_bind()
            peer.prepare(engine, [t.tag for t in tables])  # type: ignore[arg-type]
            peer_url = engine.url.render_as_string(hide_password=False)  # type: ignore[union-attr]
            seats = {t.tag: t.addresses for t in tables}
            feeder = imap.client()
            inbox = ImapInbox(imap.settings, batch_size=50)
            sender = TimedSender(SmtpSender(smtp.settings))
            warm_up()  # as `pbem serve` does before its first pass
            api.process_inbox(factory, inbox, sender, HOST)  # the welcome mails: not timed
            stages.install(factory, rules)
            rng, raws, busy, orders, sent = random.Random(7), [], 0.0, 0, 0
            # The pictures of every mail the pipeline sends, for the peer's mails to carry.
            pictures: list[str] = []
            staged_inline = outgoing.inline_pictures  # timed as the "pictures" stage

            def recorded(html: str, domain: str) -> tuple[str, list[Any]]:
                if stages.on:
                    pictures.append("".join(html[a:b] for a, b in picture_spans(html)))
                return staged_inline(html, domain)
            outgoing.inline_pictures = recorded  # type: ignore[assignment]
            sizes: list[int] = []
            sender.times.clear()
            # Interleaved, round by round: on a shared machine the load changes by the
            # minute, and both sides of the ratio should meet the same load.
            for _ in range(args.reef_rounds):
                wave_raws = wave(factory, tables, rng, rules)
                raws += wave_raws
                for raw in wave_raws:
                    feeder.append("INBOX", raw)
                before = len(smtp.received)
                stages.on, seen = True, 0
                t0, c0 = time.perf_counter(), time.process_time()
                while seen < len(wave_raws):
                    done = api.process_inbox(factory, inbox, sender, HOST, limit=100_000)
                    seen += len(done.results)
                    orders += sum(1 for r in done.results if r.status == "applied")
                    sent += done.delivery.sent
                busy += time.perf_counter() - t0
                cpu += time.process_time() - c0
                stages.on = False
                wave_sizes = [len(r.raw) for r in smtp.received[before:]]
                sizes += wave_sizes
                size = round(statistics.mean(wave_sizes))
                # The peer: the same orders, mails of this round's mean size with the same
                # pictures; then again with text only, for comparison.
                for run, drawn in ((ref, pictures), (text_only, None)):
                    for raw in wave_raws:
                        feeder.append("INBOX", raw)
                    run.add(peer_round(peer_url, seats, size, drawn))
                pictures.clear()
            outgoing.inline_pictures = staged_inline
            stages.uninstall()
            stages.seconds["send"] = sum(sender.times)
            inbox.close()
            assert orders == len(raws), f"only {orders} of {len(raws)} orders applied"
            assert ref.orders == len(raws), f"the peer took {ref.orders} of {len(raws)}"
            size = round(statistics.mean(sizes))
        feeder.logout()
    finally:
        stages.uninstall()
        outgoing.inline_pictures = original_inline
        here.send(None)
        worker.join(30)
        imap.stop()
        smtp.stop()
    db = "PostgreSQL" if args.db else "SQLite"
    print(f"[reef] {db}: {orders} orders in {len(tables)} 4-player games of Reef Encounter, "
          f"{sent} mails sent (mean {size / 1024:.1f} kB), real IMAP (pymap) and SMTP (aiosmtpd)")
    print(f"[reef] pipeline: {busy:.2f} s = {ms(busy / orders)} per order "
          f"({orders / busy:.1f} orders/s)")
    print(f"[reef] peer:     {ref.seconds:.2f} s = {ms(ref.seconds / ref.orders)} per order "
          f"({ref.orders} orders, {ref.sent} mails of the same size and pictures)")
    counted = sum(stages.seconds.values())
    parts = [f"{k} {ms(v / orders)}" for k, v in stages.seconds.items()]
    parts.append(f"other {ms((busy - counted) / orders)}")
    print(f"[reef] per order by stage: {', '.join(parts)}")
    print(f"[reef] CPU time (mail servers included): pipeline {ms(cpu / orders)}, "
          f"peer {ms(ref.cpu / ref.orders)} per order: {cpu / ref.cpu:.2f}x (less swayed by "
          "the machine's load than the wall clock)")
    print(f"[reef] a text-only peer (no pictures): {ms(text_only.seconds / text_only.orders)} "
          f"per order; overhead vs it: {busy / text_only.seconds:.2f}x (for comparison)")
    print(f"overhead vs peer: {busy / ref.seconds:.2f}x  (goal <= 1.5x; {db})")
