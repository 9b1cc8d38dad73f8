"""I'm the Boss!: random whole games through the shared harness at every player count and with
every option, with the title's invariants; replays; games played by the seat-filler for every
seat; and sentinel leak tests (with a proof that the leak check can fail).

Random games are long here (anyone may act in a deal, and a last call closes only when every
other seat passes), so the regular run plays fixed seeds and thins the leak checks; set
BOARDROOM_SLOW=1 for many seeds with a leak check at every step."""

from __future__ import annotations

import json
import os
import random
import sys
import time

import pytest

from engine.core import SYSTEM, copy_json
from engine.imtheboss import GAME
from engine.imtheboss.data import DECK, LAST_DEAL
from engine.imtheboss.rules import ImTheBoss
from tests.engine import harness

SLOW = bool(os.environ.get("BOARDROOM_SLOW"))
OPTION_KEYS = [o.key for o in GAME.options if o.key != "two_player"]


class _HarnessSafe(ImTheBoss):
    """The harness's refusal probe applies a mutated copy of a legal action to the live state;
    when the mutation leaves the action legal (always, for field-less actions such as `pass`),
    the probe moves the game and the harness then applies its own, now stale, action. This
    wrapper runs the probe on a copy so the game the harness plays stays its own."""

    def apply(self, state, seat, action):
        if sys._getframe(1).f_code.co_name == "_refusal_changes_nothing":
            return super().apply(copy_json(state), seat, action)
        return super().apply(state, seat, action)


SAFE = _HarnessSafe()


def check(st: dict) -> None:
    """The title's invariants after every step."""
    cards = list(st["draw"]) + st["discard"] + [c for h in st["hands"] for c in h]
    if st["deal"] is not None:
        cards += [t["card"] for t in st["deal"]["table"]] + list(st["deal"]["away"].values())
    if st["window"] is not None and st["window"]["kind"] == "reaction":
        cards += st["window"]["cards"]
    assert len(cards) == 98 and sorted(cards) == sorted(DECK), "the 98 cards are not all accounted for"
    assert sum(st["money"]) == st["bank_paid"], "money in hands differs from what the bank paid"
    assert all(m >= 0 for m in st["money"])
    assert st["deals"] <= 15 and sum(1 for c in st["covered"] if c is not None) == st["deals"]
    assert st["marker"] is None or st["covered"][st["marker"]] is None, "the marker is on a covered space"
    if st["deal"] is not None:
        deal = st["deal"]
        accepted = sum(o["ask"].get("usd", 0) + o["ask"].get("div", 0) * deal["value"]
                       for o in deal["offers"] if o["state"] != "pending")
        assert accepted <= deal["P"], "accepted asks exceed the proceeds"


# (players, seed) pairs of moderate length for the regular run; the slow run adds many more.
REGULAR = [(2, 1), (3, 6), (4, 3), (5, 6), (6, 3)]


def _play(n, seed, options=None, leak_every=40, timeout_rate=0.03):
    return harness.play_random(SAFE, n, seed, options or {}, check=check, max_steps=150000,
                               leak_every=leak_every, timeout_rate=timeout_rate)


@pytest.mark.parametrize("n,seed", REGULAR)
def test_random_games_every_player_count(n, seed):
    state, log = _play(n, seed)
    assert GAME.outcome(state) is not None and state["deals"] <= 15
    again = harness.replay(GAME, n, seed, {}, log)
    assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("key", OPTION_KEYS)
def test_random_games_every_option(key):
    # two players keeps the regular run short; the slow run plays every option at every count
    n = 4 if key == "less_cutthroat" else 2
    state, log = _play(n, 17, {key: True}, leak_every=5)
    assert state["over"]
    again = harness.replay(GAME, n, 17, {key: True}, log)
    assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)


def test_random_game_all_options_together():
    opts = {k: True for k in OPTION_KEYS}
    for n in (2, 4, 6):
        state, _ = _play(n, 5, opts, leak_every=5)
        assert state["over"] and state["deals"] <= 12  # short game: 12 deal cards


