"""The local page in a real browser (headless Debian Chromium through Selenium): `python bot.py
--local` serves it, and a person's session plays every title through it: the command box with
its choice list, the lobby's buttons, another member joining through the "Viewing as" switcher
(hot-seat), the options form, AI seats, the private panel's selects and buttons, the clock
fast-forwarded with `/local clock`, and the table picture changing as the game moves.

One browser and one server for the whole module (CI time). Chromium or chromedriver missing is a
failure, never a skip: install them as the README says (`apt-get install -y chromium
chromium-driver`; `.ci/run` does)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from locales import tr
from tests.local.page import Page, Server, browser

TITLES = ("filthyrich", "imtheboss", "blackfriday", "ewars")
#: Live games, but E-Wars slow: in its live dice time the AI seats race through whole rounds while
#: the humans here sit still, and the page would chase a new table picture every second.
PACE = {"ewars": "slow"}
NAV = ("Rules", "Log", "Game", "My hand", "Back", "Close", "Refresh")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "local"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("local") / "boardroom-local.db")
    driver = None
    try:
        driver = browser(1280, 1600)
        yield Page(driver, server.url)
    finally:
        if driver is not None:
            driver.quit()
        code, output = server.stop()
        assert code == 0, output
        assert "Traceback" not in output, output


def move_number(page: Page) -> int:
    found = re.findall(r" · move (\d+)", page.table().text)
    assert found, "the table shows no move number"
    return int(found[-1])


def waiting_for(page: Page) -> str:
    """The first member the table says it waits for ("Waiting for: Ann, 🤖 Ada")."""
    found = re.search(r"Waiting for: ([^\n,·]+)", page.table().text)
    return found.group(1).strip() if found else ""


def wait_for_move(page: Page, move: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if move_number(page) > move:
            return True
        time.sleep(0.5)
    return False


def picture_changed(page: Page, picture: str, seconds: float) -> bool:
    """The table shows another picture within `seconds` (it arrives after its text)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if page.table_picture() != picture:
            return True
        time.sleep(1.0)
    return False


def play_from_my_hand(page: Page) -> str:
    """Open My hand and do the first thing the panel offers: a select's first option, or its
    first button that is not navigation. What was done, for the failure message."""
    page.click("My hand")
    page.quiet()
    panel = page.panel()
    assert panel.text.strip(), "My hand showed an empty panel"
    if page.selects(page.panel):
        return "picked " + page.choose(within=page.panel)
    labels = [b.text.strip() for b in page.buttons(page.panel(), "")]
    action = next((label for label in labels if label and not any(label.endswith(n) for n in NAV)), None)
    if action is not None:
        page.click(action, within=page.panel)
        return "clicked " + action
    return "nothing to do: " + panel.text[:200]


@pytest.fixture(autouse=True)
def last_look(request, page: Page):
    """What the page showed when a test ended (artifacts/local/), to see why it failed."""
    yield
    page.screenshot(ARTIFACTS / f"{request.node.name}.png")


@pytest.mark.parametrize("title", TITLES)
def test_a_title_plays_in_the_browser(page: Page, title: str):
    # The command box: /game new, its title picked by name from the list it offers.
    page.command("/game new", tr("en", f"{title}.name"))
    lobby = lambda: page.last_message(button="Add AI seat")  # noqa: E731
    assert "Players (1/" in lobby().text

    # Hot-seat: act as Ann to join, then as Alex again.
    page.act_as("Ann")
    page.click("Join", within=lobby)
    page.act_as("Alex")
    assert "Ann" in lobby().text and "Players (2/" in lobby().text

    # The host's options form: the pace, and what happens at a deadline.
    pace = PACE.get(title, "live")
    page.click("Options", within=lobby)
    page.fill_form(radios={"pace": pace, "on_deadline": "ai"})
    assert f"Pace: {pace.capitalize()}" in lobby().text

    page.click("Add AI seat", within=lobby)
    page.click("Start", within=lobby)
    page.quiet()
    picture, move = page.table_picture(), move_number(page)

    # A move from the private panel of the member the table waits for (hot-seat: Alex or Ann),
    # whatever this moment offers.
    who = waiting_for(page)
    page.act_as(who if who in ("Alex", "Ann") else "Alex")
    done = play_from_my_hand(page)
    assert page.status() != "Action was not completed.", done
    page.screenshot(ARTIFACTS / f"{title}-panel.png")
    page.act_as("Alex")

    # The AI seats move within seconds; if the game waits for a late human seat (Ann), or the
    # move changed nothing the channel sees (a free action), ten minutes later (live deadlines
    # are minutes) the AI has moved for the late seat.
    if not (wait_for_move(page, move, 10) and picture_changed(page, picture, 15)):
        page.command("/local clock", "10 minutes")
        page.last_message(containing="The clock moves 10 minutes forward")  # its reply, only to us
        assert wait_for_move(page, move, 120), f"the game did not move ({done})"
        assert picture_changed(page, picture, 120), f"the table picture did not change ({done})"
    page.screenshot(ARTIFACTS / f"{title}-table.png")

    # The host ends it from the table's ⚙️ Game menu, so the next title can open here (unless
    # it finished by itself: then its table has no menu any more).
    if page.buttons(page.table(), "Game"):
        page.click("Game", within=page.table)
        page.click("End the game", within=page.panel)
        page.click("End the game", within=page.panel)


def test_the_language_switch_reaches_the_replies(page: Page):
    """`/local language` is Discord's own language setting: what the bot answers this member
    follows it (here: there is no game, every title above was ended)."""
    page.command("/local language", "日本語")
    assert "言語を日本語にしました" in page.panel().text
    page.command("/game hand")
    assert "このチャンネルにはゲームがありません" in page.panel().text
    page.command("/local language", "English")
    assert "Your language is now English" in page.panel().text
    page.command("/game hand")
    assert "There is no game in this channel" in page.panel().text
