"""A megabyte of adversarial reply, of every kind tests/mail/test_linear_reply.py reads, goes
through the pipeline to an answer: no handler crashes on it, and nothing of it is played."""

from __future__ import annotations

import pytest

from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.mail.test_linear_reply import HTML, PLAIN, mail_of
from tests.pipeline.conftest import Table

SIZE = 900_000  # under the host's 1 MB limit, with the headers


@pytest.mark.parametrize(("html", "name"), [(False, n) for n in PLAIN] + [(True, n) for n in HTML])
def test_an_adversarial_reply_of_each_kind_gets_an_answer(
        html: bool, name: str, factory: SessionFactory, host: Host, table: Table) -> None:
    body = (HTML if html else PLAIN)[name](SIZE)
    raw = mail_of(body, html).replace(b"[reef-12]", f"[{table.tag}]".encode())
    result = process_raw(factory, raw, host)
    assert result.status == "rejected" and result.queued, result.reason  # no secret in it
