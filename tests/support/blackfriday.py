"""Helpers for the Black Friday bot tests (tests/bot/test_blackfriday*.py): finding and
clicking a panel's parts by their codes, playing the seat-filler's choices through the panel
(`enact`), and checking the channel (nothing private; adjustments as short blocks)."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path
from typing import Any

from cogs.kit import codec
from cogs.kit.clock import now
from tests.support.sim import TIGHT, channel_text, components_of, labels, panel_of, save_picture, text_of, write_transcript

ART = Path(__file__).resolve().parents[2] / "artifacts" / "blackfriday" / "bot"
save = partial(save_picture, folder=ART)
transcript = partial(write_transcript, folder=ART)


def code_of(component) -> str:
    parsed = codec.parse(component.custom_id or "")
    return parsed.code if parsed else ""


def find(message, *, label: str | None = None, code: str | None = None, suffix: str | None = None,
         prefix: str | None = None, required: bool = True):
    """A button or select of a message: by label/placeholder, code, code suffix, or code prefix."""
    for c in components_of(message):
        text = getattr(c, "label", None) or getattr(c, "placeholder", None) or ""
        k = code_of(c)
        if (label is not None and text == label) or (code is not None and k == code) \
                or (suffix is not None and k.endswith(suffix)) or (prefix is not None and k.startswith(prefix)):
            return c
    if required:
        raise AssertionError(f"no component {label or code or suffix or prefix!r} in {labels(message)}")
    return None


async def click(sim, member, message, **how):
    result = await member.click(message, custom_id=find(message, **how).custom_id)
    await sim.settle()
    return result


async def choose(sim, member, message, value: str, **how):
    result = await member.select(message, [value], custom_id=find(message, **how).custom_id)
    await sim.settle()
    return result


def option_for(select, action: dict) -> str:
    """The option of an action select that stands for `action`."""
    for o in select.options:
        if codec.decode_action(o.value, []) == action:
            return o.value
    raise AssertionError(f"{action} not offered in {[o.value for o in select.options]}")


async def open_game(sim, host, others, ai: int, seed: int):
    """/game new, joins, AI seats, a known seed, start."""
    await sim.new_game(host, "blackfriday")
    lobby = sim.lobby_message()
    assert "Black Friday" in text_of(lobby)
    for member in others:
        await sim.lobby(member, "join")
    for _ in range(ai):
        await sim.lobby(host, "addai")
    game = await sim.game()
    await sim.store.update_game(game.id, now(), seed=seed, settings={**game.settings, **TIGHT, "reminder": 0})
    await sim.lobby(host, "start")
    await sim.settle()
    game = await sim.game()
    assert game.status == "active"
    return game


async def last_seq(sim) -> int:
    game = await sim.game()
    entries = await sim.store.actions(game.id, newest_first=True, limit=1)
    return entries[0]["seq"] if entries else 0


async def action_after(sim, seq: int) -> dict:
    """The first action recorded after `seq` (AI seats may have moved since)."""
    game = await sim.game()
    entries = await sim.store.actions(game.id, newest_first=True, limit=20)
    return min((e for e in entries if e["seq"] > seq), key=lambda e: e["seq"])["action"]


def form_state(message) -> str:
    """The order form's state as the Confirm button carries it (e.g. "S101000YR")."""
    return code_of(find(message, suffix=":ok")).split(":")[0]


async def confirm(sim, member, panel) -> None:
    """Confirm an order form, and the subsidy it takes when the panel asks about one."""
    reply = await click(sim, member, panel, suffix=":ok")
    asked = panel_of(reply) if reply is not None else None
    if asked is not None and find(asked, suffix=":oks", required=False) is not None:
        await click(sim, member, asked, suffix=":oks")


async def enact(sim, member, action: dict) -> None:
    """Play `action` for `member` by clicking their private panel, as a player would."""
    before = await last_seq(sim)
    panel = await sim.hand(member)
    kind = action["type"]
    keep = action.get("end_turn") is False
    if kind in ("pass", "subsidy", "special_pass", "setup_bag"):
        if keep:
            panel = panel_of(await click(sim, member, panel, code="M1"))
        code = {"pass": "Ppass", "subsidy": "Psub", "special_pass": "Pspec", "setup_bag": "Psetup"}[kind]
        select = find(panel, code=code, required=False)
        if select is None:  # an empty market: a plain button
            await click(sim, member, panel, code="!" + json.dumps(action, separators=(",", ":"), sort_keys=True))
        else:
            await choose(sim, member, panel, option_for(select, action), code=code)
    elif kind == "end_turn":
        await click(sim, member, panel, code='!{"type":"end_turn"}')
    elif kind in ("buy", "sell"):
        panel = panel_of(await click(sim, member, panel, prefix="B0" if kind == "buy" else "S0"))
        for colour, count in action["bags"].items():
            select = find(panel, suffix=":a")
            if f"{colour}{count}" not in [o.value for o in select.options]:
                select = find(panel, suffix=":a2")
            panel = panel_of(await choose(sim, member, panel, f"{colour}{count}", code=code_of(select)))
        follow = [("extra", ":x", 7)] if kind == "buy" else [("lower", ":l", 7), ("take", ":t", 8)]
        for field, suffix, pos in follow:
            want = action[field]
            if want is not None and form_state(panel)[pos] != want:
                panel = panel_of(await choose(sim, member, panel, want, suffix=suffix))
        if keep:
            panel = panel_of(await click(sim, member, panel, suffix=":k"))
        await confirm(sim, member, panel)
    elif kind == "silver":
        panel = panel_of(await click(sim, member, panel, prefix="V0"))
        panel = panel_of(await choose(sim, member, panel, str(action["qty"]), suffix=":q"))
        if action["colour"] is not None and form_state(panel)[7] != action["colour"]:
            panel = panel_of(await choose(sim, member, panel, action["colour"], suffix=":x"))
        if keep:
            panel = panel_of(await click(sim, member, panel, suffix=":k"))
        await confirm(sim, member, panel)
    else:
        raise AssertionError(f"no panel route for {action}")
    done = await action_after(sim, before)
    assert {k: v for k, v in done.items() if k != "subsidy"} == action, (done, action)


