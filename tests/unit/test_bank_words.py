"""What is left of a time bank, in words (cogs/table/bank.py): the three cases agree in every
place that shows a bank, and in every language."""

from __future__ import annotations

import pytest

from cogs.table import bank
from locales import Translator
from store import GameRow, Seat

DAY = 86400


def _game(settings: dict, left: float | None) -> GameRow:
    clock = {} if left is None else {"bank": {"0": left}}
    return GameRow(1, 1, 2, "toy", "active", 9, "en", {}, settings, 5, {}, 4, None, 11, None, 1.0, 2.0, None, 3,
                   clock, [Seat(0, 9, "ann"), Seat(1, 8, "bob")])


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_no_bank_says_nothing_of_one(lang):
    game, t = _game({"bank": 0}, None), Translator(lang)
    assert bank.call_sentence(game, 0, game.settings, t) == "" and bank.tag(game, 0, game.settings, t) == ""
    assert bank.panel_line(game, 0, game.settings, 1000.0, t) == t("core.panel.time_no_bank", when="<t:1000:R>")


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_a_used_up_bank_says_so_everywhere(lang):
    game, t = _game({"bank": 3 * DAY}, 20.0), Translator(lang)
    assert bank.call_sentence(game, 0, game.settings, t) == t("core.ping.bank_empty")
    assert bank.tag(game, 0, game.settings, t) == t("core.table.bank_used")
    assert bank.panel_line(game, 0, game.settings, 1000.0, t) == t("core.panel.time_bank_used", when="<t:1000:R>")


def test_what_is_left_reads_in_two_units():
    game, t = _game({"bank": 3 * DAY}, 2 * DAY + 23 * 3600 + 50 * 60 + 12), Translator("en")
    assert bank.call_sentence(game, 0, game.settings, t) == "Then your time bank: 2 days, 23 hr."
    assert bank.tag(game, 0, game.settings, t) == "⏳ 2 days, 23 hr"
    assert bank.tag(game, 1, game.settings, t) == "⏳ 3 days"  # not yet drawn on: full
    assert bank.panel_line(game, 0, game.settings, 1000.0, t) == \
        "⏳ Your deadline <t:1000:R>; then your time bank: 2 days, 23 hr."
