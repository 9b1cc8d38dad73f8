"""The band-by-band PNG writer (render/pngband.py): what it writes is a valid PNG of exactly the
picture given, whether its bands were compressed now or came from the cache."""

from __future__ import annotations

import io
import random
import struct
import zlib

from PIL import Image

from render import pngband


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(body, zlib.crc32(kind)), kind
        out.append((kind, body))
        at += 12 + length
    return out


def _check(img: Image.Image) -> bytes:
    data = pngband.encode(img)
    chunks = _chunks(data)
    assert [k for k, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    # the zlib stream is whole: zlib checks the combined Adler-32 at its end
    raw = zlib.decompress(chunks[2][1])
    width, height = img.size
    assert raw == b"".join(b"\x00" + img.tobytes()[y * width:(y + 1) * width] for y in range(height))
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "P" and back.size == img.size and back.tobytes() == img.tobytes()
    used = max(img.tobytes()) + 1
    assert back.getpalette()[:3 * used] == img.getpalette()[:3 * used]
    return data


def _picture(width: int, height: int, rng: random.Random, colours: int = 256) -> Image.Image:
    img = Image.new("P", (width, height))
    img.putdata([rng.randrange(colours) for _ in range(width * height)])
    img.putpalette([rng.randrange(256) for _ in range(3 * 256)])
    return img


def test_adler32_of_two_pieces_combines_into_that_of_the_whole():
    rng = random.Random(1)
    for _ in range(200):
        a = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70000, 7)))
        assert pngband.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_pictures_of_any_size_and_palette_come_back_exactly():
    rng = random.Random(2)
    pngband.clear()
    for width, height, colours in ((1, 1, 1), (3, 31, 4), (17, 32, 256), (40, 33, 9), (7, 100, 200)):
        _check(_picture(width, height, rng, colours))


def test_bands_seen_before_come_from_the_cache_and_a_change_is_seen():
    rng = random.Random(3)
    pngband.clear()
    img = _picture(50, 5 * pngband.BAND + 3, rng)
    first = _check(img)
    cached = len(pngband._cache)
    assert _check(img) == first and len(pngband._cache) == cached  # every band a hit
    other = img.copy()
    other.putpixel((10, 2 * pngband.BAND + 1), (other.getpixel((10, 2 * pngband.BAND + 1)) + 1) % 256)
    _check(other)
    assert len(pngband._cache) == cached + 1  # one band compressed again, the rest reused


def test_a_table_picture_round_trips():
    from engine.filthyrich import GAME
    from render import filthyrich

    pngband.clear()
    state = GAME.setup(4, 9)
    img = filthyrich.table_image(GAME.view(state, None), ["Ann", "Bob", "千代子", "Dev"], "ja")
    assert img.mode == "P"
    _check(img)
    _check(img)


def test_the_palette_holds_the_colours_up_to_the_highest_index_used():
    """PLTE has the picture's highest index + 1 colours, whether that index is the last (255: in
    a band compressed now, or only in one taken from the cache) or lower (the picture is read
    for it)."""
    rng = random.Random(3)
    pngband.clear()
    low, other = _picture(40, 150, rng, 200), _picture(40, 150, rng, 200)
    top = low.copy()
    top.putpixel((7, 10), 255)  # in its first band of three (64 rows each)
    both = top.copy()  # its first band is `top`'s, from the cache, the only one holding 255
    both.paste(other.crop((0, 64, 40, 150)), (0, 64))
    for img in (top, low, both, other):
        body = dict(_chunks(_check(img)))[b"PLTE"]
        assert len(body) == 3 * (max(img.tobytes()) + 1)
