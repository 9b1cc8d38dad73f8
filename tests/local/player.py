"""One member playing a whole game on the local page to its results, through real clicks
(WebDriver actions and key presses, as page.py does; never a JavaScript click): whenever the
table waits for them, they open My hand and do something the panel offers (an option of one of
its selects, or a button that is not navigation; a form that opens is filled sensibly), the
seat-fillers move by themselves, and when the table waits for nobody a person would wait, so
the clock is moved with `/local clock`. It fails on "Action was not completed." and on a panel
that offers nothing while the table waits for this member."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from locales import tr
from tests.local.page import Page, pattern, retry

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "local"
NOT_COMPLETED = "Action was not completed."
#: Buttons that move between panels or pages rather than play: never what the player picks.
NAVIGATION = ("core.table.hand", "core.table.rules", "core.table.log", "core.table.menu", "core.order.button",
              "core.undo.button", "core.learn.read", "core.learn.leave", "core.lobby.rules")
TITLE_NAVIGATION = ("ui.back", "ui.refresh")
#: A screenshot every this many picks (one of them is kept as the game's middle): a shot of the
#: whole window costs a fraction of a second, every pick's made a long game longer still.
FRAME_EVERY = 5


def navigation(lang: str, title: str) -> set[str]:
    labels = {tr(lang, key) for key in NAVIGATION} | {tr(lang, f"{title}.{key}") for key in TITLE_NAVIGATION}
    return {label.split(" ", 1)[-1] if not label[:1].isalnum() else label for label in labels} | labels


@dataclass
class Played:
    """What a whole game took: the member's moves (what was picked), the clock moved, the
    seconds, the results message's text and the guided game's lines seen on the panel."""
    picks: list[str] = field(default_factory=list)
    clock_moves: int = 0
    seconds: float = 0.0
    results: str = ""
    why: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)
    #: My hand clicks the page refused before the bot saw them, made again.
    refused: int = 0


class Player:
    def __init__(self, page: Page, title: str, tag: str, name: str = "Alex", seed: int = 28) -> None:
        self.page, self.title, self.tag, self.name = page, title, tag, name
        self.lang = page.lang
        self.random = random.Random(seed)
        self.nav = navigation(self.lang, title)
        self.played = Played()
        self.frames: list[bytes] = []
        #: Labels of the green (success) buttons of the panel last read: the ones that commit a move.
        self.committing: set[str] = set()
        #: The activity row of the last refusal made again: a new one must differ from it.
        self.refusal_seen = ""

    def t(self, key: str, **fields: object) -> str:
        return tr(self.lang, key, **fields)

    # -- starting ---------------------------------------------------------------------------

    def speak(self) -> None:
        """`/local language`: the member's panels and replies, and the lobby's default language."""
        page = self.page
        expected = self.t("local.language.set", language=self.t(f"local.language.{self.lang}"))
        said = ""
        for _ in range(3):
            # command() waits for this command's own reply: the newest /local message is it.
            page.command("/local language", tr(self.lang, f"local.language.{self.lang}"))
            said = retry(lambda: page.last_message(containing="/local").text)
            if expected in said:
                return
            # Another choice went out (seen once: English for 日本語, in the second game of a
            # run): say it again, as a person would.
        raise AssertionError(f"/local language never said {expected!r}: {said}")

    def open_lobby(self, pace: str, checks: dict[str, list[str]] | None = None,
                   texts: dict[str, str] | None = None) -> None:
        """`/game new`, the Options form (pace, the table's language, the seat-filler at a
        deadline, and the title's own options: `checks` ticks variants, `texts` types numbers, for
        a short game), as many seat-fillers as the title needs beside one person, Start."""
        page = self.page
        page.command("/game new", tr("en", f"{self.title}.name"))
        lobby = lambda: page.last_message(button=self.t("core.lobby.add_ai"))  # noqa: E731
        page.click(self.t("core.lobby.options"), within=lobby)
        page.fill_form(radios={"pace": pace, "on_deadline": "ai"}, selects={"lang": self.t(f"core.lang.{self.lang}")},
                       checks=checks or {}, texts=texts or {})
        assert self.t("core.lobby.pace", pace=self.t(f"core.pace.{pace}")) in lobby().text, lobby().text
        need = pattern(self.lang, "core.lobby.players_needed", lo=r"\d+", hi=r"\d+").search(lobby().text)
        assert need, lobby().text
        for _ in range(max(1, int(need.group("lo")) - 1)):
            page.click(self.t("core.lobby.add_ai"), within=lobby)
        page.click(self.t("core.lobby.start"), within=lobby)
        self.status_ok("Start")

    def learn(self) -> None:
        """`/game learn <title>`: a guided game against seat-fillers, started at once."""
        self.page.command("/game learn", tr("en", f"{self.title}.name"))
        started = self.t("core.learn.started", title=self.t(f"{self.title}.name")).split("**")[0]
        self.page.last_message(containing=started)

    # -- playing ----------------------------------------------------------------------------

    def status_ok(self, what: str) -> None:
        if self.page.status() == NOT_COMPLETED:
            # SimCord's diagnostics say which: refused before dispatch (the message replaced under
            # the click: stale-revision, target-unavailable) or dispatched and not answered.
            raise AssertionError(f"{what}: {NOT_COMPLETED} ({self.played.picks[-5:]})\n{self.inspector()}")

    def inspector(self) -> str:
        """The page inspector's diagnostics and the end of its activity list, as text."""
        read = "return ['diagnostics-panel', 'activity-panel'].map(i => document.getElementById(i).textContent)"
        diagnostics, activity = retry(lambda: self.page.js(read))
        return f"diagnostics: {diagnostics[-1500:]}\nactivity: {activity[-1500:]}"

    def results_message(self) -> WebElement | None:
        heading = self.t("core.results.title", title=self.t(f"{self.title}.name"))
        found = [m for m, text in self.page.message_texts() if heading in text and "Only you can see this" not in text]
        return found[-1] if found else None

    def play(self, minutes: float) -> Played:
        """Play until the results are posted (at most `minutes` of real time); screenshots of the
        start, the middle and the results in artifacts/local/."""
        page, begun = self.page, time.monotonic()
        seats = retry(lambda: self.seated(page.table().text))
        self.shot("start")
        idle = 0
        while (results := retry(self.results_message)) is None:
            elapsed = time.monotonic() - begun
            assert elapsed < minutes * 60, f"no results after {elapsed:.0f} s: {self.played.picks[-8:]}"
            move = retry(page.move)
            if self.name in retry(page.waiting_for):
                self.act(move)
                idle = 0
            elif not self.moved(move, 8.0):
                idle += 1
                self.wait_a_while()
            assert idle < 40, f"the game stands still at move {move}: {page.table().text}"
        results_text = retry(lambda: results.text)
        self.played.seconds = time.monotonic() - begun
        self.played.results = results_text
        if self.frames:
            (ARTIFACTS / f"{self.tag}-middle.png").write_bytes(self.frames[len(self.frames) // 2])
        page.jump_to_latest()
        page.js("arguments[0].scrollIntoView({block: 'end'})", results)
        self.shot("results")
        self.check_results(results_text, seats)
        return self.played

    @staticmethod
    def seated(table: str) -> list[str]:
        """The seat-fillers' names on the table ("🤖 Ada"; Latin names, which a Japanese sentence
        runs straight on from: "🤖 Adaがカードを…")."""
        names = re.findall(r"🤖 ?([A-Z][a-z]+)", table)
        assert names, f"no seat-filler on the table: {table}"
        return sorted(set(names))

    def check_results(self, text: str, fillers: list[str]) -> None:
        """The ranking names every seat, with a winner (🥇) on top."""
        lines = [line for line in text.splitlines() if line.strip()]
        ranked = [line for line in lines if re.match(r"^(🥇|🥈|🥉|\d+\.|—)", line.strip())]
        assert any(line.startswith("🥇") for line in ranked), f"no winner in the results: {text}"
        for name in [self.name, *fillers]:
            assert any(name in line for line in ranked), f"{name} is not ranked in the results: {text}"

    def moved(self, move: int, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if retry(self.results_message) is not None or retry(self.page.move) > move:
                return True
            if self.name in retry(self.page.waiting_for):
                return True
            time.sleep(0.5)
        return False

    def wait_a_while(self) -> None:
        """Nobody on the page is called and nothing moved: ten minutes pass (deadlines, dice
        time, the seat-fillers' pace), through the page's own command."""
        self.page.command("/local clock", tr("en", "local.step.10m"))
        moving = self.t("local.clock.moving", amount=self.t("local.step.10m"), when="\x00").split("\x00")[0]
        self.page.last_message(containing=moving)
        self.played.clock_moves += 1

    def act(self, move: int) -> None:
        """Open My hand and play what it offers until the game moves on or stops waiting for
        this member (a select may open a sub-panel or a form first)."""
        page = self.page
        self.open_hand()
        for _ in range(8):
            if page.form_open():
                self.played.picks.append("typed " + page.fill_form_sensibly())
                self.status_ok(f"the form ({self.played.picks[-1]})")
            panel = page.panel()
            text = retry(lambda: panel.text)  # noqa: B023
            self.read_lesson(text)
            offers = self.offers(panel) or self.offers_held()
            if not offers:
                if retry(page.move) > move or self.name not in retry(page.waiting_for):
                    return
                time.sleep(2.0)  # the table may be one publication behind the panel
                if retry(page.move) > move or self.name not in retry(page.waiting_for):
                    return
                raise AssertionError(f"the table waits for {self.name} but My hand offers nothing:\n{text}")
            self.do(self.pick(offers))
            if len(self.played.picks) % FRAME_EVERY == 1:  # the middle's candidates, not a shot per pick
                self.frames.append(page.d.get_screenshot_as_png())
            if page.form_open():
                continue
            if retry(page.move) > move or self.name not in retry(page.waiting_for):
                return

    def open_hand(self) -> None:
        """My hand on the table. A click the page refused before the bot saw it ("not_dispatched":
        a seat-filler's move published between the look and the click left the page's copy
        stale) is made once more on the table as it now stands, as a person clicks again; a
        click the bot got and did not answer (or answered too late) fails."""
        page = self.page
        page.click(self.t("core.table.hand"), within=page.table)
        if page.status() == NOT_COMPLETED:
            receipt = self.last_refusal()
            if "not_dispatched" in receipt and receipt != self.refusal_seen:
                self.refusal_seen = receipt
                self.played.refused += 1
                page.click(self.t("core.table.hand"), within=page.table)
        self.status_ok("My hand")

    def last_refusal(self) -> str:
        """The newest "not completed" row of the page inspector's activity (its technical details
        say whether the action was dispatched to the bot), or "" while it is not listed yet."""
        read = ("const rows = [...document.querySelectorAll('#activity-list > li')]"
                ".filter(row => row.textContent.includes('Action was not completed'));"
                "return rows.length ? rows[rows.length - 1].textContent : '';")
        end = time.monotonic() + 5.0
        while not (row := retry(lambda: self.page.js(read))) and time.monotonic() < end:
            time.sleep(0.5)
        return row

    def offers_held(self, seconds: float = 10.0) -> list[tuple[str, int | str]]:
        """The panel's offers once the page lets go of its buttons: while an action of the page is
        answered (a tick's publication, a seat-filler's move) SimCord marks every button
        aria-disabled, so a panel read then seemed to offer nothing (I'm the Boss! at 412x915 in
        Japanese: "💼 Deal here" and "🎲 Roll" on the panel, none enabled)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.5)
            offers = self.offers(self.page.panel())
            if offers:
                return offers
        return []

    def offers(self, panel: WebElement) -> list[tuple[str, int | str]]:
        """Every control of the panel that plays: ("select", index) or ("button", label)."""
        def look() -> list[tuple[str, int | str]]:
            found: list[tuple[str, int | str]] = []
            self.committing.clear()
            for i, trigger in enumerate(panel.find_elements(By.CSS_SELECTOR, "button.select-trigger")):
                if trigger.get_attribute("aria-disabled") != "true" and trigger.is_enabled():
                    found.append(("select", i))
            for button in panel.find_elements(By.CSS_SELECTOR, "button.component-button"):
                label = button.text.strip().split("\n")[-1].strip()
                if label and button.get_attribute("aria-disabled") != "true" and label not in self.nav:
                    found.append(("button", label))
                    if "button-style-3" in (button.get_attribute("class") or ""):
                        self.committing.add(label)
            return found
        return retry(look)

    def pick(self, offers: list[tuple[str, int | str]]) -> tuple[str, int | str]:
        """What to do, by a seeded random, leaning as a player does towards the green button
        that commits what was built up (Black Friday's ✅ Confirm after picking briefcases): an
        even pick among Confirm, Clear and the Keep-turn toggle built orders and undid them, a
        Black Friday game moving a turn in minutes."""
        committing = [o for o in offers if o[0] == "button" and o[1] in self.committing]
        if committing and self.random.random() < 0.7:
            return self.random.choice(committing)
        return self.random.choice(offers)

    def do(self, offer: tuple[str, int | str]) -> None:
        page = self.page
        kind, which = offer
        if kind == "select":
            labels = page.options(within=page.panel, select=int(which))
            label = self.random.choice(labels)
            page.choose(label, within=page.panel, select=int(which))
            self.played.picks.append("picked " + label)
        else:
            page.click(str(which), within=page.panel)
            self.played.picks.append("clicked " + str(which))
        self.status_ok(self.played.picks[-1])

    def read_lesson(self, text: str) -> None:
        why = pattern(self.lang, "core.learn.heading", why=r"[^\n]+").search(text)
        rule = pattern(self.lang, "core.learn.rule", rule=r"[^\n]+").search(text)
        if why:
            self.played.why.add(why.group("why"))
        if rule:
            self.played.rules.add(rule.group("rule"))

    def shot(self, moment: str) -> None:
        self.page.screenshot(ARTIFACTS / f"{self.tag}-{moment}.png")
