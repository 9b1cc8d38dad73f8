"""Black Friday played through the bot (SimCord): from /game new through the lobby to the
results message, with every kind of move clicked on the private panel (subsidies, buys, sells,
silver, passes, the special card, keeping the turn open), a restart in the middle, and checks
that the channel never shows a seat's holdings, money or subsidies.

The humans' later moves are the seat-filler's choices *clicked through the panel* (`enact`):
for each one the test opens My hand, finds the form, the colours and counts, the follow-up
choices, and confirms; the action the house records must be the one intended. So every move
the AI makes in those rounds is shown to be reachable from Discord with a few clicks."""

from __future__ import annotations

import re

import pytest

from cogs.titles.contract import ui_for
from cogs.kit.clock import now
from tests.support.blackfriday import (
    ART,
    PRIVATE_MARKS,
    action_after,
    adjustment_messages,
    ai_turns,
    assert_channel_private,
    check_adjustment,
    choose,
    click,
    enact,
    fast_forward,
    find,
    last_seq,
    open_game,
    option_for,
    play_seat,
    save,
    transcript,
)
from tests.support.sim import TIGHT, button, channel_text, components_of, labels, panel_of, results_message, text_of

GAME = ui_for("blackfriday").game
COLOURS = "YBRGO"


# -- a 4-player game: three people and an AI --------------------------------------------------


