"""Per-seat secrets: generated with ``secrets``, stored salted and hashed, compared in constant
time, so a database leak does not let anyone move for a player."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_secret() -> str:
    return secrets.token_urlsafe(9)  # 12 characters, easy to paste


def new_salt() -> str:
    return secrets.token_hex(16)


def hash_secret(secret: str, salt: str) -> str:
    digest = hashlib.scrypt(secret.strip().encode("utf-8"), salt=bytes.fromhex(salt),
                            n=2**14, r=8, p=1, dklen=32)
    return digest.hex()


def check_secret(secret: str, salt: str, expected_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret, salt), expected_hash)
