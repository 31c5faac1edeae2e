"""No reply makes the reader work for long: reading quadruple the text costs about quadruple
the time (a reader whose patterns backtrack, or that rescans a line's start or its open tags,
costs sixteen times), and a mail of each kind goes through the pipeline to an answer.

Like tests/games/test_linear_orders.py for the games' parsers, but for what comes before them:
the reply's quotes, attributions, header blocks and HTML.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pbem.mail.reading import read_message

QUARTER = 60_000  # characters: the small size; the large one four times it


def _fill(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


PLAIN: dict[str, Callable[[int], str]] = {
    "nested quotes": lambda n: _fill(">" * 60 + " play 13\n", n),
    "attributions over quotes": lambda n: _fill("On 5 Dec 2026 Host <h@x> wrote:\n> x\n", n),
    "long attribution-like lines": lambda n: _fill("On " + "a wrote " * 48 + "wrote:\n", n),
    "header-like lines": lambda n: _fill("Fromm: x\nSentt: y\n", n),
    "lines ending in a colon": lambda n: _fill("1@" * 199 + ":\n", n),
    "folded attribution halves": lambda n: _fill("\nOn 5 Dec 2026 at 10:00 " + "b" * 40 + "\n"
                                                 "c wrote:\nplay 1\n", n),
    "dashes": lambda n: _fill("-- " + "-" * 70 + "x\n", n),
    "a megabyte-long line": lambda n: "a" * n,
    "a megabyte of spaces then a quote mark": lambda n: " " * n + ">",
    "blank lines and quote marks": lambda n: _fill("\n\n>\n", n),
    "mobile-like lines": lambda n: _fill("Sent from my " + "x" * 300 + "\n", n),
}
HTML: dict[str, Callable[[int], str]] = {
    "nested blockquotes": lambda n: "<blockquote>" * (n // 12) + "play 19" + "</blockquote>" * (
        n // 13),
    "unclosed divs and stray end tags": lambda n: _fill("<div>", n // 2) + _fill("</span>", n // 2),
    "many pieces of one line": lambda n: _fill("<b>x</b>", n),
    "quote classes": lambda n: _fill('<div class="gmail_quote">x', n),
    "breaks": lambda n: _fill("<br>", n),
}


def mail_of(body: str, html: bool) -> bytes:
    kind = "html" if html else "plain"
    return ("From: alice@players.test\nTo: games@host.test\nSubject: Re: [reef-12]\n"
            f"Message-ID: <linear@players.test>\nContent-Type: text/{kind}; charset=utf-8\n"
            f"Content-Transfer-Encoding: 8bit\n\n{body}").encode()


def _cpu(raw: bytes) -> float:
    """The least CPU time of three readings (the least is the one least disturbed)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        read_message(raw, max_bytes=10 * len(raw))
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize(("html", "name"), [(False, n) for n in PLAIN] + [(True, n) for n in HTML])
def test_four_times_the_reply_costs_about_four_times_the_reading(html: bool, name: str) -> None:
    build = (HTML if html else PLAIN)[name]
    small, large = mail_of(build(QUARTER), html), mail_of(build(4 * QUARTER), html)
    assert len(large) > 3.9 * len(small)
    # Linear: x4 (plus the noise of a shared machine). Quadratic would be x16.
    assert _cpu(large) < 8 * _cpu(small) + 0.05
