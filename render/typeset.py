"""Fonts, measuring, and fitting text into room: shrinking (never below the phone floor,
`render.legible`), line wrapping in any of our languages, hyphenation, ellipses."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import budoux
from PIL import ImageFont

from render import legible
from render.textcache import CachedFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_REGULAR = FONT_DIR / "NotoSansJP-Regular.otf"
FONT_BOLD = FONT_DIR / "NotoSansJP-Bold.otf"


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled Noto Sans CJK JP at `size` px (covers Latin, kana and JIS kanji). Text drawn
    with it is cached as bitmaps (`render.textcache`): most strings recur picture after picture."""
    return CachedFont(str(FONT_BOLD if bold else FONT_REGULAR), size)


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    return int(fnt.getlength(text))


#: Texts fitted and wrapped, kept: a table fits and wraps the same labels, names and lists
#: picture after picture (also to work out the arguments of parts it then finds kept), each a
#: loop of measurements; they depend only on the arguments (a font is one object per size).
KEPT_LAYOUTS = 8192


def fit_size(text: str, width: int, size: int, bold: bool = False, min_size: int | None = None) -> int:
    """The largest size from `size` down to `min_size` (default: the phone floor) in which
    `text` fits `width`; `min_size` when none does."""
    return _fit_size(text, width, size, bold, legible.floor() if min_size is None else min_size)


@lru_cache(maxsize=KEPT_LAYOUTS)
def _fit_size(text: str, width: int, size: int, bold: bool, low: int) -> int:
    s = size
    while s > low and not _fits(text, width, font(s, bold)):
        s -= 1
    return s


def fit(text: str, width: int, size: int, bold: bool = False, min_size: int | None = None) -> ImageFont.FreeTypeFont:
    """The largest font from `size` down to `min_size` (default: the phone floor) in which
    `text` fits `width`."""
    return font(fit_size(text, width, size, bold, min_size), bold)


def ellipsize(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> str:
    """`text` cut to `width` with an ellipsis (player names can be long). A mark that may hang
    past the margin at a line's end ("、") hangs, as `wrap` allowed when it made the line."""
    if _fits(text, width, fnt):
        return text
    while text and text_width(text + "…", fnt) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_name(line, name: str, width: int, fnt: ImageFont.FreeTypeFont) -> str:
    """`line(name)` (a catalogue line naming a player), with the name ended in an ellipsis
    when the whole line is wider than `width`: the rest of the line (an amount, a place) stays."""
    full = line(name)
    if text_width(full, fnt) <= width:
        return full
    room = width - text_width(line(""), fnt)
    return line(ellipsize(name, max(0, room), fnt))


# -- wrapping -----------------------------------------------------------------------------------

# Japanese and Chinese script (kana, kanji, full-width forms): where BudouX finds the phrases.
#: A break a catalogue may put inside a name (Unicode's zero-width space, HTML's <wbr>).
WORD_BREAK = "\u200b"
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# A katakana word (with its long-vowel marks), or a run of anything else.
_SCRIPT_RUNS = re.compile(r"[ァ-ヺー]+・?|[^ァ-ヺー]+")
# Punctuation that may hang past the margin at a line's end (ぶら下げ), as Japanese typesetting allows.
_HANGING = "・、。，．"
# What may not start a line when a word must be cut (small kana, long-vowel mark, closing marks).
_NO_LINE_START = set("ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・、。，．）」』】：；？！)]:;,.!?%")


@lru_cache(maxsize=1)
def _japanese_phrases() -> budoux.Parser:
    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=4096)
def _japanese_pieces(word: str) -> tuple[str, ...]:
    """BudouX's phrases, with a middle dot (or any mark that may not start a line: "：", "）")
    kept at the end of the phrase before it (BudouX may put it first in the next one), and a
    line break allowed after a middle dot ("アワアワ・" "コイン…")."""
    out: list[str] = []
    for phrase in _japanese_phrases().parse(word):
        while phrase and phrase[0] in _NO_LINE_START and out:
            out[-1] += phrase[0]
            phrase = phrase[1:]
        out += [part for part in re.split(r"(?<=・)", phrase) if part] if phrase else []
    return tuple(out)


def _pieces(para: str) -> list[tuple[str, str]]:
    """(separator, piece) pairs a line may break before: words, the parts of hyphenated words
    ("Diamond-" "Studded"), and Japanese phrases. BudouX splits Japanese into phrases the way a
    typesetter would, so a katakana name never breaks mid-word and no line starts with 。 or a
    small kana, without hand-written kinsoku rules. A zero-width space (`WORD_BREAK`) is a break
    a catalogue asks for where BudouX sees one word: between the parts of a compound katakana
    name ("トルネード" "クリーニング店"), so a name too wide for a card breaks there; it is dropped."""
    out: list[tuple[str, str]] = []
    for i, word in enumerate(para.split(" ")):
        parts = [piece for seg in word.split(WORD_BREAK)
                 for piece in (_japanese_pieces(seg) if _CJK.search(seg) else re.findall(r"[^-]+-(?=.)|.+", seg))]
        for j, part in enumerate(parts or [""]):
            out.append((" " if i and not j else "", part))
    return out


def _runs(piece: str) -> list[str]:
    """`piece` split where its script changes (katakana words apart), a run's leading marks that
    may not start a line ("：", "）") kept on the run before."""
    out: list[str] = []
    for run in _SCRIPT_RUNS.findall(piece):
        while run and run[0] in _NO_LINE_START and out:
            out[-1] += run[0]
            run = run[1:]
        if run:
            out.append(run)
    return out


