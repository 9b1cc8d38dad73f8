"""Names go into pictures without characters the font cannot draw (they would be empty boxes)."""

from render.common import drawable, has_glyph, picture_names


def test_emoji_are_dropped_and_letters_kept():
    assert not has_glyph("🤖") and has_glyph("A") and has_glyph("千")
    assert drawable("🤖 Ada") == "Ada"
    assert drawable("千代子 🎲 the ✨best✨") == "千代子 the best"


def test_a_name_of_emoji_only_becomes_its_seat():
    assert picture_names(["🎲🎲", "Bob", ""]) == ["P1", "Bob", "P3"]
