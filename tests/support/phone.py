"""Pages as a phone shows them: mails written out as files a browser opens, and what overflows.

A mail's HTML part is written beside its pictures (each ``cid:`` part as a file), so the page
Chromium opens is the one a mail client shows. :func:`measure` reports what a reader at the
window's width would trip on: a document wider than the window (sideways scrolling), and text
smaller than ``MIN_PX`` CSS pixels, pictures' words included (an SVG's text at the size the
picture is shown, not the size it was drawn).
"""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

MIN_PX = 11.0


def mails(outbox: Path) -> list[EmailMessage]:
    """Every mail of a Maildir, oldest first."""
    files = sorted((p for p in outbox.rglob("*") if p.is_file() and p.parent.name in
                    ("new", "cur")), key=lambda p: p.name)
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in files]


def write_mail_page(mail: EmailMessage, folder: Path, name: str) -> Path | None:
    """``mail``'s HTML part as ``folder/name.html``, its ``cid:`` pictures as files beside it;
    None for a mail with no HTML part (plain text wraps wherever a client shows it)."""
    body = mail.get_body(("html",))
    if body is None:
        return None
    html = cast(str, cast(EmailMessage, body).get_content())
    for n, part in enumerate(mail.walk()):
        cid = part.get("Content-ID")
        if cid and part.get_content_maintype() == "image":
            picture = folder / f"{name}-{n}.png"
            picture.write_bytes(cast(bytes, part.get_payload(decode=True)))
            html = html.replace(f"cid:{cid.strip('<>')}", picture.name)
    page = folder / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    return page


# What the window shows now: the document's width against the window's, and every piece of
# text (HTML or SVG) on show smaller than the minimum, with its size and a sample.
MEASURE = """
const min = arguments[0];
const root = document.documentElement;
const small = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.trim();
  const el = node.parentElement;
  if (!text || !el || !el.getClientRects().length) continue;
  if (el.closest('title, style, script')) continue;
  let size = parseFloat(getComputedStyle(el).fontSize);
  const svgText = el.closest('text');
  if (svgText) {
    const ctm = svgText.getScreenCTM();
    if (!ctm) continue;
    size *= Math.hypot(ctm.a, ctm.b);
  }
  if (size < min - 0.01) small.push([Math.round(size * 10) / 10, text.slice(0, 40)]);
}
// A box that scrolls sideways inside the page (a wide table in a scroller) is the same trip.
for (const el of document.body.querySelectorAll('*')) {
  if (el.scrollWidth > el.clientWidth + 1 && el.getClientRects().length
      && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) {
    small.push(['scrolls sideways', el.tagName + ' ' + el.scrollWidth + '>' + el.clientWidth]);
  }
}
return [root.scrollWidth, root.clientWidth, small.slice(0, 8), small.length];
"""


@dataclass
class Trip:
    """What one view of a page does wrong on a phone (empty lists: nothing)."""

    where: str
    scroll_width: int
    width: int
    small: list[Any]

    @property
    def overflows(self) -> bool:
        return self.scroll_width > self.width


def phone(driver: Any, width: int = 390) -> None:
    """``driver``'s window as a phone ``width`` CSS pixels wide (touch, overlay scrollbars,
    the page's viewport tag obeyed), as Chromium's device emulation makes it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 844, "deviceScaleFactor": 3, "mobile": True})


def measure(driver: Any, where: str) -> Trip | None:
    """The page on show in ``driver``, measured; None when nothing is wrong."""
    scroll, width, small, _ = driver.execute_script(MEASURE, MIN_PX)
    trip = Trip(where, int(scroll), int(width), list(small))
    return trip if trip.overflows or trip.small else None


def archive_ready(driver: Any) -> None:
    """Wait (up to 10 s) for the archive page on show to have inflated its boards: its step
    controls show then."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: d.execute_script(
        "const c = document.getElementById('controls'); return c && !c.hidden"))


def walk_archive(driver: Any, where: str) -> list[Trip]:
    """Every step of an archive page shown in turn (its slider moved), each measured; where
    the page shows each player's board too (a game over), every step as each one saw it."""
    archive_ready(driver)
    steps = int(driver.execute_script(
        "return document.querySelectorAll('section.step').length"))
    views = int(driver.execute_script(
        "const c = document.getElementById('seen-by'); return c ? c.options.length : 1"))
    trips = []
    for view in range(views):
        driver.execute_script(
            "const c = document.getElementById('seen-by');"
            "if (c) { c.value = String(arguments[0]); c.dispatchEvent(new Event('change')); }",
            view)
        for i in range(steps):
            driver.execute_script(
                "const s = document.getElementById('slider'); s.value = String(arguments[0]);"
                "s.dispatchEvent(new Event('input'));", i)
            found = measure(driver, f"{where} step {i} seen by {view}")
            if found:
                trips.append(found)
    return trips
