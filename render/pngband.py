"""PNG for palette pictures, encoded band by band and remembered.

A table picture changes little from one move to the next: most of its rows are the same bytes
as in the picture before. The image data of a PNG is one zlib stream, but a stream may be cut
into pieces that do not refer back to each other (a "full flush" empties the compressor's
window), so each band of BAND rows is compressed on its own, and a band seen before (the same
palette indices) is not compressed again: its deflate bytes come from a cache. Only the zlib
trailer (the Adler-32 checksum of all the data) spans bands; it is combined from the bands'
own checksums.

Rows are stored unfiltered (PNG filter 0), which is what palette pictures compress best with,
so a band is its raw bytes with a 0 before each row. Bands are compressed at LEVEL 7: a fifth
to a third of a table's rows change from one move to the next, so that is what a picture pays
for; level 4 is a quarter faster on them and 5-10% larger, level 6 a little faster and 1-2%
larger (measured on the tables, move after move; recompressing rows that recur at level 9
cost more than it saved).

The cache is keyed by the band's bytes' hash (Python's 64-bit SipHash) and its length; a
collision between two different bands in one process's cache would need about 2^32 of them.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

#: What `render.compose` marks its pictures with (in `Image.info`): tables, whose rows recur;
#: its value, the rows where the picture's parts meet.
SHEET = "boardroom-sheet"
BAND = 32
MIN_BAND = 8
LEVEL = 7
#: Compressed bytes kept (about 10,000 bands of a typical table).
CACHE_BYTES = 24 << 20

_MOD = 65521
_cache: OrderedDict[tuple[int, int], tuple[bytes, int]] = OrderedDict()  # key -> (deflate bytes, Adler-32)
_cached_bytes = 0
_lock = threading.Lock()


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """The Adler-32 of A + B from those of A and B and B's length (zlib's adler32_combine)."""
    rem = len2 % _MOD
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _MOD
    sum1 = (sum1 + (adler2 & 0xFFFF) + _MOD - 1) % _MOD
    sum2 = (sum2 + (adler1 >> 16) + (adler2 >> 16) + _MOD - rem) % _MOD
    return sum1 | (sum2 << 16)


def _band(data: memoryview, width: int) -> tuple[bytes, int]:
    """A band's rows (palette indices) as (deflate bytes of the rows each with its filter byte
    0 before it, ending in a full flush; their Adler-32)."""
    global _cached_bytes
    key = (hash(data), len(data))
    with _lock:  # pictures may be encoded in several threads of one process
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    rows = bytearray(len(data) + len(data) // width)
    for k in range(len(data) // width):
        rows[k * (width + 1) + 1:(k + 1) * (width + 1)] = data[k * width:(k + 1) * width]
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9)
    value = (packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows))
    with _lock:
        if key not in _cache:
            _cache[key] = value
            _cached_bytes += len(value[0])
        while _cached_bytes > CACHE_BYTES and _cache:
            _cached_bytes -= len(_cache.popitem(last=False)[1][0])
    return value


def _indices(img: Image.Image) -> bytes:
    """The picture's palette indices, row after row: what `Image.tobytes` gives, in one call to
    Pillow's raw encoder rather than in 64 KB pieces joined (half the time on a table)."""
    try:
        encoder = Image._getencoder("P", "raw", "P")
        try:
            encoder.setimage(img.im, (0, 0, *img.size))
            _n, status, data = encoder.encode(img.width * img.height + 4 * img.width)
        finally:
            encoder.cleanup()
        if status == 1 and len(data) == img.width * img.height:
            return data
    except (AttributeError, TypeError, ValueError):  # another Pillow: the public way
        pass
    return img.tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def bands(height: int, edges: list[int] | tuple[int, ...] = ()) -> list[int]:
    """Where bands start: at the `edges` given (the rows where the picture's parts meet, so a part
    drawn again touches only its own rows' bands), at most BAND rows apart, never closer than
    MIN_BAND."""
    starts = [0]
    for edge in sorted({e for e in edges if 0 < e < height} | {height}):
        while edge - starts[-1] > BAND:
            starts.append(starts[-1] + BAND)
        if edge - starts[-1] >= MIN_BAND and edge < height:
            starts.append(edge)
    return starts


def encode(img: Image.Image, edges: list[int] | tuple[int, ...] = ()) -> bytes:
    """`img` (mode P) as PNG bytes; `edges`: rows where bands may best start (any are correct)."""
    width, height = img.size
    raw = memoryview(_indices(img))
    palette = img.getpalette() or []
    used = img.getextrema()[1] + 1
    parts = [b"\x78\x9c"]  # zlib header: deflate, 32 KB window
    adler = 1
    starts = bands(height, edges)
    for top, bottom in zip(starts, starts[1:] + [height]):
        packed, band_adler = _band(raw[top * width:bottom * width], width)
        parts.append(packed)
        adler = adler32_combine(adler, band_adler, (bottom - top) * (width + 1))
    parts.append(b"\x03\x00")  # an empty final block
    parts.append(struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     _chunk(b"PLTE", bytes(palette[:3 * used]).ljust(3 * used, b"\x00")),
                     _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))


def clear() -> None:
    global _cached_bytes
    with _lock:
        _cache.clear()
        _cached_bytes = 0
