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
    size, lines = fit_wrap("アワアワ・コインランドリー", 182, 24, 3, bold=True)
    assert size < 24 and lines == ["アワアワ・", "コインランドリー"]
    # A middle dot may hang at a line's end rather than push the word before it onto two lines.
    size, lines = fit_wrap("バブルトラブル・タピオカ茶館", 182, 24, 3, bold=True)
    assert size == 24 and lines == ["バブルトラブル・", "タピオカ茶館"]
    # English is unchanged by all this.
    assert fit_wrap("Bubble Trouble Tapioca", 182, 24, 3, bold=True)[1] == ["Bubble Trouble", "Tapioca"]