async def ai_choice(sim, seat: int) -> dict | None:
    game = await sim.game()
    return sim.house.ai_choice(game, seat)


async def play_seat(sim, members: dict[int, Any], seat: int) -> None:
    """One move of `seat`: humans click the seat-filler's choice on their panel; AI seats move."""
    game = await sim.game()
    if seat in members:
        action = await ai_choice(sim, seat)
        assert action is not None
        await enact(sim, members[seat], action)
    else:
        await sim.house.ai_move(game.id, seat)
        await sim.settle()


async def ai_turns(sim, members: dict[int, Any]) -> None:
    """Let the AI seats play until a human is to move, one seat-filler move at a time (quicker
    than the house's AI timers under virtual time; and an AI seat that moves twice in a row, a
    subsidy then its main action, loses its timer: the house bug in the report)."""
    for _ in range(50):
        game = await sim.game()
        if game.status != "active" or game.state["active"] in members:
            return
        await sim.house.ai_move(game.id, game.state["active"])
        await sim.settle()
    raise AssertionError("the AI seats did not stop moving")


async def fast_forward(sim, limit: int = 4000) -> None:
    """Every seat, humans too, plays the seat-filler's moves until the game ends."""
    for _ in range(limit):
        game = await sim.game()
        if game.status != "active":
            return
        await sim.house.ai_move(game.id, game.state["active"])
        await sim.settle()
    raise AssertionError("the game did not end")


PRIVATE_MARKS = ("Your stocks", "You hold", "💵", "subsidies 0/", "subsidies 1/", "You take", "You pay",
                 "You exchange", "owed interest (still owed", "Only you see this")


def assert_channel_private(sim, sentinels: tuple[str, ...] = ()) -> None:
    """Nothing of a seat's private panel in the channel: no purse line, holdings line, private
    event (subsidy taken, interest paid, gold exchanged), nor the planted sentinel amounts."""
    text = channel_text(sim)
    for mark in PRIVATE_MARKS + sentinels:
        assert mark not in text, f"{mark!r} shown in the channel"


def adjustment_messages(sim) -> list[str]:
    """Narration messages (not the table embed) that tell of a price adjustment."""
    return [m.content for m in sim.channel.history() if "📉 **Price adjustment**" in (m.content or "")]


ADJUST = re.compile(r"▸ 📉 \*\*Price adjustment\*\*: (the (buy|silver) table is full|"
                    r"only [45] briefcases are left on sell table [123])\.")
DRAW = re.compile(r"▸ .+ draws [🟨🟦🟥🟩🟧⬛ ]+"
                  r"( · ⚫ one black briefcase \(it goes back into the bag\)\.| · 💥 \*\*crash!\*\* \d+ black .+)?")
MOVE = re.compile(r"^▸ .+ (buys|sells|passes|uses their special card|takes a subsidy)")
PRICES = re.compile(r"▸ New prices: 🟨 \$\d+→\$\d+ [▲▼=] · 🟦 .+ · 🟥 .+ · 🟩 .+ · 🟧 \$\d+→\$\d+ [▲▼=]")


def check_adjustment(message: str) -> None:
    """A price adjustment is narrated in a few lines: its trigger, interest debts if any, the
    draw with its black briefcases, the new prices, then the sell table, rises of missing
    colours, silver and the level, as they happen."""
    lines = message.split("\n")
    i = next(i for i, line in enumerate(lines) if "📉" in line)
    assert ADJUST.fullmatch(lines[i]), lines[i]
    rest = [line for line in lines[i + 1:] if not line.startswith(("🔔", "⏰"))]
    while rest and rest[0].startswith("▸ ⚠️"):
        rest.pop(0)
    assert DRAW.fullmatch(rest[0]), rest[0]
    assert PRICES.fullmatch(rest[1]), rest[1]
    # The turn message goes on with the moves after the adjustment: the adjustment ends there.
    block = next((rest[:k] for k, line in enumerate(rest) if MOVE.search(line)), rest)
    assert len(block) <= 8, message
