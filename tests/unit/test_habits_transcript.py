"""tools/habits/transcript.py (issue 30's Done when): the rough edges it finds in what the bot
said, and the words it reads from a message body."""

from __future__ import annotations

from tools.habits.transcript import problems, texts


def _names(text: str) -> list[str]:
    return [name for name, _ in problems(text)]


def test_the_rough_edges_of_issue_30_are_found():
    assert _names("🥈 X 1 luxuries, $21") == ["one with a plural noun"]
    assert _names("Descarta hasta 1 cartas") == ["one with a plural noun"]
    assert _names("Discard up to 3 card(s)") == ["plural in brackets"]
    assert _names("2 cero(s)") == ["plural in brackets"]
    assert _names("…手番終了）。 締め切り") == ["half-width space after a Japanese mark"]
    assert _names("配当1つ（$2M） (受け入れ済み)") == ["half-width space after a Japanese mark"]
    assert _names("🟨 黄 （あと1）") == ["half-width space after a Japanese mark"]
    assert _names("marcas de $ 5") == ["a count that reads as a price"]
    assert _names("you's turn") == ["a member called by a pronoun"]
    assert _names("faltan: you y ann") == ["a member called by a pronoun"]
    assert _names("Deadline {when}") == ["placeholder left in the text"]
    assert _names("core.table.footer_over") == ["catalogue key left in the text"]
    assert _names("$2M（返事待ち）; annの黄") == ["Latin punctuation in Japanese"]
    assert _names("$121 cada una · te quedan 1 más") == ["a plural verb with a count of one"]


def test_right_text_reads_clean():
    for text in ("🥈 X 1 luxury, $21", "1 bonus and 1 pass", "Descarta hasta 1 carta", "1 más", "手番終了）。締め切り",
                 "$1.5 and 11 cards", "it costs $1 cards aside", "Draw 4/3/2/1 cards",
                 "🟨 黄（あと1） · ✅ 🟩 緑", "2 luxuries", "ann's turn", "Waiting for ann",
                 "$2M（返事待ち）；annの黄", "ann: 3, bob; 2",
                 "te queda 1 más", "quedan 12", "quedan 1.5 días"):
        assert problems(text) == [], text


def test_the_words_of_a_message_are_read_from_its_body():
    body = {"content": "hello", "embeds": [{"title": "T", "fields": [{"name": "n", "value": "v"}]}],
            "components": [{"type": 17, "components": [{"type": 10, "content": "### Table"},
                                                       {"type": 1, "components": [
                                                           {"type": 2, "label": "My hand"},
                                                           {"type": 3, "placeholder": "Pick",
                                                            "options": [{"label": "A", "description": "d"}]}]}]}]}
    assert texts(body) == ["hello", "T", "n v", "### Table", "My hand", "Pick", "A", "d"]


async def test_slow_games_in_japanese_and_spanish_read_without_rough_edges(tmp_path):
    # A few days of two slow games through clicks (tools/habits): everything the bot said in
    # them, checked line by line. Before: I'm the Boss!'s offers read "配当1つ（$2M） (返事待ち)"
    # and "黄 （あと1）" in Japanese; Filthy Rich's turn line "página 1 abierta (1 dados)".
    from tools.habits.game import play

    for title, lang in (("imtheboss", "ja"), ("filthyrich", "es")):
        said = tmp_path / f"{title}-{lang}.txt"
        out = await play(title, 1, players=4, cap_days=4, audit=0, lang=lang, transcript=said)
        assert out["actions"] > 20 and said.stat().st_size > 0
        text = said.read_text(encoding="utf-8")
        marked = [line for line in text.splitlines() if line.startswith("!! ")]
        assert out["wording_problems"] == len(marked) == 0, marked[:5]
        # The people's own panels are read too, in their language (SimCord's members are en-US:
        # before, every hand in these games read "Your hand: 5 cards (limit 12)").
        assert "/callback\n" in text and "Your hand" not in text
