"""Reading the pixels of the PNGs our pictures become, with the standard library only.

Enough of PNG for what resvg writes: 8-bit RGBA, not interlaced, any of the five row filters.
Slow (pure Python, a second or two for a board) but dependency-free, for tests that look at
what a picture shows.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Pixels:
    width: int
    height: int
    rows: list[bytes]  # RGBA, 4 bytes a pixel

    def at(self, x: int, y: int) -> tuple[int, int, int, int]:
        row = self.rows[y]
        r, g, b, a = row[4 * x:4 * x + 4]
        return r, g, b, a

    def box(self, x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int, int, int]]:
        """Every pixel of the box [x0, x1) x [y0, y1), clipped to the image."""
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(self.width, x1), min(self.height, y1)
        return [self.at(x, y) for y in range(y0, y1) for x in range(x0, x1)]


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode(png: bytes) -> Pixels:
    assert png[:8] == SIGNATURE, "not a PNG"
    pos, idat, header = 8, bytearray(), b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, colour, interlace) == (8, 6, 0), "only 8-bit RGBA, not interlaced"
    raw = zlib.decompress(bytes(idat))
    stride, bpp = width * 4, 4
    rows: list[bytes] = []
    previous = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous, strict=True))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upleft = previous[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, previous[i], upleft)) & 255
        else:
            assert kind == 0, f"unknown PNG filter {kind}"
        previous = bytes(line)
        rows.append(previous)
    return Pixels(width, height, rows)
