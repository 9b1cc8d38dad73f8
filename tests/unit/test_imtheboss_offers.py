"""I'm the Boss!: the boss can answer every open offer from the panel, however many wait
(issue 14 #4): the first few are lines with their button beside them (Components V2 Sections),
every other answer is in a select the house splits by 25, never cut."""

from __future__ import annotations

import json

from cogs.titles.imtheboss.ui import UI
from cogs.kit.layout import split_select
from cogs.kit.panel import Select
from engine.imtheboss import GAME
from engine.imtheboss.data import CLANS, kind
from tests.unit.test_imtheboss_ui import check_panel, pc_for

ui = UI()


def many_offers_state() -> dict:
    """6 players; Ann (0) is boss on space E (5 of all six clans); every other player owns a
    placard, lays every clan card it holds (all 24 are dealt to them) and offers each of its
    investors for $0: 29 offers wait for Ann."""
    state = GAME.setup(6, 1, {})
    state["placards"] = list(range(6))  # red Ann, blue Bob, yellow Cal, magenta Dot, orange Eve, green Fay
    pool = state["draw"] + [c for h in state["hands"] for c in h] + state["discard"]
    hands: list[list[str]] = [[] for _ in range(6)]
    for i, clan in enumerate(CLANS):
        cards = sorted(c for c in pool if kind(c) == f"clan-{clan}")
        seats = [s for s in range(1, 6) if s != i % 5 + 1]  # four of the five others
        for seat, card in zip(seats, cards):
            hands[seat].append(card)
            pool.remove(card)
    state.update(hands=hands, draw=pool, discard=[], phase="turn_start", active=0, marker=4,
                 timer={"id": "turn:90", "kind": "turn"})
    GAME.apply(state, 0, {"type": "deal_here"})
    for seat in range(1, 6):
        for card in list(state["hands"][seat]):
            GAME.apply(state, seat, {"type": "play_clan", "clan": kind(card)[5:]})
        for s in [s for s in GAME.view(state, seat)["deal"]["sources"] if s["owner"] == seat]:
            GAME.apply(state, seat, {"type": "offer", "src": s["src"], "ask": {"usd": 0}})
    return state


def answers_on(panel) -> list[dict]:
    """Every accept/decline a click on this panel can send (split selects included)."""
    out = [json.loads(s.button.code.partition("|")[2]) for s in panel.sections]
    for c in panel.components:
        if isinstance(c, Select) and c.code.startswith("x"):
            for part in split_select(c):
                assert len(part.options) <= 25
                out += [a for a in (json.loads(o.value) for o in part.options) if a["type"] in ("accept", "decline")]
    return out


def test_every_one_of_29_offers_can_be_accepted_or_declined():
    state = many_offers_state()
    assert len(state["deal"]["offers"]) == 29
    pc = pc_for(state, 0)
    panel = ui.panel(pc)
    check_panel(panel, pc)
    legal = [a for a in pc.legal if a["type"] in ("accept", "decline")]
    got = answers_on(panel)
    assert len(got) == len(legal) and all(a in got for a in legal)
    # the last offer's accept sits in a later page of the split select, and a click applies it
    last = max(o["id"] for o in state["deal"]["offers"] if o["clan"] != "red")
    select = next(c for c in panel.components if isinstance(c, Select) and c.code.startswith("x"))
    page = next(p for p in split_select(select) if any(json.loads(o.value) == {"type": "accept", "offer": last}
                                                          for o in p.options))
    assert page.code.endswith("~1") or page.code.endswith("~2")
    reply = ui.on_component(pc, select.code, [json.dumps({"type": "accept", "offer": last})])
    assert reply.action == {"type": "accept", "offer": last}


def test_every_travel_target_is_reachable_with_many_sources():
    state = many_offers_state()
    grey = next(c for c in state["draw"] if kind(c) == "travel-grey")
    state["draw"].remove(grey)
    state["hands"][0].append(grey)
    pc = pc_for(state, 0)
    travels = [a for a in pc.legal if a["type"] == "travel"]
    assert len(travels) > 25
    panel = ui.panel(pc)
    check_panel(panel, pc)
    reachable = []
    for c in panel.components:
        if isinstance(c, Select) and c.code.startswith("x"):
            reachable += [json.loads(o.value) for o in c.options]
        elif isinstance(c, Select) and c.code.startswith("tv"):
            reachable += [a for a in travels if a["src"] in {o.value for o in c.options}]
    assert all(a in reachable for a in travels)
