"""Lists, durations, numbers and plural forms come from CLDR through Babel (locales/format.py),
not from per-language branches."""

from __future__ import annotations

import pytest

from locales import catalogue, tr
from locales.format import duration, join_list, number, plural_form, separator


def test_lists_as_each_language_writes_them():
    assert join_list(["Ann", "Bob", "Cy"], "en") == "Ann, Bob, and Cy"
    assert join_list(["Ann", "Bob"], "en") == "Ann and Bob"
    assert join_list(["Ann", "Bob", "Cy"], "ja") == "Ann、Bob、Cy"
    assert join_list(["Ann", "Bob", "Cy"], "es") == "Ann, Bob y Cy"
    assert join_list(["Ann", "Bob"], "es", style="or") == "Ann o Bob"
    assert join_list(["Ann"], "ja") == "Ann" and join_list([], "en") == ""
    assert (separator("en"), separator("ja"), separator("es")) == (", ", "、", ", ")


@pytest.mark.parametrize("seconds, en, ja, es", [
    (0, "—", "—", "—"),
    (30, "30 sec", "30 秒", "30 s"),
    (90, "1 min, 30 sec", "1 分 30 秒", "1 min y 30 s"),  # exact, never rounded to 2 min
    (900, "15 min", "15 分", "15 min"),
    (4 * 3600, "4 hr", "4 時間", "4 h"),
    (23 * 3600, "23 hr", "23 時間", "23 h"),  # never promoted to a day
    (86400, "1 day", "1 日", "1 d"),
    (48 * 3600, "2 days", "2 日", "2 d"),
    (86400 + 3600 + 61, "1 day, 1 hr, 1 min, 1 sec", "1 日 1 時間 1 分 1 秒", "1 d, 1 h, 1 min y 1 s"),
])
def test_durations_are_exact_in_each_language(seconds, en, ja, es):
    assert (duration(seconds, "en"), duration(seconds, "ja"), duration(seconds, "es")) == (en, ja, es)


@pytest.mark.parametrize("seconds, en, ja", [
    (86400 + 23 * 3600 + 51 * 60 + 4, "1 day, 23 hr", "1 日 23 時間"),
    (86400 + 51 * 60, "1 day", "1 日"),  # the two largest units, not the two largest parts
    (2 * 3600 + 55 * 60 + 29, "2 hr, 55 min", "2 時間 55 分"),
    (7 * 60 + 2, "7 min, 2 sec", "7 分 2 秒"),
    (59, "59 sec", "59 秒"),
])
def test_a_time_bank_left_reads_in_its_two_largest_units(seconds, en, ja):
    assert (duration(seconds, "en", most=2), duration(seconds, "ja", most=2)) == (en, ja)


def test_numbers_and_plural_forms():
    assert (number(1234567, "en"), number(1234567, "ja"), number(1234567, "es")) == ("1,234,567", "1,234,567", "1.234.567")
    assert [plural_form(n, "en") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form(n, "ja") for n in (0, 1, 2)] == ["other", "other", "other"]
    assert plural_form(1_000_000, "es") == "many" and plural_form("x", "en") == "other"
    assert duration(60, "xx") == "1 min" and join_list(["a", "b"], "xx") == "a and b"  # unknown: English


def test_catalogue_plurals_follow_the_languages_rules(monkeypatch):
    """A plural table chooses by CLDR's category: Spanish has "many" for a million (the old
    rule knew only one and other), Japanese has no singular, and zero stays an override."""
    monkeypatch.setitem(catalogue("es"), "test.coins", {"one": "{count} moneda", "many": "{count:num} de monedas",
                                                        "other": "{count:num} monedas"})
    monkeypatch.setitem(catalogue("ja"), "test.coins", {"one": "{count}枚だけ", "other": "{count}枚"})
    monkeypatch.setitem(catalogue("en"), "test.coins", {"zero": "no coins", "one": "{count} coin",
                                                        "other": "{count:num} coins"})
    assert tr("es", "test.coins", count=1) == "1 moneda"
    assert tr("es", "test.coins", count=1_000_000) == "1.000.000 de monedas"
    assert tr("es", "test.coins", count=2500) == "2.500 monedas"
    assert tr("ja", "test.coins", count=1) == "1枚"
    assert (tr("en", "test.coins", count=0), tr("en", "test.coins", count=1), tr("en", "test.coins", count=1234)) \
        == ("no coins", "1 coin", "1,234 coins")


def test_localised_lists_in_messages(monkeypatch):
    monkeypatch.setitem(catalogue("ja"), "test.draw", "{bags:@blackfriday.colour}を引く")
    monkeypatch.setitem(catalogue("en"), "test.draw", "draws {bags:@blackfriday.colour}")
    colours = ["R", "B", "R"]
    names = [tr("ja", f"blackfriday.colour.{c}") for c in colours]
    assert tr("ja", "test.draw", bags=colours) == "、".join(names) + "を引く"
    en = [tr("en", f"blackfriday.colour.{c}") for c in colours]
    assert tr("en", "test.draw", bags=colours) == f"draws {en[0]}, {en[1]}, and {en[2]}"
