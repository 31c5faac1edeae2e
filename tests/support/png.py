"""Reading the pixels of the PNGs our pictures become, with the standard library only.

Enough of PNG for what pbem.drawing.pictures writes: 8-bit RGBA (resvg's) or a palette of 1, 2,
4 or 8 bits a pixel (the colours in PLTE), not interlaced, any of the five row filters.
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
    pos, idat, header, palette = 8, bytearray(), b"", b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        elif kind == b"PLTE":
            palette = data
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (colour, depth) in ((6, 8), (2, 8)) or (colour == 3 and depth in (1, 2, 4, 8)), \
        "only 8-bit RGBA, 8-bit RGB or a palette"
    assert interlace == 0, "not interlaced"
    raw = zlib.decompress(bytes(idat))
    bpp = {6: 4, 2: 3}.get(colour, 1)  # bytes a pixel, at least one, as the filters count them
    stride = width * bpp if colour in (6, 2) else (width * depth + 7) // 8
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
        rows.append(previous if colour == 6 else _opaque(previous) if colour == 2
                    else _rgba(previous, palette, depth, width))
    return Pixels(width, height, rows)


def _opaque(line: bytes) -> bytes:
    """An RGB row as RGBA."""
    return b"".join(line[i:i + 3] + b"\xff" for i in range(0, len(line), 3))


def _rgba(line: bytes, palette: bytes, depth: int, width: int) -> bytes:
    """A palette row's indices (``depth`` bits each, first pixel in the high bits) as RGBA."""
    per_byte, mask = 8 // depth, (1 << depth) - 1
    indices = [(byte >> (8 - depth * (k + 1))) & mask for byte in line for k in range(per_byte)]
    return b"".join(palette[3 * i:3 * i + 3] + b"\xff" for i in indices[:width])
