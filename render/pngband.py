"""PNG for palette pictures, encoded band by band and remembered.

A table picture changes little from one move to the next: most of its rows are the same bytes
as in the picture before. The image data of a PNG is one zlib stream, but a stream may be cut
into pieces that do not refer back to each other (a "full flush" empties the compressor's
window), so each band of BAND rows is compressed on its own, and a band seen before (the same
palette indices) is not compressed again: its deflate bytes come from a cache. Only the zlib
trailer (the Adler-32 checksum of all the data) spans bands; it is combined from the bands'
own checksums.

Rows are stored unfiltered (PNG filter 0), which is what palette pictures compress best with,
so a band is its raw bytes with a 0 before each row. Bands are compressed at LEVEL 6 and are
at most BAND (64) rows high: a fifth to a third of a table's rows change from one move to the
next, so that is what a picture pays for. Measured on the benchmark's tables, move after move
(60 of each title, two seeded games each): 64-row bands at level 6 take a fifth less time than
32-row bands at level 7 (before issue 23's picture goal) and are a little smaller (the longer a
band, the fewer rows start without the row above to refer to); level 5 is faster still and 2-8%
larger, level 9 6-8% smaller and three to six times slower, bands of 16 rows 2-4% larger. A sheet
may ask for other bands (`Layout.band`: Black Friday's moves change strips of 20-35 rows, which
48-row bands hold in one band more often).

The cache is keyed by the band's bytes' hash (Python's 64-bit SipHash) and its length; a
collision between two different bands in one process's cache would need about 2^32 of them.
Reading a table's indices back and hashing every band cost as much as compressing the bands a
move changed, so a table assembled by `render.compose` is first looked up by how each band was
made (`render.layout`: which kept parts cover it, and where): a band made the same way as
before is its bytes of before, unread. A band made in a new way is read and looked up by its
content as above (a part drawn again may differ from before only in rows of other bands; a
frame that grew crosses bands it does not change), and its layout key is kept too, pointing to
that content.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from typing import Hashable

from PIL import Image

from render.layout import Layout, weight

#: What `render.compose` marks its pictures with (in `Image.info`): tables, whose rows recur;
#: its value, the rows where the picture's parts meet.
SHEET = "boardroom-sheet"
BAND = 64
MIN_BAND = 8
LEVEL = 6
#: zlib's memory level (the size of its match hash table; zlib's default): the bands the bench's
#: 60 tables of each title compress took 4-17% less time than at 9, the most, and came out
#: 0.01-0.08% smaller (rows of 1,200 bytes find their matches as well with a smaller table).
MEM_LEVEL = 8
#: The last palette index as a byte. The PLTE chunk holds as many colours as the picture uses (up
#: to its highest index); every table of the benchmark's (244, all four titles) uses index 255,
#: the whole palette, which a band's rows show by holding this byte (a memchr as they are packed)
#: where scanning a whole table for its highest index cost 0.1-0.15 ms.
LAST = b"\xff"
#: Compressed bytes kept (about 10,000 bands of a typical table), with the layout keys' own.
CACHE_BYTES = 24 << 20

_MOD = 65521
#: content key (hash, length) -> (deflate bytes, Adler-32, whether index 255 is in it); layout key -> content key
_cache: OrderedDict[Hashable, tuple[bytes, int, bool] | tuple[int, int]] = OrderedDict()
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


def _cost(key: Hashable, value: tuple) -> int:
    return len(value[0]) if isinstance(value[0], bytes) else weight(key)


def _keep(key: Hashable, value: tuple) -> None:
    """Keep `value` under `key`, and forget the least recently used past CACHE_BYTES."""
    global _cached_bytes
    with _lock:
        if key not in _cache:
            _cache[key] = value
            _cached_bytes += _cost(key, value)
        while _cached_bytes > CACHE_BYTES and _cache:
            _cached_bytes -= _cost(*_cache.popitem(last=False))


def _found(key: Hashable) -> tuple | None:
    with _lock:  # pictures may be encoded in several threads of one process
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
        return hit


def _made(key: Hashable) -> tuple[bytes, int, bool] | None:
    """The band made as `key` says, if it was seen."""
    content = _found(key)
    return None if content is None else _found(content)  # type: ignore[return-value]


def _band(data: bytes | memoryview, width: int, layout_key: Hashable | None = None) -> tuple[bytes, int, bool]:
    """A band's rows (palette indices) as (deflate bytes of the rows each with its filter byte
    0 before it, ending in a full flush; their Adler-32; whether the last palette index, 255, is
    among them); `layout_key`: how it was made."""
    key = (hash(data), len(data))
    value = _found(key)
    if value is None:
        rows = bytearray(len(data) + len(data) // width)
        for k in range(len(data) // width):
            rows[k * (width + 1) + 1:(k + 1) * (width + 1)] = data[k * width:(k + 1) * width]
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, MEM_LEVEL)
        value = (packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), LAST in rows)
        _keep(key, value)
    if layout_key is not None:
        _keep(layout_key, key)
    return value  # type: ignore[return-value]


def _indices(img: Image.Image, top: int = 0, bottom: int | None = None) -> bytes:
    """The picture's palette indices, row after row (rows `top` to `bottom`): what
    `Image.tobytes` gives, in one call to Pillow's raw encoder rather than in 64 KB pieces joined
    (half the time on a table)."""
    bottom = img.height if bottom is None else bottom
    size = img.width * (bottom - top)
    try:
        encoder = Image._getencoder("P", "raw", "P")
        try:
            encoder.setimage(img.im, (0, top, img.width, bottom))
            _n, status, data = encoder.encode(size + 4 * img.width)
        finally:
            encoder.cleanup()
        if status == 1 and len(data) == size:
            return data
    except (AttributeError, TypeError, ValueError):  # another Pillow: the public way
        pass
    return img.crop((0, top, img.width, bottom)).tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def bands(height: int, edges: list[int] | tuple[int, ...] = (), band: int = BAND) -> list[int]:
    """Where bands start: at the `edges` given (the rows where the picture's parts meet, so a part
    drawn again touches only its own rows' bands), at most `band` rows apart, never closer than
    MIN_BAND."""
    starts = [0]
    for edge in sorted({e for e in edges if 0 < e < height} | {height}):
        while edge - starts[-1] > band:
            starts.append(starts[-1] + band)
        if edge - starts[-1] >= MIN_BAND and edge < height:
            starts.append(edge)
    return starts


def encode(img: Image.Image, edges: list[int] | tuple[int, ...] = (), layout: Layout | None = None) -> bytes:
    """`img` (mode P) as PNG bytes; `edges`: rows where bands may best start (any are correct);
    `layout`: how `img` was put together (`render.layout`), if it was."""
    width, height = img.size
    palette = img.getpalette() or []
    full = False  # a band has index 255: the picture uses the whole palette
    parts = [b"\x78\x9c"]  # zlib header: deflate, 32 KB window
    adler = 1
    starts = bands(height, edges, BAND if layout is None else layout.band)
    keys = layout.keys(width, starts, height) if layout is not None and layout.describes(img) else None
    raw: memoryview | None = None
    for i, (top, bottom) in enumerate(zip(starts, starts[1:] + [height])):
        key = None if keys is None else keys[i]
        made = None if key is None else _made(key)
        if made is not None:
            packed, band_adler, last = made
        elif key is not None:  # read only this band
            packed, band_adler, last = _band(_indices(img, top, bottom), width, key)
        else:
            raw = memoryview(_indices(img)) if raw is None else raw
            packed, band_adler, last = _band(raw[top * width:bottom * width], width)
        full = full or last
        parts.append(packed)
        adler = adler32_combine(adler, band_adler, (bottom - top) * (width + 1))
    used = 256 if full else img.getextrema()[1] + 1  # the palette entries written (PLTE)
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
