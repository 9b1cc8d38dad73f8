"""I'm the Boss!: the words (issue 15). English puts "an" before a vowel ("an Orange clan
card", "an Orange travel"), never "a Orange"; Spanish and Japanese say the same things in their
own way (the Spanish article agrees with "Viaje"; Japanese has none)."""

from __future__ import annotations

import re

import pytest

from engine.imtheboss.data import CLANS
from locales import catalogue, fields, tr

CARDS = [f"travel-{c}" for c in CLANS] + ["travel-grey"]


def _every_line(lang: str):
    """Every I'm the Boss! message filled with each clan and each travel card it can name."""
    cat = catalogue(lang)
    for key, tpl in cat.items():
        if not key.startswith("imtheboss.") or not isinstance(tpl, str):
            continue
        names = fields(tpl)
        if not names & {"clan", "card"}:
            continue
        for clan in CLANS:
            for card in CARDS:
                params = {n: 1 for n in names}
                params.update(clan=clan, card=card, seat="Bob", to_seat="Ann", by="Cal", what="x", src="placard",
                              seats="Dot", from_seat="Eve", target="y")
                try:
                    yield key, tr(lang, key, **params)
                except (KeyError, ValueError, TypeError):
                    continue  # a field of another kind (a count, a list): not about articles


def test_english_never_says_a_before_a_vowel():
    lines = list(_every_line("en"))
    assert any("an Orange clan card" in text for _, text in lines)
    assert any("plays an Orange travel" in text for _, text in lines)
    bad = [(key, text) for key, text in lines if re.search(r"\b[aA] [AEIOU]", text)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_spanish_and_japanese_name_the_travel_card_well(lang):
    text = tr(lang, "imtheboss.event.travel_played", seat="Bob", card="travel-orange", to_seat="Ann",
              clan="orange", src="placard")
    if lang == "es":
        assert "juega un Viaje Naranja" in text and "un un" not in text
    else:
        assert "オレンジの旅行カード" in text
