"""Who may do what, beyond tests/bot/test_house.py (which has: a player refused /game end and
/game settings, a channel manager ending a game with a confirmation, lobby AI seats host-only).

- a seat is played only by its own player: someone else's button (a copied custom_id) acts for
  the clicker's seat, never the seat it was drawn for; someone who left the game no longer acts
  or sees the old seat's panel; the AI plays it;
- ending a game and changing its settings: the host, or a member who can manage *this* channel
  (a role with Manage Channels, Manage Server, Administrator, or a channel overwrite granting
  Manage Channels); not a member whose role grants it but whose channel overwrite denies it,
  nor one with other moderation rights; every settings select and the end confirmation are
  checked again when clicked (a copied panel does not carry the right);
- lobby options and cancelling: the host (cancelling also channel managers);
- server defaults: members who can manage the server, not channel managers.
"""

from __future__ import annotations

import discord
import pytest

from cogs.kit import codec
from cogs.titles.contract import ui_for
from locales import Translator
from tests.support import fuzz
from tests.support.sim import button, custom_ids, first_option, labels, panel_of

HOST_ONLY = Translator("en")("core.error.host_only")


async def _toy(sim, channel=None):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob], channel=channel)
    return ann, bob


# -- seats -------------------------------------------------------------------------------------

async def test_a_copied_button_acts_for_the_clickers_own_seat_never_the_one_it_was_drawn_for(sim):
    ann, bob = await _toy(sim)
    game = await sim.game()
    members = [ann, bob]
    active = ui_for("toy").game.to_act(game.state)[0]
    mover, other = members[active], members[1 - active]
    panel = await sim.hand(mover)
    for cid in custom_ids(panel):
        parsed = codec.parse(cid)
        values = [first_option(panel)] if cid.startswith("bs:") else None
        result = await fuzz.press(sim, other, cid, values=values)
        assert fuzz.judge(result, "en") is None
        text = fuzz.reply_text(result)
        if parsed.code == "ask":  # the form opens for the clicker; submitted, it acts for them
            assert result.modal is not None
            submitted = await fuzz.submit(sim, other, codec.make("bm", game, game.version, "count"), {"n": "1"})
            text = fuzz.reply_text(submitted)
        assert "It is not your turn." in text or Translator("en")("core.error.bad_action") in text, (cid, text)
    after = await sim.game()
    assert (after.version, after.state) == (game.version, game.state)


async def test_someone_who_left_no_longer_plays_or_sees_the_seat(sim):
    ann, bob = await _toy(sim)
    game = await sim.game()
    bobs_panel = await sim.hand(bob)
    await sim.leave(bob)
    await sim.settle()
    game = await sim.game()
    assert game.seats[1].ai_plays and game.status == "active"
    table = await sim.table_message()
    refused = await bob.click(table, custom_id=button(table, code_suffix=":Hhand"))
    assert refused.ephemeral and "not playing" in refused.response.content
    for cid in custom_ids(bobs_panel):
        values = [first_option(bobs_panel)] if cid.startswith("bs:") else None
        result = await fuzz.press(sim, bob, cid, values=values)
        assert "not playing" in fuzz.reply_text(result)
    assert (await sim.game()).version == game.version
    # The seat is the AI's now: it moves when the seat has to.
    for _ in range(6):
        game = await sim.game()
        if game.status != "active" or 1 in ui_for("toy").game.to_act(game.state):
            break
        panel = await sim.hand(ann)
        label = "Take 1" if "Take 1" in labels(panel) else "OK"
        await ann.click(panel, custom_id=button(panel, label=label))
        await sim.settle()
    if game.status == "active":
        before = game.version
        await sim.run_ai()
        assert (await sim.game()).version > before


# -- ending and settings -------------------------------------------------------------------------

def _role(sim, name: str, **perms: bool):
    return sim.guild.create_role(name, permissions=discord.Permissions(**perms))


@pytest.mark.parametrize("perm", ["manage_channels", "manage_guild", "administrator"])
async def test_members_who_can_manage_the_channel_may_end_and_change_settings(sim, perm):
    ann, bob = await _toy(sim)
    boss = sim.player("boss", roles=[_role(sim, "mods", **{perm: True})])
    # From the table's ⚙️ menu, whatever the right; /game-admin is shown to server managers.
    panel = await sim.settings(boss)
    await boss.select(panel, ["900"], custom_id=next(c for c in custom_ids(panel) if c.endswith(":Hset:reminder")))
    assert (await sim.game()).settings["reminder"] == 900
    assert ("game-admin end" in boss.available_commands(sim.channel)) == (perm != "manage_channels")
    asked = panel_of(await sim.menu_click(boss, "Hendask"))
    await boss.click(asked, label="End the game")
    await sim.settle()
    assert (await sim.store.latest_in(sim.channel.id)).status == "cancelled"


