"""The local page's own fixes (local/page, issue 28) in headless Chromium, with real mouse
clicks (WebDriver actions, never JavaScript clicks): a select near the bottom of the channel
opens and stays open at desktop and phone size without the channel moving or its pictures being
rebuilt; countdowns read from the virtual clock; discord.com links stay on the page; the page's
key survives a restart."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from locales import tr
from tests.local.page import Page, Server, browser, retry

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "local"
TIMELINE = "document.getElementById('channel-timeline')"



def start_game(page: Page) -> None:
    """A live Filthy Rich game against an AI seat, its private panel open (two selects)."""
    page.command("/game new", tr("en", "filthyrich.name"))
    lobby = lambda: page.last_message(button="Add AI seat")  # noqa: E731
    page.click("Options", within=lobby)
    page.fill_form(radios={"pace": "live", "on_deadline": "ai"})
    page.click("Add AI seat", within=lobby)
    page.click("Start", within=lobby)
    page.quiet()
    page.click("My hand")
    page.quiet()


def end_game(page: Page) -> None:
    if page.buttons(page.table(), "Game"):
        page.click("Game", within=page.table)
        page.click("End the game", within=page.panel)
        page.click("End the game", within=page.panel)


@pytest.mark.parametrize("size", [(1400, 1000), (412, 915)], ids=["desktop", "phone"])
def test_a_select_near_the_bottom_opens_with_the_mouse(server: Server, size: tuple[int, int]):
    driver = browser(*size)
    page = None
    try:
        page = Page(driver, server.url)
        start_game(page)
        trigger = page.panel().find_elements(By.CSS_SELECTOR, "button.select-trigger")[-1]
        # The select just above the bottom of the channel, where the list must open upwards.
        page.js("const t = arguments[0], box = " + TIMELINE + ".getBoundingClientRect();"
                "const r = t.getBoundingClientRect();" + TIMELINE + ".scrollTop += r.bottom - box.bottom + 8;", trigger)
        time.sleep(1.0)
        # Every picture shown now is marked: a redraw would replace it with an unmarked one.
        page.js("document.querySelectorAll('article.channel-message img').forEach(i => i.dataset.seen = '1')")
        key = trigger.get_attribute("data-control-key")
        top_of = "document.querySelector(`button.select-trigger[data-control-key='${arguments[0]}']`).getBoundingClientRect().top"
        before = page.js(f"return [{TIMELINE}.scrollTop, {top_of}]", key)
        pictures = page.js("return document.querySelectorAll('article.channel-message img[data-seen]').length")
        assert pictures >= 2, "the table and the panel show their pictures"

        ActionChains(driver).move_to_element(trigger).click().perform()
        time.sleep(1.5)
        state = page.js(f"return [{TIMELINE}.scrollTop, {top_of},"
                        " document.querySelectorAll('.preview-select.is-open').length,"
                        " [...document.querySelectorAll('.preview-select.is-open [role=option]')].length,"
                        " document.querySelectorAll('article.channel-message img[data-seen]').length]", key)
        scroll, top, open_selects, options, kept = state
        page.screenshot(ARTIFACTS / f"select-open-{size[0]}x{size[1]}.png")
        assert open_selects == 1 and options >= 2, f"the list did not open (or closed): {state}"
        assert abs(scroll - before[0]) <= 2 and abs(top - before[1]) <= 2, f"the channel moved: {before} -> {state}"
        # The panel whose select opened is redrawn (its picture comes from the page's cache);
        # every other message keeps its picture as it was.
        assert kept >= pictures - 1, f"pictures were rebuilt: {kept} of {pictures} kept"

        # The mouse picks an option, and the bot answers the pick.
        def pick() -> str:
            option = [o for o in driver.find_elements(By.CSS_SELECTOR, ".preview-select.is-open [role=option]")
                      if o.is_displayed() and o.get_attribute("aria-disabled") != "true"][0]
            label = option.text.split("\n")[0]
            ActionChains(driver).move_to_element(option).click().perform()
            return label
        picked = retry(pick)
        page.settle()
        assert page.status() != "Action was not completed.", picked
        assert not page.js("return document.querySelectorAll('.preview-select.is-open').length")
        end_game(page)
    finally:
        if page is not None:
            page.screenshot(ARTIFACTS / f"select-end-{size[0]}x{size[1]}.png")
        driver.quit()


def test_countdowns_follow_the_virtual_clock(server: Server):
    """A 5-minute live turn reads "in 5 minutes" (or 4, a few seconds on), measured from the
    virtual clock's now, and every countdown is redrawn as that clock moves, without a refresh."""
    driver = browser(1400, 1000)
    try:
        page = Page(driver, server.url)
        start_game(page)
        countdowns = lambda: page.js("return [...document.querySelectorAll('time.discord-timestamp')]"  # noqa: E731
                                     ".map(t => t.textContent)")
        assert any(text in ("in 5 minutes", "in 4 minutes") for text in retry(countdowns)), countdowns()
        page.command("/local clock", "1 minute")
        page.last_message(containing="The clock moves 1 minute forward")
        end = time.monotonic() + 30
        while not any(text in ("in 3 minutes", "in 4 minutes") and text != "in 5 minutes" for text in countdowns()):
            assert time.monotonic() < end, f"the countdowns did not follow the clock: {countdowns()}"
            time.sleep(0.5)
        end_game(page)
    finally:
        driver.quit()


