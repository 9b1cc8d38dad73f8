"""I'm the Boss!: the printed rules of issue 14 (#1-#3), through the engine contract.
Ann, Bob, Cal, Dot are seats 0, 1, 2, 3 (clockwise)."""

from __future__ import annotations

from engine.core import SYSTEM
from engine.imtheboss import GAME
from engine.imtheboss import data as D
from engine.imtheboss.data import kind
from tests.support.imtheboss_state import act, all_pass, force_die, make, refused, types

ANN, BOB, CAL, DOT = 0, 1, 2, 3


def _to_discard(st: dict, k: str, keep: int = 0) -> None:
    """Move every card of kind `k` from the draw pile to the discard pile, but `keep`."""
    cards = [c for c in st["draw"] if kind(c) == k]
    for c in cards[keep:]:
        st["draw"].remove(c)
        st["discard"].append(c)


# -- #1: a deal is never failed while it can still be completed -----------------------------------

def test_spare_placard_is_reachable_by_recruits_so_the_deal_stays_open():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10)  # space 10 needs R B O; orange is a spare
    _to_discard(st, "clan-orange")
    ev = act(st, ANN, type="deal_here")
    assert "deal_failed" not in types(ev) and st["phase"] == "deal"
    # the boss declares failure when they choose to (JA 3-3)
    ev = act(st, ANN, type="fail")
    assert {"type": "deal_failed", "seat": ANN, "space": 10, "reason": "boss"} in ev


def test_spare_is_dead_once_fewer_than_three_recruits_are_unseen():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10)
    _to_discard(st, "clan-orange")
    _to_discard(st, "recruit", keep=3)
    assert "deal_failed" not in types(act(st, ANN, type="deal_here"))
    st = make(4, {"red": ANN, "blue": ANN}, marker=10)
    _to_discard(st, "clan-orange")
    _to_discard(st, "recruit", keep=2)
    assert "deal_failed" in types(act(st, ANN, type="deal_here"))


def test_two_spares_need_two_triples():
    # space 14 needs M and O; both placards are spares and all their clan cards are gone
    st = make(4, {"red": ANN, "blue": BOB, "yellow": CAL, "green": DOT}, marker=14)
    _to_discard(st, "clan-magenta")
    _to_discard(st, "clan-orange")
    _to_discard(st, "recruit", keep=5)
    assert "deal_failed" in types(act(st, ANN, type="deal_here"))
    st = make(4, {"red": ANN, "blue": BOB, "yellow": CAL, "green": DOT}, marker=14)
    _to_discard(st, "clan-magenta")
    _to_discard(st, "clan-orange")
    _to_discard(st, "recruit", keep=6)
    assert st["phase"] == "turn_start"
    act(st, ANN, type="deal_here")
    assert st["phase"] == "deal"


def test_recruiting_the_spare_completes_the_deal():
    st = make(4, {"red": ANN, "blue": ANN}, marker=10, hands={BOB: ["recruit"] * 3})
    _to_discard(st, "clan-orange")
    act(st, ANN, type="deal_here")
    act(st, BOB, type="recruit", clan="orange")
    all_pass(st, BOB)
    assert st["phase"] == "deal" and st["placards"][D.CIDX["orange"]] == BOB
    act(st, BOB, type="offer", src="placard:orange", ask={"usd": 1})
    act(st, ANN, type="accept", offer=st["deal"]["offers"][0]["id"])
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"][BOB] == 1


# -- #2: a laid clan card that took no part goes back to its owner's hand ---------------------------

def test_boss_clan_card_overtaken_by_a_recruited_placard_returns():
    # space 6: {R B}x1, {Y M}x1, {O G}x1. Ann owns Y and O; red is a spare.
    st = make(4, {"yellow": ANN, "orange": ANN, "magenta": BOB, "green": CAL}, marker=6,
              hands={ANN: ["clan-blue", "recruit", "recruit", "recruit"]})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="play_clan", clan="blue")  # laid for "1 of red/blue"
    act(st, ANN, type="recruit", clan="red")
    all_pass(st, ANN)
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert [kind(c) for c in st["hands"][ANN]] == ["clan-blue"]
    assert not any(kind(c) == "clan-blue" for c in st["discard"])


