"""DM panels as a player lives them (issue 30, items 2 and 3): a click on a DM panel is answered
on that message even when the click itself gives its player a new obligation (the bot sends a
new DM and trims the old one only after answering), and everything addressed to one person (the
DM panel, its call, its last word) is in that person's language, whatever the game's."""

from __future__ import annotations

import pytest

from cogs.titles.contract import ui_for
from tests.support import toy
from tests.support.sim import button, labels, reply_text, text_of

TOY = toy.TITLE


def _dm_panels(member) -> list:
    return [m for m in member.user.dm_channel.history() if m.components]


async def _two_with_dm_panel(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob])
    game = await sim.game()
    mover, nodder = ([ann, bob] if game.state["active"] == 0 else [bob, ann])
    on = await nodder.slash(sim.channel, "game prefs", dm_panel=True)
    assert "DM panel on" in reply_text(on)
    await sim.settle()
    return mover, nodder


@pytest.fixture
def answers_late(sim, monkeypatch):
    """The click's answer goes out only once the table keeper has sent everything the move
    caused (a new DM, the old one trimmed): the order in which the race was lost in two
    games (the answer is drawn in a worker thread, the keeper's task runs meanwhile)."""
    from cogs.click.panel import PanelClicks

    original = PanelClicks.answer

    async def late(self, *args, **kwargs):
        await sim.keeper.idle()
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(PanelClicks, "answer", late)


async def test_a_dm_click_that_calls_its_player_again_is_answered_on_its_own_message(sim, answers_late):
    mover, nodder = await _two_with_dm_panel(sim)
    panel = await sim.hand(mover)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    dm = _dm_panels(nodder)[-1]
    assert "OK" in labels(dm)
    # The nod is the last one owed: the turn passes to the nodder, who is called by a new DM.
    result = await nodder.user.click(dm, custom_id=button(dm, label="OK"))  # in the DM, as its user
    await sim.settle()
    assert "Discord did not take my answer" not in reply_text(result)
    edits = [e for e in sim.env.http_requests if e.method == "PATCH" and e.path.endswith("/messages/@original")]
    assert edits and "Take 1" in str(edits[-1].json), "the clicked DM shows the new panel"
    game = await sim.game()
    assert game.state["active"] == game.seat_of(nodder.id), "the nodder's turn now"
    panels = _dm_panels(nodder)
    assert len(panels) == 1 and panels[0].id != dm.id, "the clicked DM goes once answered; the new one stays"
    assert "Take 1" in labels(panels[0])


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


async def test_a_dm_panel_speaks_its_players_language_in_a_game_of_another(sim, locales):
    ann, ken = sim.player("ann"), sim.player("ken")
    locales[ken.id] = "ja"
    await sim.start(ann, TOY, others=[ken])
    game = await sim.game()
    assert game.lang == "en"
    await ken.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    members = {ann.id: ann, ken.id: ken}
    while (game := await sim.game()).status == "active":
        seat = ui_for(TOY).game.to_act(game.state)[0]
        member = members[game.seats[seat].user_id]
        panel = await sim.hand(member)
        label = "OK" if game.state["owed"] else "Take 3" if game.state["pile"] >= 3 else "Take 1"
        await member.click(panel, custom_id=button(panel, label=label))
        await sim.settle()
        shown = text_of(_dm_panels(ken)[-1]) if _dm_panels(ken) else ""
        if (await sim.game()).status == "active" and shown:
            assert "あなたにだけ見えています" in shown and "only you" not in shown, shown
    last = text_of(_dm_panels(ken)[-1])
    assert "ゲームは終了しました" in last, last  # the last word too
    calls = "\n".join(m.content or "" for m in sim.channel.history())
    assert "nod (OK)" in calls and "あなたの番" not in calls  # the channel keeps the game's language