async def test_four_player_game_through_the_panel(sim):
    (ART / "transcript.txt").unlink(missing_ok=True)
    ann, bob, cat = sim.player("ann"), sim.player("bob"), sim.player("cat")
    game = await open_game(sim, ann, [bob, cat], ai=1, seed=10)
    assert game.state["start"] == 0  # seed 10: ann starts; bob, cat and the AI hold special cards
    members = {0: ann, 1: bob, 2: cat}
    table = await sim.table_message()
    transcript(table, "table at the start")
    text = text_of(table)
    assert "Level Start: 1 per action · subsidy limit 1 · 5 drawn at an adjustment" in text
    assert "Next adjustment: buy table 0/5 · silver table 0/5 · sell table 1: 10 left (adjusts at 5)" in text
    await save(table, "01-table-start.png")

    # -- ann: a subsidy, then a buy ----------------------------------------------------------
    panel = await sim.hand(ann)
    transcript(panel, "ann: My hand")
    text = text_of(panel)
    assert "**Your turn.**" in text
    assert "💵 **$0** · subsidies 0/1 · 0 silver · 0 gold" in text
    assert "Your stocks: 🟨 Yellow ×1, 🟦 Blue ×2, 🟥 Red ×1, 🟩 Green ×1 (worth $35)" in text
    assert {"Buy stock", "Sell stock", "Buy silver", "Keep my turn open"} <= set(labels(panel))
    assert find(panel, code="Pspec", required=False) is None  # the start player has no card
    await save(panel, "02-panel-ann-turn.png")
    # bob looks at his panel meanwhile: his own purse, ann's turn, no moves.
    other = await sim.hand(bob)
    assert "It is ann's turn." in text_of(other) and "🃏 Special card: extra pass." in text_of(other)
    # ... and Refresh, the one thing to press while waiting (issue 15).
    live = [c for c in components_of(other) if not getattr(c, "disabled", False)]
    assert [getattr(c, "label", None) for c in live] == ["Refresh"]
    again = panel_of(await click(sim, bob, other, label="Refresh"))
    assert "It is ann's turn. Press Refresh" in text_of(again) and "💵" in text_of(again)

    select = find(panel, code="Psub")
    assert [o.label for o in select.options] == ["1 unit: +$20"]
    panel = panel_of(await choose(sim, ann, panel, option_for(select, {"type": "subsidy", "units": 1}), code="Psub"))
    assert "💵 **$20** · subsidies 1/1" in text_of(panel)
    assert find(panel, code="Psub", required=False) is None  # at the level's limit
    panel = panel_of(await click(sim, ann, panel, label="Buy stock"))
    transcript(panel, "ann: Buy stock")
    assert "Choose colours and counts (up to 1 in all)." in text_of(panel)
    assert find(panel, label="Confirm").disabled
    add = find(panel, suffix=":a")
    assert [o.label for o in add.options] == ["Yellow ×1: $7", "Blue ×1: $7", "Red ×1: $7", "Green ×1: $7",
                                              "Orange ×1: $7"]
    panel = panel_of(await choose(sim, ann, panel, "Y1", suffix=":a"))
    transcript(panel, "ann: Buy stock, Yellow ×1")
    text = text_of(panel)
    assert "1 × Yellow at $7" in text and "Total: $7 · You have $20." in text
    assert "Extra briefcase to the buy table: Yellow" in text  # the only possible choice
    await save(panel, "03-panel-ann-buy.png")
    mark = len(sim.channel.history())
    await click(sim, ann, panel, label="Confirm")
    game = await sim.game()
    assert game.state["players"][0]["bags"][0] == 2 and game.state["players"][0]["money"] == 13
    assert game.state["active"] == 1
    assert "▸ ann buys 1 Yellow stock at $7." in channel_text(sim, mark)
    assert_channel_private(sim, ("$13",))  # ($20 is also the public silver price)

    # -- bob: the special card's extra pass, then a sale -------------------------------------
    panel = await sim.hand(bob)
    transcript(panel, "bob: My hand")
    special = find(panel, code="Pspec")
    assert special.placeholder == "Special card, extra pass: a briefcase to the silver table"
    mark = len(sim.channel.history())
    panel = panel_of(await choose(sim, bob, panel, option_for(special, {"type": "special_pass", "colour": "O"}),
                                  code="Pspec"))
    transcript(panel, "bob: after the extra pass")
    text = channel_text(sim, mark)
    assert "▸ 🃏 bob uses their special card: extra pass." in text
    assert "▸ bob moves one Orange briefcase from the market to the silver table (special card)." in text
    assert "**Your turn.**" in text_of(panel) and "Special card" not in text_of(panel)
    panel = panel_of(await click(sim, bob, panel, label="Sell stock"))
    panel = panel_of(await choose(sim, bob, panel, "Y1", suffix=":a"))
    transcript(panel, "bob: Sell stock, Yellow ×1")
    text = text_of(panel)
    assert "Income: $7" in text and "Drops a step: Yellow" in text
    assert "From sell table 1 to the market: Yellow" in text
    mark = len(sim.channel.history())
    await click(sim, bob, panel, label="Confirm")
    text = channel_text(sim, mark)
    assert "▸ bob sells 1 Yellow stock at $7." in text and "▸ Yellow: $7 → $6 (sale)." in text
    game = await sim.game()
    assert game.state["players"][1]["money"] == 7 and game.state["active"] == 2

    # -- cat: keeps the turn open, sells two with sell +1, takes a subsidy, ends the turn ----
    panel = await sim.hand(cat)
    panel = panel_of(await click(sim, cat, panel, code="M1"))
    assert "Your turn stays open after the main action" in text_of(panel)
    panel = panel_of(await click(sim, cat, panel, label="Sell stock"))
    assert "One more than the limit uses your special card (sell +1)." in text_of(panel)
    add = find(panel, suffix=":a")
    assert "uses your special card (sell +1)" in next(o.description for o in add.options if o.value == "Y2")
    panel = panel_of(await choose(sim, cat, panel, "Y1", suffix=":a"))
    panel = panel_of(await choose(sim, cat, panel, "R1", suffix=":a"))
    transcript(panel, "cat: Sell stock, Yellow + Red")
    text = text_of(panel)
    assert "Income: $13" in text and "⭐ uses your special card (sell +1)" in text
    assert find(panel, suffix=":l").placeholder == "Which sold colour drops one step?"
    assert find(panel, label="Confirm").disabled  # the sell-table briefcase is still to choose
    panel = panel_of(await choose(sim, cat, panel, "R", suffix=":l"))
    panel = panel_of(await choose(sim, cat, panel, "Y", suffix=":t"))
    transcript(panel, "cat: Sell stock, ready")
    text = text_of(panel)
    assert "Drops a step: Red" in text and "From sell table 1 to the market: Yellow" in text
    await save(panel, "04-panel-cat-sell.png")
    mark = len(sim.channel.history())
    panel = panel_of(await click(sim, cat, panel, label="Confirm"))
    transcript(panel, "cat: main action done")
    assert "Main action done" in text_of(panel) and "End turn" in labels(panel)
    text = channel_text(sim, mark)
    assert "▸ 🃏 cat uses their special card: sell +1." in text
    assert "▸ cat sells 1 Yellow stock at $6." in text and "▸ cat sells 1 Red stock at $7." in text
    assert "▸ Red: $7 → $6 (sale)." in text
    panel = panel_of(await choose(sim, cat, panel, option_for(find(panel, code="Psub"),
                                                               {"type": "subsidy", "units": 1}), code="Psub"))
    assert "💵 **$33** · subsidies 1/1" in text_of(panel)
    before = await last_seq(sim)
    await click(sim, cat, panel, label="End turn")
    assert await action_after(sim, before) == {"type": "end_turn"}
    game = await sim.game()
    assert game.state["active"] != 2 and game.state["players"][2]["money"] == 33
    assert_channel_private(sim, ("$33",))

    # -- the AI, then ann buys silver ------------------------------------------------------
    await ai_turns(sim, members)
    game = await sim.game()
    assert game.state["active"] == 0
    # ann's subsidy is given back for this part: with $3 she can buy silver only by taking a
    # unit, which the panel says and asks about before it happens (issue 15).
    def short_of_cash(st: dict) -> None:
        st["players"][0]["money"], st["players"][0]["units"] = 3, 0

    await sim.arrange(short_of_cash, replan=False)
    panel = await sim.hand(ann)
    panel = panel_of(await click(sim, ann, panel, label="Buy silver"))
    transcript(panel, "ann: Buy silver")
    assert "Silver costs $20 · you have 0 silver and 0 gold" in text_of(panel)
    qty = find(panel, suffix=":q")
    assert [o.label for o in qty.options] == ["1 silver: $20"]
    panel = panel_of(await choose(sim, ann, panel, "1", suffix=":q"))
    # The silver-table briefcase is pre-filled and labelled: Confirm works at once (issue 15).
    assert not find(panel, label="Confirm").disabled
    assert "(change it in the list below)" in text_of(panel)
    panel = panel_of(await choose(sim, ann, panel, "G", suffix=":x"))
    transcript(panel, "ann: Buy silver, ready")
    assert "To the silver table: Green (change it in the list below)" in text_of(panel)
    assert "💵 Takes 1 subsidy unit first" in text_of(panel)
    await save(panel, "05-panel-ann-silver.png")
    before = await last_seq(sim)
    panel = panel_of(await click(sim, ann, panel, label="Confirm"))
    transcript(panel, "ann: Buy silver, the subsidy asked about")
    assert await last_seq(sim) == before  # nothing taken yet
    text = text_of(panel)
    assert "This costs $20 and you have $3: it takes 1 subsidy unit first (+$20)." in text
    assert "$1 interest at every price adjustment" in text
    mark = len(sim.channel.history())
    await click(sim, ann, panel, label="Take 1 unit and confirm")
    assert await action_after(sim, before) == {"type": "silver", "qty": 1, "colour": "G", "subsidy": 1}
    assert "▸ ann buys 1 silver at $20." in channel_text(sim, mark)
    game = await sim.game()
    assert game.state["players"][0]["silver"] == 1 and game.state["players"][0]["money"] == 3

    # -- bob opens his panel; the bot restarts; his pass on that old panel still counts ------
    panel = await sim.hand(bob)
    await sim.restart()
    select = find(panel, code="Ppass")
    mark = len(sim.channel.history())
    await choose(sim, bob, panel, option_for(select, {"type": "pass", "colour": "Y"}), code="Ppass")
    assert "▸ bob passes and moves one Yellow briefcase from the market to the silver table." in channel_text(sim, mark)
    game = await sim.game()
    assert game.state["active"] == 2
    # A click drawn for an earlier moment is never a move: cat passes from a second panel,
    # then clicks the first one, which is stale now.
    first = await sim.hand(cat)
    await enact(sim, cat, {"type": "pass", "colour": "B"})
    game = await sim.game()
    stale = await cat.select(first, [option_for(find(first, code="Ppass"), {"type": "pass", "colour": "R"})],
                             custom_id=find(first, code="Ppass").custom_id)
    await sim.settle()
    assert "earlier moment" in text_of(panel_of(stale))
    assert (await sim.game()).version == game.version
    # Someone who is not seated clicks the table's My hand: a polite refusal, nothing changes.
    zed = sim.player("zed")
    table = await sim.table_message()
    refused = await zed.click(table, custom_id=button(table, code_suffix=":Hhand"))
    assert refused.ephemeral and "not playing" in refused.response.content
    assert (await sim.game()).version == game.version

    # -- planted sentinels: the panels show the amounts; the channel never does -------------
    def plant(st: dict) -> None:
        for seat, money in ((0, 4321), (1, 3210), (2, 2109)):
            st["players"][seat]["money"] = money

    await sim.arrange(plant, replan=False)
    panel = await sim.hand(cat)
    assert "💵 **$4321**" not in text_of(panel) and "💵 **$2109**" in text_of(panel)

    # -- rounds of the seat-filler's choices, clicked by the humans, until 3 adjustments ----
    rounds = 0
    while len(adjustment_messages(sim)) < 3:
        game = await sim.game()
        await play_seat(sim, members, game.state["active"])
        rounds += 1
        assert rounds < 60, "no third price adjustment"
    text = channel_text(sim)
    assert_channel_private(sim, ("4321", "3210", "2109"))
    for message in adjustment_messages(sim):
        check_adjustment(message)
    table = await sim.table_message()
    transcript(table, "table after 3 adjustments")
    await save(table, "06-table-mid.png")
    panel = await sim.hand(ann)
    transcript(panel, "ann: mid-game")
    await save(panel, "07-panel-ann-mid.png")

    # -- the rest: everyone plays the seat-filler's moves; the results -----------------------
    await fast_forward(sim)
    game = await sim.game()
    assert game.status == "finished"
    text = channel_text(sim)
    blocks = adjustment_messages(sim)
    assert len(blocks) >= 4
    for message in blocks:
        check_adjustment(message)
    assert any("table is full." in m for m in blocks) and any("left on sell table" in m for m in blocks)
    assert any("⬛" in m for m in blocks)
    assert "▸ 🏁 The game ends:" in text
    results = results_message(sim)
    transcript(results, "results")
    assert "final results" in text_of(results)
    final = game.state["final"]
    winner = min(range(4), key=lambda s: final[s]["place"])
    f = final[winner]
    assert f"🥇 **{game.names[winner]}** {f['gold']} gold, {f['silver']} silver, ${f['money']}" in text_of(results)
    await save(results, "08-results.png")
    # /game log tells the same story, adjustments folded the same way, nothing private.
    log = (await bob.slash(sim.channel, "game log")).response.message
    transcript(log, "bob: /game log")
    # The last page may hold only the final ranking: read the page before it too.
    before = panel_of(await bob.click(log, custom_id=find(log, label="◀").custom_id))
    story = text_of(before) + text_of(log)
    assert log.flags.ephemeral and "📉 **Price adjustment**" in story and "New prices: 🟨" in story
    assert not any(mark in story for mark in PRIVATE_MARKS)
    await save(await sim.table_message(), "09-table-final.png")
    for message in sim.channel.history():
        transcript(message, "channel")


