"""Every panel a title draws during whole AI games gives each component its own custom_id:
Discord refuses a whole message when two components share one (seen with two action selects on
a Filthy Rich panel and two deal selects on an I'm the Boss! panel)."""

import pytest

from cogs.titles.contract import PanelContext, uis
from cogs.kit.layout import panel_view
from engine.autoplay import steps
from locales import Translator

TITLES = ["blackfriday", "ewars", "filthyrich", "imtheboss"]


@pytest.mark.parametrize("title", TITLES)
def test_panels_have_distinct_custom_ids(title):
    ui = uis()[title]
    game = ui.game
    seats = game.max_players
    names = [f"P{i}" for i in range(seats)]
    drawn = 0
    for n, (state, _seat, _action, _events) in enumerate(steps(game, seats, 5)):
        if n % 3:
            continue
        for seat in range(seats):
            legal = game.legal(state, seat)
            if not legal:
                continue
            pc = PanelContext(1, n, seat, game.view(state, seat), legal, Translator("en"), names, title)
            view = panel_view(1, n, ui.panel(pc))
            ids = [item.custom_id for item in view.walk_children() if getattr(item, "custom_id", None)]
            assert len(ids) == len(set(ids)), (n, seat, sorted(ids))
            drawn += 1
    assert drawn > 20
