"""Away mode (issue 19 extras), as players live it on virtual time: a player says they are away
(`/game away`, the ⚙️ menu); as the host chose, their deadlines wait for them (capped at seven
days) or the seat-filler plays for them at once; pings still come, saying they are away; "back"
ends it; the away time outlives a restart; the setting is in the lobby's options and the
settings panel."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from play import away
from tests.support import toy
from tests.support.sim import button, channel_text, components_of, custom_ids, labels, panel_of, reply_text, text_of
from play.plan import owing

TOY = toy.TITLE
HOUR, DAY = 3600, 86400


async def _table(sim, n: int = 3):
    members = [sim.player(x) for x in ("ann", "bob", "cy")[:n]]
    await sim.start(members[0], TOY, others=members[1:])
    game = await sim.game()
    return members, game, members[game.state["active"]]


async def _deadline(sim, game_id: int) -> float:
    """When the person who owes the window runs out of time (their obligation row)."""
    return next(float(t.payload["end"]) for t in await sim.store.timers(game_id)
                if t.kind == "duty" and t.payload.get("end"))


def _now(sim) -> float:
    return sim.env.now().timestamp()


async def test_deadlines_wait_for_a_player_away_and_come_back_when_they_do(sim):
    members, game, mover = await _table(sim)
    assert await _deadline(sim, game.id) == pytest.approx(_now(sim) + HOUR, abs=5)  # the slow turn: an hour
    since = len(sim.channel.history())
    said = await mover.slash(sim.channel, "game away", until="2d")
    assert "You are away until <t:" in reply_text(said) and "up to 7 days" in reply_text(said)
    await sim.settle()
    # Their deadline is their usual hour after they return; the table says they are away.
    assert await _deadline(sim, game.id) == pytest.approx(_now(sim) + 2 * DAY + HOUR, abs=5)
    assert f"{mover.name} is away until <t:" in channel_text(sim, since)
    assert "their deadlines wait for them (up to 7 days)" in channel_text(sim, since)
    assert f"{mover.name} (away until <t:" in text_of(await sim.table_message())
    await sim.advance(DAY)  # a day passes: nobody moved for them
    assert (await sim.game()).version == game.version
    # Back early, from the ⚙️ menu: the window's deadline is the usual length from now.
    menu = await sim.menu(mover)
    assert "You are away until" in text_of(menu)
    select = next(c for c in components_of(menu) if (c.custom_id or "").endswith(":Haway"))
    assert [o.label for o in select.options][0] == "I'm back"
    back = await mover.select(menu, ["back"], custom_id=button(menu, ":Haway"))
    assert "You are not away." in reply_text(back)
    await sim.settle()
    assert await _deadline(sim, game.id) == pytest.approx(_now(sim) + HOUR, abs=5)
    assert f"{mover.name} is back." in channel_text(sim, since)
    assert "(away until" not in text_of(await sim.table_message())


async def test_a_stretch_is_capped_at_seven_days_and_then_the_deadline_acts(sim):
    members, game, mover = await _table(sim, 2)
    await mover.slash(sim.channel, "game away", until="30d")
    await sim.settle()
    start = _now(sim)
    # Their clock stands still for seven days at most, then their hour runs.
    assert await _deadline(sim, game.id) == pytest.approx(start + 7 * DAY + HOUR, abs=5)
    # A second away time from later changes nothing: the game's seven days are spent.
    await sim.advance(3 * DAY)
    await mover.slash(sim.channel, "game away", until="60d")
    await sim.settle()
    assert await _deadline(sim, game.id) == pytest.approx(start + 7 * DAY + HOUR, abs=5)
    await sim.advance(4 * DAY + HOUR + 60)
    after = await sim.game()
    assert after.version > game.version and after.state["taken"][game.state["active"]] >= 1  # the AI moved
    assert "Deadline passed" in channel_text(sim)


async def test_away_chained_with_back_never_holds_a_game_past_the_cap(sim):
    """Issue 25, finding 3: "back" then "away 30d" every six days used to move one deadline from
    day 13 to 19, 25, 31, 37 (each "back" dropped the cap with the timer) and the game never
    moved. The game grants `away_days` (7) in any 30 days however the absences are chained: the
    deadline never passes the cap, and within 30 days the game has moved on."""
    members, game, mover = await _table(sim, 2)
    await mover.slash(sim.channel, "game away", until="30d")
    await sim.settle()
    start = _now(sim)
    cap = start + 7 * DAY + HOUR  # seven days of absence, then their usual hour
    assert await _deadline(sim, game.id) == pytest.approx(cap, abs=5)
    for _ in range(5):  # days 6, 12, 18, 24, 30
        for _ in range(6):  # a day at a time: each virtual day is a few wall-clock seconds here
            await sim.advance(DAY)
        for until in ("back", "30d"):
            said = await mover.slash(sim.channel, "game away", until=until)
            assert "I could not read that" not in reply_text(said), until
            await sim.settle()
        now = await sim.game()
        if now.version == game.version:  # still the first window: its deadline stays at the cap
            assert await _deadline(sim, game.id) <= cap + 5
    assert _now(sim) >= start + 30 * DAY
    after = await sim.game()
    assert after.version > game.version and after.state["taken"][game.state["active"]] >= 1  # the AI moved
    assert "Deadline passed" in channel_text(sim)


async def test_the_seat_filler_plays_at_once_for_a_player_away_when_the_host_chose_it(sim):
    members, game, mover = await _table(sim)
    ann = members[0]
    panel = await sim.settings(ann)
    assert "While a player is away: their deadlines wait" in text_of(panel)
    await ann.select(panel, ["filler"], custom_id=button(panel, ":Hset:away"))
    assert (await sim.game()).settings["away"] == "filler"
    since, mark = len(sim.channel.history()), len(sim.env.http_requests)
    # Away from the ⚙️ menu for a day.
    menu = await sim.menu(mover)
    assert "Away for a while?" in labels(menu)
    chosen = await mover.select(menu, [str(DAY)], custom_id=button(menu, ":Haway"))
    assert "You are away until" in reply_text(chosen)
    await sim.settle()
    await sim.advance(5)  # the seat-filler's "thinking" delay
    after = await sim.game()
    seat = game.state["active"]
    assert after.state["taken"][seat] >= 1, "the seat-filler took coins for the player away"
    said = channel_text(sim, since)
    assert f"{mover.name} is away until <t:" in said and "the seat-filler plays for them" in said
    # Pings still go to them, saying they are away, when their seat is called again (the call
    # line goes once the seat-filler has answered it, so the posts are what count).
    def calls() -> list[str]:
        return [str(e.json) for e in sim.env.http_requests[mark:]
                if e.method == "POST" and e.path.endswith("/messages") and f"<@{mover.id}>" in str(e.json)]

    for _ in range(12):
        g = await sim.game()
        if calls() or g.status != "active":
            break
        human = next((x for x in owing(g) if x != seat), None)
        if human is None:
            await sim.advance(5)
            continue
        member = next(m for m in members if m.id == g.seats[human].user_id)
        panel = await sim.hand(member)
        await member.click(panel, custom_id=button(panel, label="OK" if g.state["owed"] else "Take 1"))
        await sim.settle()
    assert calls() and all("(away until <t:" in c for c in calls())
    # Back: the seat-filler no longer moves for them.
    menu = await sim.menu(mover)
    await mover.select(menu, ["back"], custom_id=button(menu, ":Haway"))
    await sim.settle()
    g = await sim.game()
    assert not [t for t in await sim.store.timers(g.id) if t.kind == "ai" and t.ref == str(seat)]


async def test_when_the_away_time_ends_the_seat_filler_stops(sim):
    members, game, mover = await _table(sim, 2)
    # The seat-filler "thinks" two minutes here, so its turn comes after a one-minute absence.
    await sim.store.update_game(game.id, 0, settings={**game.settings, "away": "filler", "ai_delay": 120})
    sim.house.games.forget(game.id)
    seat = game.state["active"]
    await mover.slash(sim.channel, "game away", until="1m")
    await sim.settle()
    assert [t for t in await sim.store.timers(game.id) if t.kind == "ai" and t.ref == str(seat)]
    await sim.advance(125)  # the seat-filler's turn comes after the away time ended: it does not move
    g = await sim.game()
    assert g.version == game.version and g.state["taken"][seat] == 0
    assert not [t for t in await sim.store.timers(g.id) if t.kind == "ai"]


@pytest.mark.both_backends
async def test_an_away_time_outlives_a_restart(sim):
    members, game, mover = await _table(sim)
    when = datetime.fromtimestamp(_now(sim) + 10 * DAY, timezone.utc).strftime("%Y-%m-%d %H:%M")
    await mover.slash(sim.channel, "game away", until=when)
    await sim.settle()
    due = await _deadline(sim, game.id)
    await sim.restart()
    sim.keeper.refresh(game.id)
    await sim.settle()
    assert f"{mover.name} (away until <t:" in text_of(await sim.table_message())
    status = await mover.slash(sim.channel, "game away")
    assert "You are away until <t:" in reply_text(status)
    assert "You are away until <t:" in reply_text(await mover.slash(sim.channel, "game prefs"))
    other = next(m for m in members if m is not mover)
    assert "You are not away." in reply_text(await other.slash(sim.channel, "game away"))
    assert await _deadline(sim, game.id) == due


async def test_unreadable_away_times_are_refused_and_change_nothing(sim):
    members, game, mover = await _table(sim, 2)
    for text in ("soon", "-3d", "2020-01-01", "400d"):
        said = await mover.slash(sim.channel, "game away", until=text)
        assert "I could not read that" in reply_text(said), text
    assert await sim.store.away(0.0) == {}


async def test_the_lobby_shows_the_away_setting_and_its_form_changes_it(sim):
    ann = sim.player("ann")
    await sim.new_game(ann, TOY)
    assert "While a player is away: their deadlines wait" in text_of(sim.lobby_message())
    shown = await sim.lobby(ann, "opts")
    await ann.submit_modal(shown, {"lang": ["en"], "pace": "slow", "on_deadline": "ai", "away": "filler"})
    assert (await sim.game()).settings["away"] == "filler"
    assert "While a player is away: the seat-filler plays" in text_of(sim.lobby_message())


def test_away_times_are_read_from_lengths_dates_and_back():
    at = 1_800_000_000.0
    assert away.parse("3d", at) == at + 3 * DAY
    assert away.parse("1d12h", at) == at + 36 * HOUR
    assert away.parse("90m", at) == at + 90 * 60
    assert away.parse("2日", at) == at + 2 * DAY
    assert away.parse("back", at) == "back" and away.parse(" Back ", at) == "back"
    assert away.parse("2027-03-15 18:00", at) == 1_805_133_600.0
    assert away.parse("2027-03-15", at) == 1_805_068_800.0
    for bad in ("", "soon", "3x", "2027-03-15 25:00", "2020-01-01", "91d", "0d"):
        assert away.parse(bad, at) is None, bad


async def test_away_mode_holds_in_the_players_games_in_other_servers(sim):
    members, game, mover = await _table(sim, 2)
    other = sim.env.create_guild()
    there = other.create_text_channel("games")
    mover_there = other.add_member(mover.user)
    friend = other.add_member(sim.env.create_user("zoe"))
    await sim.start(friend, TOY, others=[mover_there], channel=there)
    far = await sim.game(there)
    if far.seats[far.state["active"]].user_id == friend.id:  # let the player owe something there
        panel = await sim.hand(friend, there)
        await friend.click(panel, custom_id=button(panel, label="Take 1"))
        await sim.settle()
        far = await sim.game(there)
    assert mover_there.id in [far.seats[s].user_id for s in owing(far)]
    since = len(there.history())
    await mover.slash(sim.channel, "game away", until="2d")  # said in the first server
    await sim.settle()
    said = "\n".join(text_of(m) for m in there.history()[since - 1:])
    assert f"{mover.name} is away until <t:" in said
    # The other server's game planned its timers again: a window the player owes waits for them.
    length = HOUR if far.state["owed"] == [] else HOUR // 2  # a turn, or a nod (half an hour when slow)
    assert await _deadline(sim, far.id) == pytest.approx(_now(sim) + 2 * DAY + length, abs=5)


async def test_the_settings_panel_keeps_five_rows_with_the_away_choice(sim):
    members, game, mover = await _table(sim, 2)
    ann = members[0]
    panel = await sim.settings(ann)
    ids = custom_ids(panel)
    assert any(c.endswith(":Hset:away") for c in ids) and len(ids) == 5
    # Choosing a window's length: its select takes the row, the away line stays in the text.
    chosen = panel_of(await ann.select(panel, ["turn"], custom_id=button(panel, ":Hkind")))
    ids = custom_ids(chosen)
    assert any(c.endswith(":Hlen:turn") for c in ids) and not any(c.endswith(":Hset:away") for c in ids)
    assert len(ids) == 5 and "While a player is away: their deadlines wait" in text_of(chosen)
    sim.check_wire()