# -- a 2-player game (set-up moves) and a 5-player game, mostly AI -----------------------------


@pytest.mark.both_backends  # a whole game on SQLite and on PostgreSQL
async def test_two_player_game_with_setup_and_a_deadline(sim):
    ann = sim.player("ann")
    game = await open_game(sim, ann, [], ai=1, seed=3)
    assert game.state["phase"] == "setup"
    table = await sim.table_message()
    assert "Set-up: briefcases to the buy table" in text_of(table)
    await save(table, "20-table-2p-setup.png")
    members = {0: ann}
    while (await sim.game()).state["phase"] == "setup":
        await ai_turns(sim, members)
        game = await sim.game()
        if game.state["phase"] != "setup":
            break
        panel = await sim.hand(ann)
        assert "Set-up: move one briefcase from the market to the buy table." in text_of(panel)
        select = find(panel, code="Psetup")
        mark = len(sim.channel.history())
        await choose(sim, ann, panel, select.options[0].value, code="Psetup")
        assert "▸ ann moves one Yellow briefcase from the market to the buy table." in channel_text(sim, mark)
    game = await sim.game()
    assert game.state["phase"] == "turn"
    narration = "\n".join(m.content or "" for m in sim.channel.history())
    # one set-up move each
    assert len(re.findall(r"▸ .+ moves one \w+ briefcase from the market to the buy table\.", narration)) == 2
    # The ping says what to do in the phase (issue 19): the set-up move, then the turn's choice.
    assert re.search(r"🔔 <@\d+>: move one briefcase from the market to the buy table\.", narration)
    assert re.search(r"🔔 <@\d+>: buy or sell stock, buy silver or pass; that ends your turn\.", narration)
    await ai_turns(sim, members)
    panel = await sim.hand(ann)
    assert "🃏 Special card: sell +1, buy +1." in text_of(panel)

    # ann, the host, sets a 1-minute turn deadline with the title's own timeout rule ("skip")
    # from /game settings, then lets her turn run out: the timeout passes for her.
    settings = await sim.settings(ann)
    settings = panel_of(await choose(sim, ann, settings, "skip", code="Hset:on_deadline"))
    settings = panel_of(await choose(sim, ann, settings, "turn", code="Hkind"))
    assert find(settings, code="Hlen:turn").placeholder == "Deadline for Turn (main action and free actions)"
    await choose(sim, ann, settings, "60", code="Hlen:turn")
    game = await sim.game()
    assert game.settings["on_deadline"] == "skip" and game.settings["deadlines"] == {"turn": 60}
    assert game.state["active"] == 0
    mark = len(sim.channel.history())
    await sim.advance(61)
    text = channel_text(sim, mark)
    assert "▸ ⏰ Time is up for ann." in text and "▸ ann passes and moves one" in text

    await fast_forward(sim)
    game = await sim.game()
    assert game.status == "finished"
    results = results_message(sim)
    assert "final results" in text_of(results) and text_of(results).count("gold") == 2
    await save(results, "21-results-2p.png")
    assert_channel_private(sim)


