"""I'm the Boss!: the panel reaches the rules of issue 14: a deal still completable by recruiting
a spare stays open with Give up and the recruit select on the panel (#1); when the late hand
limit comes into force, the player above it gets the discard form with the recruit choice, and
the others see whom they wait for (#3)."""

from __future__ import annotations

from engine.imtheboss.data import kind
from tests.engine.test_imtheboss_issue14 import _late
from tests.support.imtheboss_state import act, all_pass, make
from tests.unit.test_imtheboss_ui import check_panel, pc_for, reachable_types, ui

ANN, BOB, CAL, DOT = 0, 1, 2, 3


def test_a_deal_waiting_for_a_recruited_spare_offers_give_up_and_recruit():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10, hands={BOB: ["recruit"] * 3})
    for c in [c for c in st["draw"] if kind(c) == "clan-orange"]:
        st["draw"].remove(c)
        st["discard"].append(c)
    act(st, ANN, type="deal_here")
    boss = pc_for(st, ANN)
    panel = ui.panel(boss)
    check_panel(panel, boss)
    assert "fail" in reachable_types(panel, boss)
    bob = pc_for(st, BOB)
    panel = ui.panel(bob)
    assert {"recruit", "pass"} <= reachable_types(panel, bob)


def test_the_cut_panel_when_the_late_limit_comes_into_force():
    st = _late({BOB: ["recruit"] * 3 + ["boss"] * 8})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["phase"] == "discard" and st["active"] == BOB
    bob = pc_for(st, BOB)
    panel = ui.panel(bob)
    check_panel(panel, bob)
    assert {"discard", "recruit"} <= reachable_types(panel, bob)
    assert "10" in panel.description
    cal = pc_for(st, CAL)
    assert "Bob" in ui.panel(cal).description
    assert ui.todo(cal.t, ui.game.view(st, None), BOB) == "discard down to 10 cards"
