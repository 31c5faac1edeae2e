"""The embedded default transports: a Maildir inbox and a Maildir outbox."""

from __future__ import annotations

import mailbox
from pathlib import Path

from pbem.mail.compose import compose
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender


def test_inbox_fetches_and_moves_handled_mail(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(b"Message-ID: <a@x>\r\n\r\none\r\n")
    box.add(b"Message-ID: <b@x>\r\n\r\ntwo\r\n")
    inbox = MaildirInbox(tmp_path / "inbox")
    fetched = list(inbox.fetch())
    bodies = sorted(f.raw.replace(b"\r\n", b"\n").split(b"\n\n")[-1].strip() for f in fetched)
    assert bodies == [b"one", b"two"]
    inbox.mark_processed(fetched[0].key)
    inbox.mark_failed(fetched[1].key)
    assert list(inbox.fetch()) == []
    assert len(box.get_folder("processed")) == 1
    assert len(box.get_folder("failed")) == 1
    assert inbox.wait(0.01) is False


def test_inbox_limit_and_wait(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path / "in")
    for i in range(3):
        mailbox.Maildir(tmp_path / "in").add(f"Message-ID: <{i}@x>\n\nbody\n".encode())
    assert len(list(inbox.fetch(limit=2))) == 2
    assert inbox.wait(0.01) is True


def test_outbox_writes_readable_mail(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path / "out")
    sender.send(compose(from_addr="g@h.test", to_addr="a@p.test", subject="s",
                        text="hello").message())
    box = mailbox.Maildir(tmp_path / "out", create=False)
    (key,) = list(box.iterkeys())
    assert b"hello" in box.get_bytes(key)
