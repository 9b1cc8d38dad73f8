"""Japanese sentences joined in one message carry no half-width space after "。", "、" or "）"
(issue 30, item 14): the call to act ends in "。" and the deadline follows it, so the test reads
the bot's own joined messages, not only the catalogue."""

from __future__ import annotations

import re

from locales.format import join_sentences
from tests.support.sim import TIGHT, text_of

#: Full-width punctuation followed by a half-width space.
SPACED = re.compile(r"[。、）！？」]\u0020")


def test_join_sentences_drops_the_space_only_after_full_width_punctuation():
    assert join_sentences("手番です。", "締め切り 5分後。") == "手番です。締め切り 5分後。"
    assert join_sentences("Your turn.", "", "Deadline soon.") == "Your turn. Deadline soon."
    assert join_sentences("ann（不在）", "x") == "ann（不在）x"


async def test_the_japanese_call_and_its_deadline_are_joined_without_a_space(sim):
    people = [sim.player(n) for n in ("ann", "bob", "cy")]
    game = await sim.open_lobby(people[0], "toy", people[1:])
    await sim.store.update_game(game.id, 0, lang="ja", settings={**game.settings, **TIGHT, "ai_delay": 10})
    await sim.lobby(people[0], "start")
    await sim.settle()
    texts = [text_of(m) for m in sim.channel.history()]
    calls = [t for t in texts if "締め切り" in t and "🔔" in t]
    assert calls, texts
    spaced = [t for t in texts if SPACED.search(t)]
    assert not spaced, spaced


async def test_a_japanese_deal_lists_its_offers_with_a_full_width_semicolon(sim):
    # The deal's offers each hold a "·" and brackets of their own, so they are kept apart with a
    # semicolon: in Japanese the full-width "；", never "（返事待ち）; bob…" (1,167 times in the
    # slow games' transcripts before).
    from tests.unit.test_imtheboss_offers import many_offers_state

    people = [sim.player(n) for n in ("ann", "bob", "cal", "dot", "eve", "fay")]
    game = await sim.open_lobby(people[0], "imtheboss", people[1:])
    await sim.store.update_game(game.id, 0, lang="ja", settings={**game.settings, **TIGHT})
    await sim.lobby(people[0], "start")
    await sim.settle()
    built = many_offers_state()

    def arrange(s):
        s.clear()
        s.update(built)

    await sim.arrange(arrange)
    text = text_of(await sim.table_message())
    offers = next(line for line in text.splitlines() if line.startswith("提案："))
    assert offers.count("；") >= 2 and "; " not in offers, offers
