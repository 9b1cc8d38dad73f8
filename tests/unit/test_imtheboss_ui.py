"""The I'm the Boss! panel drawn straight from real states (no Discord): every seat's panel at
every step of AI games fits Discord's limits, shows no raw keys, offers every legal action type
and never shows another player's exact money; clicks map to the right actions."""

from __future__ import annotations

import json
import random

import pytest

from cogs.titles.imtheboss.ui import UI, ctx_key
from cogs.kit import codec
from cogs.kit.panel import Apply, Ask, Button, Refuse, Select, Show
from cogs.titles.contract import PanelContext, TableContext
from cogs.kit.layout import split_select
from cogs.kit.views import rows_needed
from engine.core import SYSTEM, copy_json
from engine.imtheboss import GAME
from locales import Translator

NAMES = ["Ann", "Bob", "Cal", "Dot", "Eve", "Fay"]
ui = UI()


def pc_for(state, seat, lang="en", version=7):
    return PanelContext(game_id=1, version=version, seat=seat, view=GAME.view(state, seat),
                        legal=GAME.legal(state, seat), t=Translator(lang), names=NAMES[:state["n"]], title="imtheboss")


def tc_for(state, lang="en"):
    return TableContext(1, 7, GAME.view(state, None), Translator(lang), NAMES[:state["n"]], "imtheboss")


def v2_components(panel) -> int:
    """What the panel costs of a Components V2 message's 40 components, as the house lays it out
    (cogs/kit/layout.py): container, heading, picture, fields, a Section (text and button)
    per acted-on thing, separator, then each action row with its items, selects split by 25."""
    expanded = [x for c in panel.components for x in (split_select(c) if isinstance(c, Select) else [c])]
    return 3 + len(panel.fields) + 3 * len(panel.sections) + 1 + rows_needed(expanded) + len(expanded)


def check_panel(panel, pc):
    assert v2_components(panel) <= 40, [getattr(c, "label", None) or c.placeholder for c in panel.components]
    text = panel.title + panel.description + "".join(n + v for n, v, _ in panel.fields)
    text += "".join(s.text for s in panel.sections)
    assert "imtheboss." not in text and "{" not in text, text
    assert len(panel.description) <= 4096
    for c in [*panel.components, *(s.button for s in panel.sections)]:
        cid = codec.make("bs" if isinstance(c, Select) else "br", 123456, None if c.any_version else 99999, c.code)
        assert len(cid) <= 100
        if isinstance(c, Select):
            assert 1 <= len(c.options) and len(c.placeholder) <= 150
            assert len(c.options) <= 25 or c.max_values == 1  # the house splits a single choice by 25
            assert len({o.value for o in c.options}) == len(c.options)
            for o in c.options:
                assert len(o.label) <= 100 and len(o.value) <= 100
                assert "imtheboss." not in o.label + (o.description or "")
        else:
            assert len(c.label) <= 80 and "imtheboss." not in c.label
    return text


def reachable_types(panel, pc):
    """Action types a player can reach from this panel (following selects and sub-menus)."""
    found = set()
    for c in [*panel.components, *(s.button for s in panel.sections)]:
        if isinstance(c, Select):
            if c.code == "act":
                found |= {codec.decode_action(o.value, pc.legal)["type"] for o in c.options}
            elif c.code.startswith("x"):
                found |= {json.loads(o.value)["type"] for o in c.options}
            elif c.code.startswith("of"):
                found.add("offer")
            elif c.code.startswith("tv"):
                found.add("travel")
            elif c.code.startswith("cu"):
                found.add("close")
            elif c.code == "ds":
                found.add("discard")
        else:
            if codec.is_action_code(c.code):
                found.add(codec.decode_action(c.code, pc.legal)["type"])
            elif c.code.startswith("x"):
                found.add(json.loads(c.code.partition("|")[2])["type"])
            elif c.code.startswith("w"):
                found.add("stop" if c.code.endswith("|s") else "pass")
    return found


def play(n, seed, options=None, steps=900):
    """An AI game, yielding the state before every move."""
    state = GAME.setup(n, seed, options or {})
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        yield state
        moved = False
        for seat in rng.sample(range(n), n):
            legal = GAME.legal(state, seat)
            if not legal:
                continue
            action = GAME.ai_action(GAME.view(state, seat), legal, rng)
            if action is None:
                continue
            GAME.apply(state, seat, action)
            moved = True
            break
        if not moved:
            windows = GAME.windows(state)
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": windows[-1].id})


@pytest.mark.parametrize("n,seed,options", [(4, 3, {}), (2, 5, {}), (5, 11, {"less_cutthroat": True}),
                                            (3, 8, {"draw_by_placards": True, "no_deal_at_3": True})])
def test_every_panel_fits_and_offers_every_legal_type(n, seed, options):
    seen_types = set()
    for i, state in enumerate(play(n, seed, options)):
        for seat in range(n):
            lang = "ja" if (i + seat) % 3 == 0 else "en"
            pc = pc_for(state, seat, lang)
            panel = ui.panel(pc)
            check_panel(panel, pc)
            legal_types = {a["type"] for a in pc.legal}
            got = reachable_types(panel, pc)
            assert legal_types <= got, (state["phase"], legal_types - got)
            seen_types |= legal_types
        tc = tc_for(state, "ja" if i % 2 else "en")
        lines = ui.table_lines(tc)
        assert all("imtheboss." not in x and "{" not in x for x in lines), lines
        for seat in range(state["n"]):
            todo = ui.todo(tc.t, tc.view, seat)
            assert todo is None or "imtheboss." not in todo
    assert {"pass", "close", "marker"} <= seen_types and len(seen_types) >= 8, seen_types