def _fits(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> bool:
    return text_width(text.rstrip(_HANGING), fnt) <= width


def _cut(line: str, width: int, fnt: ImageFont.FreeTypeFont) -> int:
    """Where to cut a Japanese word wider than the line: as much as fits, but never before a
    character that may not start a line."""
    cut = max((k for k in range(1, len(line)) if text_width(line[:k], fnt) <= width), default=1)
    while cut > 1 and line[cut] in _NO_LINE_START:
        cut -= 1
    return cut


# Hyphenation of words in Latin script (English, Spanish). A syllable starts with the longest
# consonant group that may begin one, so a break goes before a lone consonant between vowels
# ("Re-clu-ta-mien-to", "Pam-pered"), between two consonants ("Lavan-de-ría"), and never inside
# "ch", "ll", "rr", "qu", "th" or a consonant followed by l or r ("Re-clu", "En-tre").
_VOWELS = set("aeiouáéíóúàèìòùâêîôûäëïöü")
_ONSETS = {"bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kl", "kr", "pl", "pr", "tr",
           "ch", "ll", "rr", "qu", "gu", "th", "sh", "ph", "wh", "ck"}
#: Letters a hyphenated line keeps at least, before and after the break.
_MIN_HEAD, _MIN_TAIL = 2, 3


def _is_vowel(word: str, i: int) -> bool:
    ch = word[i].lower()
    if ch == "y":  # a vowel at a word's end or before a consonant ("Tray"), else a consonant ("mayo")
        return i + 1 >= len(word) or not _is_vowel(word, i + 1)
    return ch in _VOWELS


def hyphen_points(word: str) -> list[int]:
    """Where `word` may be hyphenated: indices i such that `word[:i] + "-"` / `word[i:]` is a
    proper break between syllables (at least two letters before and three after)."""
    points = []
    n = len(word)
    i = 0
    while i < n:
        if not (word[i].isalpha() and _is_vowel(word, i)):
            i += 1
            continue
        j = i + 1  # the consonants after this vowel, up to the next vowel
        while j < n and word[j].isalpha() and not _is_vowel(word, j):
            j += 1
        if j < n and word[j].isalpha() and j > i + 1:  # consonants word[i+1:j] between two vowels
            group = word[i + 1:j].lower()
            start = j - 2 if len(group) >= 2 and group[-2:] in _ONSETS else j - 1
            if start >= _MIN_HEAD and n - start >= _MIN_TAIL and word[:start].isalpha():
                points.append(start)
        i = j
    return points


def _hyphenate(line: str, width: int, fnt: ImageFont.FreeTypeFont) -> tuple[str, str]:
    """A Latin word wider than the line as (head ending in "-", the rest): at the last syllable
    break that fits, else at the last letter that fits (a hyphen all the same)."""
    fitting = [i for i in hyphen_points(line) if text_width(line[:i] + "-", fnt) <= width]
    if fitting:
        cut = fitting[-1]
    else:
        cut = max((k for k in range(1, len(line)) if text_width(line[:k] + "-", fnt) <= width), default=1)
    return line[:cut] + "-", line[cut:]


def wrap(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy line wrap in any of our languages (see `_pieces` for where lines may break). A
    phrase wider than the line breaks where its script changes ("ナンバークランチャー" "税務相談所");
    only a single word wider than the line is cut: a Japanese one between characters, a Latin
    one between syllables, with a hyphen."""
    return list(_wrapped(text, width, fnt))


@lru_cache(maxsize=KEPT_LAYOUTS)
def _wrapped(text: str, width: int, fnt: ImageFont.FreeTypeFont) -> tuple[str, ...]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for sep, piece in _pieces(para):
            parts = [piece] if _fits(piece, width, fnt) else _runs(piece)
            for k, part in enumerate(parts):
                trial = line + (sep if k == 0 else "") + part if line else part
                if line and not _fits(trial, width, fnt):
                    lines.append(line)
                    line = part
                else:
                    line = trial
                while len(line) > 1 and not _fits(line, width, fnt):
                    if _CJK.search(line):
                        cut = _cut(line, width, fnt)
                        head, line = line[:cut], line[cut:]
                    else:
                        head, line = _hyphenate(line, width, fnt)
                    lines.append(head)
        lines.append(line)
    return tuple(lines)


def lines_at_most(text: str, width: int, fnt: ImageFont.FreeTypeFont, most: int) -> list[str]:
    """`wrap`, at most `most` lines; the last ends in an ellipsis when text was left out."""
    lines = wrap(text, width, fnt)
    if len(lines) > most:
        legible.cut(text)
        lines = lines[:most]
        lines[-1] = ellipsize(lines[-1] + "…", width, fnt)
    return lines


def fit_wrap(text: str, width: int, size: int, most: int, *, bold: bool = False,
             min_size: int | None = None) -> tuple[int, list[str]]:
    """A name wrapped in at most `most` lines at the largest size from `size` down to `min_size`
    (default: the phone floor) at which no word has to be cut ("コインランドリー" whole rather
    than "コインランド" "リー"); at `min_size` a word too long for the line is hyphenated, and
    what does not fit ends in an ellipsis."""
    low = legible.floor() if min_size is None else min_size
    words = [run for _sep, piece in _pieces(text.replace("\n", " ")) for run in _runs(piece) or [piece]]
    for s in range(size, low - 1, -1):
        fnt = font(s, bold)
        lines = wrap(text, width, fnt)
        if len(lines) <= most and all(_fits(w, width, fnt) for w in words):
            return s, lines
    low = min(low, size)
    return low, lines_at_most(text, width, font(low, bold), most)

