"""The house's panel-to-components conversion (cogs/kit/views.py)."""

from __future__ import annotations

from cogs.kit import codec
from cogs.kit.panel import Button, Option, Select
from cogs.kit.views import build_view


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


def test_paging_buttons_never_share_a_custom_id():
    """Found by the soak: on the second of two pages, "first" and "previous" were the same
    page, and Discord refused the log with a duplicate custom_id."""
    from cogs.table.pages import nav_buttons

    for pages in range(1, 6):
        for page in range(pages):
            codes = [b.code for b in nav_buttons("Hlog", page, pages)]
            assert len(codes) == len(set(codes)), (page, pages, codes)
            targets = {int(c.split(":")[1]) for c in codes}
            assert page not in targets and targets <= set(range(pages))
            assert (page > 0) == (page - 1 in targets) and (page < pages - 1) == (page + 1 in targets)
