"""Seat secrets: the fast keyed hash, the legacy scrypt hashes, constant-time comparison."""

from __future__ import annotations

import time

from sqlmodel import select

from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.seat_secrets import check_secret, hash_secret, new_salt, new_secret, scrypt_hash
from pbem.settings.host import Host
from pbem.store import Seat, SessionFactory
from tests.pipeline.conftest import ALICE, Table, hand
from tests.support.playermail import mail


def test_new_secrets_carry_128_random_bits() -> None:
    secrets = {new_secret() for _ in range(100)}
    assert len(secrets) == 100
    assert all(len(s) == 22 for s in secrets)  # 16 bytes, URL-safe base64


def test_hmac_scheme_verifies_and_is_prefixed() -> None:
    salt = new_salt()
    stored = hash_secret("s3cret", salt)
    assert stored.startswith("hmac-sha256$") and "s3cret" not in stored
    assert check_secret("s3cret", salt, stored)
    assert check_secret("  s3cret \n", salt, stored)  # pasted with spaces
    assert not check_secret("s3creT", salt, stored)
    assert not check_secret("s3cret", new_salt(), stored)  # the salt keys the hash


def test_legacy_scrypt_hashes_still_verify() -> None:
    salt = new_salt()
    legacy = scrypt_hash("old-secret", salt)
    assert "$" not in legacy and len(legacy) == 64
    assert check_secret("old-secret", salt, legacy)
    assert not check_secret("old-secreT", salt, legacy)


def test_unknown_scheme_or_garbage_never_matches() -> None:
    salt = new_salt()
    digest = hash_secret("x", salt).partition("$")[2]
    assert not check_secret("x", salt, f"md5${digest}")
    assert not check_secret("x", salt, "")
    assert not check_secret("x", salt, "hmac-sha256$")


def test_the_fast_scheme_is_much_cheaper_than_scrypt() -> None:
    salt = new_salt()
    fast, slow = hash_secret("x", salt), scrypt_hash("x", salt)
    t0 = time.perf_counter()
    for _ in range(100):
        check_secret("x", salt, fast)
    t1 = time.perf_counter()
    for _ in range(3):
        check_secret("x", salt, slow)
    t2 = time.perf_counter()
    assert (t1 - t0) / 100 * 50 < (t2 - t1) / 3


def test_a_seat_with_a_legacy_hash_can_still_play(factory: SessionFactory, host: Host,
                                                  table: Table) -> None:
    with factory() as s:
        seat = s.exec(select(Seat).where(Seat.game_id == table.game_id, Seat.index == 0)).one()
        seat.secret_hash = scrypt_hash(table.secrets[0], seat.secret_salt)
        s.add(seat)
        s.commit()
    card = hand(factory, table, 0)[0]
    wrong = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret nope"),
                        host)
    assert wrong.reason == "wrong secret"
    ok = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                   f"play {card}\nsecret {table.secrets[0]}"), host)
    assert ok.status == "applied"
