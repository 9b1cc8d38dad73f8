"""The message catalogue: every user-facing string, per language.

Files are `locales/<lang>/<domain>.toml`; a key `error.not_your_turn` in `imtheboss.toml` is
looked up as `imtheboss.error.not_your_turn`. `core.toml` holds the shared house strings.

Values are `str.format` templates with three additions:
  - `{clan:@imtheboss.clan}` localises the value itself: it becomes `imtheboss.clan.<value>`;
    a list value is localised item by item and written as the language writes a list
    ("Red, Blue, and Green", 「赤、青、緑」);
  - `{amount:num}` writes a number with the language's digit grouping (1,234 / 1.234);
  - `{rank:ord}` writes a place as the language does (4th, 4位, 4.º): the `core.ordinal` table,
    chosen by CLDR's ordinal rules;
  - `{n:plural:luxury|luxuries}` writes the noun that goes with the number `n` (CLDR's "one"
    form, else the other), for strings whose count is not the `count` parameter or that count
    two things ("{count} briefcases and {black} black"); a language without plurals (ja) just
    writes its noun;
  - a table `{one = "...", other = "..."}` is a plural, chosen by the `count` parameter with
    the language's CLDR plural rules (`zero`, when present, is used for a count of 0).
Lists, durations, numbers and plural rules come from Babel (`locales/format.py`).

English, Japanese and Spanish are complete (tests check every key and parameter); others fall
back to English key by key.
"""

from __future__ import annotations

import logging
import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from .format import join_list, number, ordinal_form, plural_form

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent
DEFAULT = "en"
COMPLETE = ("en", "ja", "es")
#: Discord locale codes (discord.Locale values) to catalogue languages.
_DISCORD = {"ja": "ja", "es-ES": "es", "es-419": "es"}
#: CLDR's plural categories: the keys a plural table may have.
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def languages() -> list[str]:
    return sorted(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("_"))


def language_of(locale: Any) -> str:
    """Map a Discord locale (or a language code) to a catalogue language."""
    code = str(getattr(locale, "value", locale) or "")
    if code in _DISCORD:
        return _DISCORD[code]
    short = code.split("-")[0].lower()
    return short if short in languages() else DEFAULT


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and not _is_plural(value):
            _flatten(full, value, out)
        else:
            out[full] = value


def _is_plural(value: Mapping[str, Any]) -> bool:
    return bool(value) and set(value) <= PLURAL_FORMS and "other" in value


def load(lang: str) -> dict[str, Any]:
    """The catalogue of `lang` as on disk (uncached; `catalogue` is the cached one)."""
    out: dict[str, Any] = {}
    folder = ROOT / lang
    if folder.is_dir():
        for path in sorted(folder.glob("*.toml")):
            with path.open("rb") as fh:
                _flatten(path.stem, tomllib.load(fh), out)
    return out


@cache
def catalogue(lang: str) -> dict[str, Any]:
    return load(lang)


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalogue(lang) or key in catalogue(DEFAULT)


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("@"):
            base = format_spec[1:]
            if isinstance(value, (list, tuple)):
                return join_list((tr(self.lang, f"{base}.{v}") for v in value), self.lang)
            return tr(self.lang, f"{base}.{value}")
        if format_spec.startswith("plural:"):
            one, _, other = format_spec[len("plural:"):].partition("|")
            return one if plural_form(value, self.lang) == "one" else (other or one)
        if format_spec == "num" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return number(value, self.lang)
        if format_spec == "ord" and isinstance(value, int) and not isinstance(value, bool):
            forms = _template(self.lang, "core.ordinal")
            if isinstance(forms, dict):
                form = forms.get(ordinal_form(value, self.lang), forms["other"])
                return str(form).replace("{n}", number(value, self.lang))
        return super().format_field(value, format_spec)


def _template(lang: str, key: str) -> Any:
    cat = catalogue(lang)
    if key in cat:
        return cat[key]
    fallback = catalogue(DEFAULT)
    if key in fallback:
        return fallback[key]
    log.warning("missing message %s", key)
    return None


def tr(lang: str, key: str, /, **params: Any) -> str:
    """The message `key` in `lang`, filled with `params`. A missing key shows itself, so a
    gap is visible rather than silent (and the catalogue tests catch it first)."""
    template = _template(lang, key)
    if template is None:
        return key
    if isinstance(template, dict):
        count = params.get("count", 0)
        if count == 0 and "zero" in template:
            template = template["zero"]
        else:
            template = template.get(plural_form(count, lang), template["other"])
    if not params:
        return str(template).replace("{{", "{").replace("}}", "}")
    try:
        return _Formatter(lang).vformat(str(template), (), params)
    except (KeyError, IndexError, ValueError) as exc:
        log.warning("message %s in %s cannot be filled (%r) with %s", key, lang, exc, params)
        return str(template)


def fields(template: str) -> set[str]:
    """The parameter names a template uses (for the completeness tests)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            names.add(name.split(".")[0].split("[")[0])
    return names


class Translator:
    """A language bound to `tr`, handy to pass around: `t("core.lobby.title", title=...)`."""

    __slots__ = ("lang",)

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, key: str, /, **params: Any) -> str:
        return tr(self.lang, key, **params)