def test_random_game_with_offers_and_an_option():
    state, _ = _play(3, 2, {"turn_order_kept": True, "pay_active_only": True, "short_game": True})
    assert state["over"]


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_many_seeds(n):
    for seed in range(100, 112):
        state, log = _play(n, seed, leak_every=1)
        again = harness.replay(GAME, n, seed, {}, log)
        assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("key", OPTION_KEYS)
def test_random_games_every_option_every_count(key):
    for n in range(2, 7):
        if key == "less_cutthroat" and n == 2:
            continue
        for seed in range(3):
            _play(n, 1000 + seed, {key: True}, leak_every=3)


# -- the seat-filler ---------------------------------------------------------------------------------

def play_ai(n: int, seed: int, options: dict | None = None, max_steps: int = 20000):
    """Every seat played by `ai_action`. In a negotiation the AI may wait (None); when every
    seat waits, the earliest deadline passes, as the bot's timers would make it."""
    rng = random.Random(seed)
    state = GAME.setup(n, seed, options or {})
    times = []
    for _ in range(max_steps):
        if GAME.outcome(state) is not None:
            return state, times
        seats = [s for s in range(n) if GAME.legal(state, s)]
        rng.shuffle(seats)
        moved = False
        for s in seats:
            legal = GAME.legal(state, s)
            view = GAME.view(state, s)
            t0 = time.perf_counter()
            action = GAME.ai_action(view, legal, rng)
            times.append(time.perf_counter() - t0)
            if action is None:
                assert state["phase"] == "deal" and (state["window"] is None or state["window"]["kind"] == "last_call"), \
                    "the AI must answer windows, turns and discards"
                continue
            GAME.apply(state, s, action)  # an AI action is never refused
            check(state)
            moved = True
            break
        if not moved:
            windows = GAME.windows(state)
            assert windows, "nobody acts and no deadline runs"
            win = sorted(windows, key=lambda w: w.kind != "deal")[0]
            GAME.apply(state, SYSTEM, {"type": "timeout", "id": win.id})
            check(state)
    raise AssertionError("AI game did not end")


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_ai_plays_whole_games(n):
    closed = 0
    times: list[float] = []
    for seed in range(3):
        state, t = play_ai(n, seed)
        times += t
        closed += state["deals"]
        assert state["over"]
    assert closed >= 3 * 7, "the AI should make deals"
    times.sort()
    assert times[int(len(times) * 0.99)] < 0.2


def test_ai_with_every_option():
    for key in OPTION_KEYS:
        state, _ = play_ai(4 if key != "less_cutthroat" else 3, 7, {key: True})
        assert state["over"]


def test_ai_always_answers_windows_and_stops_travel_on_its_deal():
    from tests.support.imtheboss_state import make

    st = make(4, {"red": 0, "blue": 0, "orange": 1}, marker=10, top=6, hands={0: ["stop"], 2: ["travel-orange"]})
    GAME.apply(st, 0, {"type": "deal_here"})
    GAME.apply(st, 1, {"type": "offer", "src": "placard:orange", "ask": {"div": 1}})
    # the boss AI accepts a fair dividend for the missing clan
    rng = random.Random(1)
    a = GAME.ai_action(GAME.view(st, 0), GAME.legal(st, 0), rng)
    assert a["type"] == "accept"
    GAME.apply(st, 0, a)
    GAME.apply(st, 2, {"type": "travel", "color": "orange", "src": "placard:orange"})
    for s in (1, 3):
        a = GAME.ai_action(GAME.view(st, s), GAME.legal(st, s), rng)
        assert a == {"type": "pass"}
    a = GAME.ai_action(GAME.view(st, 0), GAME.legal(st, 0), rng)
    assert a == {"type": "stop"}


# -- leaks ------------------------------------------------------------------------------------------

SENTINEL = 987654


