"""One `process` pass over a real Maildir inbox and outbox."""

from __future__ import annotations

import mailbox
from pathlib import Path

from pbem.ops import api
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.processor.conftest import ALICE, BOB, Table, hand, mail


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
