"""Every counted string agrees with its count (issue 30, item 13): each message with a count in
it is rendered at 0, 1, 2 and 5 in en, ja and es, and no "1 luxuries", "1 cartas", "cero(s)" or
"te quedan 1" comes out. Counts that are not the `count` parameter use `{n:plural:one|other}`."""

from __future__ import annotations

import re

import pytest

from locales import COMPLETE, fields, load, tr

#: The parameters that hold a number of things (the others are names, cards, places or money;
#: a player range lo..hi never ends at 1).
COUNTS = {"actions", "bags", "black", "count", "days", "div", "games", "hours", "left",
          "luxuries", "marks", "moves", "n", "room", "shown", "total", "units", "zeros", "steps",
          "limit", "goal", "lots", "pages", "silver"}
#: Words that follow "1" rightly though they end in s: "1 más", "1 of 3", a unit "1 vs".
FINE = {"más", "menos", "business"}
ONE = re.compile(r"(?<![\d.,$#/×x])\b1 (?:\*\*)?([^\W\d_]+)")
#: A plural verb before a count of one ("te quedan 1 más", "there are 1").
VERB_ONE = re.compile(r"\b(?:quedan|faltan|son|están|tienen|are|remain|were)\s+(?:\*\*)?1\b(?![\d.,])")


def counted_keys(lang: str) -> list[str]:
    out = []
    for key, value in load(lang).items():
        texts = value.values() if isinstance(value, dict) else [value]
        if any(fields(str(text)) & COUNTS for text in texts):
            out.append(key)
    return out


def render(lang: str, key: str, n: int) -> str:
    value = load(lang)[key]
    texts = value.values() if isinstance(value, dict) else [value]
    names = set().union(*(fields(str(text)) for text in texts))
    params = {name: (n if name in COUNTS else "X") for name in names}
    params.setdefault("count", n)
    return tr(lang, key, **params)


@pytest.mark.parametrize("lang", COMPLETE)
def test_no_count_disagrees_with_its_noun(lang):
    wrong = []
    for key in counted_keys(lang):
        for n in (0, 1, 2, 5):
            text = render(lang, key, n)
            if "(s)" in text or "(es)" in text:
                wrong.append(f"{key} @{n}: {text}")
            if n == 1:
                if VERB_ONE.search(text):
                    wrong.append(f"{key} @1: {text}")
                for match in ONE.finditer(text):
                    word = match.group(1).lower()
                    if word.endswith("s") and word not in FINE:
                        wrong.append(f"{key} @1: {text}")
    assert not wrong, "\n".join(wrong)


def test_the_plural_spec_picks_the_noun():
    assert tr("en", "filthyrich.result", luxuries=1, value=12, money=21).startswith("1 luxury")
    assert tr("es", "filthyrich.result", luxuries=1, value=12, money=21).startswith("1 lujo")
    assert tr("es", "filthyrich.result", luxuries=2, value=12, money=21).startswith("2 lujos")
