"""What every title gets from the house, played through Discord with the test-only toy title:
the lobby, restarts, stale and wrong clicks, deadlines and reminders under virtual time, DM
panels, permissions, the busy channel, the commands."""

from __future__ import annotations

import pytest

from cogs.kit import codec
from cogs.titles.contract import ui_for
from tests.support import fuzz
from tests.support.sim import button, channel_text, custom_ids, first_option, labels, panel_of, reply_text, results_message, text_of
from play.ports import Silent

pytestmark = pytest.mark.both_backends  # the house on SQLite and on PostgreSQL

TOY = "toy"


async def _seat_to_move(sim):
    game = await sim.game()
    return ui_for(TOY).game.to_act(game.state)


async def _take(sim, members, n_label="Take 1"):
    """The player whose turn it is takes coins through their panel; everyone nods."""
    seat = (await _seat_to_move(sim))[0]
    panel = await sim.hand(members[seat])
    await members[seat].click(panel, custom_id=button(panel, label=n_label))
    await sim.settle()
    for seat in await _seat_to_move(sim):
        game = await sim.game()
        if game.status != "active" or game.state["owed"] == []:
            break
        panel = await sim.hand(members[seat])
        await members[seat].click(panel, custom_id=button(panel, label="OK"))
        await sim.settle()


# -- the lobby ------------------------------------------------------------------------------

async def test_lobby_join_leave_ai_limits_and_start(sim):
    ann, bob, cat, dan, eve = (sim.player(n) for n in ("ann", "bob", "cat", "dan", "eve"))
    await sim.new_game(ann, TOY)
    lobby = sim.lobby_message()
    assert "Pennies" in text_of(lobby) and "Join" in labels(lobby)
    # The host alone cannot start a 2-4 player game.
    result = await sim.lobby(ann, "start")
    assert "needs 2 to 4 players" in result.response.content
    for member in (bob, cat, dan):
        await sim.lobby(member, "join")
    full = await sim.lobby(eve, "join")
    assert full.ephemeral and "full" in full.response.content
    again = await sim.lobby(bob, "join")
    assert "already" in again.response.content
    # Only the host adds AI seats or starts.
    refused = await sim.lobby(bob, "addai")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await sim.lobby(dan, "leave")
    await sim.lobby(ann, "addai")
    game = await sim.game()
    assert [s.is_ai for s in game.seats] == [False, False, False, True]
    await sim.lobby(ann, "rmai")
    await sim.lobby(ann, "start")
    await sim.settle()
    game = await sim.game()
    assert game.status == "active" and len(game.seats) == 3
    table = await sim.table_message()
    assert table.attachments and "My hand" in labels(table)


async def test_the_options_form_changes_language_pace_and_deadline_mode_at_once(sim):
    ann = sim.player("ann")
    await sim.new_game(ann, TOY)
    shown = await sim.lobby(ann, "opts")
    assert shown.modal is not None  # one form, not a panel of selects
    await ann.submit_modal(shown, {"lang": ["ja"], "pace": "live", "on_deadline": "skip"})
    game = await sim.game()
    assert game.lang == "ja" and game.settings["pace"] == "live" and game.settings["on_deadline"] == "skip"
    assert "言語" in text_of(sim.lobby_message())


