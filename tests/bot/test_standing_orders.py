"""Standing orders (issue 24), through the bot: a player answers windows before they open from
their private panel; the order answers the moment a window asks, as their own move, and tells
nobody else anything (the page is theirs alone, the table is not told)."""

from __future__ import annotations

from tests.bot.test_imtheboss import choose, click, find, option, set_hands, start, state
from tests.bot.test_imtheboss_async import _deal_on_k
from tests.support.sim import channel_text, custom_ids, panel_of, text_of


async def orders_page(sim, member):
    """My hand, then its 📋 Standing orders button: the page (ephemeral)."""
    return await click(sim, member, await sim.hand(member), label="Standing orders")


async def set_order(sim, member, scope: str):
    page = await orders_page(sim, member)
    chosen = option(find(page, code="Horder:set"), value=f"pass_reactions:{scope}")
    result = await member.select(page, [chosen], custom_id=find(page, code="Horder:set").custom_id)
    await sim.settle()
    return result


async def test_a_stop_window_closes_at_once_when_every_other_seat_ordered_a_pass(sim):
    ann, bob, cal, dot = await start(sim, 4)
    await sim.arrange(lambda s: (_deal_on_k(s, 0), set_hands(s, {3: ["travel-grey", "travel-grey"]})))
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    mark = len(sim.channel.history())
    for member in (bob, cal):
        shown = panel_of(await set_order(sim, member, "game"))
        assert "Order set" in text_of(shown)
        assert "Pass on every Stop and last call, unless it is my deal (for the whole game)" in text_of(shown)
    assert len(sim.channel.history()) == mark, "setting an order told the table something"
    versions = (await sim.game()).version

    dot_panel = await sim.hand(dot)
    travel = option(find(dot_panel, prefix="✈️"), contains="Grey travel")
    await choose(sim, dot, dot_panel, [travel], prefix="✈️")
    st = await state(sim)
    # bob and cal passed by their orders the moment the card was played; ann is the boss: asked
    assert st["window"] is not None and st["window"]["owing"] == [0], st["window"]
    assert sorted(st["window"]["passed"]) == [1, 2]
    actions = await sim.store.actions((await sim.game()).id, after=versions)
    passes = [a for a in actions if a["action"].get("type") == "pass"]
    assert sorted(a["seat"] for a in passes) == [1, 2]
    assert all(a["user_id"] is None for a in passes)  # nobody clicked: nothing to take back
    said = channel_text(sim, mark)
    assert f"<@{bob.id}>" not in said and f"<@{cal.id}>" not in said  # nobody pinged for an answered window
    assert "standing order" not in said.lower()


async def test_an_order_for_this_deal_ends_with_the_deal_and_can_be_cancelled(sim):
    ann, bob, cal, dot = await start(sim, 4)
    page = await orders_page(sim, bob)
    values = [o.value for o in find(page, code="Horder:set").options]
    assert values == ["pass_reactions:game"], values  # "for this deal" only while a deal is on
    await sim.arrange(lambda s: _deal_on_k(s, 0))
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    deal = (await state(sim))["deal"]["dl"]
    shown = panel_of(await set_order(sim, bob, "deal"))
    assert "(for this deal only)" in text_of(shown)
    game = await sim.game()
    assert game.clock["orders"]["1"] == [{"key": "pass_reactions", "scope": "deal", "until": deal}]
    # cancelled from the same page
    page = await orders_page(sim, bob)
    cancel = find(page, code="Horder:cancel")
    await bob.select(page, ["pass_reactions"], custom_id=cancel.custom_id)
    await sim.settle()
    assert not (await sim.game()).clock["orders"].get("1")
    assert all(not c.endswith("Horder:cancel") for c in custom_ids(await orders_page(sim, bob)))


async def fr_order(sim, member, key: str, amount: str):
    """Filthy Rich: choose an order with an amount on the page, and type the amount in its form."""
    page = await orders_page(sim, member)
    chosen = option(find(page, code="Horder:set"), value=f"{key}:game")
    shown = await member.select(page, [chosen], custom_id=find(page, code="Horder:set").custom_id)
    assert shown.modal is not None, "an order with an amount asks for it in a form"
    result = await member.submit_modal(shown, {"amount": amount})
    await sim.settle()
    return panel_of(result)


async def test_keep_at_tax_answers_below_its_amount_and_asks_at_or_above_it(sim):
    from tests.bot.test_filthyrich import arrange_scene, start3

    ann, bob, cy = await start3(sim)
    ids = await arrange_scene(sim)
    shown = await fr_order(sim, bob, "keep_at_tax", "two")
    assert "Type a whole amount" in text_of(shown)
    shown = await fr_order(sim, bob, "keep_at_tax", "$2")  # bob will owe $1: his order answers
    assert "Keep everything at tax time while I owe less than $2 (for the whole game)" in text_of(shown)
    await fr_order(sim, cy, "keep_at_tax", "3")  # cy will owe $4: she is asked as usual
    game = await sim.game()
    mark = len(sim.channel.history())
    for action in ({"type": "play", "card": ids["tornado_cleaners"], "slots": [3, 6]},
                   {"type": "play", "card": ids["angel_investor"]}, {"type": "roll"}):
        result = await sim.house.act(game.id, 0, action)
        assert result.kind == "applied", result
        await sim.settle()
    st = (await sim.game()).state
    assert st["phase"] == "tax" and sorted(st["tax"]["pending"]) == [0, 2] and st["tax"]["answered"] == [1]
    said = channel_text(sim, mark)
    assert "bob keeps everything" in said, said
    assert f"<@{bob.id}>" not in said and f"<@{cy.id}>" in said
