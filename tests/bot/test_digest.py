"""The daily digest DM (issue 19), on virtual time: a player who opts in with /game prefs gets at
most one DM a day listing their games in every server (whose move, the deadline, a link), only
when one of them waits for them; the day survives a restart; opting out stops it."""

from __future__ import annotations

import pytest

from cogs.table.digest import DAY, TICK
from tests.support import toy
from tests.support.sim import TIGHT, button, labels, panel_of, reply_text, text_of

TOY = toy.TITLE
pytestmark = pytest.mark.both_backends


def _digests(member) -> list[str]:
    channel = member.user.dm_channel
    if channel is None:
        return []
    return [text_of(m) for m in channel.history() if "Your games waiting for you" in text_of(m)]


async def _table(sim):
    """Ann and Bob at Pennies with day-long deadlines, at which only reminders go out (nobody
    moves for a late player): the game waits for its mover for days."""
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await sim.open_lobby(ann, TOY, [bob])
    await sim.store.update_game(game.id, 0, settings={**game.settings, **TIGHT, "on_deadline": "remind", "reminder": 0,
                                                      "deadlines": {"turn": DAY, "nod": DAY}})
    await sim.lobby(ann, "start")
    await sim.settle()
    game = await sim.game()
    mover = [ann, bob][game.state["active"]]
    return mover, (bob if mover is ann else ann), game


async def test_an_opted_in_player_gets_one_digest_a_day_while_a_game_waits_for_them(sim):
    mover, other, game = await _table(sim)
    said = await mover.slash(sim.channel, "game prefs", digest=True)
    assert "daily digest on" in reply_text(said)
    await other.slash(sim.channel, "game prefs", digest=True)
    await sim.advance(TICK + 1)
    (digest,) = _digests(mover)
    assert "Pennies" in digest and "your move" in digest and "Test Guild" in digest
    assert f"/{sim.channel.id}/" in digest and "Deadline <t:" in digest
    assert _digests(other) == []  # nothing waits for them: no DM at all
    await sim.advance(DAY - 2 * TICK)
    assert len(_digests(mover)) == 1  # never two within a day
    await sim.advance(3 * TICK)
    assert len(_digests(mover)) == 2  # the next day, still waiting: the next one


async def test_the_day_survives_a_restart(sim):
    mover, other, game = await _table(sim)
    await mover.slash(sim.channel, "game prefs", digest=True)
    await sim.advance(TICK + 1)
    assert len(_digests(mover)) == 1
    await sim.restart()
    await sim.advance(2 * TICK)
    assert len(_digests(mover)) == 1
    await sim.restart()
    await sim.advance(DAY)
    assert len(_digests(mover)) == 2


async def test_opting_out_stops_it(sim):
    mover, other, game = await _table(sim)
    await mover.slash(sim.channel, "game prefs", digest=True)
    await sim.advance(TICK + 1)
    said = await mover.slash(sim.channel, "game prefs", digest=False)
    assert "daily digest off" in reply_text(said)
    await sim.advance(2 * DAY)
    assert len(_digests(mover)) == 1


async def test_the_digest_lists_games_in_every_server_theirs_to_move_first(sim):
    mover, other, game = await _table(sim)
    elsewhere = sim.env.create_guild("Elsewhere")
    lair = elsewhere.create_text_channel("lair")
    there = elsewhere.add_member(mover.user)
    host = elsewhere.add_member(sim.env.create_user("zed"))
    await sim.open_lobby(host, TOY, [there], channel=lair)
    await sim.lobby(host, "start", lair)
    await sim.settle()
    await there.slash(lair, "game prefs", digest=True)
    await sim.advance(TICK + 1)
    (digest,) = _digests(mover)
    lines = [line for line in digest.splitlines() if "Pennies" in line]
    assert len(lines) == 2 and any("Test Guild" in line for line in lines)
    assert any("Elsewhere" in line for line in lines)
    assert "your move" in lines[0]


async def test_closed_dms_wait_for_the_next_day(sim):
    mover, other, game = await _table(sim)
    await mover.slash(sim.channel, "game prefs", digest=True)
    sim.env.inject_error("POST", "/users/@me/channels", status=403, code=50007, times=1,
                         message="Cannot send messages to this user")
    await sim.advance(TICK + 1)
    assert _digests(mover) == []
    await sim.advance(DAY - 2 * TICK)
    assert _digests(mover) == []  # not retried within the day
    await sim.advance(2 * TICK)
    assert len(_digests(mover)) == 1


async def test_the_game_menu_turns_the_digest_on_and_off(sim):
    mover, other, game = await _table(sim)
    menu = panel_of(await sim.menu_click(mover, "Hpref:digest"))
    assert "Daily digest: on" in labels(menu) and (await sim.store.prefs(mover.id))["digest"]
    await sim.advance(TICK + 1)
    assert len(_digests(mover)) == 1
    menu = panel_of(await mover.click(menu, custom_id=button(menu, ":Hpref:digest")))
    assert "Daily digest: off" in labels(menu) and not (await sim.store.prefs(mover.id))["digest"]
