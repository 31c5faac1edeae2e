"""The commands that set up and run the host: init, doctor, games, demo, process, serve.

They sit at the top of ``pbem``, not in a group of their own (see :mod:`pbem.cli`).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from pbem.cli.context import console, err, fail, load_config, progress, session_factory, state
from pbem.engine import registry
from pbem.ops.operator_errors import EX_TEMPFAIL
from pbem.store.db import SessionFactory

if TYPE_CHECKING:
    from pbem.ops.metrics import Metrics
    from pbem.ops.runner import Notice

app = typer.Typer()


@app.command()
def init() -> None:
    """Create (or migrate) the database and the local mail folders."""
    cfg = load_config()
    session_factory(cfg, create=True)
    from pbem.settings.transports import open_inbox, open_sender

    if cfg.inbound.imap is None:
        open_inbox(cfg).close()
    if cfg.outbound.smtp is None:
        open_sender(cfg)
    from pbem.ops import hostkey

    key = hostkey.load(cfg.host_key_path)  # a broken one is explained like any other fault
    console.print(f"database ready: {cfg.database_url}")
    console.print(f"host key (signs game exports): {cfg.host_key_path} (id {key.id})",
                  highlight=False, soft_wrap=True)
    if cfg.inbound.imap is None:
        console.print(f"inbox (Maildir): {cfg.inbound.maildir}")
    if cfg.outbound.smtp is None:
        console.print(f"outbox (Maildir): {cfg.outbound.maildir}")


@app.command()
def doctor(
    dns: Annotated[bool, typer.Option("--dns", help="Also look up the DNS records the mail "
                                      "needs (`pbem dns` prints them).")] = False,
) -> None:
    """Check the config, database, mailboxes and mail servers; say what is wrong and the fix."""
    from pbem.ops import doctor as checks

    results = checks.run_file(state.get("config_path"), debug=bool(state.get("debug")),
                              dns=dns)
    for c in results:
        mark = "[green]ok[/green]  " if c.ok else "[red]FAIL[/red]"
        console.print(f"{mark} {c.name}: {escape(c.message)}", highlight=False)
        if not c.ok and c.fix:
            console.print(f"       fix: {escape(c.fix)}", highlight=False)
    if not all(c.ok for c in results):
        raise typer.Exit(1)


@app.command("dns")
def dns_records() -> None:
    """Print the DNS records this host's mail needs: MX, A, SPF, DKIM, DMARC and the PTR."""
    from pbem.ops import dns_records as records

    for line in records.zone_lines(records.expected(load_config())):
        console.print(escape(line), highlight=False, soft_wrap=True)


@app.command("games")
def games() -> None:
    """List the game types this host can run."""
    for name, rules in sorted(registry.games().items()):
        console.print(f"{name}: {rules.title} ({registry.player_range(rules)} players)",
                      highlight=False)
        if rules.about:
            console.print(f"    {rules.about}", highlight=False, soft_wrap=True)


def _player_ranges() -> str:
    """Each installed game's player range, for help texts (read when the CLI loads)."""
    try:
        known = registry.games()
    except Exception:  # a broken game package must not take every command down with it
        return "see `pbem games`"
    return "; ".join(f"{name} {registry.player_range(rules)}"
                     for name, rules in sorted(known.items()))


@app.command()
def demo(
    game: Annotated[str | None, typer.Option(help="The game type (default: the showcase "
                                             "game, one of `pbem games`).")] = None,
    players: Annotated[int | None, typer.Option(
        min=1, help="How many bot players, within the game's range "
        f"({_player_ranges()}); default 3, or the nearest count the game takes.",
        show_default=False)] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for the game and the bots.")] = None,
    folder: Annotated[Path | None, typer.Option("--dir", help="Where to keep the demo "
                      "(default: ./pbem-demo, or <data dir>/demo with a config).")] = None,
    fresh: Annotated[bool, typer.Option(help="Empty an earlier demo's folder first "
                                        "(otherwise the new game is added beside its games).")]
    = False,
    bots: Annotated[str, typer.Option(help="How the bots play: 'random' (any legal order) or "
                                      "'good' (the game's own strategy, from what each seat "
                                      "may see; slower).")] = "random",
) -> None:
    """Play a whole game by email between bots (SQLite + Maildirs) and show where the mail is.

    The demo keeps everything in its own folder, never in your database or mail servers.
    """
    from pbem.ops.demo import DemoFolderError, prepare_folder, run_demo

    configured = state.get("config_path") is not None or "PBEM_HOME" in os.environ
    where = folder or (load_config().data_dir / "demo" if configured else Path("pbem-demo"))
    known = sorted(registry.games())
    if not known:
        raise fail("no game is installed", fix="reinstall pbem (`pip install --force-reinstall "
                   "pbem`): its games come with it")
    # An unknown or shared name is told with its fix (pbem.ops.operator_errors).
    rules = registry.get(game) if game else registry.showcase()
    game_type = rules.name
    if players is None:  # 3 where the game allows it, else the nearest count it takes
        players = max(rules.min_players, min(3, rules.max_players))
    try:
        earlier = prepare_folder(where, fresh)
    except DemoFolderError as exc:
        raise fail(str(exc), fix="name another folder with --folder, or add --fresh to start "
                   "that one afresh") from exc
    if earlier:
        console.print(f"{where} holds an earlier demo: this game is added beside its "
                      f"{earlier} game(s) (--fresh starts afresh).", highlight=False,
                      soft_wrap=True)
    else:
        console.print(f"a fresh demo in {where}", highlight=False, soft_wrap=True)
    with progress() as bar:
        task = bar.add_task(f"bots playing {game_type} by email", total=None)
        try:
            report = run_demo(where, game_type, players, seed,
                              lambda n: bar.update(task, completed=n), bots=bots)
        except (KeyError, ValueError) as exc:
            raise fail(str(exc).strip('"'), fix="`pbem demo --help` lists the game names, "
                       "player counts and bot levels it takes") from exc
    console.print(f"[bold]{report.tag}[/bold]: {report.turns} turns played by email, "
                  f"{report.mails} emails sent; replay verified ({report.replay_entries} "
                  "log entries).", highlight=False, soft_wrap=True)
    console.print("Final scores:")
    for line in report.scores:
        console.print(f"  {line}", highlight=False, soft_wrap=True)
    console.print(f"\nEvery email is in the Maildir {report.outbox} (e.g. `mutt -f "
                  f"{report.outbox}`). A few worth opening:", highlight=False, soft_wrap=True)
    for label, mail in report.interesting:
        console.print(f"  {label}:\n    {mail.ref}", highlight=False, soft_wrap=True)
    console.print(f"\nInspect the game: PBEM_HOME={report.folder} pbem game log {report.tag}",
                  highlight=False, soft_wrap=True)


