"""Whether a move revealed nothing (`engine.core.undoable`) compares every other seat's private
view before and after it. A run of moves works out each state's views once (issue 23): the next
move's `before` is this one's `after`, whose views the Undo offer already worked out. The
verdicts stay those of `undoable` worked out afresh."""

from __future__ import annotations

import random

import engine
from bench.rig import Rig
from engine.core import undoable


async def test_a_run_of_moves_works_out_each_states_views_once(tmp_path, monkeypatch):
    rig = await Rig.open(tmp_path / "u.db", tell=False)
    try:
        house = rig.house
        players = 4
        gid = await rig.new_game("imtheboss", players, 7, channel_id=42)
        game_rules = engine.get("imtheboss")
        views = []
        real = game_rules._view

        def counted(state, seat):
            views.append(seat)
            return real(state, seat)

        monkeypatch.setattr(game_rules, "_view", counted)
        prng = random.Random(2)
        offered = 0
        for _ in range(30):
            game = await house.games.game(gid)
            seat = prng.choice(game_rules.to_act(game.state)
                               or [s for s in range(players) if game_rules.legal(game.state, s)])
            action = prng.choice(game_rules.legal(game.state, seat))
            result = await house.act(gid, seat, action, user_id=game.seats[seat].user_id, version=game.version)
            assert result.applied
            taken = house.undo.moves.get(gid)
            if taken is None or taken.version != result.game.version:
                continue  # final at once (the game ended, or nothing to take back)
            chained = bool(taken.known)
            views.clear()
            verdict = taken.revealed_nothing()  # as the Undo offer on the mover's panel asks
            if chained and views:  # (none when a cheaper check decided: a draw of chance)
                offered += 1
                # Only `after`'s views: the public one and each seat's.
                assert len(views) == players + 1, views
            monkeypatch.setattr(game_rules, "_view", real)
            assert verdict == undoable(game_rules, taken.before, taken.after, seat)
            monkeypatch.setattr(game_rules, "_view", counted)
        assert offered >= 10, offered
    finally:
        await rig.close()