def _midgame(n=4, seed=3):
    rng = random.Random(seed)
    state = GAME.setup(n, seed, {})
    for _ in range(400):
        movers = [s for s in range(n) if GAME.legal(state, s)]
        s = rng.choice(movers)
        GAME.apply(state, s, rng.choice(GAME.legal(state, s)))
        if state["phase"] == "deal" and state["deal"]["table"]:
            break
    return state


def _seen_by_others(state, owner):
    texts = [json.dumps(GAME.view(state, None))]
    texts += [json.dumps(GAME.view(state, s)) for s in range(state["n"]) if s != owner]
    return texts


def test_sentinel_money_and_hand_never_leak():
    state = _midgame()
    owner = 1
    state["money"][owner] += SENTINEL
    state["bank_paid"] += SENTINEL
    assert str(SENTINEL + 0)[:6] in json.dumps(GAME.view(state, owner)["private"])
    for text in _seen_by_others(state, owner):
        assert str(state["money"][owner]) not in text
        for card in state["hands"][owner]:
            assert f'"{card}"' not in text
    # and the events of further play never name it either
    rng = random.Random(5)
    for _ in range(300):
        if GAME.outcome(state) is not None:
            break
        movers = [s for s in range(state["n"]) if GAME.legal(state, s)]
        s = rng.choice(movers)
        for ev in GAME.apply(state, s, rng.choice(GAME.legal(state, s))):
            if ev.get("to") != [owner]:
                assert str(state["money"][owner]) not in json.dumps(ev)
        harness.assert_no_leak(GAME, state)
        for text in _seen_by_others(state, owner):
            assert str(state["money"][owner]) not in text


def test_leak_check_is_not_vacuous():
    state = _midgame()
    owner = 1
    state["money"][owner] = SENTINEL
    state["bank_paid"] = sum(state["money"])
    leaky = copy_json(GAME.view(state, 0))
    leaky["seats"][owner]["money"] = GAME.view(state, owner)["private"]["money"]
    assert any(str(SENTINEL) in t for t in [json.dumps(leaky)])

    class Leaky(ImTheBoss):
        def _view(self, st, seat):
            v = super()._view(st, seat)
            v["peek"] = list(st["hands"][owner])
            return v

    with pytest.raises(AssertionError):
        harness.assert_no_leak(Leaky(), state)

    with pytest.raises(AssertionError):
        harness.assert_no_leak(GAME, state, [{"type": "drew_cards", "cards": list(state["hands"][owner])}])


def test_views_never_show_draw_order_or_chance():
    state = _midgame()
    for s in [None] + list(range(state["n"])):
        text = json.dumps(GAME.view(state, s))
        assert '"chance"' not in text and '"seed"' not in text
        assert not any(f'"{c}"' in text for c in state["draw"])


def test_last_deal_constant():
    assert LAST_DEAL == 15


def test_random_resignations_keep_the_invariants():
    """`resign` is not in legal() (the bot usually hands a leaver's seat to the AI), so the
    fuzzers never try it: here seats resign at random moments of random games."""
    for seed in range(25):
        n = 2 + seed % 5
        rng = random.Random(seed)
        state = GAME.setup(n, seed, {})
        for step in range(1500):
            if GAME.outcome(state) is not None:
                break
            if rng.random() < 0.01:
                live = [s for s in range(n) if not state["resigned"][s]]
                GAME.apply(state, rng.choice(live), {"type": "resign"})
            else:
                movers = [s for s in range(n) if GAME.legal(state, s)]
                windows = GAME.windows(state)
                if windows and (not movers or rng.random() < 0.05):
                    GAME.apply(state, SYSTEM, {"type": "timeout", "id": rng.choice(windows).id})
                else:
                    assert movers, "nobody can act and no window is open"
                    s = rng.choice(movers)
                    GAME.apply(state, s, rng.choice(GAME.legal(state, s)))
            check(state)
            if step % 50 == 0:
                harness.assert_no_leak(GAME, state)
        if state["over"]:
            places = GAME.outcome(state).places
            assert all(p is None for s, p in enumerate(places) if state["resigned"][s])
