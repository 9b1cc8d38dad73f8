"""I'm the Boss!, the 2-player rules (JA section 6) and the "less cutthroat" variant that uses them
(issue 26): the boss MAY use the rival's investor, paying a share, or lay her own clan card for
that clan instead (JA 3-1: a clan card stands in for an investor). Both are legal; she chooses."""

from __future__ import annotations

import pytest

from engine.imtheboss import GAME
from engine.imtheboss.data import kind
from tests.support.imtheboss_state import ANN, BOB, CAL, act, all_pass, make, refused

#: Space 3 needs red and orange (2 investors, 3 dividends); deal card #1 is worth $2M a
#: dividend, so P = $6M and a foreign investor used is paid floor(6 / 2) = $3M.
SPACE, TOP = 3, 1


def _deal(n: int) -> dict:
    placards = {"red": ANN, "orange": BOB}
    opts = {"less_cutthroat": True} if n > 2 else {}
    st = make(n, placards, hands={ANN: ["clan-orange", "clan-red"]}, marker=SPACE, top=TOP, opts=opts)
    act(st, ANN, type="deal_here")
    assert st["deal"]["P"] == 6
    return st


def _close(st: dict) -> list[dict]:
    act(st, ANN, type="close")
    events = []
    for s in list(st["window"]["owing"]):
        events += act(st, s, type="pass")
    return events


@pytest.mark.parametrize("n", [2, 3])
def test_the_boss_may_lay_her_own_clan_card_instead_of_paying_the_rival(n):
    """Fails on the rule that refused the boss a clan card for a clan the rival's placard
    covers: she had to pay $3M of the $6M."""
    st = _deal(n)
    legal = GAME.legal(st, ANN)
    assert {"type": "close"} in legal and {"type": "play_clan", "clan": "orange"} in legal
    act(st, ANN, type="play_clan", clan="orange")
    events = _close(st)
    assert not [e for e in events if e["type"] == "paid"]
    assert st["money"][ANN] == 6 and st["money"][BOB] == 0
    assert not any(kind(c) == "clan-orange" for c in st["hands"][ANN])  # used, so discarded
    assert any(kind(c) == "clan-orange" for c in st["discard"])


@pytest.mark.parametrize("n", [2, 3])
def test_or_she_uses_the_rivals_investor_and_pays_a_share(n):
    st = _deal(n)
    events = _close(st)
    assert [(e["to_seat"], e["usd"]) for e in events if e["type"] == "paid"] == [(BOB, 3)]
    assert st["money"][ANN] == 3 and st["money"][BOB] == 3
    assert any(kind(c) == "clan-orange" for c in st["hands"][ANN])  # kept for a later deal


def test_her_own_investor_still_blocks_her_own_clan_card():
    st = _deal(2)
    assert {"type": "play_clan", "clan": "red"} not in GAME.legal(st, ANN)
    refused(st, ANN, "clan_covered", type="play_clan", clan="red")


def test_the_base_game_still_refuses_a_clan_card_for_an_accepted_clan():
    st = make(3, {"red": ANN, "orange": BOB}, hands={ANN: ["clan-orange"]}, marker=SPACE, top=TOP)
    act(st, ANN, type="deal_here")
    act(st, BOB, type="offer", src="placard:orange", ask={"usd": 1})
    offer = st["deal"]["offers"][0]["id"]
    act(st, ANN, type="accept", offer=offer)
    assert {"type": "play_clan", "clan": "orange"} not in GAME.legal(st, ANN)
    refused(st, ANN, "clan_covered", type="play_clan", clan="orange")
    act(st, CAL, type="pass")
    act(st, ANN, type="close")
    all_pass(st, ANN)
    assert st["money"][ANN] == 5 and st["money"][BOB] == 1
