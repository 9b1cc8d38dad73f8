"""Driving the local page (`python bot.py --local`) in headless Chromium through Selenium, as a
person does: typing commands in the command box, clicking buttons, picking from selects,
filling forms, switching the member one plays as. The page re-renders when the bot answers, so
every look-up is retried on a stale element; a click is never retried once it landed."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        NoSuchElementException, StaleElementReferenceException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from locales import tr

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
FLAKY = (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException,
         NoSuchElementException, LookupError)
#: Debian's packages (`apt-get install chromium chromium-driver`, in the README and .ci/run).
CHROMIUM = ("chromium", "chromium-browser")
CHROMEDRIVER = ("chromedriver",)


def _which(names: tuple[str, ...], what: str) -> str:
    for name in names:
        found = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
        if found:
            return found
    raise RuntimeError(f"{what} is missing: install it with `apt-get install -y chromium chromium-driver` "
                       f"(the README's install step; .ci/run does it). The browser tests never skip.")


def browser(width: int = 1280, height: int = 900) -> webdriver.Chrome:
    """Headless Debian Chromium; raises (the test fails) when it or its driver is missing."""
    options = webdriver.ChromeOptions()
    options.binary_location = _which(CHROMIUM, "Chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--lang=en-US"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(_which(CHROMEDRIVER, "chromedriver")), options=options)


class Server:
    """`python bot.py --local` in a child process, on a free port; `url` is the page's address
    as printed."""

    def __init__(self, db: Path, port: int = 0) -> None:
        self.db = db
        self.proc = subprocess.Popen([sys.executable, "bot.py", "--local", "--db", str(db), "--port", str(port)],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output: list[str] = []
        self.url = self._wait_for_url()
        # Read on while it runs: a pipe nobody reads fills and stalls the bot's next write, and
        # its warnings, time-stamped, tell what the bot did with an action the page calls not
        # completed (artifacts/local/server.log).
        self._reader = threading.Thread(target=self._read_on, daemon=True)
        self._reader.start()

    def _read_on(self) -> None:
        assert self.proc.stdout is not None
        log = ROOT / "artifacts" / "local" / "server.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as out:
            out.write(f"--- {time.strftime('%H:%M:%S')} {self.url}\n")
            for line in self.proc.stdout:
                self.output.append(line)
                out.write(f"{time.strftime('%H:%M:%S')} {line}")
                out.flush()

    def _wait_for_url(self, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line and self.proc.poll() is not None:
                break
            self.output.append(line)
            found = re.search(r"http://127\.0\.0\.1:\d+/#\S+", line)
            if found:
                return found.group(0)
        raise AssertionError("bot.py --local printed no address:\n" + "".join(self.output))

    def stop(self) -> tuple[int, str]:
        """Ctrl+C, as a person stops it; its exit code and the rest of what it printed."""
        import signal

        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        return self.proc.returncode, "".join(self.output)


def retry(fn: Callable[[], T], timeout: float = 20.0) -> T:
    end = time.monotonic() + timeout
    while True:
        try:
            return fn()
        except FLAKY:
            if time.monotonic() > end:
                raise
            time.sleep(0.25)


def pattern(lang: str, key: str, **groups: str) -> re.Pattern[str]:
    """A catalogue line as a regular expression: each named field matches `groups[field]`
    (a regex, e.g. r"\\d+"), the rest of the line literally; read the page in any language."""
    marks = {name: f"\x00{i}\x00" for i, name in enumerate(groups)}
    text = re.escape(tr(lang, key, **marks))
    for name, mark in marks.items():
        text = text.replace(re.escape(mark), f"(?P<{name}>{groups[name]})")
    return re.compile(text)


class Page:
    def __init__(self, driver: webdriver.Chrome, url: str, lang: str = "en") -> None:
        self.d = driver
        #: The language the bot speaks on this page (the member's, `/local language`; the
        #: table's, the lobby's Options): what `table()` and `move()` read.
        self.lang = lang
        driver.get(url)
        retry(lambda: self._need(self.d.find_elements(By.CSS_SELECTOR, "textarea"), "the command box"), 30)
        # A channel with a finished game behind it takes seconds to draw: keys typed meanwhile were lost.
        self.quiet(still=1.5)

    # -- reading ----------------------------------------------------------------------------

    @staticmethod
    def _need(found: list[T], what: str) -> T:
        if not found:
            raise LookupError(what)
        return found[-1]

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def status(self) -> str:
        return self.d.find_element(By.ID, "action-status").text

    def settle(self, timeout: float = 90.0) -> None:
        """Wait until the page's action is answered (the bot's reply is shown)."""
        end = time.monotonic() + timeout
        time.sleep(0.3)
        while time.monotonic() < end:
            if not re.search(r"Completing|Dispatch|Sending|pending", retry(self.status), re.I):
                return
            time.sleep(0.25)
        raise AssertionError(f"the page still waits for the bot: {self.status()}")

    def quiet(self, still: float = 2.5, timeout: float = 60.0) -> None:
        """Wait until the channel has not changed for `still` seconds (AI seats done moving):
        a republished page closes an open select."""
        end = time.monotonic() + timeout
        last, since = None, time.monotonic()
        # Relative times ("Deadline 5 seconds ago") tick by themselves: left out.
        script = ("return [...document.querySelectorAll('article.channel-message')].map(m => {"
                  " const c = m.cloneNode(true); c.querySelectorAll('time').forEach(t => t.remove());"
                  " return c.innerText; }).join('\\n')")
        while time.monotonic() < end:
            now = retry(lambda: self.js(script))
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= still:
                return
            time.sleep(0.25)
        raise AssertionError("the channel never stopped changing")

    def message_ids(self) -> list[str]:
        return self.js("return [...document.querySelectorAll('article.channel-message')].map(m => m.dataset.messageId)")

    def messages(self) -> list[WebElement]:
        return self.d.find_elements(By.CSS_SELECTOR, "article.channel-message")

    def message_texts(self) -> list[tuple[WebElement, str]]:
        """Every message of the channel with its text, in one call: asking each element for its
        text costs a WebDriver round trip apiece, which made every look at a long game's channel
        (hundreds of messages and buttons) take seconds, and a whole game quadratic."""
        return [(message, text) for message, text in self.js(
            "return [...document.querySelectorAll('article.channel-message')].map(m => [m, m.innerText])")]

    def text(self) -> str:
        return self.js("return [...document.querySelectorAll('article.channel-message')].map(m => m.innerText).join('\\n')")

    def last_message(self, containing: str | None = None, button: str | None = None) -> WebElement:
        """The latest message showing `containing` (text) and/or a button labelled `button`."""
        def find() -> WebElement:
            for message, text in reversed(self.message_texts()):
                if containing is not None and containing not in text:
                    continue
                if button is not None and not self.buttons(message, button):
                    continue
                return message
            raise LookupError(f"no message with {containing!r} / button {button!r}")
        return retry(find)

    @staticmethod
    def buttons(scope: WebElement, label: str) -> list[WebElement]:
        return [b for b in scope.find_elements(By.CSS_SELECTOR, "button.component-button")
                if b.text.strip().endswith(label) and b.get_attribute("aria-disabled") != "true"]

    def picture(self, message: WebElement) -> str:
        """A digest of the first picture a message shows (its bytes, as the page received them)."""
        src = retry(lambda: self._need(message.find_elements(By.CSS_SELECTOR, "img.gallery-image, img"), "a picture")
                    .get_attribute("src"))
        data = self.d.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0]).then(r => r.arrayBuffer())"
            ".then(b => done(Array.from(new Uint8Array(b)).join(','))).catch(e => done('error ' + e));", src)
        assert not data.startswith("error"), data
        return hashlib.sha256(data.encode()).hexdigest()

    def table(self) -> WebElement:
        """The table message: the public message whose footer says "Game #N · move M" (a table
        posted again further down leaves a pointer where it was; a finished game's table has no
        My hand any more)."""
        def find() -> WebElement:
            self.jump_to_latest()
            footer = pattern(self.lang, "core.table.footer_over", id=r"\d+", version=r"\d+")
            for message, text in reversed(self.message_texts()):
                if footer.search(text) and "Only you can see this" not in text:
                    return message
            raise LookupError("no table message")
        return retry(find, 60)

    def move(self) -> int:
        """The move number the table's footer shows."""
        found = pattern(self.lang, "core.table.footer_over", id=r"\d+", version=r"\d+").findall(self.table().text)
        assert found, "the table shows no move number"
        return int(found[-1][1])

    def waiting_for(self) -> str:
        """Whom the table says it waits for ("Alex, 🤖 Ada"; "" when nobody)."""
        found = pattern(self.lang, "core.table.waiting", seats=r"[^\n]+").search(self.table().text)
        return found.group("seats") if found else ""

    def jump_to_latest(self) -> None:
        """Press "New messages · jump to latest" when the page offers it, as a person would."""
        # Found in one call: asking each of the channel's buttons whether it is shown took two
        # round trips per button, the most of a long game's time (py-spy, issue 28).
        jump = self.js("return [...document.querySelectorAll('button')].filter(b => b.offsetParent !== null"
                       " && b.innerText.includes('jump to latest'))")
        if jump:
            jump[0].click()
            time.sleep(0.5)

    def table_picture(self) -> str:
        def look() -> str:
            table = self.table()
            if not table.find_elements(By.CSS_SELECTOR, "img.gallery-image"):
                # The page could not fetch it while the bot was busy drawing: ask it again.
                self.d.find_element(By.ID, "refresh").click()
                time.sleep(1.0)
                raise LookupError("the table's picture is not shown")
            return self.picture(table)
        return retry(look, 90)

    # -- doing ------------------------------------------------------------------------------

    def panel(self) -> WebElement:
        """The latest ephemeral reply (a private panel): "Only you can see this"."""
        return self.last_message(containing="Only you can see this")

    def click(self, label: str, *, within: Callable[[], WebElement] | None = None,
              containing: str | None = None) -> None:
        """Click the latest enabled button labelled `label` (in `within()`, or in the latest
        message that has one and shows `containing`), and wait for the bot's answer."""
        def find() -> WebElement:
            scope = within() if within is not None else self.last_message(containing=containing, button=label)
            return self._need(self.buttons(scope, label), f"button {label!r}")
        def press() -> None:
            try:
                find().click()
            except ElementClickInterceptedException:
                # A select's list left open lies over the button (Black Friday at 1400x1000: its
                # option descriptions took the click for 20 s): Escape closes it, as a person would.
                ActionChains(self.d).send_keys(Keys.ESCAPE).perform()
                raise
        retry(press)
        self.settle()

    def selects(self, within: Callable[[], WebElement]) -> list[str]:
        return retry(lambda: [t.text for t in within().find_elements(By.CSS_SELECTOR, "button.select-trigger")
                              if t.get_attribute("aria-disabled") != "true" and t.is_enabled()])

    def choose(self, option: str | None = None, *, within: Callable[[], WebElement], select: int = -1,
               settle: bool = True) -> str:
        """Pick from a select of `within()` (the last one unless `select` says) the first option
        whose label holds `option` (the first option when None), as a keyboard user does:
        arrow down opens the list, arrows move, Enter picks. (The page closes an open list as soon
        as the timeline scrolls, which a long panel does when a list opens below its fold, so
        a mouse click on the list is not reliable there; keys within one command are.)"""
        def pick() -> str:
            trigger = self._trigger(within, select)
            labels = self._labels(trigger)
            index = next((i for i, label in enumerate(labels) if option is None or option in label), None)
            if index is None:
                raise LookupError(f"no option {option!r} in {labels}")
            trigger.send_keys(Keys.ARROW_DOWN + Keys.ARROW_DOWN * index + Keys.ENTER)
            return labels[index]
        label = retry(pick)
        if settle:
            self.settle()
        return label

    def _trigger(self, within: Callable[[], WebElement], select: int) -> WebElement:
        triggers = within().find_elements(By.CSS_SELECTOR, "button.select-trigger")
        return self._need(triggers[select:select + 1] if select != -1 else triggers, "a select")

    def _labels(self, trigger: WebElement) -> list[str]:
        return self.js("return [...document.querySelectorAll('.preview-select')].filter(w => w.dataset.controlKey"
                       " === arguments[0]).flatMap(w => [...w.querySelectorAll('[role=option]')])"
                       ".map(o => o.innerText.split('\\n')[0])", trigger.get_attribute("data-control-key"))

    def options(self, *, within: Callable[[], WebElement], select: int = -1) -> list[str]:
        """The labels of a select's options (of `within()`, the last select unless `select` says)."""
        def look() -> list[str]:
            labels = self._labels(self._trigger(within, select))
            if not labels:
                raise LookupError("a select without options")
            return labels
        return retry(look)

    def command(self, text: str, *choices: str) -> None:
        """Type a slash command in the command box, pick each option's choice from the list the
        box offers, and send it. A draft that never left the box (seen in a window opened on a
        long channel still being drawn: the choice's Enter was lost and the list stayed open) is
        given up with the box's "Exit command mode" and typed again, as a person does."""
        before = set(self.message_ids())
        for _ in range(3):
            if self._command_once(text, choices, before):
                return
            for exit_ in self.d.find_elements(By.CSS_SELECTOR, "[aria-label='Exit command mode']")[:1]:
                retry(exit_.click)
            time.sleep(0.5)
        # A channel that merely changed (an AI move) is not proof: the command itself must have
        # left the box and been answered.
        assert self._sent(before), f"{text} {choices} was never sent: {self.status()!r}, box: {self._draft()!r}"

    def _command_once(self, text: str, choices: tuple[str, ...], before: set[str]) -> bool:
        def type_() -> WebElement:
            box = self.d.find_element(By.CSS_SELECTOR, "textarea")
            box.click()
            box.send_keys(text)
            return box
        box = retry(type_)
        retry(lambda: self._need([o for o in self.d.find_elements(By.CSS_SELECTOR, "[role=option]")
                                  if o.is_displayed() and text in o.text], f"{text} in the command list"))
        box.send_keys(Keys.ENTER)
        for choice in choices:
            # By keys, as a person types (the first choice is highlighted: arrow down to it, Enter): at phone size a
            # mouse click on the choice list lost the focus and the choice with it.
            def pick(choice: str = choice) -> None:
                labels = [o.text.strip().split("\n")[0] for o in self.d.find_elements(By.CSS_SELECTOR, "[role=option]")
                          if o.is_displayed()]
                if choice not in labels:
                    raise LookupError(f"no choice {choice!r} in {labels}")
                ActionChains(self.d).send_keys(Keys.ARROW_DOWN * labels.index(choice) + Keys.ENTER).perform()
            retry(pick)
            time.sleep(0.5)
        ActionChains(self.d).send_keys(Keys.ENTER).perform()
        # That Enter sends it (a complete command); when it did not, the loop below sends it.
        time.sleep(1.0)
        self.settle()
        for _ in range(4):
            if self._sent(before):
                return True
            # Not sent, or refused because the channel changed under it ("Action was not
            # completed": the draft stays in the box): send it again, as a person does.
            if self.js("return !!document.querySelector('.command-row')"):
                retry(self._send)
            self.settle()
            time.sleep(0.5)
        return self._sent(before)

    def _send(self) -> None:
        """Send what the box holds: its send button, or Enter where the button is out of reach
        (at phone size the command row is wider than the window)."""
        button = self.d.find_element(By.CSS_SELECTOR, "button#send-message")
        if button.is_displayed() and button.is_enabled() and self.js(
                "const r = arguments[0].getBoundingClientRect(); return r.right <= window.innerWidth", button):
            button.click()
        else:  # Enter where the focus is (the command row's last option), as a person presses it
            ActionChains(self.d).send_keys(Keys.ENTER).perform()

    def _draft(self) -> str:
        return self.js("const row = document.querySelector('.command-row'); const box = document.querySelector('textarea');"
                       " return (row ? row.innerText : '') + (box ? box.value : '')")

    def _sent(self, before: set[str]) -> bool:
        """The command left the box (no draft, nothing typed) and was answered: the page's last
        action is a completed command and its reply (or echo) is a new message."""
        replies = self.js("const a = window.simcordPreview.lastAction; return (a && a.outcomes || [])"
                          ".filter(o => o.messageId).map(o => String(o.messageId))") or []
        answered = "not completed" not in self.status() and any(r in self.message_ids() and r not in before
                                                                 for r in replies)
        return not self._draft().strip() and answered

    def act_as(self, name: str) -> None:
        """The "Viewing as" switcher: act as another member (hot-seat)."""
        from selenium.webdriver.support.select import Select

        retry(lambda: Select(self.d.find_element(By.ID, "viewer-picker")).select_by_visible_text(name))
        self.settle()
        retry(lambda: self._need([1] if Select(self.d.find_element(By.ID, "viewer-picker"))
                                 .first_selected_option.text == name else [], f"viewing as {name}"))

    def modal(self) -> WebElement:
        return retry(lambda: self._need([m for m in self.d.find_elements(By.CSS_SELECTOR, "[role=dialog]")
                                         if m.is_displayed()], "a form"))

    def form_open(self) -> bool:
        return bool(self.js("return [...document.querySelectorAll('[role=dialog]')].some(m => m.offsetParent)"))

    def fill_form_sensibly(self) -> str:
        """Fill the open form as a careful person does and submit it: the first text box the
        smallest number its label or hint names (a bid's minimum, an offer within what the deal
        pays), the other boxes left as they are; what was typed."""
        form = self.modal()
        typed = ""
        for field in form.find_elements(By.CSS_SELECTOR, "[data-custom-id]"):
            boxes = field.find_elements(By.CSS_SELECTOR, "input:not([type=radio]):not([type=hidden]), textarea")
            if not boxes or typed:
                continue
            numbers = [int(n) for n in re.findall(r"\d+", field.text + " " + (boxes[0].get_attribute("placeholder") or ""))]
            typed = str(min(numbers)) if numbers else "1"
            boxes[0].clear()
            boxes[0].send_keys(typed)
        retry(lambda: self.modal().find_element(By.CSS_SELECTOR, "button[type=submit]").click())
        self.settle()
        return typed

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.d.save_screenshot(str(path))

    def fill_form(self, *, radios: dict[str, str] = {}, selects: dict[str, str] = {},  # noqa: B006
                  texts: dict[str, str] = {}, checks: dict[str, list[str]] = {}) -> None:  # noqa: B006
        """Fill the open form (fields named by their custom id; `checks` ticks those boxes of a
        checkbox group) and submit it."""
        form = self.modal()
        for field, value in radios.items():
            retry(lambda f=field, v=value: form.find_element(
                By.CSS_SELECTOR, f"[data-custom-id='{f}'] input[type=radio][value='{v}']").click())
        for field, values in checks.items():
            for value in values:
                box = retry(lambda f=field, v=value: form.find_element(
                    By.CSS_SELECTOR, f"[data-custom-id='{f}'] input[type=checkbox][value='{v}']"))
                if not box.is_selected():
                    retry(box.click)
                assert box.is_selected(), f"{field}: {value} is not ticked"
        for field, label in selects.items():
            self.choose(label, within=lambda f=field: self.modal().find_element(By.CSS_SELECTOR, f"[data-custom-id='{f}']"),
                        settle=False)
        for field, text in texts.items():
            def type_(f: str = field, text: str = text) -> None:
                # Looked up in the form as it is now: a select's pick above redrew it.
                box = self.modal().find_element(By.CSS_SELECTOR, f"[data-custom-id='{f}'] input, [data-custom-id='{f}'] textarea")
                box.clear()
                box.send_keys(text)
                if box.get_attribute("value") != text:
                    raise LookupError(f"{f}: {box.get_attribute('value')!r}, not {text!r}")
            retry(type_)
        # A select's pick redraws the form: its submit button is looked up again.
        retry(lambda: self.modal().find_element(By.CSS_SELECTOR, "button[type=submit]").click())
        self.settle()
