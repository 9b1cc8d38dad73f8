"""What people read is written by each language's rules (CLDR through Babel): lists of names,
durations in the settings panel."""

from __future__ import annotations

import pytest

from tests.support.bot_games import start_game
from tests.support.sim import TIGHT, button, components_of, text_of


@pytest.fixture
def locales(monkeypatch):
    """user id -> Discord locale of their interactions (default en-US)."""
    import simcord.interactions as interactions

    original = interactions.base_payload
    chosen: dict[int, str] = {}

    def with_locale(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = chosen.get(kwargs.get("user_id"), "en-US")
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", with_locale)
    return chosen


async def test_the_settings_panel_writes_durations_in_the_readers_language(sim, locales):
    ann, ken, eva = sim.player("ann"), sim.player("ken"), sim.player("eva")
    locales[ken.id], locales[eva.id] = "ja", "es-ES"
    await start_game(sim, ann, "toy", others=(ken, eva), settings={"reminder": 5400})
    game = await sim.game()
    await sim.store.update_game(game.id, 0, host_id=ken.id)  # ken may open the settings too
    sim.house.games.forget(game.id)
    ja = await sim.settings(ken)
    assert "1 時間 30 分" in text_of(ja)
    reminder = next(c for c in components_of(ja) if (c.custom_id or "").endswith(":Hset:reminder"))
    assert [o.label for o in reminder.options][1:] == ["15 分", "1 時間", "4 時間", "12 時間", "1 日"]
    await sim.store.update_game(game.id, 0, host_id=eva.id)
    sim.house.games.forget(game.id)
    es = await sim.settings(eva)
    assert "1 h y 30 min" in text_of(es)
    await sim.store.update_game(game.id, 0, host_id=ann.id)
    sim.house.games.forget(game.id)
    en = await sim.settings(ann)
    assert "1 hr, 30 min" in text_of(en)


@pytest.mark.parametrize("lang, joined", [("en", "Waiting for: {}, {}"), ("ja", "待っている人：{}、{}")])
async def test_the_table_lists_who_must_act_with_the_games_punctuation(sim, lang, joined):
    """After a coin is taken the two other players owe a nod: the table names both (a list in
    the "Waiting for" row, with the language's separator from CLDR)."""
    from cogs.titles.contract import ui_for

    people = [sim.player(n) for n in ("ann", "bob", "cy")]
    game = await sim.open_lobby(people[0], "toy", people[1:])
    await sim.store.update_game(game.id, 0, lang=lang, settings={**game.settings, **TIGHT, "ai_delay": 10})
    await sim.lobby(people[0], "start")
    await sim.settle()
    game = await sim.game()
    seat = ui_for("toy").game.to_act(game.state)[0]
    panel = await sim.hand(people[seat])
    await people[seat].click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    owed = (await sim.game()).state["owed"]
    table = text_of(await sim.table_message())
    assert joined.format(*(game.seats[s].name for s in owed)) in table, table


async def test_a_new_game_speaks_its_hosts_language_unless_the_server_chose_one(sim, locales):
    # Every non-Community server reports en-US: the host's own Discord locale is the better guess.
    ken, ann = sim.player("ken"), sim.player("ann")
    locales[ken.id] = "ja"
    game = await sim.open_lobby(ken, "filthyrich")
    assert game.lang == "ja"
    await sim.lobby(ken, "cancel")
    # A language the server's admins set with /game-admin defaults wins over the host's.
    await sim.store.set_guild_settings(sim.channel.guild.id, {"lang": "es"})
    game = await sim.open_lobby(ken, "filthyrich")
    assert game.lang == "es"
    # And an English host gets English where nothing was set.
    await sim.lobby(ken, "cancel")
    await sim.store.set_guild_settings(sim.channel.guild.id, {})
    assert (await sim.open_lobby(ann, "filthyrich")).lang == "en"
