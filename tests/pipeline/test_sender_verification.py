"""``mail.trusted_authserv_id``: a player's mail counts only with our server's verdict."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pbem.pipeline.one_mail import process_raw
from pbem.settings import config
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.mail.test_authresults import FAIL, RSPAMD_PASS
from tests.pipeline.conftest import ALICE, Table, hand, queued


def order(table: Table, card: int, *auth_headers: str) -> bytes:
    head = "".join(auth_headers)
    return (f"{head}From: Alice <{ALICE}>\nTo: games@host.test\nSubject: [{table.tag}]\n"
            f"Message-ID: <o{len(head)}@players.test>\n\nplay {card}\nsecret {table.secrets[0]}\n"
            ).encode()


def test_a_verified_order_is_played(factory: SessionFactory, host: Host, table: Table) -> None:
    strict = replace(host, mail=replace(host.mail, trusted_authserv_id="mx.host.test"))
    card = hand(factory, table, 0)[0]
    result = process_raw(factory, order(table, card, RSPAMD_PASS), strict)
    assert result.status == "applied", result.reason


def test_an_unverified_order_is_refused_with_the_reason(factory: SessionFactory, host: Host,
                                                        table: Table) -> None:
    strict = replace(host, mail=replace(host.mail, trusted_authserv_id="mx.host.test"))
    card = hand(factory, table, 0)[0]
    forged = order(table, card, FAIL, RSPAMD_PASS)  # a pass forged below our server's fail
    result = process_raw(factory, forged, strict)
    assert result.status == "rejected"
    assert result.reason.startswith("sender not verified: mx.host.test found no DKIM, SPF or "
                                    "DMARC pass for players.test")
    [(to, text)] = queued(factory)
    assert to == ALICE
    assert (f"Your mail could not be verified as sent from {ALICE}: mx.host.test found no "
            "DKIM, SPF or DMARC pass for players.test (dkim=none, spf=softfail for "
            "players.test, dmarc=fail for players.test). So nothing was played.") in \
        " ".join(text.split())
    assert card in hand(factory, table, 0)


def test_without_the_option_the_secret_alone_decides(factory: SessionFactory, host: Host,
                                                     table: Table) -> None:
    card = hand(factory, table, 0)[0]
    result = process_raw(factory, order(table, card, FAIL), host)
    assert result.status == "applied", result.reason


def test_the_option_comes_from_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[mail]\ntrusted_authserv_id = " mx.host.test "\n')
    assert Host.from_config(config.load(tmp_path / "pbem.toml")).mail.trusted_authserv_id == \
        "mx.host.test"
    (tmp_path / "pbem.toml").write_text('[mail]\nfrom_address = "g@host.test"\n')
    assert Host.from_config(config.load(tmp_path / "pbem.toml")).mail.trusted_authserv_id is None
