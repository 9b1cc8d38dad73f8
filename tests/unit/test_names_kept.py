"""Every click's panel escapes every seat's name (`panel_context`: `text_names`); a name is
cleaned and escaped once, then kept (issue 23: about 3% of an action's CPU in the 1,000-game
benchmark), and the kept answer is the one a fresh escape gives."""

from __future__ import annotations

from cogs.kit import names
from play.names import clean_name


def test_a_name_is_escaped_once_and_kept(monkeypatch):
    cleaned = []

    def counted(name):
        cleaned.append(name)
        return clean_name(name)

    monkeypatch.setattr(names, "clean_name", counted)
    names.text_name.cache_clear()
    seats = ["[Ann](https://evil.test)", "Ken **bold**", "@everyone", "Eva\u202e"]
    first = names.text_names(seats)
    for _ in range(20):
        assert names.text_names(seats) == first
    assert cleaned == seats, "a name was cleaned again"
    names.text_name.cache_clear()
    assert names.text_names(seats) == first  # what a fresh escape gives
    assert first[0] == "\\[Ann\\]\\(https\\:\\/\\/evil\\.test\\)"
