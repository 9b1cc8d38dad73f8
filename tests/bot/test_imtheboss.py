"""I'm the Boss! played through the bot (SimCord).

A 4-player game: the marker, a turn with a hand-limit discard and a recruit triple for a spare
placard (a pass-or-stop window everyone answers), a deal with accepted offers typed in the
price form, a travel answered by a stop, a restart in the middle of the deal, a boss takeover,
a close with its last call, a failed deal, and a last deal whose die ends the game (results).
A 2-player game: a deal under the 2-player rules closed with a chosen rival investor, a last
call that runs out of time, and the 15th deal ending the game.

Some moments are arranged: a prepared engine state (hands, placards, the marker, the deal
cards, the chance seed) is written into the store between moves. Every move in those moments
is a click, a select or a form through the bot.
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest

from cogs.kit import codec
from engine.core import Chance
from engine.imtheboss import GAME
from engine.imtheboss.data import CIDX
from tests.support.sim import TIGHT, channel_text, components_of, heading, labels, panel_of, results_message, save_picture, text_of

ART = Path(__file__).resolve().parents[2] / "artifacts" / "imtheboss" / "bot"
save = partial(save_picture, folder=ART)
NAMES = ("ann", "bob", "cal", "dot")


# -- helpers ----------------------------------------------------------------------------------


def find(message, *, label: str | None = None, prefix: str | None = None, code: str | None = None,
         code_prefix: str | None = None):
    """A button or select of a message by its label/placeholder, or by its code."""
    for c in components_of(message):
        text = getattr(c, "label", None) or getattr(c, "placeholder", None) or ""
        parsed = codec.parse(c.custom_id or "")
        pcode = parsed.code if parsed else ""
        if (label is not None and text == label) or (prefix is not None and text.startswith(prefix)) \
                or (code is not None and pcode == code) or (code_prefix is not None and pcode.startswith(code_prefix)):
            return c
    raise AssertionError(f"no component {label or prefix or code or code_prefix!r} in {labels(message)}")


def has(message, **how) -> bool:
    try:
        find(message, **how)
        return True
    except AssertionError:
        return False


def option(select, *, prefix: str | None = None, value: str | None = None, contains: str | None = None) -> str:
    for o in select.options:
        if (prefix is not None and o.label.startswith(prefix)) or (value is not None and o.value == value) \
                or (contains is not None and contains in o.label):
            return o.value
    raise AssertionError(f"no option {prefix or value or contains!r} in {[o.label for o in select.options]}")


async def click(sim, member, message, **how):
    """Click; return the panel the click produced (or the reply)."""
    result = await member.click(message, custom_id=find(message, **how).custom_id)
    await sim.settle()
    return panel_of(result)


async def choose(sim, member, message, values: list[str], **how):
    result = await member.select(message, values, custom_id=find(message, **how).custom_id)
    await sim.settle()
    return result


async def offer(sim, member, src: str, **price: str):
    """Open My hand, choose the investor in the offer select, type the price in the form."""
    panel = await sim.hand(member)
    shown = await choose(sim, member, panel, [src], prefix="💬")
    assert shown.modal is not None, "the offer select opens a form"
    fields = {"usd": price.get("usd", ""), "div": price.get("div", "")}
    result = await member.submit_modal(shown, fields)
    await sim.settle()
    return result


async def pass_all(sim, members):
    for m in members:
        panel = await sim.hand(m)
        await click(sim, m, panel, label="Pass")


def set_hands(state: dict, hands: dict[int, list[str]]) -> None:
    """Give seats exactly these card kinds (the cards come from the piles; old hands go back)."""
    for seat in hands:
        state["draw"].extend(state["hands"][seat])
        state["hands"][seat] = []
    for seat, kinds in hands.items():
        for k in kinds:
            pools = [state["draw"], state["discard"]] + [h for s, h in enumerate(state["hands"]) if s not in hands]
            for pool in pools:
                card = next((c for c in pool if c.rsplit("-", 1)[0] == k), None)
                if card is not None:
                    pool.remove(card)
                    state["hands"][seat].append(card)
                    break
            else:
                raise AssertionError(f"no {k} left")
        state["hands"][seat].sort()


def turn(state: dict, seat: int, space: int) -> None:
    """`seat` begins a turn with the marker on `space`."""
    state.update(phase="turn_start", active=seat, marker=space, deal=None, window=None, must_deal=False)
    state["wid"] += 1
    state["timer"] = {"id": f"turn:{state['wid']}", "kind": "turn"}


def no_interruptions(state: dict) -> None:
    """No hand holds an "I'm the boss!" or a Stop card (they go back to the draw pile): a test
    whose flow must not depend on the dealt hands (seeds are random) opens no reaction window."""
    for hand in state["hands"]:
        for card in [c for c in hand if c.rsplit("-", 1)[0] in ("boss", "stop")]:
            hand.remove(card)
            state["draw"].append(card)


def placards(state: dict, owners: dict[str, int | None]) -> None:
    for c, seat in owners.items():
        state["placards"][CIDX[c]] = seat


async def table_text(sim) -> str:
    return text_of(await sim.table_message())


async def start(sim, n: int, settings: dict | None = None):
    members = [sim.player(name) for name in NAMES[:n]]
    await sim.new_game(members[0], "imtheboss")
    for m in members[1:]:
        await sim.lobby(m, "join")
    game = await sim.game()
    await sim.store.update_game(game.id, 0, settings={**game.settings, "reminder": 0, **TIGHT, **(settings or {})})
    await sim.lobby(members[0], "start")
    await sim.settle()
    return members


async def state(sim) -> dict:
    return (await sim.game()).state


# -- the 4-player game --------------------------------------------------------------------------


@pytest.mark.both_backends  # a whole game on SQLite and on PostgreSQL
async def test_four_player_game(sim):
    members = await start(sim, 4)
    ann, bob, cal, dot = members
    st = await state(sim)

    # -- the marker: the start player's right neighbour chooses a space ---------------------
    marker_seat = st["marker_seat"]
    panel = await sim.hand(members[marker_seat])
    assert "Choose a space" in text_of(panel)
    select = find(panel, prefix="Put the dollar marker")
    assert len(select.options) == 16 and select.options[10].label == "Space K · 4 dividends"
    await choose(sim, members[marker_seat], panel, [select.options[10].value], prefix="Put the dollar marker")
    st = await state(sim)
    assert st["marker"] == 10 and st["phase"] == "turn_start"
    assert "puts the dollar marker on space K" in channel_text(sim)
    assert "'s turn: deal on space K, or roll." in await table_text(sim)

    # -- a turn: roll, draw over the hand limit, discard one, recruit a spare placard -------
    p = st["active"]
    me = members[p]
    others = [m for i, m in enumerate(members) if i != p]
    holder = (p + 1) % 4  # holds a stop; the other two do not

    def over_limit(s):
        placards(s, {"magenta": None, "green": None})
        hands = {p: ["recruit"] * 3 + ["travel-red", "travel-blue", "travel-yellow", "clan-red", "clan-blue",
                                        "clan-yellow", "boss", "travel-green", "clan-green"]}
        for i in range(4):
            if i != p:
                hands[i] = ["stop", "clan-orange"] if i == holder else ["clan-magenta", "travel-grey"]
        set_hands(s, hands)
        s["draw"] = [c for c in s["draw"] if not c.startswith("stop")] + [c for c in s["draw"] if c.startswith("stop")]

    await sim.arrange(over_limit)
    panel = await sim.hand(me)
    assert "Your turn: start a deal on space K, or roll the die." in text_of(panel)
    assert "Space K needs 🟥 Red + 🟦 Blue + 🟧 Orange" in text_of(panel)
    panel = await click(sim, me, panel, label="🎲 Roll")
    st = await state(sim)
    assert st["phase"] == "moved" and f"You rolled {st['last_roll']['roll']}" in text_of(panel)
    panel = await click(sim, me, panel, label="🃏 Draw 3")
    st = await state(sim)
    assert st["phase"] == "discard" and len(st["hands"][p]) == 15
    assert "choose 3 cards to discard" in text_of(panel)
    assert "You drew:" in text_of(panel)  # the private note of the drawn cards
    await save(panel, "discard-panel.png")
    select = find(panel, code="ds")
    travel = option(select, prefix="Red travel")
    await choose(sim, me, panel, [travel], code="ds")
    panel = await sim.hand(me)  # the chosen card is shown on the Discard button of the sub-panel
    result = await me.select(panel, [travel], custom_id=find(panel, code="ds").custom_id)
    await sim.settle()
    sub = panel_of(result)
    assert "Chosen: Red travel." in text_of(sub)
    await click(sim, me, sub, label="Discard 1 card")
    st = await state(sim)
    assert len(st["hands"][p]) == 14 and st["phase"] == "discard"
    assert "discards Red travel" in channel_text(sim)
    panel = await sim.hand(me)
    spare = option(find(panel, prefix="👥 Recruit"), prefix="Take the spare Green")
    await choose(sim, me, panel, [spare], prefix="👥 Recruit")
    st = await state(sim)
    assert st["window"]["kind"] == "reaction" and st["window"]["card"] == "recruit"
    assert "plays a recruit triple to take the spare Green placard" in channel_text(sim)
    # everyone else is prompted alike; only the private panel of a stop holder shows Stop
    table = await sim.table_message()
    assert "everyone else answers: Pass, or Stop" in text_of(table).replace("Everyone", "everyone")
    panels = {i: await sim.hand(members[i]) for i in range(4) if i != p}
    descriptions = {heading(panels[i]).split("\n", 1)[1] for i in panels}
    assert len(descriptions) == 1
    for i, pn in panels.items():
        assert has(pn, label="Pass")
        assert has(pn, label="✋ Stop!") == (i == holder)
    # one answers with the table's Pass button, the others from their panels
    first = others[0]
    reply = await click(sim, first, table, label="Pass")
    assert reply is not None
    for m in others[1:]:
        await click(sim, m, panels[members.index(m)], label="Pass")
    st = await state(sim)
    assert st["placards"][CIDX["green"]] == p and st["window"] is None
    assert len(st["hands"][p]) == 11 and st["phase"] == "turn_start" and st["active"] == (p + 1) % 4
    assert "takes the spare Green placard" in channel_text(sim)

    # -- a deal: offers in the price form, accepted; a travel stopped; a restart; a new boss -
    def deal_set_up(s):
        turn(s, 0, 10)  # Ann, space K: Red + Blue + Orange, 4 dividends; deal card #1 ($2M)
        placards(s, {"red": 0, "orange": 1, "blue": 2, "yellow": 3, "magenta": None, "green": None})
        set_hands(s, {0: ["clan-green", "recruit", "recruit"], 1: ["stop", "clan-magenta"],
                      2: ["travel-red", "clan-yellow"], 3: ["travel-grey", "boss", "clan-yellow"]})

    await sim.arrange(deal_set_up)
    panel = await sim.hand(ann)
    panel = await click(sim, ann, panel, label="💼 Deal here")
    st = await state(sim)
    assert st["phase"] == "deal" and st["deal"]["P"] == 8
    text = await table_text(sim)
    assert "Deal on space **K** · deal card #1: 4 dividends × $2M = **$8M** · boss: **ann**" in text
    assert "✅ 🟥 Red (ann)" in text and "⬜ 🟦 Blue" in text
    assert "💼 ann: \"Let's make a deal!\"" in channel_text(sim)

    result = await offer(sim, bob, "placard:orange", div="1")
    assert "offers the Orange placard for 1 dividend ($2M)" in channel_text(sim)
    await offer(sim, cal, "placard:blue", usd="6")
    assert "cal offers the Blue placard for $6M" in channel_text(sim)
    # the table shows every offer with its price; the boss declines one from the panel
    text = await table_text(sim)
    assert "Offers: bob: 🟧 Orange placard · 1 dividend ($2M) (pending); cal: 🟦 Blue placard · $6M (pending)" in text
    await save(await sim.table_message(), "table-deal-offers.png")
    panel = await sim.hand(ann)
    # each offer is a line with its Accept beside it; the declines are in the answers select
    assert has(panel, label="✅ Accept bob") and has(panel, label="✅ Accept cal")
    answers = find(panel, prefix="Answer an offer")
    result = await choose(sim, ann, panel, [option(answers, prefix="Decline cal")], prefix="Answer an offer")
    panel = panel_of(result)
    st = await state(sim)
    assert [o["seat"] for o in st["deal"]["offers"]] == [1]
    assert "ann declines cal's $6M for the Blue placard." in channel_text(sim)
    assert not has(panel, label="✅ Accept cal") and has(panel, prefix="✅ Accept bob")
    await offer(sim, cal, "placard:blue", usd="3")
    assert "cal offers the Blue placard for $3M" in channel_text(sim)
    # a price out of range is refused with the rule's reason; both fields at once are refused
    result = await offer(sim, cal, "placard:blue", usd="9")
    assert "the whole deal pays $8M" in text_of(panel_of(result))
    result = await offer(sim, cal, "placard:blue", usd="3", div="1")
    assert "not both" in text_of(result.followups[-1].message)

    panel = await sim.hand(ann)
    assert "2 offers wait for your answer." in text_of(panel)
    await save(panel, "boss-panel.png")
    panel = await click(sim, ann, panel, prefix="✅ Accept bob")
    panel = await click(sim, ann, panel, prefix="✅ Accept cal")
    st = await state(sim)
    assert [o["state"] for o in st["deal"]["offers"]] == ["accepted", "accepted"]
    assert "🤝 ann accepts bob's Orange placard for 1 dividend ($2M)" in channel_text(sim)
    assert "The investors are complete" in text_of(panel) and has(panel, label="🔨 Close the deal")
    text = await table_text(sim)
    assert "Promised $5M of $8M; $3M left." in text

    dot_panel = await sim.hand(dot)
    travel = option(find(dot_panel, prefix="✈️"), contains="bob: 🟧 Orange placard · Grey travel")
    await choose(sim, dot, dot_panel, [travel], prefix="✈️")
    st = await state(sim)
    assert st["window"]["card"] == "travel"
    assert "dot plays a Grey travel on bob's Orange placard" in channel_text(sim)
    ann_panel, bob_panel, cal_panel = [await sim.hand(m) for m in (ann, bob, cal)]
    assert {heading(m).split("\n", 1)[1] for m in (bob_panel, cal_panel, ann_panel)} == {heading(ann_panel).split("\n", 1)[1]}
    assert has(bob_panel, label="✋ Stop!") and not has(cal_panel, label="✋ Stop!")
    await click(sim, ann, await sim.table_message(), label="Pass")
    await click(sim, bob, bob_panel, label="✋ Stop!")
    st = await state(sim)
    assert st["window"] is None and not st["deal"]["away"]
    assert "✋ bob plays a stop: dot's travel card is cancelled." in channel_text(sim)

    dot_panel = await sim.hand(dot)  # drawn before the restart, used after it
    await sim.restart()
    await click(sim, dot, dot_panel, label="📢 I'm the boss!")
    st = await state(sim)
    assert st["window"]["card"] == "boss"
    await pass_all(sim, [ann, bob, cal])
    st = await state(sim)
    assert st["deal"]["boss"] == 3 and [o["state"] for o in st["deal"]["offers"]] == ["inherited", "inherited"]
    assert "👑 dot is the boss of this deal now, instead of ann." in channel_text(sim)
    text = await table_text(sim)
    assert "boss: **dot** (started by ann)" in text and "⬜ 🟥 Red" in text

    await offer(sim, ann, "placard:red", usd="2")
    panel = await sim.hand(dot)
    assert has(panel, prefix="❌ Decline bob")
    panel = await click(sim, dot, panel, prefix="✅ Accept ann")
    before = len(sim.channel.history())
    panel = await click(sim, dot, panel, label="🔨 Close the deal")
    st = await state(sim)
    assert st["window"]["kind"] == "last_call"
    assert "Last call by dot" in await table_text(sim)
    panel = await sim.hand(dot)
    assert has(panel, label="Reopen negotiation")
    await click(sim, cal, await sim.table_message(), label="Pass")
    await pass_all(sim, [ann, bob])
    st = await state(sim)
    assert st["phase"] == "turn_start" and st["covered"][10] == 1 and st["active"] == 0
    assert st["money"] == [2, 2, 3, 1]
    said = channel_text(sim, before)
    for line in ("✅ \"Sold!\" dot closes the deal on space K: the bank pays $8M.", "dot pays ann $2M.",
                 "dot pays bob $2M.", "dot pays cal $3M.", "dot keeps $1M."):
        assert line in said, line
    # money stays face down: the public view shows brackets, the table no totals
    public = GAME.view(st, None)
    assert [s["money_est"] for s in public["seats"]] == [[1, 9]] * 4 and "money" not in public["seats"][0]
    assert "Your money" not in channel_text(sim)
    panel = await sim.hand(dot)
    assert "Your money: $1M" in text_of(panel) and "Others see $1-9M." in text_of(panel)

    # -- a failed deal: a clan card laid and offered, a travel whose window runs out of time,
    #    the boss gives up, the laid clan card goes home ---------------------------------------
    def fail_set_up(s):
        turn(s, 0, 3)  # space D: Red + Orange
        # nobody who answers the travel's window holds a stop
        set_hands(s, {0: ["clan-green", "recruit"], 1: ["clan-magenta"], 2: ["clan-orange", "clan-yellow"],
                      3: ["travel-red", "clan-blue"]})

    await sim.arrange(fail_set_up)
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    panel = await sim.hand(cal)
    await choose(sim, cal, panel, [option(find(panel, prefix="🂠"), prefix="Orange clan card")], prefix="🂠")
    st = await state(sim)
    assert len(st["hands"][2]) == 1 and st["deal"]["table"] == [{"clan": "orange", "owner": 2, "card": st["deal"]["table"][0]["card"]}]
    assert "cal lays" in channel_text(sim) and "✅ 🟧 Orange (cal)" not in await table_text(sim)
    # the laid clan card is an investor cal may offer, through the same price form
    await offer(sim, cal, "card:orange:2", usd="1")
    assert "cal offers the Orange clan card for $1M." in channel_text(sim)
    assert "cal: 🟧 Orange clan card · $1M (pending)" in await table_text(sim)
    # dot sends ann's Red placard travelling; nobody answers: the window's deadline (8 h at the
    # slow pace) fires under virtual time, the AI answers for the late seats, the travel acts
    dot_panel = await sim.hand(dot)
    travel = option(find(dot_panel, prefix="✈️"), contains="ann: 🟥 Red placard · Red travel")
    mark = len(sim.channel.history())
    await choose(sim, dot, dot_panel, [travel], prefix="✈️")
    st = await state(sim)
    assert st["window"]["card"] == "travel" and sorted(st["window"]["owing"]) == [0, 1, 2]
    table = await sim.table_message()
    assert "Deadline <t:" in text_of(table) and has(table, label="Pass")
    await save(table, "table-reaction.png")
    await save(await sim.hand(cal), "reaction-panel.png")
    await sim.advance(8 * 3600 - 60)
    assert (await state(sim))["window"] is not None  # not yet
    await sim.advance(120)
    st = await state(sim)
    assert st["window"] is None and list(st["deal"]["away"]) == ["red"]
    said = channel_text(sim, mark)
    for name in ("ann", "bob", "cal"):  # each person's own time ran out (issue 24): one line each
        assert f"⏰ Deadline passed for {name}: the AI answers for them." in said
    assert "ann's Red placard goes travelling." in said
    text = await table_text(sim)
    # (seen failing twice under load, the table at this move still showing Red covered: the
    # table and the deal's state are printed in full, to tell which of the two was behind)
    if not ("✈️ Travelling: ann: 🟥 Red placard" in text and "⬜ 🟥 Red" in text):
        pytest.fail(f"the table at this move:\n{text}\nthe deal in the store:\n{json.dumps(st['deal'])}", pytrace=False)
    panel = await sim.hand(ann)
    await click(sim, ann, panel, label="Give up the deal")
    st = await state(sim)
    assert st["phase"] == "turn_start" and st["active"] == 1 and st["covered"][3] is None
    assert len(st["hands"][2]) == 2 and st["placards"][CIDX["red"]] == 0
    said = channel_text(sim)
    assert "❌ ann's deal on space D fails: the boss gave up." in said
    assert "1 clan card goes back to its owner (cal)." in said

    # -- the last deal of the game: deal card #14, the die ends it -----------------------------
    seed = next(s for s in range(100) if Chance({"seed": s, "n": 0}).die(6) <= 5)

    def last_set_up(s):
        turn(s, 1, 14)  # Bob, space O: Magenta + Orange, 3 dividends
        placards(s, {"magenta": 1, "orange": 1})
        s["stack"] = [14, 15]
        s["chance"] = {"seed": seed, "n": 0}

    await sim.arrange(last_set_up)
    panel = await sim.hand(bob)
    assert "deal card #14: 3 dividends × $5M = $15M" in text_of(panel)
    await click(sim, bob, panel, label="💼 Deal here")
    panel = await sim.hand(bob)
    panel = await click(sim, bob, panel, label="🔨 Close the deal")
    await pass_all(sim, [ann, cal, dot])
    game = await sim.game()
    assert game.status == "finished"
    said = channel_text(sim)
    assert re.search(r"🎲 bob rolls [1-5] after deal card #14 \(ends on 1-5\): the game is over!", said)
    last = results_message(sim)
    assert "final results" in text_of(last).lower()
    assert "🥇 **bob** $17M" in text_of(last)
    await save(last, "results.png")
    await save(await sim.table_message(), "table-final.png")


# -- the 2-player game --------------------------------------------------------------------------


async def test_two_player_game(sim):
    ann, bob = await start(sim, 2, {"pace": "live", "on_deadline": "skip"})
    game = await sim.game()
    assert game.state["shared"]
    panel = await sim.hand([ann, bob][game.state["marker_seat"]])
    select = find(panel, prefix="Put the dollar marker")
    await choose(sim, [ann, bob][game.state["marker_seat"]], panel, [select.options[0].value], prefix="Put the")

    def set_up(s):
        turn(s, 0, 0)  # space A: Red + Blue + Yellow, 2 of Magenta/Orange/Green; 6 dividends
        placards(s, {"red": 0, "blue": 0, "magenta": 0, "yellow": 1, "orange": 1, "green": 1})
        s["stack"] = [15]  # the last deal card: $5M a dividend, P = 30
        set_hands(s, {0: ["travel-grey", "recruit"], 1: ["clan-red", "recruit"]})

    await sim.arrange(set_up)
    panel = await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    panel = await sim.hand(ann)
    text = text_of(panel)
    assert "2-player rules: no bargaining; the boss pays $6M for each rival investor used." in text
    assert "Closing uses bob: 🟨 Yellow placard, bob: 🟧 Orange placard: $6M each, $12M in all." in text
    assert not has(panel, prefix="💬")  # no offers under the 2-player rules
    await save(panel, "two-player-boss.png")
    bob_panel = await sim.hand(bob)
    assert "ann uses your investors as needed and pays $6M for each" in text_of(bob_panel)
    # Ann names the rivals she uses: Yellow (required) and Green instead of Orange
    use = find(panel, prefix="Or choose the 2 rival investors")
    values = [option(use, contains="Yellow"), option(use, contains="Green")]
    await choose(sim, ann, panel, values, prefix="Or choose the 2")
    st = await state(sim)
    assert st["window"]["kind"] == "last_call" and st["window"]["use"] == ["placard:yellow", "placard:green"]
    table = await sim.table_message()
    assert "Deadline" in text_of(table) and has(table, label="Pass")
    # Bob lets the last call run out (live pace: 2 minutes)
    await sim.advance(125)
    game = await sim.game()
    assert game.status == "finished"
    assert game.state["money"] == [18, 12]
    said = channel_text(sim)
    assert "ann pays bob $6M." in said and "🏁 Game over (the 15th deal is done). Richest: ann." in said
    assert "final results" in text_of(results_message(sim)).lower()
