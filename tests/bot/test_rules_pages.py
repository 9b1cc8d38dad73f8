"""`/game rules` outside a game: the titles as buttons (not a question in words), and page 1 of
each title's rules says something (it used to be only a heading), in every language."""

from __future__ import annotations

import pytest

from tests.support.sim import button, in_locale, labels, panel_of, text_of


@pytest.mark.parametrize(("locale", "name"), [("en-US", "Filthy Rich"), ("ja", "フィルシーリッチ"),
                                              ("es-ES", "Filthy Rich")])
async def test_rules_without_a_title_offer_the_titles_and_page_one_has_text(sim, monkeypatch, locale, name):
    in_locale(monkeypatch, locale)
    ann = sim.player("ann")
    menu = await ann.slash(sim.channel, "game rules")
    assert menu.ephemeral
    message = panel_of(menu)
    assert len([label for label in labels(message) if label]) >= 4 and name in labels(message)
    page = panel_of(await ann.click(message, custom_id=button(message, label=name)))
    text = text_of(page)
    heading, _, body = text.partition("\n")
    # Page 1 is more than the title's heading: a paragraph of rules under it.
    assert len(body.strip()) > 80, text
