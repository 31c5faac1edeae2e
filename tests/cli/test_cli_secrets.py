"""Secrets through the CLI: what `quarantine show` prints of a kept mail, and a player's
`secret new` on the embedded defaults (Maildirs, SQLite)."""

from __future__ import annotations

import hashlib
import mailbox
import re
from pathlib import Path

from tests.cli.test_cli import body, home, outbox, pbem  # noqa: F401  (home is a fixture)
from tests.cli.test_cli_admin import ALICE, new_game


def test_a_kept_mail_is_shown_blanked_with_the_digest_of_what_came_in(
        home: Path) -> None:  # noqa: F811
    tag = new_game()
    pbem("process")
    [welcome] = [body(m) for m in outbox(home) if ALICE in str(m["To"])]
    found = re.search(r"Your secret is: (\S+)", welcome)
    assert found is not None
    secret = found.group(1)
    raw = (f"From: {ALICE}\nTo: pbem@localhost\nSubject: Re: [{tag}] Test Cards\n"
           f"Message-ID: <kept@players.test>\n\nsecret new\nsecret {secret}\n").encode()
    mailbox.Maildir(home / "inbox", create=True).add(raw)
    assert "1 applied" in pbem("process")
    shown = pbem("quarantine", "show", "1")
    assert "status: applied\nreason: new secret\n" in shown
    assert f"sha256 as received: {hashlib.sha256(raw).hexdigest()}" in shown
    assert "secret new\nsecret [secret-removed]\n" in shown and secret not in shown
    reply = body(outbox(home)[-1])
    assert f"Your new secret for [{tag}] is: " in reply and secret not in reply
