"""Language rules from the Unicode CLDR, through Babel: lists, durations, numbers and plural
forms. Cogs and renderers call these instead of branching on the language, so a new language
gets its punctuation and grammar from CLDR rather than from a fourth `if lang == ...`.

    join_list(["Ann", "Bob", "Cy"], "en")   'Ann, Bob, and Cy'    (ja 'Ann、Bob、Cy', es 'Ann, Bob y Cy')
    separator("ja")                         '、'                    the separator inside a list
    duration(5400, "en")                    '1 hr, 30 min'        (ja '1 時間 30 分', es '1 h y 30 min')
    number(1234567, "es")                   '1.234.567'
    plural_form(1, "en")                    'one'                 ('other' for every count in ja)

Languages are the catalogue's codes (en, ja, es); Babel reads them as CLDR locales.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal

#: Duration parts, largest first (CLDR's unit names as format_timedelta takes them).
_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


@cache
def locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):  # an unknown code: English, as the catalogue falls back
        return Locale.parse("en")


def join_list(items: Iterable[object], lang: str, style: str = "standard") -> str:
    """A list as the language writes one in a sentence ("A, B and C"). `style` is CLDR's:
    "standard" (and), "or", "standard-narrow"..."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return format_list(words, style=style, locale=locale(lang))


@cache
def separator(lang: str) -> str:
    """What stands between two items inside a list (", " or "、"), for lists that are not
    sentences (a row of cards) and for text too long for one list call."""
    middle = locale(lang).list_patterns["standard"]["middle"]
    return middle.replace("{0}", "").replace("{1}", "")


def duration(seconds: float, lang: str, most: int | None = None) -> str:
    """An exact duration in the language's short units: 90 s is '1 min, 30 sec', never rounded
    to '2 min' (deadlines are set to the second). Zero or less: '—'. With `most`, only that many
    units from the largest present, the rest cut off, never rounded up (1 day and 51 min with
    most=2: '1 day'): what is left of a time bank reads '1 day, 23 hr', as a countdown to the
    second would be noise in a reminder."""
    rest = int(seconds)
    if rest <= 0:
        return "—"
    loc = locale(lang)
    parts: list[str] = []
    first = None  # the index of the largest unit present
    for i, (unit, size) in enumerate(_UNITS):
        n, rest = divmod(rest, size)
        if n and first is None:
            first = i
        if n and (most is None or i < first + most):
            # threshold=1: a part is never promoted to the next unit (23 h stays 23 h).
            parts.append(format_timedelta(timedelta(seconds=n * size), granularity=unit, threshold=1,
                                          format="short", locale=loc))
    try:
        return format_list(parts, style="unit-short", locale=loc)
    except KeyError:  # Babel's data lacks some languages' unit-list patterns: the plain list
        return format_list(parts, locale=loc)


def number(value: float, lang: str) -> str:
    """A number with the language's digit grouping and decimal sign."""
    return format_decimal(value, locale=locale(lang))


def ordinal_form(count: int, lang: str) -> str:
    """CLDR's ordinal category of `count` (English 1st/2nd/3rd/4th: one, two, few, other)."""
    if not isinstance(count, int) or isinstance(count, bool):
        return "other"
    return locale(lang).ordinal_form(abs(count))


def plural_form(count: float, lang: str) -> str:
    """CLDR's plural category of `count`: zero, one, two, few, many or other."""
    if not isinstance(count, (int, float)) or isinstance(count, bool):
        return "other"
    return locale(lang).plural_form(abs(count))


#: Full-width punctuation (ja 。、）！？」): a sentence after it follows with no space, as the
#: language writes it; after anything else a space separates the parts.
_CLOSED = frozenset("。、）！？」』】〉》：；…")
#: Full-width marks that open: no space before them either ("黄（あと1）").
_OPENING = frozenset("（「『【〈《")


def join_sentences(*parts: str) -> str:
    """Sentences (or a sentence and a tag) made into one line: empty parts dropped, a space
    between two parts unless the first ends in full-width punctuation ("…終了）。締め切り…") or
    the second opens with a full-width bracket ("黄（あと1）")."""
    out = ""
    for part in parts:
        if not part:
            continue
        out += part if not out or out[-1] in _CLOSED or part[0] in _OPENING else " " + part
    return out
