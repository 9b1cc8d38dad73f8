"""Every key in a complete language exists in the others, with the same parameters, and every
key the code uses exists."""

import re
from pathlib import Path

import pytest

import locales
from locales import COMPLETE, fields, load as catalogue, tr

ROOT = Path(__file__).resolve().parents[2]


def _templates(value):
    if isinstance(value, dict):
        return list(value.values())
    return [value]


@pytest.mark.parametrize("lang", COMPLETE)
def test_complete_languages_have_every_key(lang):
    keys = set()
    for other in COMPLETE:
        keys |= set(catalogue(other))
    missing = sorted(keys - set(catalogue(lang)))
    assert not missing, f"{lang} lacks {missing[:20]}"


def test_parameters_match_across_languages():
    base = catalogue("en")
    for lang in COMPLETE[1:]:
        cat = catalogue(lang)
        for key, value in base.items():
            if key not in cat:
                continue
            want = set().union(*(fields(str(t)) for t in _templates(value)))
            got = set().union(*(fields(str(t)) for t in _templates(cat[key])))
            assert want == got, f"{lang}:{key} uses {sorted(got)}, en uses {sorted(want)}"


def test_every_title_has_rules_in_complete_languages():
    import engine

    for title in engine.discover():
        for lang in COMPLETE:
            path = ROOT / "locales" / lang / f"{title}.rules.md"
            assert path.is_file(), f"missing {path}"
            pages = [p for p in re.split(r"(?m)^## ", path.read_text(encoding="utf-8")) if p.strip()]
            assert pages and all(len(p) < 3800 for p in pages), f"{path}: a page is too long"


def test_keys_used_in_code_exist():
    """Literal catalogue keys in the code (tr(...)/t(...)/RuleError(...)) exist in English."""
    cat = catalogue("en")
    pattern = re.compile(r"""\b(?:tr\(\s*\w+\s*,|[^\w]t\(|_\()\s*["']((?:core|[a-z]+)\.[a-z0-9_.]+)["']""")
    missing = []
    for folder in ("cogs", "render", "store", "engine"):
        for path in (ROOT / folder).rglob("*.py"):
            for key in pattern.findall(path.read_text(encoding="utf-8")):
                if key.endswith("."):
                    continue
                if key not in cat:
                    missing.append(f"{path.relative_to(ROOT)}: {key}")
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for key in re.findall(r"""RuleError\(\s*["']([a-z0-9_.]+)["']""", text):
            title = path.relative_to(ROOT / "engine").parts[0] if len(path.relative_to(ROOT / "engine").parts) > 1 else None
            full = key if key.startswith("core.") else f"{title}.error.{key}"
            if full not in cat:
                missing.append(f"{path.relative_to(ROOT)}: {full}")
    assert not missing, "\n".join(missing[:40])


def test_formatter_localises_ids_and_plurals():
    assert tr("en", "core.error.player_count", lo=2, hi=4) == "This game needs 2 to 4 players."
    assert locales.language_of("ja") == "ja"
    assert locales.language_of("en-US") == "en"
    assert locales.language_of("es-ES") in ("es", "en")


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "1 business die", "2 business dice"),
    ("es", "1 dado de negocio", "2 dados de negocio"),
])
def test_one_die_is_singular(lang, one, two):
    # Found in a whole game: "1 business dice".
    for key in ("filthyrich.event.dice", "filthyrich.event.roll"):
        assert one in tr(lang, key, seat="ann", count=1, page=1, faces="3")
        assert two in tr(lang, key, seat="ann", count=2, page=1, faces="3 4")


def test_japanese_puts_no_ascii_space_after_its_full_stops_and_commas():
    # 。 and 、 carry their own space; an ASCII space after them reads as a gap (issue 15).
    bad = []
    for key, value in catalogue("ja").items():
        for text in (value.values() if isinstance(value, dict) else [value]):
            if re.search(r"[。、] ", str(text)):
                bad.append(key)
    assert not bad, bad
