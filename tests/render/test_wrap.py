"""Line wrapping in pictures: Japanese breaks between phrases (BudouX), so a katakana name never
breaks mid-word and no line starts with 。; English breaks between words and after hyphens."""

from render.common import font, text_width, wrap

JA = "スペースシャトルを買うとタクシー会社の看板が出ます。次はアンのターンです"


def test_japanese_breaks_between_phrases_never_inside_a_katakana_word():
    fnt = font(26)
    widest = max(text_width(p, fnt) for p in ("スペースシャトルを", "タクシー会社の"))
    for width in range(widest, 700, 20):
        lines = wrap(JA, width, fnt)
        assert "".join(lines) == JA
        for word in ("スペースシャトル", "タクシー", "ターン"):
            # The word is on one line: no line ends inside it.
            assert any(word in line for line in lines), (width, lines)
        assert not any(line.startswith(("。", "ー", "ン")) for line in lines), (width, lines)
        # (a closing 。 may hang past the margin, as Japanese typesetting allows)
        assert all(text_width(line.rstrip("。"), fnt) <= width for line in lines)


def test_lines_end_at_phrases():
    # A per-character wrap filled each line to the edge and split タクシー here; phrases do not.
    fnt = font(26)
    lines = wrap(JA, 260, fnt)
    assert lines[:3] == ["スペースシャトルを", "買うとタクシー会社の", "看板が出ます。次は"]


def test_only_a_phrase_wider_than_the_line_is_cut():
    fnt = font(26)
    lines = wrap("スペースシャトルを", 100, fnt)
    assert "".join(lines) == "スペースシャトルを" and len(lines) > 1
    assert all(text_width(line, fnt) <= 100 for line in lines)


def test_english_breaks_between_words_and_after_hyphens():
    fnt = font(26)
    lines = wrap("A Diamond-Studded Space Shuttle costs $45", 190, fnt)
    assert " ".join(lines).replace("- ", "-") == "A Diamond-Studded Space Shuttle costs $45"
    assert "Diamond-" in lines[0] or "Diamond-" in lines
    assert all(text_width(line, fnt) <= 190 for line in lines)


def test_mixed_text_and_line_breaks():
    fnt = font(26)
    assert wrap("ann の番\n$20を払う", 1000, fnt) == ["ann の番", "$20を払う"]
    # A run like "$20を" stays whole.
    assert all("$2" not in line or "$20" in line for line in wrap("$20を払う$20を払う", 80, fnt))


def test_a_name_shrinks_until_no_word_is_cut():
    from render.common import fit_wrap
    # At 24 px "コインランドリー" is wider than 182 px: the name goes down a size or two instead.
    assert text_width("コインランドリー", font(24, True)) > 182
    size, lines = fit_wrap("アワアワ・コインランドリー", 182, 24, 3, bold=True, min_size=20)
    assert size < 24 and lines == ["アワアワ・", "コインランドリー"]
    # A middle dot may hang at a line's end rather than push the word before it onto two lines.
    size, lines = fit_wrap("バブルトラブル・タピオカ茶館", 182, 24, 3, bold=True, min_size=20)
    assert size == 24 and lines == ["バブルトラブル・", "タピオカ茶館"]
    # English is unchanged by all this.
    assert fit_wrap("Bubble Trouble Tapioca", 182, 24, 3, bold=True, min_size=20)[1] == ["Bubble Trouble", "Tapioca"]


# -- hyphenation (issue 30, item 15: "Reclut" "amiento" on a Spanish hand card) ----------------

def _letters_either_side(original: str, at: int) -> bool:
    return 0 < at < len(original) and original[at - 1].isalpha() and original[at].isalpha()


