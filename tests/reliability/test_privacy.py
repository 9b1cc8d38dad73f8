"""Nothing leaked: hidden information never reaches anyone it is hidden from, through anything the
bot sends (see tests/support/leaks.py for how the watch decides, tests/reliability/privacy.py
for the games).

- every title's views and legal actions do not depend on what their viewer may not see, over
  many random engine states (cheap: no Discord);
- a few random games of every title through the bot leak nothing (the regular run), many more
  behind the `slow` marker (BOARDROOM_SLOW=1);
- the watch is not vacuous: each way of leaking it claims to catch is planted in turn (a title's
  table lines naming a hand card, private narration posted in the channel, a panel shown to
  the wrong seat, a seat's view as the public picture, a public event carrying a hand,
  Black Friday money on the table, E-Wars face-down employees in the public view, a refusal of
  the rules naming another seat's card) and must be caught, by the check meant for it.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import engine
from cogs.table import message as message_mod, turns as turns_mod
from cogs.table.private_panel import PrivatePanels
from cogs.titles.contract import TableContext, ui_for
from play.games import GameCache
from engine.core import SYSTEM, RuleError
from tests.reliability.privacy import TITLES, leak_rounds
from tests.support.leaks import check_views, scramble

slow = pytest.mark.slow


# -- the engines: views and legal actions against randomised secrets ---------------------------------

def _random_states(title: str, seats: int, seed: int, steps: int):
    g = engine.get(title)
    rng = random.Random(seed)
    state = g.setup(seats, seed, {})
    for _ in range(steps):
        if g.outcome(state) is not None:
            return
        yield state
        movers = [s for s in range(seats) if g.legal(state, s)]
        windows = g.windows(state)
        if windows and (not movers or rng.random() < 0.03):
            g.apply(state, SYSTEM, {"type": "timeout", "id": rng.choice(windows).id})
        else:
            seat = rng.choice(movers)
            g.apply(state, seat, rng.choice(g.legal(state, seat)))


@pytest.mark.parametrize("title", TITLES)
def test_views_and_legal_actions_ignore_what_their_viewer_may_not_see(title):
    g = engine.get(title)
    rng = random.Random(7)
    checked = 0
    for seats in range(g.min_players, g.max_players + 1):
        for i, state in enumerate(_random_states(title, seats, 100 + seats, 400)):
            if i % 4 == 0:
                problems = check_views(title, state, rng)
                assert not problems, problems
                checked += 1
    assert checked > 100


def test_the_view_check_is_not_vacuous(monkeypatch):
    """A public view that shows one card of seat 1's hand, and a seat's view that shows the draw
    pile's top card, are both reported."""
    g = engine.get("filthyrich")
    state = g.setup(3, 5, {})
    assert check_views("filthyrich", state, random.Random(1)) == []
    real = type(g)._view

    def leaky(self, st, seat):
        view = real(self, st, seat)
        if seat is None:
            view["peek"] = st["hands"][1][0]
        else:
            view["top"] = st["deck"][0]
        return view

    monkeypatch.setattr(type(g), "_view", leaky)
    found = check_views("filthyrich", state, random.Random(1))
    assert any("view of the public" in p and "peek" in p for p in found), found
    assert any("view of seat 0" in p for p in found), found
    # The scramble keeps what the viewer may see: seat 0's own hand stays put.
    twin = scramble("filthyrich", state, 0, random.Random(2))
    assert twin["hands"][0] == state["hands"][0] and twin["hands"][1] != state["hands"][1]


# -- whole games through the bot ------------------------------------------------------------------

def _report(result: dict[str, Any]) -> str:
    return "\n".join(result["leak_list"][:20] + result["problems"][:20])


def _check(result: dict[str, Any]) -> None:
    assert result["leaks"] == 0 and not result["bad_input_problems"], _report(result)
    others = [p for p in result["problems"] if p not in result["bad_input_problems"]]
    if others:  # not a leak, but worth seeing (a title's panel that fails, a stuck game)
        warnings.warn("problems beside privacy:\n" + "\n".join(others[:10]), stacklevel=2)


async def test_random_games_through_the_bot_leak_nothing():
    result = await leak_rounds(2, seed=11, max_steps=60)
    assert set(result["games"]) == set(TITLES)
    _check(result)
    # Not vacuous by accident: things were said, drawn and tried.
    assert result["actions"] >= 300 and result["pictures"] >= 500 and result["bad_inputs"] >= 10, result


@slow
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_many_whole_random_games_leak_nothing(seed):
    result = await leak_rounds(3, seed=seed, max_steps=3000)
    _check(result)
    assert result["finished"] >= 8, result


# -- planted leaks: each must be caught ----------------------------------------------------------------

#: The rows the running bot last read of each game (a planted leak reads the state from here).
_seen: dict[int, Any] = {}


def _watch_rows(monkeypatch) -> None:
    real = GameCache.game

    async def game(self, game_id, fresh=False):
        row = await real(self, game_id, fresh)
        if row is not None:
            _seen[game_id] = row
        return row

    monkeypatch.setattr(GameCache, "game", game)


def _state_of(game_id: int) -> dict[str, Any]:
    return _seen[game_id].state