def test_table_lines_never_show_exact_money():
    for state in play(4, 21):
        if state["phase"] != "deal":
            continue
        text = "\n".join(ui.table_lines(tc_for(state)))
        assert "money" not in text.lower()


def _deal_state():
    """4 players, Ann (0) boss on space 10 (R B O), Bob owns orange and offers it."""
    state = GAME.setup(4, 1, {})
    state["placards"] = [0, 0, None, 2, 1, 3]  # red, blue -> Ann; magenta Cal; orange Bob; green Dot
    state["phase"] = "turn_start"
    state["active"] = 0
    state["marker"] = 10
    state["timer"] = {"id": "turn:9", "kind": "turn"}
    GAME.apply(state, 0, {"type": "deal_here"})
    return state


def test_offer_select_opens_a_modal_and_the_modal_makes_the_offer():
    state = _deal_state()
    pc = pc_for(state, 1)
    panel = ui.panel(pc)
    select = next(c for c in panel.components if isinstance(c, Select) and c.code.startswith("of"))
    assert [o.value for o in select.options] == ["placard:orange"]
    reply = ui.on_component(pc, select.code, ["placard:orange"])
    assert isinstance(reply, Ask) and reply.modal.code == "om|placard:orange"
    assert isinstance(ui.on_modal(pc, "om|placard:orange", {"usd": "", "div": "１"}), Apply)
    assert ui.on_modal(pc, "om|placard:orange", {"usd": "", "div": "1"}).action == \
        {"type": "offer", "src": "placard:orange", "ask": {"div": 1}}
    assert ui.on_modal(pc, "om|placard:orange", {"usd": "$5", "div": ""}).action["ask"] == {"usd": 5}
    assert isinstance(ui.on_modal(pc, "om|placard:orange", {"usd": "3", "div": "1"}), Refuse)
    assert isinstance(ui.on_modal(pc, "om|placard:orange", {"usd": "", "div": ""}), Refuse)
    assert ui.on_modal(pc, "om|placard:orange", {"usd": "-3", "div": ""}).key == "error.bad_ask"


def test_boss_buttons_survive_other_moves_but_not_a_new_boss():
    state = _deal_state()
    GAME.apply(state, 1, {"type": "offer", "src": "placard:orange", "ask": {"usd": 3}})
    pc = pc_for(state, 0)
    panel = ui.panel(pc)
    section = next(s for s in panel.sections if '"accept"' in s.button.code)
    accept = section.button
    assert accept.any_version and "Bob" in accept.label and "$3M" in section.text
    # another move (Cal lays nothing; Bob re-offers at the same price keeps the id? no: new id)
    later = copy_json(state)
    reply = ui.on_component(pc_for(later, 0), accept.code, [])
    assert isinstance(reply, Apply) and reply.action == {"type": "accept", "offer": 1}
    # after a boss change the old key is stale
    later["deal"]["dl"] = "deal:99"
    reply = ui.on_component(pc_for(later, 0), accept.code, [])
    assert isinstance(reply, Show) and "earlier moment" in reply.panel.description


def test_reaction_window_looks_alike_except_the_private_stop():
    state = _deal_state()
    # Cal holds a stop, Dot does not; Bob plays a travel on Ann's blue placard
    def give(seat, k):
        for pile in [state["draw"], state["discard"]] + [h for i, h in enumerate(state["hands"]) if i != seat]:
            card = next((c for c in pile if c.rsplit("-", 1)[0] == k), None)
            if card:
                pile.remove(card)
                state["hands"][seat].append(card)
                return card
        raise AssertionError(k)

    for seat in (2, 3):
        state["hands"][seat] = [c for c in state["hands"][seat] if not c.startswith("stop")]
    give(1, "travel-grey")
    give(2, "stop")
    GAME.apply(state, 1, {"type": "travel", "color": "grey", "src": "placard:blue"})
    cal, dot = ui.panel(pc_for(state, 2)), ui.panel(pc_for(state, 3))
    assert cal.description == dot.description
    assert [c.code for c in cal.components if isinstance(c, Button)] == [
        f"w{state['window']['id']}|p", f"w{state['window']['id']}|s", "rf"]
    assert [c.code for c in dot.components if isinstance(c, Button)] == [f"w{state['window']['id']}|p", "rf"]
    tc = tc_for(state)
    assert [b.code for b in ui.table_buttons(tc)] == [f"w{state['window']['id']}|p"]
    # a click on an answered window shows the current panel
    key = ctx_key(GAME.view(state, 2))
    GAME.apply(state, 2, {"type": "pass"})
    GAME.apply(state, 3, {"type": "pass"})
    GAME.apply(state, 0, {"type": "pass"})
    reply = ui.on_component(pc_for(state, 2), f"w{key}|s", [])
    assert isinstance(reply, Show)