def _split_properly(original: str, lines: list[str]) -> bool:
    """Whether `lines` are `original` broken only at spaces, after hyphens, between Japanese
    characters, or inside a Latin word with a hyphen added."""
    original = original.replace("\u200b", "")  # a catalogue's word break is never drawn
    at = 0
    for k, line in enumerate(lines):
        added = line.endswith("-") and not original[at:].startswith(line) and original[at:].startswith(line[:-1])
        body = line[:-1] if added else line
        if not original[at:].startswith(body):
            return False
        at += len(body)
        if k == len(lines) - 1:
            return at == len(original)
        if original[at:at + 1] == " ":
            at += 1
        elif _letters_either_side(original, at) and not added and original[at].isascii():
            return False  # cut between two letters with no hyphen
    return True


def test_hyphen_points_are_between_syllables():
    from render.common import hyphen_points
    assert hyphen_points("Reclutamiento") == [2, 5, 7]  # Re-clu-ta-mien-to (no break before "to": too short)
    assert hyphen_points("Lavandería") == [2, 5, 7]  # La-van-de-ría
    assert hyphen_points("Entourage") == [2, 5]  # En-tou-rage
    assert hyphen_points("Bathtub") == [4]  # "th" stays together: Bath-tub
    assert hyphen_points("Sí") == [] and hyphen_points("$-marks") == []


def test_a_word_wider_than_the_line_is_hyphenated_between_syllables():
    from render.common import hyphen_points
    fnt = font(27, True)
    for word in ("Reclutamiento", "Entretenimiento", "Superconductividad", "Incomprehensibilities"):
        for width in range(60, text_width(word, fnt), 12):
            lines = wrap(word, width, fnt)
            assert _split_properly(word, lines), (word, width, lines)
            assert all(line.endswith("-") for line in lines[:-1]), lines
            assert all(text_width(line, fnt) <= width for line in lines[:-1]), (width, lines)
            wide = width >= 2 * text_width("Rec-", fnt)
            cuts = [sum(len(line) - 1 for line in lines[:k + 1]) for k in range(len(lines) - 1)]
            assert not wide or all(c in hyphen_points(word) for c in cuts[:1]), (word, width, lines)


def test_every_card_and_clan_name_in_every_language_breaks_properly():
    """The names pictures wrap (hand cards, binder cells, luxuries), at the widths they get."""
    from locales import tr
    from render.common import fit_wrap
    names = []
    for lang in ("en", "ja", "es"):
        for key in ("recruit", "boss", "stop", "clan-magenta", "travel-orange", "travel-grey"):
            names.append(tr(lang, f"imtheboss.card.{key}"))
        from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES, LUXURIES
        for k in [*BUSINESSES, *ASSETS, *ACTIONS, *LUXURIES]:
            names.append(tr(lang, f"filthyrich.card.{k}"))
    for name in names:
        for width in (120, 150, 182, 200):
            _size, lines = fit_wrap(name, width, 27, 3, bold=True, min_size=23)
            if not lines[-1].endswith("…"):
                assert _split_properly(name, lines), (name, width, lines)


def test_no_japanese_line_starts_with_a_closing_mark():
    """"ヒット" / "：$1＋他の…" broke before the colon when a phrase was wider than the card."""
    from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES
    from render.filthyrich_words import effect_text
    from render.typeset import _NO_LINE_START
    fnt = font(27)
    for k in [*BUSINESSES, *ASSETS, *ACTIONS]:
        text = effect_text("ja", k)
        for width in (150, 192, 240):
            lines = wrap(text, width, fnt)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            assert not any(line[:1] in _NO_LINE_START for line in lines[1:]), (k, width, lines)


def test_a_catalogue_word_break_is_where_a_compound_name_breaks_and_is_never_drawn():
    # "トルネードクリーニング店" is one word to BudouX: too narrow a line cut it mid-word
    # ("トルネードク" "リーニング店"); the catalogue's zero-width space says where its parts meet.
    fnt = font(28, True)
    narrow = text_width("クリーニング店", fnt) - 1
    assert wrap("トルネード\u200bクリーニング店", narrow, fnt) == ["トルネード", "クリーニング", "店"]
    assert wrap("トルネード\u200bクリーニング店", 1000, fnt) == ["トルネードクリーニング店"]
    assert wrap("Filthy\u200bRich", 1000, fnt) == ["FilthyRich"]