async def test_five_player_game_in_japanese(sim, monkeypatch):
    from simcord import interactions

    original = interactions.base_payload

    def in_japanese(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = "ja"
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", in_japanese)
    ken = sim.player("ken")
    await sim.new_game(ken, "blackfriday")
    for _ in range(4):
        await sim.lobby(ken, "addai")
    game = await sim.game()
    await sim.store.update_game(game.id, now(), seed=5, lang="ja", settings={**game.settings, **TIGHT, "reminder": 0})
    await sim.lobby(ken, "start")
    await sim.settle()
    table = await sim.table_message()
    text = text_of(table)
    assert re.search(r"株購入テーブル\d/6", text) and "（4で調整）" in text  # 5 players: 6 on a table, 4 left
    await ai_turns(sim, {0: ken})
    panel = await sim.hand(ken)
    transcript(panel, "ken: My hand (ja)")
    assert "**あなたの手番です。**" in text_of(panel) and "💵 **$0**" in text_of(panel)
    assert {"株を買う", "株を売る", "銀を買う"} <= set(labels(panel))
    await save(panel, "31-panel-5p-ja.png")
    await fast_forward(sim)
    game = await sim.game()
    assert game.status == "finished"
    blocks = [m.content for m in sim.channel.history() if "📉 **価格調整**" in (m.content or "")]
    assert blocks and all("新しい株価：🟨 $" in m for m in blocks)
    results = results_message(sim)
    assert "暗黒の金曜日：最終結果" in text_of(results) and text_of(results).count("金塊") == 5
    await save(results, "30-results-5p.png")
    assert "💵" not in channel_text(sim) and "持ち株" not in channel_text(sim)
