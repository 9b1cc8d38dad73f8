"""The E-Wars panel drawn straight from real states (no Discord): at every step of AI games,
every seat's panel (English and Japanese) fits Discord's limits, shows no raw keys, offers
every legal action (each claimable card, each rank for each owed card), and its codes map
back to exactly those actions; table lines and narration of every event read well and never
name a face-down employee's rank before the reveal."""

from __future__ import annotations

import random

import pytest

from cogs.ewars import UI
from cogs.shared import codec
from cogs.shared.panel import Apply, Button, Select, Show
from cogs.shared.titles import PanelContext, TableContext
from cogs.shared.views import rows_needed
from engine.core import SYSTEM
from engine.ewars import GAME
from locales import Translator

NAMES = ["Ann", "Bob", "Cal", "Dot"]
ui = UI()


def pc_for(state, seat, lang="en", version=7):
    return PanelContext(game_id=1, version=version, seat=seat, view=GAME.view(state, seat),
                        legal=GAME.legal(state, seat), t=Translator(lang), names=NAMES[:state["n"]], title="ewars")


def tc_for(state, lang="en"):
    return TableContext(1, 7, GAME.view(state, None), Translator(lang), NAMES[:state["n"]], "ewars")


def check_panel(panel) -> str:
    assert len(panel.components) <= 25 and rows_needed(panel.components) <= 5
    text = panel.title + panel.description + "".join(n + v for n, v, _ in panel.fields)
    assert "ewars." not in text and "{" not in text, text
    assert len(panel.description) <= 4096 and all(len(v) <= 1024 for _, v, _ in panel.fields)
    for c in panel.components:
        assert len(c.code) < 60
        cid = codec.make("bs" if isinstance(c, Select) else "br", 123456, None if c.any_version else 99999, c.code)
        assert len(cid) <= 100
        if isinstance(c, Select):
            assert 1 <= len(c.options) <= 25 and len(c.placeholder) <= 150
            for o in c.options:
                assert len(o.label) <= 100 and "ewars." not in o.label + (o.description or "")
        else:
            assert 0 < len(c.label) <= 80 and "ewars." not in c.label
    return text


def reachable(panel, pc) -> list[dict]:
    """The actions the panel's components apply (clicking each button, each select option)."""
    out = []
    for c in panel.components:
        if isinstance(c, Select):
            for o in c.options:
                reply = ui.on_component(pc, c.code, [o.value])
                assert isinstance(reply, Apply), (c.code, o.value, reply)
                out.append(reply.action)
        elif codec.is_action_code(c.code):
            out.append(codec.decode_action(c.code, pc.legal))
        elif c.code != "f":
            reply = ui.on_component(pc, c.code, [])
            if isinstance(reply, Apply):
                out.append(reply.action)
    return out


def play(n, seed, steps=3000):
    """An AI game, yielding the state before every move (seats take turns, like a busy table)."""
    state = GAME.setup(n, seed, GAME.resolve_options(n, {}))
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        yield state
        for seat in rng.sample(range(n), n):
            legal = GAME.legal(state, seat)
            if legal:
                GAME.apply(state, seat, GAME.ai_action(GAME.view(state, seat), legal, rng))
                break
        else:
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": GAME.windows(state)[0].id})
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("n,seed", [(3, 4), (4, 9), (2, 2)])
def test_every_panel_fits_and_offers_exactly_the_legal_actions(n, seed):
    phases = set()
    for i, state in enumerate(play(n, seed)):
        if i % 3:  # every third state keeps this quick; the phases all come up many times
            continue
        phases.add(state["phase"])
        for seat in range(n):
            pc = pc_for(state, seat, "ja" if (i + seat) % 2 else "en")
            panel = ui.panel(pc)
            check_panel(panel)
            got = reachable(panel, pc)
            legal = pc.legal
            assert all(a in legal for a in got), (state["phase"], got, legal)
            assert all(a in got for a in legal), (state["phase"], [a for a in legal if a not in got])
            if state["phase"] in ("dice", "dispatch"):
                assert panel.image is not None
        tc = tc_for(state, "ja" if i % 2 else "en")
        lines = ui.table_lines(tc)
        buttons = ui.table_buttons(tc)
        assert all("ewars." not in x and "{" not in x for x in lines), lines
        if state["phase"] == "dice":
            assert {b.code.split(":")[0] for b in buttons} == {"r", "b"} and all(b.any_version for b in buttons)
        for seat in range(state["n"]):
            todo = ui.todo(tc.t, tc.view, seat)
            assert todo is None or "ewars." not in todo
    assert phases == {"await_start", "dice", "dispatch"}


def test_narration_of_a_whole_game_and_no_rank_before_the_reveal():
    state = GAME.setup(3, 6, GAME.resolve_options(3, {}))
    rng = random.Random(6)
    seen = set()
    ranks_en = [Translator("en")(f"ewars.rank.{r}") for r in ("star", "executive", "manager", "section_chief",
                                                                "subsection_chief", "staff")]
    while GAME.outcome(state) is None:
        for seat in rng.sample(range(3), 3):
            legal = GAME.legal(state, seat)
            if legal:
                events = GAME.apply(state, seat, GAME.ai_action(GAME.view(state, seat), legal, rng))
                break
        for ev in events:
            if ev.get("to") is not None:
                continue
            seen.add(ev["type"])
            for lang in ("en", "ja"):
                line = ui.narrate(Translator(lang), ev, NAMES[:3])
                if ev["type"] == "rolled":
                    assert line is None  # dice are on the table; a roll is noise
                    continue
                assert line and "ewars." not in line and "{" not in line, (ev, line)
                if ev["type"] in ("placed", "dispatch_start", "auto_placed") and lang == "en":
                    assert not any(r in line for r in ranks_en), line
    assert {"dice_time", "claimed", "bell", "dispatch_start", "placed", "revealed", "acquired",
            "next_round", "game_over"} <= seen


def test_race_loser_and_late_clicks_get_a_fresh_panel_saying_why():
    state = GAME.setup(3, 7, GAME.resolve_options(3, {}))
    GAME.apply(state, state["parent"], {"type": "ring_bell"})
    # find a card two seats can both claim, let one take it, then the other clicks
    rng = random.Random(1)
    for _ in range(200):
        a, b = 0, 1
        common = sorted(set(pc_for(state, a).view["private"]["claimable"])
                        & set(pc_for(state, b).view["private"]["claimable"]))
        if common:
            break
        GAME.apply(state, rng.choice((a, b)), {"type": "roll"})
    else:
        raise AssertionError("no common card")
    pos = common[0]
    panel_b = ui.panel(pc_for(state, b))
    claim = next(c for c in panel_b.components if isinstance(c, Button) and c.code == f"c:1:{pos}")
    assert claim.any_version and pos in claim.label
    GAME.apply(state, a, {"type": "claim", "pos": pos})
    reply = ui.on_component(pc_for(state, b), claim.code, [])
    assert isinstance(reply, Show) and f"Someone already claimed {pos}" in reply.panel.description
    assert not any(isinstance(c, Button) and c.code == f"c:1:{pos}" for c in reply.panel.components)
    # the bell rings: a late Roll gets "dice time is over" and the dispatch panel
    GAME.apply(state, 2, {"type": "ring_bell"})
    reply = ui.on_component(pc_for(state, b), "r:1", [])
    assert isinstance(reply, Show) and "Dice time is over" in reply.panel.description
    # a click from an earlier round is stale, not a move in this one
    reply = ui.on_component(pc_for(state, b), "b:0", [])
    assert isinstance(reply, Show) and "earlier moment" in reply.panel.description
