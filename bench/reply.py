"""Reading a reply's new text: the CPU one mail of a megabyte costs, for the shapes that
would make a careless reader slow, beside what reading the same mail's MIME costs.

    python -m bench.reply               # the least of 5 readings of each
    python -m bench.reply --rounds 1    # one reading of each (the bench's own test)

For each input (a mail of about 1 MB: adversarial quotes, 10,000 nested blockquotes, tag
soup, one megabyte-long line, and an ordinary reply for scale), prints the least CPU time of
five readings by ``pbem.mail.reading.read_message`` (MIME, charset, HTML to text, quotes,
signature) and, as the fair reference, of the stdlib's MIME parse and decoding of its body
alone, which any reader pays; for HTML, also of the stdlib HTMLParser alone, which the
converter is built on. The goal: under 1 s each on one core.
"""

from __future__ import annotations

import argparse
import email
import time
from collections.abc import Callable
from email import policy
from functools import partial
from html.parser import HTMLParser

from bench.machine import describe
from pbem.mail.reading import read_message
from pbem.ops.services import start

MEGABYTE = 1_000_000


def _fill(unit: str) -> str:
    return unit * (MEGABYTE // len(unit))


INPUTS: dict[str, tuple[str, Callable[[], str]]] = {
    "1 MB of nested > quotes": ("plain", lambda: _fill(">" * 60 + " play 13\n")),
    "1 MB of attributions over quotes": (
        "plain", lambda: _fill("On 5 Dec 2026 Host <h@x> wrote:\n> x\n")),
    "1 MB of header-like lines": ("plain", lambda: _fill("From: x\nSent: y\nTo: z\n")),
    "1 MB of 400-char lines ending in a colon": ("plain", lambda: _fill("1@" * 199 + ":\n")),
    "a megabyte-long line": ("plain", lambda: "a" * MEGABYTE),
    "10,000 nested blockquotes": (
        "html", lambda: "<blockquote>" * 10_000 + "play 19" + "</blockquote>" * 10_000),
    "1 MB of nested blockquotes": (
        "html", lambda: "<blockquote>" * (MEGABYTE // 25) + "play 19"
        + "</blockquote>" * (MEGABYTE // 25)),
    "1 MB of <br>": ("html", lambda: _fill("<br>")),
    "1 MB of unclosed divs and stray end tags": (
        "html", lambda: _fill("<div>")[:MEGABYTE // 2] + _fill("</span>")[:MEGABYTE // 2]),
    "an ordinary 2 KB reply": ("plain", lambda: "Hi all,\n\nplay 19\nsecret s\n\nThanks,\n"
                               "Alice\n\nOn Fri, 5 Dec 2026 at 10:00, Host <h@x> wrote:\n"
                               + "> the status mail, quoted\n" * 80),
}


def mail(kind: str, body: str) -> bytes:
    return ("From: alice@players.test\nTo: games@host.test\nSubject: Re: [reef-12]\n"
            "Message-ID: <bench@players.test>\n"
            f"Content-Type: text/{kind}; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
            f"{body}").encode()


def cpu(work: Callable[[], object], rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def mime_only(raw: bytes) -> None:
    parsed = email.message_from_bytes(raw, policy=policy.compat32)
    payload = parsed.get_payload(decode=True)
    assert isinstance(payload, bytes)
    payload.decode("utf-8")


def html_parser_only(body: str) -> None:
    parser = HTMLParser(convert_charrefs=True)
    parser.feed(body)
    parser.close()


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.reply",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="readings of each input")
    rounds = parser.parse_args().rounds
    print(describe())
    print(f"{'input':44} {'bytes':>9} {'read_message':>13} {'MIME only':>10} "
          f"{'HTMLParser only':>16}")
    worst = 0.0
    for name, (kind, build) in INPUTS.items():
        body = build()
        raw = mail(kind, body)
        ours = cpu(partial(read_message, raw, max_bytes=10 * len(raw)), rounds)
        reference = cpu(partial(mime_only, raw), rounds)
        base = (f"{cpu(partial(html_parser_only, body), rounds):>15.3f}s"
                if kind == "html" else "")
        worst = max(worst, ours)
        print(f"{name:44} {len(raw):>9,} {ours:>12.3f}s {reference:>9.3f}s {base}".rstrip())
    print(f"worst: {worst:.3f} s of CPU (goal: under 1 s)")


if __name__ == "__main__":
    main()
