"""The house's panel-to-components conversion (cogs/shared/views.py)."""

from __future__ import annotations

from cogs.shared import codec
from cogs.shared.panel import Button, Option, Select
from cogs.shared.views import build_view


async def test_several_action_selects_on_one_panel_get_distinct_custom_ids():
    """Discord refuses a message whose components share a custom_id: a panel with two "act"
    selects (Filthy Rich's buy and repay) would not show at all."""
    def select(code: str) -> Select:
        return Select(code, "pick", [Option("a", "#0")])

    view = build_view(7, 3, [select("act"), Button("x", "zz"), select("act"), select("act:2"), select("act")])
    ids = [item.custom_id for item in view.children]
    assert len(ids) == len(set(ids)) == 5
    codes = [codec.parse(cid).code for cid in ids]
    assert codes[0] == "act" and codes[1] == "zz"
    assert all(codec.is_act_select(c) for c in codes[:1] + codes[2:])
