"""I'm the Boss! in the lobby (issue 15): the two-player rules are offered only to two players
(a 3-4 player lobby never shows them, ticked or not), and every variant's description fits
Discord's 100 characters whole, in every language, so none is cut mid-word."""

from __future__ import annotations

from typing import Any

import pytest

from engine.imtheboss import GAME
from locales import tr
from tests.support.sim import modal_nodes


def _checkboxes(modal: dict[str, Any]) -> list[dict[str, Any]]:
    return [option for group in modal_nodes(modal, lambda node: node.get("custom_id") == "variants")
            for option in group.get("options", [])]


@pytest.mark.parametrize("players", [3, 4])
async def test_a_three_or_four_player_lobby_does_not_offer_two_player_rules(sim, players):
    members = [sim.player(n) for n in ("ann", "bob", "cal", "dot")[:players]]
    await sim.new_game(members[0], "imtheboss")
    for m in members[1:]:
        await sim.lobby(m, "join")
    shown = await sim.lobby(members[0], "opts")
    boxes = _checkboxes(shown.modal)
    assert boxes, "the variants are offered"
    assert "two_player" not in {b["value"] for b in boxes}
    assert not any(b.get("default") for b in boxes)  # nothing is ticked for the host
    for b in boxes:  # each description is the whole help text, never cut
        assert b["description"] == tr("en", f"imtheboss.option.{b['value']}.help")


async def test_two_players_see_the_two_player_rules_ticked_and_why(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.new_game(ann, "imtheboss")
    await sim.lobby(bob, "join")
    boxes = {b["value"]: b for b in _checkboxes((await sim.lobby(ann, "opts")).modal)}
    assert boxes["two_player"].get("default") is True
    assert boxes["two_player"]["description"].startswith("Only with 2 players")
    assert "less_cutthroat" not in boxes


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_every_variant_description_fits_100_characters(lang):
    for o in GAME.options:
        help_text = tr(lang, f"imtheboss.option.{o.key}.help")
        assert len(help_text) <= 100, (lang, o.key, len(help_text))
        assert len(tr(lang, f"imtheboss.option.{o.key}.label")) <= 45, (lang, o.key)
