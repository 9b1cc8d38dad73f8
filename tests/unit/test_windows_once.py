"""A move asks its title's `windows` once for the state before it and once for the state after
(issue 23): obligations, news and the timer plan all read the same two answers, where each used
to ask again (seven asks a move, the largest part of the planner's own work). What the move
commits is unchanged: its timers are the ones planned from scratch on the store's row."""

from __future__ import annotations

import random

import pytest

from bench.rig import Rig
from play.plan import plan, rules


@pytest.mark.parametrize("title,players", [("imtheboss", 4), ("filthyrich", 3), ("blackfriday", 3), ("ewars", 4)])
async def test_a_move_asks_the_windows_twice(tmp_path, monkeypatch, title, players):
    rig = await Rig.open(tmp_path / "w.db", tell=False)
    try:
        house = rig.house
        gid = await rig.new_game(title, players, 11, channel_id=42)
        game_rules = rules(await house.games.game(gid))
        asked = []
        windows = type(game_rules).windows

        def counted(self, state):
            asked.append(1)
            return windows(self, state)

        prng = random.Random(4)
        for _ in range(12):
            game = await house.games.game(gid)
            seat = prng.choice(game_rules.to_act(game.state)
                               or [s for s in range(len(game.seats)) if game_rules.legal(game.state, s)])
            action = prng.choice(game_rules.legal(game.state, seat))
            with monkeypatch.context() as patch:
                patch.setattr(type(game_rules), "windows", counted)
                asked.clear()
                result = await house.act(gid, seat, action, user_id=game.seats[seat].user_id,
                                         version=game.version)
                # Only the title's own asks inside its rules (Filthy Rich's `to_act` reads them) add.
                own = len(asked)
            assert result.applied
            assert own <= 2 + _inside(game_rules, game.state, result.game.state), f"{own} asks in one move"
            if result.game.status != "active":
                break
            stored = await rig.store.get(gid)
            fresh = plan(stored, stored.state, await rig.store.timers(gid), result.game.updated_at)
            kept = {(k, r) for k, r, _, _ in fresh.rows}
            assert kept == {(t.kind, t.ref) for t in await rig.store.timers(gid)}
    finally:
        await rig.close()


def _inside(game_rules, before, after) -> int:
    """How many times the title's own `to_act` asks its windows for these two states."""
    calls = []
    windows = type(game_rules).windows

    def counted(self, state):
        calls.append(1)
        return windows(self, state)

    original = type(game_rules).windows
    type(game_rules).windows = counted
    try:
        game_rules.to_act(before)
        game_rules.to_act(after)
    finally:
        type(game_rules).windows = original
    return len(calls)
