"""I'm the Boss! and the asynchronous loop (issue 19), through the bot (SimCord, virtual time):
a deal calls every player who can bring an investor, each with what to do; a pass ends that
player's obligation; a seat-filler boss gives up by itself once every answer is in; an absent
player's turn costs one deadline, not two."""

from __future__ import annotations

from engine.imtheboss import GAME
from tests.bot.test_imtheboss import click, no_interruptions, placards, set_hands, start, state, turn
from tests.support.sim import channel_text, text_of


def _deal_on_k(s: dict, boss: int) -> None:
    turn(s, boss, 10)  # space K: Red + Blue + Orange
    placards(s, {"red": 0, "orange": 1, "blue": 2, "yellow": 3, "magenta": None, "green": None})
    no_interruptions(s)  # else a dealt "I'm the boss!" or Stop opens a reaction window first


async def test_a_deal_calls_every_player_with_what_to_do_and_a_pass_ends_it(sim):
    ann, bob, cal, dot = members = await start(sim, 4)
    await sim.arrange(lambda s: _deal_on_k(s, 0))
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    call = sim.channel.last_message
    for m in (bob, cal, dot):
        assert f"<@{m.id}>: offer an investor for deal K, or pass." in call.content, call.content
    assert f"<@{ann.id}>: you are the boss of deal K ($8M)" in call.content
    panel = await sim.hand(bob)
    assert "ann waits for your offer, or your pass" in text_of(panel)
    count = len(sim.channel.history())
    await click(sim, bob, panel, label="Pass: no offer")
    st = await state(sim)
    assert st["deal"]["asked"] == [2, 3]
    # nobody new is called: the turn message is extended, and bob is no longer asked
    assert len(sim.channel.history()) == count
    latest = next(m for m in sim.channel.history() if m.id == call.id)
    assert f"<@{bob.id}>" not in latest.content and f"<@{cal.id}>" in latest.content
    assert not any(c for c in text_of(await sim.hand(bob)).split("\n") if "Pass: no offer" in c)
    assert members  # all four seats took part


async def test_seat_filler_boss_gives_up_once_everyone_has_passed(sim):
    ann, bob, cal = sim.player("ann"), sim.player("bob"), sim.player("cal")
    await sim.start(ann, "imtheboss", others=[bob, cal], ai=1)
    game = await sim.game()
    ai = next(s.seat for s in game.seats if s.ai_plays)

    def ai_deal(s):
        _deal_on_k(s, ai)
        placards(s, {"red": ai, "blue": ai, "orange": next(i for i in range(4) if i != ai)})
        # Nothing in its own hand completes the deal (no Orange card, travel or recruits).
        set_hands(s, {ai: ["clan-green", "clan-magenta"]})
        GAME.apply(s, ai, {"type": "deal_here"})  # the seat-filler's deal on K lacks Orange

    await sim.arrange(ai_deal)
    st = await state(sim)
    assert st["phase"] == "deal" and st["deal"]["boss"] == ai
    humans = [m for m, seat in zip((ann, bob, cal), sorted(s.seat for s in game.seats if not s.ai_plays))]
    await click(sim, humans[0], await sim.hand(humans[0]), label="Pass: no offer")
    await sim.run_ai()
    assert (await state(sim))["phase"] == "deal"  # answers are still due: it waits for them
    for m in humans[1:]:
        await click(sim, m, await sim.hand(m), label="Pass: no offer")
    await sim.run_ai()
    st = await state(sim)
    assert st["phase"] != "deal", "the seat-filler boss still sits on the deal"
    assert "deal on space K fails: the boss gave up" in channel_text(sim)


async def test_an_absent_players_turn_costs_one_deadline(sim):
    ann, bob, cal = await start(sim, 3)
    def quiet_bob(s):
        # bob owns no placard and holds no clan card: no deal pays him, so the seat-filler that
        # moves for him at the deadline rolls and draws (the whole turn)
        turn(s, 0, 0)
        placards(s, {"red": 0, "blue": 0, "yellow": 2, "magenta": 2, "orange": 0, "green": 2})
        set_hands(s, {1: ["stop"] * 5})

    await sim.arrange(quiet_bob)
    panel = await click(sim, ann, await sim.hand(ann), label="🎲 Roll")
    await click(sim, ann, panel, prefix="🃏 Draw")
    st = await state(sim)
    assert st["active"] == 1 and st["phase"] == "turn_start"
    # bob is away: his whole turn (roll, then draw or deal) runs on one deadline
    game = await sim.game()
    mark = len(sim.channel.history())
    for _ in range(3):
        if (await state(sim))["active"] != 1:
            break
        assert await sim.next_timer(game.id)
    st = await state(sim)
    assert st["active"] == 2 and st["phase"] == "turn_start", st["phase"]
    assert channel_text(sim, mark).count("Deadline passed") == 1, channel_text(sim, mark)