async def test_second_game_in_a_busy_channel_points_to_a_thread(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.new_game(ann, TOY)
    busy = await sim.new_game(bob, TOY)
    assert busy.ephemeral and "already open" in busy.response.content
    started = await bob.click(busy.response.message, label="Start it in a new thread")
    assert started.acknowledged
    threads = sim.channel.threads
    assert len(threads) == 1
    game = await sim.store.live_in(threads[0].id)
    assert game is not None and game.host_id == bob.id and game.status == "lobby"


# -- a game across a restart, with stale and wrong clicks --------------------------------------

async def test_restart_mid_game_stale_and_wrong_clicks(sim):
    ann, bob, zed = sim.player("ann"), sim.player("bob"), sim.player("zed")
    members = [ann, bob]
    await sim.start(ann, TOY, others=[bob])
    await _take(sim, members)
    table_before = await sim.table_message()

    # A panel drawn now goes stale when the game moves on.
    seat = (await _seat_to_move(sim))[0]
    stale_panel = await sim.hand(members[seat])
    await sim.restart()
    await _take(sim, members)  # the same players, a fresh bot: the table's buttons still work
    game = await sim.game()
    version = game.version
    clicked = await members[seat].click(stale_panel, custom_id=button(stale_panel, label="Take 1"))
    assert "earlier moment" in text_of(panel_of(clicked))
    assert (await sim.game()).version == version  # the stale click changed nothing

    # Someone who is not seated: a polite refusal, never "This interaction failed".
    table = await sim.table_message()
    assert table.id == table_before.id  # edited in place, also across the restart
    refused = await zed.click(table, custom_id=button(table, code_suffix=":Hhand"))
    assert refused.ephemeral and "not playing" in refused.response.content

    # Play to the end after the restart.
    while (await sim.game()).status == "active":
        await _take(sim, members)
    assert "final results" in text_of(results_message(sim))
    assert sim.env.errors == []


async def test_a_move_committed_just_before_a_crash_is_told_after_the_restart(sim):
    """The crash comes between the commit and the table update: the restarted bot narrates the
    move from the log, pings the player to act and updates the table, once."""
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    await sim.start(ann, TOY, others=[bob])
    game = await sim.game()
    seat = (await _seat_to_move(sim))[0]
    keeper, sim.house.notifier = sim.house.notifier, Silent()  # the crash: nothing after the commit goes out
    try:
        assert (await sim.house.act(game.id, seat, {"type": "take", "n": 2})).kind == "applied"
    finally:
        sim.house.notifier = keeper
    said = len(sim.channel.history())
    await sim.restart()
    new = sim.channel.history()[said:]
    assert len(new) == 1, [m.content for m in new]
    narration = new[0].content
    assert "took 2; 5 left" in narration
    assert "lucky token" not in narration  # the private event stays private
    owing = (await _seat_to_move(sim))
    assert owing and all(f"<@{members[s].id}>" in narration for s in owing)
    table = await sim.table_message()
    assert "5" in text_of(table) and table.attachments[0].filename.endswith(f"-{game.version + 1}.png")
    game = await sim.game()
    assert game.told_version == game.version == 1
    await sim.restart()  # told: nothing is said twice
    assert len(sim.channel.history()) == said + 1


async def test_a_modal_and_a_select_drive_actions_and_bad_amounts_are_refused(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    await sim.start(ann, TOY, others=[bob])
    seat = (await _seat_to_move(sim))[0]
    panel = await sim.hand(members[seat])
    for bad in ("-1", "9", "two", "1.5", " ", "9" * 6, "٣٣"):
        asked = await members[seat].click(panel, custom_id=button(panel, label="Type a number"))
        assert asked.modal is not None
        result = await members[seat].submit_modal(asked, {"n": bad})
        assert "Take 1 to 3" in text_of(panel_of(result)), bad
    assert (await sim.game()).version == 0
    asked = await members[seat].click(panel, custom_id=button(panel, label="Type a number"))
    ok = await members[seat].submit_modal(asked, {"n": "２"})  # full-width digits are digits
    assert ok.acknowledged
    game = await sim.game()
    assert game.version == 1 and game.state["pile"] == 5
    # A select of actions.
    for other in await _seat_to_move(sim):
        p = await sim.hand(members[other])
        await members[other].click(p, custom_id=button(p, label="OK"))
    seat = (await _seat_to_move(sim))[0]
    panel = await sim.hand(members[seat])
    select = next(c for c in custom_ids(panel) if c.startswith("bs:"))
    option = first_option(panel)
    await members[seat].select(panel, [option], custom_id=select)
    assert (await sim.game()).state["pile"] == 4


# -- time: reminders and deadlines ------------------------------------------------------------

async def test_reminder_and_deadline_fire_under_virtual_time_across_a_restart(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    # The host sets a 15-minute reminder from /game settings (the default deadline mode is the AI).
    panel = await sim.settings(ann)
    await ann.select(panel, ["900"], custom_id=next(c for c in custom_ids(panel) if c.endswith(":Hset:reminder")))
    assert (await sim.game()).settings["reminder"] == 900
    seat = (await _seat_to_move(sim))[0]
    late = [ann, bob][seat]

    # No reminder before half of the hour's deadline has passed, then one with the seat's
    # to-do line and My hand; at most two per deadline.
    await sim.advance(901)
    assert "Reminder" not in channel_text(sim)
    await sim.advance(900)
    assert "Reminder" in sim.channel.last_message.content and f"<@{late.id}>" in sim.channel.last_message.content
    assert "My hand" in labels(sim.channel.last_message)

    await sim.restart()  # timers are rows: the deadline survives
    assert (await sim.game()).version == 0
    await sim.advance(3600)
    history = "\n".join(m.content for m in sim.channel.history())
    assert "Deadline passed" in history and "the AI answers" in history
    posted = [e for e in sim.env.http_requests if e.method == "POST" and f"Reminder: <@{late.id}>" in str(e.json)]
    assert len(posted) == 2  # at half and three quarters of the deadline, then no more
    game = await sim.game()
    assert game.version >= 1  # the AI took the late seat's coins
    assert game.state["taken"][seat] >= 1


async def test_deadline_skip_mode_applies_the_titles_timeout(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    game = await sim.game()
    await sim.store.update_game(game.id, 0, settings={**game.settings, "on_deadline": "skip"})
    sim.house.games.forget(game.id)
    await sim.advance(3601)
    game = await sim.game()
    assert game.version == 1 and game.state["pile"] == 6  # the toy's timeout takes one coin
    actions = await sim.store.actions(game.id)
    assert actions[0]["seat"] is None and actions[0]["action"]["type"] == "timeout"


async def test_ai_seats_play_on_their_own(sim):
    ann = sim.player("ann")
    await sim.start(ann, TOY, ai=2)
    # The AI seats move after their short "thinking" delay; the human's panel drives the rest.
    for _ in range(40):
        game = await sim.game()
        if game.status != "active":
            break
        await sim.run_ai()
        game = await sim.game()
        if game.status == "active" and 0 in ui_for(TOY).game.to_act(game.state):
            panel = await sim.hand(ann)
            choice = "Take 1" if "Take 1" in labels(panel) else "OK"
            await ann.click(panel, custom_id=button(panel, label=choice))
            await sim.settle()
    assert (await sim.game()).status == "finished"


# -- who may do what -------------------------------------------------------------------------

async def test_end_needs_the_host_or_a_channel_manager_and_a_confirmation(sim):
    import discord

    ann, bob = sim.player("ann"), sim.player("bob")
    mods = sim.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    mod = sim.player("mod", roles=[mods])
    await sim.start(ann, TOY, others=[bob])
    # /game-admin sits behind Manage Server by default (server admins may change that in
    # Server Settings > Integrations): a player does not even see it...
    assert "game-admin end" not in bob.available_commands(sim.channel)
    # ...nor are they offered Settings or End in the table's menu, and a forged click is refused.
    menu = await sim.menu(bob)
    assert not any(c.endswith((":Hsettings", ":Hendask")) for c in custom_ids(menu))
    game = await sim.game()
    for code in ("Hendask", "Hsettings", "Hend:yes"):
        refused = await fuzz.press(sim, bob, codec.make("br", game, None, code))
        assert "Only the host" in fuzz.reply_text(refused), code
    assert (await sim.game()).status == "active"
    # The host (no special rights) ends it from the menu, with a confirmation.
    asked = panel_of(await sim.menu_click(ann, "Hendask"))
    kept = await ann.click(asked, label="Keep playing")
    assert "goes on" in reply_text(kept) and (await sim.game()).status == "active"
    asked = panel_of(await sim.menu_click(mod, "Hendask"))  # a channel manager may end it too
    await mod.click(asked, label="End the game")
    await sim.settle()
    game = await sim.store.latest_in(sim.channel.id)
    assert game.status == "cancelled"
    assert "ended this game" in "\n".join(m.content for m in sim.channel.history())


async def test_leave_hands_the_seat_to_the_ai_and_last_human_out_ends_it(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    asked = await bob.slash(sim.channel, "game leave")  # it asks first
    kept = await bob.click(asked.response.message, label="Stay")
    assert "stay" in reply_text(kept) and (await sim.game()).seats[1].left_at is None
    asked = await bob.slash(sim.channel, "game leave")
    left = await bob.click(asked.response.message, label="Leave the game")
    assert "AI plays your seat" in reply_text(left)
    await sim.settle()
    game = await sim.game()
    assert game.seats[1].left_at is not None and game.status == "active"
    asked = await ann.slash(sim.channel, "game leave")
    await ann.click(asked.response.message, label="Leave the game")
    await sim.settle()
    game = await sim.store.latest_in(sim.channel.id)
    assert game.status == "cancelled"


# -- commands ---------------------------------------------------------------------------------

async def test_status_log_rules_settings_and_history(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    await sim.start(ann, TOY, others=[bob])
    await _take(sim, members)
    old_table = await sim.table_message()
    status = await ann.slash(sim.channel, "game status")
    assert status.ephemeral
    await sim.settle()
    new_table = await sim.table_message()
    assert new_table.id != old_table.id and sim.channel.last_message.id == new_table.id

    log = await bob.slash(sim.channel, "game log")
    assert log.ephemeral and "took 1" in text_of(log.response.message)

    assert not any(c.endswith(":Hsettings") for c in custom_ids(await sim.menu(bob)))
    panel = await sim.settings(ann)
    await ann.select(panel, ["900"], custom_id=next(c for c in custom_ids(panel) if c.endswith(":Hset:reminder")))
    assert (await sim.game()).settings["reminder"] == 900

    while (await sim.game()).status == "active":
        await _take(sim, members)
    history = await ann.slash(sim.channel, "game history")
    assert "Pennies" in text_of(history.response.message)
    stats = await ann.slash(sim.channel, "game stats")
    assert "played 1" in text_of(stats.response.message)


async def test_commands_are_registered_only_when_they_change(sim):
    def puts():
        return [e for e in sim.env.http_requests if e.method == "PUT" and e.path.endswith("/commands")]

    assert len(puts()) == 1  # the first start registers
    await sim.restart()
    assert len(puts()) == 1  # unchanged: no registration
    await sim.store.set_meta("commands:global", "something else")
    await sim.restart()
    assert len(puts()) == 2  # changed: registered again


# -- DM panels ------------------------------------------------------------------------------

async def test_dm_panel_kept_up_to_date_and_closed_dms_fall_back(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    members = [ann, bob]
    await sim.start(ann, TOY, others=[bob])
    on = await ann.slash(sim.channel, "game prefs", dm_panel=True)
    assert "DM panel on" in on.response.content
    await sim.settle()
    dm_channel = ann.user.dm_channel.id
    posts = [e for e in sim.env.http_requests if e.method == "POST" and e.path == f"/channels/{dm_channel}/messages"]
    assert any("Pennies" in str(e.json) for e in posts)
    # Bob's DMs are closed: the bot says so in the channel and stops trying.
    sim.env.inject_error("POST", "/users/@me/channels", status=403, code=50007, times=None)
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await _take(sim, members)
    await sim.settle()
    assert "could not send you a DM" in "\n".join(m.content for m in sim.channel.history())
    assert (await sim.store.prefs(bob.id))["dm_closed"] is True


# -- languages --------------------------------------------------------------------------------

async def test_replies_follow_the_users_locale_and_the_table_the_games_language(sim, monkeypatch):
    import simcord.interactions as interactions

    original = interactions.base_payload
    locales = {}

    def with_locale(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = locales.get(kwargs.get("user_id"), "en-US")
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", with_locale)
    ann, ken = sim.player("ann"), sim.player("ken")
    locales[ken.id] = "ja"
    await sim.start(ann, TOY, others=[ken])
    refused = await fuzz.press(sim, ken, codec.make("br", await sim.game(), None, "Hendask"))
    assert "ホスト" in fuzz.reply_text(refused)
    table = await sim.table_message()
    assert "My hand" in labels(table)  # the game's language is English


@pytest.mark.parametrize("verb", ["hand", "status", "leave"])
async def test_commands_without_a_game_explain_how_to_start(sim, verb):
    ann = sim.player("ann")
    result = await ann.slash(sim.channel, f"game {verb}")
    assert result.ephemeral and "/game new" in result.response.content