@app.command()
def process(site: Annotated[Path | None, typer.Option(
        help="Then rebuild the static web archive in this folder (see `pbem site build`).")]
        = None) -> None:
    """One pass: fetch new mail, apply the orders, send the queued emails."""
    from pbem.ops.overview import summary
    from pbem.ops.runner import one_pass

    cfg = load_config()
    result = one_pass(cfg, session_factory(cfg))

    d = result.delivery
    console.print(f"processed: {summary(result.results)}; clocks: {result.clocks.summary()}; "
                  f"sent {d.sent}, retrying {d.retrying}, failed {d.failed}")
    if site is not None:
        from pbem.cli.site import build

        report = build(cfg, site)
        console.print(f"site: {len(report.rebuilt)} game page(s) rebuilt in {site}",
                      highlight=False, soft_wrap=True)
    if any(r.status == "quarantined" for r in result.results):  # kept; the pass went on
        console.print("quarantined mail is kept: see `pbem quarantine list`")
    if result.fault:
        raise fail(f"database or disk fault: {result.fault}", EX_TEMPFAIL,
                   fix="nothing to change if it passes: the mail it hit stays in the inbox and "
                   "the next pass tries it again; `pbem doctor` checks the database")


@app.command()
def prune(dry_run: Annotated[bool, typer.Option(
              "--dry-run", help="Only say what would go; change nothing.")] = False,
          days: Annotated[int | None, typer.Option(
              min=0, help="Keep mail bytes this many days (sent and received) for this run, "
              "instead of [retention]'s settings.")] = None) -> None:
    """Apply the retention now: cut stored mail past its time to its headers, say what went."""
    from pbem.ops import retention

    cfg = load_config()
    done = retention.prune(
        session_factory(cfg), dry_run=dry_run,
        sent_days=cfg.retention.sent_mail_days if days is None else days,
        received_days=cfg.retention.received_mail_days if days is None else days)
    for line in done.lines():
        console.print(line, highlight=False)


@app.command()
def serve(interval: Annotated[float, typer.Option(help="Seconds between passes without IDLE.")]
          = 60.0,
          metrics: Annotated[str | None, typer.Option(
              help="Serve Prometheus metrics at HOST:PORT (/metrics), e.g. 127.0.0.1:9464: "
              "passes, mails in and out, quarantine, outbox backlog, bounces, bot CPU.")]
          = None) -> None:
    """Run continuously: process, then wait for new mail (IMAP IDLE where available)."""
    from pbem.ops.runner import Runner
    from pbem.pipeline.warmup import warm_up

    cfg = load_config()
    factory = session_factory(cfg)
    watch = _metrics(factory, metrics) if metrics else None
    signal.signal(signal.SIGTERM, _stop)
    runner = Runner(cfg, factory, interval, _tell, metrics=watch)
    warm_up()  # the first player's mail should not pay for loading catalogues and templates
    console.print("serving; Ctrl-C stops")
    runner.serve()


def _metrics(factory: SessionFactory, where: str) -> Metrics:
    from pbem.ops.metrics import BadAddress, Metrics, listen_address

    try:
        listen = listen_address(where)
    except BadAddress as exc:
        raise fail(str(exc), fix="give it as HOST:PORT, e.g. --metrics 127.0.0.1:9464") from exc
    watch = Metrics(factory)
    try:
        watch.listen(listen)
    except OSError as exc:
        raise fail(f"cannot serve metrics on {where}: {exc.strerror or exc}",
                   fix="choose a free port, or stop what listens there") from exc
    console.print(f"metrics on http://{where}/metrics")
    return watch


def _tell(notice: Notice) -> None:
    """What serve has to say: plain lines to stdout, warnings to stderr."""
    if notice.kind == "fault":
        err.print(f"[yellow]database or disk fault, mail left in the inbox:[/yellow] "
                  f"{escape(notice.text)}")
    elif notice.kind == "failed":
        err.print(f"[yellow]pass failed, retrying:[/yellow] {escape(notice.text)}")
    else:
        console.print(notice.text, highlight=False)


def _stop(signum: int, frame: object) -> None:
    """SIGTERM (systemd, podman stop) ends serve at once, and with 0. A container's PID 1 gets
    no default action for it, so without this handler `podman stop` waits, then kills."""
    console.print("stopped (SIGTERM)")
    raise SystemExit(0)