async def test_a_channel_overwrite_decides_who_manages_the_channel(sim):
    """Manage Channels granted on this channel only: may end. Granted by a role but denied on
    this channel: may not. Other moderation rights (Manage Messages, Kick): may not."""
    mods = _role(sim, "mods", manage_channels=True)
    keeper = sim.player("keeper")
    barred = sim.player("barred", roles=[mods])
    janitor = sim.player("janitor", roles=[_role(sim, "janitors", manage_messages=True, kick_members=True)])
    room = sim.guild.create_text_channel("room", overwrites={
        keeper: discord.PermissionOverwrite(manage_channels=True),
        barred: discord.PermissionOverwrite(manage_channels=False),
    })
    await _toy(sim, channel=room)
    game = await sim.game(room)
    for member in (barred, janitor):
        menu = await sim.menu(member, room)
        assert not any(c.endswith((":Hsettings", ":Hendask")) for c in custom_ids(menu)), member
        for code in ("Hendask", "Hsettings", "Hend:yes"):
            refused = await fuzz.press(sim, member, codec.make("br", game, None, code), channel=room)
            assert HOST_ONLY in fuzz.reply_text(refused), (member, code)
    asked = panel_of(await sim.menu_click(keeper, "Hendask", room))
    await keeper.click(asked, label="End the game")
    await sim.settle()
    assert (await sim.store.latest_in(room.id)).status == "cancelled"


async def test_copied_settings_and_end_buttons_are_checked_again_when_clicked(sim):
    """The host's settings panel and end confirmation, copied by a player who is not the host:
    every select and the confirmation refuse, and nothing changes."""
    ann, bob = await _toy(sim)
    panel = await sim.settings(ann)
    before = (await sim.game()).settings
    for cid in custom_ids(panel):
        parsed = codec.parse(cid)
        value = {"Hset:pace": "live", "Hset:on_deadline": "skip", "Hset:reminder": "900", "Hkind": "turn"}.get(
            parsed.code, "60")
        result = await fuzz.press(sim, bob, cid, values=[value])
        assert HOST_ONLY in fuzz.reply_text(result), cid
    result = await fuzz.press(sim, bob, codec.make("bs", await sim.game(), None, "Hlen:turn"), values=["60"])
    assert HOST_ONLY in fuzz.reply_text(result)
    asked = panel_of(await sim.menu_click(ann, "Hendask"))
    end_yes = next(c for c in custom_ids(asked) if c.endswith(":Hend:yes"))
    result = await fuzz.press(sim, bob, end_yes)
    assert HOST_ONLY in fuzz.reply_text(result)
    game = await sim.game()
    assert game.status == "active" and game.settings == before


# -- the lobby and the server ------------------------------------------------------------------------

async def test_lobby_options_are_the_hosts_and_cancelling_also_channel_managers(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    mod = sim.player("mod", roles=[_role(sim, "mods", manage_channels=True)])
    await sim.new_game(ann, "imtheboss")
    await sim.lobby(bob, "join")
    game = await sim.game()
    # The options form, forged by another player (it opens for the host only).
    form = codec.make("bm", game, None, "Lform")
    result = await fuzz.submit(sim, bob, form, {"lang": "ja"})
    assert HOST_ONLY in fuzz.reply_text(result)
    await sim.lobby(ann, "addai")  # so that a Remove button stands beside its seat
    for verb in ("opts", "addai", "rmai", "start", "cancel"):
        result = await sim.lobby(bob, verb)
        assert HOST_ONLY in fuzz.reply_text(result), verb
    after = await sim.game()
    assert (after.options, after.lang, after.settings) == (game.options, game.lang, game.settings)
    assert after.status == "lobby"
    await sim.lobby(mod, "cancel")
    assert (await sim.store.latest_in(sim.channel.id)).status == "cancelled"


async def test_server_defaults_need_manage_server(sim):
    chan_mod = sim.player("chanmod", roles=[_role(sim, "chanmods", manage_channels=True)])
    owner = sim.player("owner", roles=[_role(sim, "admins", manage_guild=True)])
    assert "game-admin defaults" not in chan_mod.available_commands(sim.channel)
    # A server that granted /game-admin to channel moderators in its Integrations settings:
    # the command still checks Manage Server.
    command = sim.env.backend.find_command("game-admin", guild_id=sim.guild.id)
    sim.guild.set_command_permissions(int(command["id"]), {chan_mod: True})
    refused = await chan_mod.slash(sim.channel, "game-admin defaults", language="ja")
    assert "manage this server" in refused.response.content
    assert (await sim.store.guild_settings(sim.guild.id)).get("lang") is None
    done = await owner.slash(sim.channel, "game-admin defaults", language="ja")
    assert done.ephemeral and (await sim.store.guild_settings(sim.guild.id)).get("lang") == "ja"
