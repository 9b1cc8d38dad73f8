"""What a plan reads of a game's settings and clock is worked out once per game and kept
(play/terms.py, issue 23's seventh round) while the game's settings, clock and people's quiet
hours are the same objects. Plans made with the kept terms equal plans made afresh, move after
move; and terms kept from before a change (settings, a bank drawn on, an absence granted, quiet
hours) are never used after it."""

from __future__ import annotations

import random
import time
from dataclasses import replace

from bench.rig import Rig
from play import plan as plan_mod, timing
from play.plan import plan, rules
from play.quiet import Quiet
from play.terms import Terms
from tests.support.houses import random_move


def _same(a, b):
    assert (a.rows, a.clock, a.news) == (b.rows, b.clock, b.news), "the kept terms planned otherwise"


async def test_kept_terms_plan_as_fresh_ones_move_after_move(tmp_path, monkeypatch):
    rig = await Rig.open(tmp_path / "t.db", tell=False)
    try:
        house = rig.house
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        built, planned = [], []

        class Counted(Terms):
            def __init__(self, *args):
                built.append(1)
                super().__init__(*args)

        def checked(game, state, existing, t, daily=None, away=None, news=None, opened=None, terms=None):
            kept = plan(game, state, existing, t, daily, away, news, opened, terms)
            _same(kept, plan(game, state, existing, t, daily, away, news, opened))
            planned.append(1)
            return kept

        monkeypatch.setattr(plan_mod, "Terms", Counted)
        monkeypatch.setattr(plan_mod, "plan", checked)
        prng = random.Random(9)
        for _ in range(30):
            game = await house.games.game(gid)
            if game.status != "active":
                break
            result = await random_move(house, gid, prng)
            assert result.applied
        assert len(planned) >= 20
        # Each check above plans once afresh (one Terms each); the planner's own were worked out
        # only first and when the clock changed (a bank drawn on): far fewer than moves.
        assert len(built) - len(planned) < len(planned) / 2, (len(built), len(planned))
    finally:
        await rig.close()


async def test_terms_kept_from_before_a_change_are_not_used(tmp_path):
    rig = await Rig.open(tmp_path / "c.db", tell=False)
    try:
        gid = await rig.new_game("imtheboss", 4, 7, channel_id=42)
        game = await rig.house.games.game(gid)
        existing = await rig.store.timers(gid)
        t = time.time() + 3600  # an hour on: a bank drawn on would show in the plan
        daily = {s: Quiet() for s in range(4)}
        kept = Terms(game, rules(game), daily)
        _same(plan(game, game.state, existing, t, daily, terms=kept), plan(game, game.state, existing, t, daily))
        owed = next(int(r.split("#")[1]) for r in (x.ref for x in existing if x.kind == "duty"))
        changes = [
            replace(game, settings={**game.settings, "pace": "live"}),  # other lengths, banks
            replace(game, clock={**(game.clock or {}), "bank": {str(owed): 5.0}}),  # its bank almost spent
            replace(game, clock=timing.grant_away(game, owed, t - 60, t + 7200, {"away_days": 7})),  # away
        ]
        for changed in changes:
            assert not kept.holds(changed, daily)
            _same(plan(changed, game.state, existing, t, daily, terms=kept),
                  plan(changed, game.state, existing, t, daily))
            assert plan(changed, game.state, existing, t, daily).rows != plan(game, game.state, existing, t, daily).rows
        quiet = {**daily, owed: Quiet((0, 23 * 60 + 59), "UTC")}  # asleep all day but a minute
        assert not kept.holds(game, quiet)
        _same(plan(game, game.state, existing, t, quiet, terms=kept), plan(game, game.state, existing, t, quiet))
        assert plan(game, game.state, existing, t, quiet).rows != plan(game, game.state, existing, t, daily).rows
    finally:
        await rig.close()