def plant_table_lines_name_a_hand_card(monkeypatch):
    """A title's table lines reach into the game and name a card of the second seat's hand."""
    ui = ui_for("imtheboss")
    real = type(ui).table_lines

    def leaky(self, tc: TableContext) -> list[str]:
        hand = _state_of(tc.game_id)["hands"][1]
        extra = [tc.t("imtheboss.card." + hand[0].rsplit("-", 1)[0])] if hand else []
        return real(self, tc) + extra

    _watch_rows(monkeypatch)
    monkeypatch.setattr(type(ui), "table_lines", leaky)
    return "imtheboss", {"name"}


def plant_private_narration_in_the_channel(monkeypatch):
    """The table keeper narrates events addressed to one seat (the cards drawn) in the channel."""
    def leaky(game, t, events):
        ui = ui_for(game.title)
        return [ui.narrate(t, ev, game.names) for ev in events if ev.get("type") in ("drew", "drew_cards")]

    for module in (turns_mod, message_mod):  # the turn message and the table's recent moves
        monkeypatch.setattr(module, "narrate", leaky)
    return "filthyrich", {"name"}


def plant_panel_for_the_wrong_seat(monkeypatch):
    """My hand shows the panel of the next seat."""
    real = PrivatePanels.panel_message

    async def leaky(self, game, seat, t, notice=None, panel=None):
        return await real(self, game, (seat + 1) % len(game.seats), t, notice=notice)

    monkeypatch.setattr(PrivatePanels, "panel_message", leaky)
    return "filthyrich", {"picture", "name", "id"}


def plant_a_seat_view_as_the_public_picture(monkeypatch):
    """The table picture is drawn from seat 0's view instead of the public one."""
    ui = ui_for("ewars")
    real_view = type(ui.game).view

    def leaky(self, state, seat):
        return real_view(self, state, 0 if seat is None else seat)

    monkeypatch.setattr(type(ui.game), "view", leaky)
    return "ewars", {"picture", "view"}


def plant_a_hand_in_a_public_event(monkeypatch):
    """The engine's first public event of each action carries the acting seat's hand (ids)."""
    g = engine.get("imtheboss")
    real = type(g)._apply

    def leaky(self, state, seat, action):
        events = real(self, state, seat, action)
        public = [ev for ev in events if "to" not in ev]
        if public and isinstance(seat, int):
            public[0]["hand"] = list(state["hands"][seat])
        return events

    monkeypatch.setattr(type(g), "_apply", leaky)
    return "imtheboss", {"event"}


def plant_money_on_the_table(monkeypatch):
    """Black Friday's table lines show the second seat's private money."""
    ui = ui_for("blackfriday")
    real = type(ui).table_lines

    def leaky(self, tc: TableContext) -> list[str]:
        return real(self, tc) + [f"💰 ${_state_of(tc.game_id)['players'][1]['money']}"]

    _watch_rows(monkeypatch)
    monkeypatch.setattr(type(ui), "table_lines", leaky)
    return "blackfriday", {"number"}


def plant_face_down_employees_in_the_public_view(monkeypatch):
    """E-Wars' public view names the employee lying face down on each card."""
    g = engine.get("ewars")
    real = type(g)._view

    def leaky(self, state, seat):
        view = real(self, state, seat)
        view["face_down"] = [e[1] for e in state["emps"] if e is not None]
        return view

    monkeypatch.setattr(type(g), "_view", leaky)
    return "ewars", {"view", "picture", "id"}


def plant_a_refusal_names_another_seats_card(monkeypatch):
    """Every refusal of the rules also names a card of the next seat's hand ("...: Bob holds a
    Boss"), and bad input makes sure there are refusals."""
    g = engine.get("imtheboss")
    real = type(g)._apply

    def leaky(self, state, seat, action):
        try:
            return real(self, state, seat, action)
        except RuleError as err:
            hand = state["hands"][(seat + 1) % state["n"]]
            if not hand:
                raise
            raise RuleError("no_card", card=hand[0].rsplit("-", 1)[0]) from err

    monkeypatch.setattr(type(g), "_apply", leaky)
    return "imtheboss", {"refusal"}


PLANTS = [plant_table_lines_name_a_hand_card, plant_private_narration_in_the_channel, plant_panel_for_the_wrong_seat,
          plant_a_seat_view_as_the_public_picture, plant_a_hand_in_a_public_event, plant_money_on_the_table,
          plant_face_down_employees_in_the_public_view, plant_a_refusal_names_another_seats_card]


@pytest.mark.parametrize("plant", PLANTS, ids=lambda p: p.__name__[len("plant_"):])
async def test_a_planted_leak_is_caught(plant, monkeypatch):
    title, kinds = plant(monkeypatch)
    # The refusal plant needs a click the rules refuse: bad input makes them likely, and three
    # short games make sure at least one comes (one game alone may end its 40 steps without).
    refusal = plant is plant_a_refusal_names_another_seats_card
    result = await leak_rounds(3 if refusal else 1, seed=5, titles=(title,), max_steps=40,
                               bad_rate=0.5 if refusal else 0.0)
    caught = {line.split("[", 1)[1].split("]", 1)[0] for line in result["leak_list"]}
    assert result["leaks"] > 0, f"the planted leak went unnoticed: {result}"
    assert kinds & caught, f"caught only by {caught}, expected one of {kinds}:\n" + "\n".join(result["leak_list"][:5])
