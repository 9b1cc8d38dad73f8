"""Subset Noto Sans CJK JP to Latin, Greek, symbols, kana and JIS X 0208 kanji."""
import sys
from fontTools.ttLib import TTCollection
from fontTools import subset

def jis_chars():
    out = set()
    for hi in range(0xA1, 0xFF):
        for lo in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([hi, lo]).decode('euc_jp')))
            except UnicodeDecodeError:
                pass
    return out

ranges = [(0x20, 0x7E), (0xA0, 0x17F), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x214F), (0x2190, 0x21FF),
          (0x2200, 0x22FF), (0x2460, 0x24FF), (0x2500, 0x25FF), (0x2600, 0x26FF), (0x3000, 0x30FF), (0x31F0, 0x31FF),
          (0xFF00, 0xFFEF), (0x370, 0x3FF), (0x400, 0x4FF)]
chars = jis_chars()
for a, b in ranges:
    chars.update(range(a, b + 1))
src, idx, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
font = TTCollection(src).fonts[idx]
opts = subset.Options()
opts.layout_features = ['*']
opts.name_IDs = ['*']
opts.notdef_outline = True
opts.glyph_names = False
s = subset.Subsetter(opts)
s.populate(unicodes=sorted(chars))
s.subset(font)
font.save(dst)
print(dst, len(chars))
