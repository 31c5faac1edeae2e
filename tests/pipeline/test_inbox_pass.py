"""One `process` pass over a real Maildir inbox and outbox."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest

from pbem.ops import api
from pbem.pipeline.one_mail import Result
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail


def test_one_pass_fetches_processes_and_sends(factory: SessionFactory, host: Host, table: Table,
                                              tmp_path: Path) -> None:
    from pbem.mail.inbound import MaildirInbox
    from pbem.mail.outbound import MaildirSender

    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(mail(ALICE, f"[{table.tag}]", f"play {hand(factory, table, 0)[0]}\n"
                                          f"secret {table.secrets[0]}"))
    box.add(mail(BOB, f"[{table.tag}]", f"play {hand(factory, table, 1)[0]}\n"
                                        f"secret {table.secrets[1]}"))
    inbox = MaildirInbox(tmp_path / "in")
    outbox = tmp_path / "out"
    first = api.process_inbox(factory, inbox, MaildirSender(outbox), host)
    assert sorted(r.status for r in first.results) == ["applied", "applied"]
    assert first.delivery.sent == 4
    again = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outbox), host)
    assert again.results == [] and again.delivery.sent == 0
    assert len(mailbox.Maildir(outbox, create=False)) == 4


def test_a_long_pass_sends_as_it_goes(factory: SessionFactory, host: Host, table: Table,
                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a backlog, the first mail's answers go out before the pass reaches the last mail."""
    from pbem.mail.inbound import MaildirInbox
    from pbem.mail.outbound import MaildirSender

    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(mail(ALICE, f"[{table.tag}]", f"play {hand(factory, table, 0)[0]}\n"
                                          f"secret {table.secrets[0]}"))
    box.add(mail(BOB, f"[{table.tag}]", f"play {hand(factory, table, 1)[0]}\n"
                                        f"secret {table.secrets[1]}"))
    outbox = tmp_path / "out"
    sent_before: list[int] = []

    def seen(result: Result) -> None:
        sent_before.append(len(mailbox.Maildir(outbox, create=True)))

    monkeypatch.setattr(api, "SEND_EVERY", 0.0)  # every mail's answers at once
    done = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outbox),
                             host, after_commit=seen)
    # When the second mail is handled, the first one's answers (its reply, the other seat's
    # status) are already out; the pass still counts every mail it sent.
    assert sent_before == [0, 2]
    assert done.delivery.sent == 4 and len(mailbox.Maildir(outbox, create=False)) == 4


def test_a_short_pass_sends_once_at_its_end(factory: SessionFactory, host: Host, table: Table,
                                            tmp_path: Path) -> None:
    from pbem.mail.inbound import MaildirInbox
    from pbem.mail.outbound import MaildirSender

    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(mail(ALICE, f"[{table.tag}]", f"play {hand(factory, table, 0)[0]}\n"
                                          f"secret {table.secrets[0]}"))
    outbox = tmp_path / "out"
    sent_before: list[int] = []
    done = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outbox),
                             host, after_commit=lambda r: sent_before.append(
                                 len(mailbox.Maildir(outbox, create=True))))
    assert sent_before == [0] and done.delivery.sent == 2
