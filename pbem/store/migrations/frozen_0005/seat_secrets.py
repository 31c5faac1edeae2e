"""Frozen for migration 0005 (see the package): a copy of pbem/pipeline/seat_secrets.py as it stood
when frozen. Never edit it: a change to the live code must not change an old migration.

Per-seat secrets: 128-bit random tokens from ``secrets``, stored salted and hashed, compared
in constant time, so a database leak does not let anyone move for a player.

A slow KDF (scrypt, bcrypt) protects guessable passwords; these secrets are random 128-bit
tokens that no one can guess, so one keyed SHA-256 is as safe and ~10,000 times cheaper per
incoming mail. Stored hashes carry a scheme prefix (``hmac-sha256$<hex>``); hashes written
before the prefix existed are bare scrypt hex and still verify.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCHEME = "hmac-sha256"


def new_secret() -> str:
    return secrets.token_urlsafe(16)  # 128 bits, 22 characters


def new_salt() -> str:
    return secrets.token_hex(16)


def _normal(secret: str) -> bytes:
    return secret.strip().encode("utf-8")


def hash_secret(secret: str, salt: str) -> str:
    """The stored form of ``secret``: HMAC-SHA256 keyed with the seat's salt."""
    digest = hmac.new(bytes.fromhex(salt), _normal(secret), hashlib.sha256).hexdigest()
    return f"{SCHEME}${digest}"


def scrypt_hash(secret: str, salt: str) -> str:
    """The legacy scheme (bare hex, no prefix), kept so old seats keep their secrets."""
    return hashlib.scrypt(_normal(secret), salt=bytes.fromhex(salt), n=2**14, r=8, p=1,
                          dklen=32).hex()


def check_secret(secret: str, salt: str, expected_hash: str) -> bool:
    scheme, sep, _ = expected_hash.partition("$")
    if not sep:
        computed = scrypt_hash(secret, salt)
    elif scheme == SCHEME:
        computed = hash_secret(secret, salt)
    else:  # an unknown scheme never matches
        return False
    return hmac.compare_digest(computed.encode(), expected_hash.encode())
