"""Whole games in a real browser (issue 28, "Done when"): one person and seat-fillers play each
title to its results through real clicks on the local page (tests/local/player.py), at desktop
(1400x1000) and phone (412x915) size, in English and in Japanese; and a guided game
(`/game learn`) of each title to its end, its panel showing the 💡 Why and 📖 New rule lines.
Screenshots of each game's start, middle and results land in artifacts/local/.

Sixteen whole games and four guided ones take far too long for every CI run: one short Filthy
Rich game runs every time, the rest are marked slow (see DEFAULT); `-m "slow or not slow"` runs
them."""

from __future__ import annotations

import time

import pytest

from locales import tr
from tests.local.page import Page, Server, browser
from tests.local.player import ARTIFACTS, Player

TITLES = ("filthyrich", "imtheboss", "blackfriday", "ewars")
SIZES = {"desktop": (1400, 1000), "phone": (412, 915)}
LANGS = ("en", "ja")
#: Live games, but E-Wars slow: in its live dice time the seat-fillers race through whole rounds
#: while the person here reads (test_browser.py).
PACE = {"ewars": "slow"}
#: The short games the lobby's Options offer (a whole game all the same, ended by its own rule):
#: Filthy Rich's round limit, I'm the Boss!'s short game (without deal cards #3, #6, #9). Black
#: Friday and E-Wars offer none.
CHECKS = {"imtheboss": {"variants": ["short_game"]}}
TEXTS = {"filthyrich": {"opt:round_limit": "5"}}
#: Played on every run (CI time), the rest slow-marked: what fits the ~3 minutes CI can spare.
#: Filthy Rich with its round limit is bounded (five rounds of two seats): 92 s from Start to the
#: results at 412x915 in English on a loaded 2-core machine, plus about 30 s to start the bot. The
#: others took 2-3 minutes (I'm the Boss!'s short game) or far more (Black Friday, E-Wars, the
#: guided games, which are whole games of three seats).
DEFAULT: set[tuple[str, str, str]] = {("filthyrich", "phone", "en")}
DEFAULT_LEARN: set[str] = set()
#: Real minutes a game may take before the test calls it stuck. A two-seat Black Friday game is
#: about 95 moves (half of them the person's) and E-Wars about 180 (engine.autoplay, five seeds);
#: on a loaded 2-core machine Black Friday moved about 3.5 moves a minute.
MINUTES = 45



@pytest.fixture
def page_at(server: Server, request):
    """A browser window of the size asked, on the page; its last look saved, a game that
    failed ended (from its ⚙️ Game menu) so the next one can open in the channel."""
    opened: list[tuple[object, Page]] = []

    def open_(size: str, lang: str) -> Page:
        driver = browser(*SIZES[size])
        page = Page(driver, server.url, lang)
        opened.append((driver, page))
        return page
    yield open_
    for driver, page in opened:
        try:
            page.screenshot(ARTIFACTS / f"{request.node.name}-last.png")
            menu = tr(page.lang, "core.table.menu")
            tables = [m for m in page.messages() if page.buttons(m, menu)]
            if tables:
                end = tr(page.lang, "core.menu.end")
                page.click(menu, within=page.table)
                page.click(end, within=page.panel)
                page.click(end, within=page.panel)
        finally:
            driver.quit()


def cases(default: set[tuple[str, str, str]]) -> list:
    return [pytest.param(title, size, lang, marks=() if (title, size, lang) in default else pytest.mark.slow,
                         id=f"{title}-{size}-{lang}")
            for title in TITLES for size in SIZES for lang in LANGS]


@pytest.mark.parametrize(("title", "size", "lang"), cases(DEFAULT))
def test_a_whole_game_to_its_results(page_at, title: str, size: str, lang: str):
    page = page_at(size, lang)
    player = Player(page, title, f"game-{title}-{size}-{lang}")
    player.speak()
    player.open_lobby(PACE.get(title, "live"), CHECKS.get(title), TEXTS.get(title))
    began = time.monotonic()
    played = player.play(MINUTES)
    print(f"\n{title} {size} {lang}: {played.seconds:.0f} s, {len(played.picks)} picks, "
          f"{played.clock_moves} clock moves, {played.refused} refused My hand made again "
          f"({time.monotonic() - began:.0f} s)")
    assert played.picks, "the person never played"


@pytest.mark.parametrize("title", [pytest.param(t, marks=() if t in DEFAULT_LEARN else pytest.mark.slow)
                                   for t in TITLES])
def test_a_guided_game_to_its_end(page_at, title: str):
    page = page_at("desktop", "en")
    player = Player(page, title, f"learn-{title}")
    player.speak()
    player.learn()
    played = player.play(MINUTES)
    print(f"\nlearn {title}: {played.seconds:.0f} s, {len(played.picks)} picks, {played.clock_moves} clock moves")
    assert played.why, "no 💡 Why line on the panel"
    assert played.rules, "no 📖 New rule line on the panel"
