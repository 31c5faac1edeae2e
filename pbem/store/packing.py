"""How a sent mail's bytes are kept small at rest, exactly as they were.

A status mail is mostly pictures, and most of them are the same picture again: the board a
seat saw yesterday, the same board in every seat's mail of a turn. ``split`` cuts each long
run of base64 lines out of a mail and leaves a mark naming the run by its SHA-256, so a
picture is stored once however many mails carry it (pbem.store.mailparts keeps the runs);
``join`` puts them back byte for byte. ``Deflated`` compresses what a column holds (the
HTML and text parts of a mail shrink about sevenfold). Both only ever rewrite bytes into
equal bytes: what is sent, signed, digested or exported is the mail as composed.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Mapping
from typing import Any

from sqlalchemy import LargeBinary
from sqlalchemy.types import TypeDecorator

# A mail as composed is 7-bit text: it never holds a NUL, so a NUL opens a mark and a
# compressed value, and bytes stored before either existed read back as they are.
_MARK = re.compile(rb"\x00part:([0-9a-f]{64})\x00")
_DEFLATED = b"\x00deflate\x00"
# Eight or more full base64 lines in a row (76 characters each as the MIME writers wrap
# them, 40 at least): a picture or another attached file, never words.
_BASE64_RUN = re.compile(rb"(?:[A-Za-z0-9+/]{40,76}\r?\n){8,}")
MIN_RUN = 2048  # a shorter run costs more as a row of its own than it saves


def split(raw: bytes) -> tuple[bytes, dict[str, bytes]]:
    """``raw`` with each long base64 run replaced by its mark, and the runs by digest."""
    if b"\x00" in raw:
        return raw, {}
    runs: dict[str, bytes] = {}

    def mark(found: re.Match[bytes]) -> bytes:
        run = found.group(0)
        if len(run) < MIN_RUN:
            return run
        digest = hashlib.sha256(run).hexdigest()
        runs[digest] = run
        return b"\x00part:" + digest.encode() + b"\x00"

    return _BASE64_RUN.sub(mark, raw), runs


def marks(skeleton: bytes) -> set[str]:
    """The digests of the runs a split mail names."""
    return {found.group(1).decode() for found in _MARK.finditer(skeleton)}


def join(skeleton: bytes, runs: Mapping[str, bytes]) -> bytes:
    """The mail ``split`` cut: every mark replaced by its run (KeyError if one is missing)."""
    if b"\x00" not in skeleton:
        return skeleton
    return _MARK.sub(lambda found: runs[found.group(1).decode()], skeleton)


def deflate(value: bytes) -> bytes:
    return _DEFLATED + zlib.compress(value, 6) if value else value


def inflate(value: bytes) -> bytes:
    """What ``deflate`` compressed; any other bytes as they are."""
    if value.startswith(_DEFLATED):
        return zlib.decompress(value[len(_DEFLATED):])
    return value


class Deflated(TypeDecorator[bytes]):
    """Bytes compressed at rest, read back as they were written."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: bytes | None, dialect: Any) -> bytes | None:
        return None if value is None else deflate(value)

    def process_result_value(self, value: bytes | None, dialect: Any) -> bytes | None:
        return None if value is None else inflate(bytes(value))
