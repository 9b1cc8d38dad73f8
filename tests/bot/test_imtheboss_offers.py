"""I'm the Boss! through the bot (SimCord): with 29 offers waiting, the boss's panel reaches
every one of them (issue 14 #4): the first as lines with Accept beside them, the rest in the
answers select, which the house splits into pages of 25; an answer on a later page applies."""

from __future__ import annotations

import json

from cogs.kit import codec
from tests.bot.test_imtheboss import choose, find
from tests.support.sim import components_of, text_of
from tests.unit.test_imtheboss_offers import many_offers_state

NAMES = ("ann", "bob", "cal", "dot", "eve", "fay")


def _answers(message) -> dict[str, list[dict]]:
    """Every accept/decline on the message, by the custom_id that sends it."""
    out: dict[str, list[dict]] = {}
    for c in components_of(message):
        parsed = codec.parse(c.custom_id or "")
        if parsed is None or not parsed.code.startswith("x"):
            continue
        if getattr(c, "options", None):
            out[c.custom_id] = [json.loads(o.value) for o in c.options]
        elif "|" in parsed.code:
            out[c.custom_id] = [json.loads(parsed.code.partition("|")[2])]
    return {k: [a for a in v if a["type"] in ("accept", "decline")] for k, v in out.items()}


async def test_the_boss_reaches_every_one_of_29_offers(sim):
    members = [sim.player(name) for name in NAMES]
    ann = members[0]
    await sim.start(ann, "imtheboss", others=members[1:])
    built = many_offers_state()

    def arrange(s):
        s.clear()
        s.update(built)

    await sim.arrange(arrange)
    panel = await sim.hand(ann)
    found = _answers(panel)
    everything = [a for acts in found.values() for a in acts]
    offers = built["deal"]["offers"]
    assert len(offers) == 29
    for o in offers:
        assert {"type": "decline", "offer": o["id"]} in everything or {"type": "accept", "offer": o["id"]} \
            in everything, o
        if o["clan"] != "red":  # Ann's own placard covers red: those offers can only be declined
            assert {"type": "accept", "offer": o["id"]} in everything, o
    pages = [cid for cid, acts in found.items() if len(acts) > 1]
    assert len(pages) >= 2 and all(len(found[cid]) <= 25 for cid in pages)
    last = max(o["id"] for o in offers if o["clan"] != "red")
    page = next(cid for cid in pages if {"type": "accept", "offer": last} in found[cid])
    assert page != pages[0]  # a later page of the split select
    select = next(c for c in components_of(panel) if c.custom_id == page)
    value = next(o.value for o in select.options if json.loads(o.value) == {"type": "accept", "offer": last})
    await choose(sim, ann, panel, [value], code=codec.parse(page).code)
    st = (await sim.game()).state
    assert next(o for o in st["deal"]["offers"] if o["id"] == last)["state"] == "accepted"
    assert find(panel, prefix="Answer an offer")


async def test_an_offer_for_a_covered_clan_says_so_not_that_it_costs_too_much(sim):
    """Issue 28 #6: Ann's own placard covers red, so an offer of a red investor cannot be
    accepted; its line said "more than the $...M you can still promise" for a $0 offer. It says
    the rules' own reason, in each language."""
    members = [sim.player(name) for name in NAMES]
    ann = members[0]
    await sim.start(ann, "imtheboss", others=members[1:])
    built = many_offers_state()
    # The red offers first, so they are the lines with a button beside them.
    built["deal"]["offers"].sort(key=lambda o: o["clan"] != "red")

    def arrange(s):
        s.clear()
        s.update(built)

    await sim.arrange(arrange)
    text = text_of(await sim.hand(ann))
    red = [line for line in text.splitlines() if "$0M" in line and "Red" in line and "Offers:" not in line]
    assert red, text
    assert all("Red already takes part in this deal" in line for line in red), red
    assert "you can still promise" not in text