def test_boss_clan_card_that_fills_the_slot_is_discarded():
    st = make(4, {"yellow": ANN, "orange": ANN, "magenta": BOB, "green": CAL}, marker=6,
              hands={ANN: ["clan-blue"]})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="play_clan", clan="blue")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["hands"][ANN] == [] and any(kind(c) == "clan-blue" for c in st["discard"])


def test_boss_clan_card_in_an_overfilled_pool_returns():
    # space 0: R B Y + 2 of {M O G}. Ann owns R B Y M O; her green card is one too many.
    st = make(4, {"red": ANN, "blue": ANN, "yellow": ANN, "magenta": ANN, "orange": ANN}, marker=0,
              hands={ANN: ["clan-green"]})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="play_clan", clan="green")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert [kind(c) for c in st["hands"][ANN]] == ["clan-green"]


# -- #3: hand limit 10 from the 10th deal cuts what players hold ------------------------------------

def _late(hands: dict) -> dict:
    st = make(4, {"red": ANN, "orange": ANN, "blue": BOB, "yellow": CAL}, marker=3, top=9, hands=hands,
              opts={"hand_limit_10_late": True})
    assert GAME.view(st, None)["hand_limit"] == 12
    return st


def test_limit_in_force_cuts_every_hand_above_ten_at_once():
    st = _late({BOB: ["boss"] * 6 + ["stop"] * 6, DOT: ["recruit"] * 11,
                CAL: ["clan-green"] * 4 + ["clan-magenta"] * 4 + ["travel-grey"] * 2})
    act(st, ANN, type="deal_here")  # space 3 needs R O: Ann's own
    act(st, ANN, type="close")
    ev = []
    for s in (BOB, CAL, DOT):
        ev += act(st, s, type="pass")
    assert st["covered"][3] == 9 and GAME.view(st, None)["hand_limit"] == 10
    assert st["phase"] == "discard" and st["active"] == BOB
    assert {"type": "over_limit", "seat": BOB, "count": 2, "limit": 10} in ev
    assert GAME.to_act(st) == [BOB]
    refused(st, CAL, "not_your_turn", type="discard", cards=st["hands"][CAL][:1])
    act(st, BOB, type="discard", cards=st["hands"][BOB][:2])
    # Cal holds 10: untouched; Dot next
    assert st["phase"] == "discard" and st["active"] == DOT
    act(st, DOT, type="discard", cards=st["hands"][DOT][:1])
    # then the turn goes on as after any deal: the boss's left
    assert st["phase"] == "turn_start" and st["active"] == BOB
    assert [len(h) for h in st["hands"]][1:] == [10, 10, 10]


def test_cut_may_play_a_recruit_triple_first():
    st = _late({BOB: ["recruit"] * 3 + ["boss"] * 8})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["phase"] == "discard" and st["active"] == BOB
    assert {"type": "recruit", "clan": "magenta"} in GAME.legal(st, BOB)
    act(st, BOB, type="recruit", clan="magenta")
    all_pass(st, BOB)
    assert len(st["hands"][BOB]) == 8 and st["placards"][D.CIDX["magenta"]] == BOB
    assert st["phase"] == "turn_start" and st["active"] == BOB


def test_cut_timeout_discards_for_the_absent_seat():
    st = _late({CAL: ["recruit"] * 13})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["phase"] == "discard" and st["active"] == CAL
    win = [w for w in GAME.windows(st) if w.kind == "discard"]
    assert win and win[0].seats == (CAL,)
    act(st, SYSTEM, type="timeout", id=win[0].id)
    assert len(st["hands"][CAL]) == 10 and st["phase"] == "turn_start" and st["active"] == BOB


def test_no_cut_without_the_variant_or_before_the_tenth_card():
    st = make(4, {"red": ANN, "orange": ANN}, marker=3, top=9, hands={BOB: ["recruit"] * 12})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["phase"] == "turn_start" and len(st["hands"][BOB]) == 12
    st = make(4, {"red": ANN, "orange": ANN}, marker=3, top=8, hands={BOB: ["recruit"] * 12},
              opts={"hand_limit_10_late": True})
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["phase"] == "turn_start" and len(st["hands"][BOB]) == 12


def test_cut_waits_for_the_die_and_not_when_the_game_ends():
    st = make(4, {"red": ANN, "orange": ANN}, marker=3, top=10, hands={BOB: ["recruit"] * 12},
              opts={"hand_limit_10_late": True})
    force_die(st, 1)  # card 10's back is 1: the game ends, nobody cuts
    act(st, ANN, type="deal_here")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["over"]
