"""Filthy Rich results show what broke a tie (issue 30, item 8): two players with one luxury
each are ranked by the luxuries' printed total (rules digest 4.3), and the ranking lines show
that total, so "🥈 1 luxury … $21" above "🥉 1 luxury … $24" reads right."""

from __future__ import annotations

from types import SimpleNamespace

from cogs.table.results import ranking_lines
from engine.filthyrich import GAME
from engine.filthyrich.data import LUXURIES, LUXURY_ORDER
from locales import Translator


def finished_by_round_limit():
    st = GAME.setup(3, seed=7)
    cheap, dear = LUXURY_ORDER[0], LUXURY_ORDER[-1]
    st["phase"], st["winners"] = "over", [0]
    st["lux"] = [[LUXURY_ORDER[1], LUXURY_ORDER[2], LUXURY_ORDER[3]], [dear], [cheap]]
    st["money"] = [5, 21, 24]
    return st, LUXURIES[dear]["price"], LUXURIES[cheap]["price"]


def test_the_luxuries_value_decides_and_is_shown():
    st, dear, cheap = finished_by_round_limit()
    outcome = GAME.outcome(st)
    assert outcome.places == [1, 2, 3]
    game = SimpleNamespace(title="filthyrich", seats=[SimpleNamespace(name=n, ai_plays=False) for n in "ABC"],
                           result={"places": outcome.places, "scores": outcome.scores,
                                   "summary_key": outcome.summary_key})
    for lang in ("en", "ja", "es"):
        lines = ranking_lines(game, Translator(lang))
        assert f"${dear}" in lines[1] and f"${cheap}" in lines[2], lines
    en = ranking_lines(game, Translator("en"))
    assert "1 luxury worth" in en[1] and "$21" in en[1], en
