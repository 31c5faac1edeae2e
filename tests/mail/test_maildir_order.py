"""Maildir mail is fetched in arrival order, although file names do not sort as text."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.inbound import MaildirInbox


def test_fetch_follows_arrival_not_text_order(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path / "in")
    # Python's mailbox and Dovecot name files <second>.M<microseconds>P<pid>Q<n>.<host>,
    # microseconds not zero-padded: as text, M100 would sort before M99.
    names = ["1700000000.M99P7Q1.host", "1700000000.M100P7Q2.host",
             "1700000001.M5P7Q3.host", "1700000001.M5P7Q10.host"]
    for n, name in enumerate(reversed(names)):
        (tmp_path / "in" / "new" / name).write_bytes(f"Subject: {n}\n\nx\n".encode())
    assert [f.key for f in inbox.fetch()] == names
