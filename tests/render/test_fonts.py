"""The bundled font draws Japanese and Spanish: every character of their catalogues has a real glyph
(not the empty box a missing glyph turns into)."""

import unicodedata

from PIL import ImageChops

from locales import catalogue
from render.common import font


def _mask(fnt, ch):
    return fnt.getmask(ch)


def _is_notdef(fnt, ch, notdef_bytes) -> bool:
    return bytes(_mask(fnt, ch)) == notdef_bytes and ch != "\ue000"


def _chars(keys_and_values, all_symbols: bool) -> set[str]:
    out = set()
    for _key, value in keys_and_values:
        for part in (value.values() if isinstance(value, dict) else [value]):
            for ch in str(part):
                # Emoji and dingbats (category So) appear in Discord text, which Discord draws;
                # in the words pictures draw (`*.render.*`), every character must have a glyph.
                if all_symbols or unicodedata.category(ch) != "So":
                    out.add(ch)
    return out


def test_japanese_catalogue_has_glyphs_in_both_weights():
    items = list(catalogue("ja").items())
    text = _chars(items, all_symbols=False) | _chars([(k, v) for k, v in items if ".render." in k], all_symbols=True)
    text.update("アイム・ザ・ボス フィルシーリッチ 暗黒の金曜日 イーウォーズ 不動産買収編 親 役員 部長 課長 係長 美人社員 平社員")
    for bold in (False, True):
        fnt = font(28, bold)
        notdef = bytes(_mask(fnt, "\ue000"))  # a private-use point: guaranteed missing
        missing = sorted(ch for ch in text if not ch.isspace() and _is_notdef(fnt, ch, notdef))
        assert not missing, f"no glyph for {''.join(missing)}"


def test_japanese_draws_ink():
    from render.common import canvas, draw_text

    img, draw = canvas(400, 80, (0, 0, 0))
    draw_text(draw, (10, 10), "不動産買収編", 40, (255, 255, 255))
    blank, _ = canvas(400, 80, (0, 0, 0))
    diff = ImageChops.difference(img, blank).getbbox()
    assert diff is not None and diff[2] - diff[0] > 200


def test_spanish_catalogue_has_glyphs_in_both_weights():
    """Spanish (Latin-1: ñ, accents, ¡ ¿ and the ordinal º) draws with real glyphs too."""
    items = list(catalogue("es").items())
    text = _chars(items, all_symbols=False) | _chars([(k, v) for k, v in items if ".render." in k], all_symbols=True)
    text.update("¡Yo soy el jefe! ¿Paso o Stop? áéíóúüñ ÁÉÍÓÚÜÑ 1.º 3.er «»")
    for bold in (False, True):
        fnt = font(28, bold)
        notdef = bytes(_mask(fnt, "\ue000"))
        missing = sorted(ch for ch in text if not ch.isspace() and _is_notdef(fnt, ch, notdef))
        assert not missing, f"no glyph for {''.join(missing)}"