def test_discord_links_stay_on_the_page(server: Server):
    """A discord.com/channels/... link to a message of the channel shows that message here."""
    driver = browser(1400, 1000)
    try:
        page = Page(driver, server.url)
        if not page.message_ids():  # run alone: a message to link to
            page.command("/game new", tr("en", "filthyrich.name"))
        first = page.message_ids()[0]
        page.js("const a = document.createElement('a'); a.id = 'probe'; a.textContent = 'jump';"
                "a.href = 'https://discord.com/channels/1/2/' + arguments[0]; a.target = '_blank';"
                "document.querySelector('article.channel-message:last-child .message-content, article.channel-message:last-child')"
                ".append(a)", first)
        handles = driver.window_handles
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "probe")).click().perform()
        page.settle()
        assert driver.window_handles == handles and driver.current_url.startswith("http://127.0.0.1"), driver.current_url
        assert retry(lambda: page.js("return window.simcordPreview.targetId") or (_ for _ in ()).throw(LookupError())) \
            == first
    finally:
        driver.quit()


def test_enter_sends_a_typed_command(server: Server):
    """Only the keyboard, as a person types (WebDriver key presses, never a click on a list):
    the command's name and Enter, arrow down to a choice and Enter, then Enter sends it. Picking
    the choice with Enter used to open the choice list again, so every later Enter picked the
    same choice again and the command never left the box (issue 28, point 7)."""
    driver = browser(1400, 1000)
    try:
        page = Page(driver, server.url)
        retry(lambda: driver.find_element(By.CSS_SELECTOR, "textarea").click())
        keys = lambda *typed: (ActionChains(driver).send_keys(*typed).perform(), time.sleep(0.8))  # noqa: E731
        keys("/local clock")
        keys(Keys.ENTER)  # the command, from the list the box offers
        open_choices = "return [...document.querySelectorAll('[role=option]')].filter(o => o.offsetParent).map(o => o.innerText)"
        assert tr("en", "local.step.10m") in page.js(open_choices), "the choice list did not open"
        keys(Keys.ARROW_DOWN, Keys.ENTER)  # "10 minutes" picked
        assert not page.js(open_choices), "the list opened again after the pick"
        keys(Keys.ENTER)  # sent
        page.settle()
        reply = page.last_message(containing="The clock moves 10 minutes forward")
        assert "Alex used /local" in reply.text, reply.text
        assert not page._draft().strip(), f"the command stayed in the box: {page._draft()!r}"
    finally:
        driver.quit()
