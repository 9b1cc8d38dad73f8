"""Nothing leaked: random games of every title played through the real bot in SimCord, with a
`LeakWatch` (tests/support/leakwatch.py) on every request the bot sends, and bad input sprinkled in
(tests/support/fuzz.py).

    await leak_rounds(games_per_title, seed)  ->  {"games": {title: n}, "actions", "bad_inputs",
                                                   "leaks", "leak_list", "problems", ...}

Each game: a random title and player count (people and AI seat-fillers), options, language (en
or ja, for the table) and people's Discord locales (en or ja, for their panels and replies); some
people keep their panel in a DM. People act by opening My hand and clicking at random through
their panel (sub-menus, selects, forms filled with plausible numbers); when a few clicks lead
nowhere they make the AI's choice for their seat through the house, so every game moves on. AI
seats move when their timer fires (the scheduler's own `fire`), one at a time, and time passes
only when nothing else can happen (deadlines). After every step the bot settles, the watch is
checkpointed and checked, so each request is judged against the exact version it was drawn
from. Now and then someone tries a bad input (`fuzz.try_bad_input`), which must be answered,
must change nothing and must be in the clicker's language.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import discord
import simcord
import simcord.interactions as sim_interactions

import engine
from app import create_bot
from cogs.kit import codec
from store import Store
from tests.support import fuzz
from tests.support.leaks import format_leaks, plant_numbers
from tests.support.leakwatch import LeakWatch
from tests.support.sim import Sim, clickable, custom_ids, modal_inputs, panel_of, reply_text

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")
#: Live deadlines; an AI "thinking" delay longer than SimCord's settle timeout, so AI timers
#: only fire when this driver fires them (one at a time) or virtual time passes.
SETTINGS = {"pace": "live", "ai_delay": 30}
#: SimCord's settle timeout (wall-clock seconds): generous, for machines busy with other work.
SETTLE_TIMEOUT = 20.0


@dataclass
class GameReport:
    title: str
    seats: int = 0
    humans: int = 0
    lang: str = "en"
    actions: int = 0
    finished: bool = False
    bad_inputs: int = 0
    clicks: int = 0
    dm_clicks: int = 0
    looks: int = 0
    leaks: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    bad_input_problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)


@contextmanager
def user_locales(locales: dict[int, str]) -> Iterator[None]:
    """Interactions from each user carry their Discord locale (SimCord sends en-US)."""
    original = sim_interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any):
        record, payload = original(*args, **kwargs)
        payload["locale"] = locales.get(kwargs.get("user_id"), "en-US")
        return record, payload

    sim_interactions.base_payload = with_locale
    try:
        yield
    finally:
        sim_interactions.base_payload = original


class PrivateGame:
    """One random game with a leak watch on the wire."""

    def __init__(self, sim: Sim, watch: LeakWatch, title: str, seed: int, *, bad_rate: float,
                 locales: dict[int, str]) -> None:
        self.sim = sim
        self.watch = watch
        self.title = title
        self.rng = random.Random(f"{seed}/privacy")
        self.seed = seed
        self.bad_rate = bad_rate
        self.locales = locales
        self.report = GameReport(title)
        self.game_id = 0
        self.members: dict[int, Any] = {}
        self.outsider: Any = None
        self.engine = engine.get(title)

    async def start(self) -> None:
        rng, g = self.rng, self.engine
        n = rng.randint(g.min_players, g.max_players)
        humans = rng.randint(1, min(3, n))
        options: dict[str, Any] = {}
        for spec in g.offered_options(n):
            if spec.kind == "bool" and rng.random() < 0.3:
                options[spec.key] = not spec.default
        people = [self.sim.player(f"{self.title[:4]}{self.seed % 1000}p{i}") for i in range(humans)]
        self.outsider = self.sim.player(f"{self.title[:4]}{self.seed % 1000}x")
        for member in people + [self.outsider]:
            self.locales[member.id] = rng.choice(["en-US", "ja"])
        lang = rng.choice(["en", "ja"])
        game = await self.sim.open_lobby(people[0], self.title, people[1:], n - humans)
        await self.sim.store.update_game(game.id, 0, seed=self.seed % 2**31, options=options, lang=lang,
                                         settings={**game.settings, **SETTINGS,
                                                   "on_deadline": rng.choice(["ai", "ai", "skip"])})
        started = await self.sim.lobby(people[0], "start")
        await self.sim.settle()
        game = await self.sim.game()
        if game is not None and game.status == "lobby":  # variants that do not go together: the defaults
            options = {}
            await self.sim.store.update_game(game.id, 0, options=options)
            started = await self.sim.lobby(people[0], "start")
            await self.sim.settle()
            game = await self.sim.game()
        assert game is not None and game.status == "active", \
            f"{self.title} did not start ({n} seats, options {options}): {reply_text(started)}"
        self.game_id = game.id
        self.members = {s.seat: next(m for m in people if m.id == s.user_id) for s in game.seats if not s.is_ai}
        self.report.seats, self.report.humans, self.report.lang = n, humans, lang
        if self.title == "blackfriday":
            # Private numbers an observer could not mistake for anything else on the table.
            state = json.loads(json.dumps(game.state))
            plant_numbers(state)
            await self.sim.store.update_game(game.id, 0, state=state)
            self.sim.house.games.forget(game.id)
        self.dm_users: set[int] = set()
        for member in people:
            if rng.random() < 0.35:
                await member.slash(self.sim.channel, "game prefs", dm_panel=True)
                self.dm_users.add(member.id)
        await self.settled()

    async def settled(self) -> None:
        await self.sim.settle()
        self.watch.checkpoint()
        self.report.leaks += await self.watch.check()

    async def game(self):
        game = await self.sim.store.get(self.game_id)
        assert game is not None
        return game

    async def step(self) -> bool:
        """One thing happens; False once the game is over or stuck."""
        game = await self.game()
        if game.status != "active":
            return False
        if self.rng.random() < self.bad_rate:
            await self.bad_input(game)
            game = await self.game()
            if game.status != "active":
                return False
        if self.rng.random() < 0.05:
            await self.look()
        g = self.engine
        movable = [s for s in self.members if g.legal(game.state, s)]
        timers = await self.sim.store.timers(self.game_id)
        ai = sorted((t for t in timers if t.kind == "ai"), key=lambda t: t.due_at)
        if movable and (not ai or self.rng.random() < 0.5):
            seat = self.rng.choice(movable)
            # Some clicks at random (every corner of the panels), most as a sensible player would
            # (the seat-filler's choice, clicked on the panel when it is there), so games end.
            if self.rng.random() < 0.35:
                moved = await self.walk(seat)
            else:
                moved = await self.sensible(seat)
            if not moved:
                await self.fallback(seat)
            return True
        if ai:
            await self.sim.house.timers.fire(ai[0])
            await self.settled()
            return True
        if not await self.sim.next_timer(self.game_id):
            self.report.problems.append(f"{self.title} game {self.game_id} v{game.version}: stuck (no timer, "
                                        f"no person can move)")
            return False
        self.watch.checkpoint()
        self.report.leaks += await self.watch.check()
        return True

    async def walk(self, seat: int) -> bool:
        """Open My hand and click at random (following sub-menus and forms) until an action
        applies (True) or a few clicks led nowhere."""
        member = self.members[seat]
        start = (await self.game()).version
        actor: Any = member
        panel = self.dm_panel(member) if member.id in self.dm_users and self.rng.random() < 0.5 else None
        if panel is not None:
            actor = member.user  # clicks in the DM, where the panel lives
        else:
            panel = await self.sim.hand(member)
            await self.settled()
            self.apologies(panel, "My hand")
        for _ in range(5):
            comps = clickable(panel)
            if not comps:
                return False
            comp = self.rng.choice(comps)
            self.report.clicks += 1
            self.report.dm_clicks += int(actor is not member)
            if isinstance(comp, discord.SelectMenu):
                k = self.rng.randint(max(1, comp.min_values), max(1, min(comp.max_values, len(comp.options))))
                values = [o.value for o in self.rng.sample(list(comp.options), min(k, len(comp.options)))]
                result = await actor.select(panel, values, custom_id=comp.custom_id)
            else:
                result = await actor.click(panel, custom_id=comp.custom_id)
            if result.modal is not None:
                values = {}
                for node in modal_inputs(result.modal):
                    text = str(self.rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20]))
                    lo = int(node.get("min_length") or 0)
                    values[node["custom_id"]] = text.rjust(lo, "1")[: int(node.get("max_length") or 4000)]
                fuzz.remember_modal(result.modal)
                try:
                    result = await actor.submit_modal(result, values)
                except simcord.SetupError:
                    return False
            await self.settled()
            if not (result.acknowledged or result.modal is not None):
                self.report.problems.append(f"{self.title} game {self.game_id}: no reply to {comp.custom_id}")
            for message in ([result.response] if result.response else []) + list(result.followups):
                self.apologies(message.message, comp.custom_id)
            if (await self.game()).version != start:
                self.report.actions += 1
                return True
            try:
                panel = panel_of(result)
            except AssertionError:
                return False
        return False

    def dm_panel(self, member: Any) -> Any:
        """The player's DM panel message (the newest bot message with components in their DM)."""
        for message in reversed(member.user.dm_channel.history()):
            if message.components:
                return message
        return None

    async def look(self) -> None:
        """Someone (playing or not) looks: the log, the rules, the table posted again."""
        who = self.rng.choice([*self.members.values(), self.outsider])
        self.report.looks += 1
        what = self.rng.choice(["log", "log_button", "status", "rules"])
        if what == "log_button":
            table = await self.sim.table_message()
            cid = next((c for c in custom_ids(table) if c.endswith(":Hlog")), None)
            result = await who.click(table, custom_id=cid) if cid else None
        elif what == "log":
            result = await who.slash(self.sim.channel, "game log", page=self.rng.randint(1, 3))
        else:
            result = await who.slash(self.sim.channel, f"game {what}")
        await self.settled()
        if result is not None:
            for message in ([result.response] if result.response else []) + list(result.followups):
                self.apologies(message.message, f"/game {what}")

    async def sensible(self, seat: int) -> bool:
        """Open My hand and click the seat-filler's choice if the panel has it as a button or a
        select option (True once it applied)."""
        game = await self.game()
        g = self.engine
        legal = g.legal(game.state, seat)
        action = g.ai_action(g.view(game.state, seat), legal, self.rng) if legal else None
        if action is None:
            return False
        member = self.members[seat]
        panel = await self.sim.hand(member)
        await self.settled()
        self.apologies(panel, "My hand")
        for comp in clickable(panel):
            parsed = codec.parse(comp.custom_id)
            if parsed is None:
                continue
            if isinstance(comp, discord.SelectMenu) and codec.is_act_select(parsed.code):
                for option in comp.options:
                    if codec.decode_action(option.value, legal) == action:
                        result = await member.select(panel, [option.value], custom_id=comp.custom_id)
                        break
                else:
                    continue
            elif isinstance(comp, discord.Button) and codec.is_action_code(parsed.code) \
                    and codec.decode_action(parsed.code, legal) == action:
                result = await member.click(panel, custom_id=comp.custom_id)
            else:
                continue
            self.report.clicks += 1
            await self.settled()
            for message in ([result.response] if result.response else []) + list(result.followups):
                self.apologies(message.message, comp.custom_id)
            if (await self.game()).version != game.version:
                self.report.actions += 1
                return True
            return False
        return False

    def apologies(self, message: Any, what: str) -> None:
        """The house apologises only when something failed inside it: count it as a problem."""
        if any(text in (message.content or "") for text in fuzz.INTERNAL):
            self.report.problems.append(f"{self.title} game {self.game_id}: {what} failed inside the bot "
                                        f"(internal-error reply)")

    async def fallback(self, seat: int) -> None:
        """The player makes the seat-filler's choice (or any legal move) through the house."""
        game = await self.game()
        g = self.engine
        legal = g.legal(game.state, seat)
        if not legal:
            return
        action = g.ai_action(g.view(game.state, seat), legal, self.rng) or self.rng.choice(legal)
        result = await self.sim.house.act(self.game_id, seat, action, user_id=self.members[seat].id,
                                          version=game.version)
        if result.applied:
            self.report.actions += 1
        await self.settled()

    async def bad_input(self, game) -> None:
        outcome = await fuzz.try_bad_input(self.sim, game, self.members, self.outsider, self.rng, self.locales)
        self.report.bad_inputs += 1
        if outcome.problem:
            self.report.bad_input_problems.append(f"{self.title} game {self.game_id}: bad input {outcome.kind}: "
                                                  f"{outcome.problem}")
        await self.settled()


async def play_private(db_path: Path, title: str, seed: int, *, max_steps: int, bad_rate: float,
                       max_seconds: float | None = None) -> GameReport:
    """One game; it stops when over, after `max_steps` steps, or after `max_seconds` of wall-clock
    time. A failure of the driver itself is reported as a problem, with what was found so far."""
    bot = create_bot(db_path)
    locales: dict[int, str] = {}
    stores: list[Store] = []
    started = time.perf_counter()
    try:
        report = await _play_private(bot, db_path, title, seed, max_steps=max_steps, bad_rate=bad_rate,
                                     locales=locales, stores=stores, max_seconds=max_seconds)
    finally:
        for store in stores:
            await store.close()
    report.seconds = round(time.perf_counter() - started, 1)
    return report


async def _play_private(bot: Any, db_path: Path, title: str, seed: int, *, max_steps: int, bad_rate: float,
                        locales: dict[int, str], stores: list[Store], max_seconds: float | None) -> GameReport:
    async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT) as env:
        sim = Sim(env, db_path)
        watch = LeakWatch(sim, seed=seed)
        watch.install()
        pg = PrivateGame(sim, watch, title, seed, bad_rate=bad_rate, locales=locales)
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        try:
            try:
                with user_locales(locales):
                    await pg.start()
                    for _ in range(max_steps):
                        if not await pg.step() or (deadline is not None and time.perf_counter() > deadline):
                            break
                    await pg.settled()
            except Exception as exc:  # the driver or SimCord gave up: say so, keep what was found
                pg.report.problems.append(f"{title} seed {seed}: the game was cut short: {exc!r}"[:400])
                pg.report.leaks += await watch.check()
            game = await pg.game()
            pg.report.finished = game.status == "finished"
            pg.report.actions = game.version
            pg.report.problems += [f"{title} game {pg.game_id}: Discord would refuse: {w}"
                                   for w in sim.wire_problems()[:3]]
            pg.report.problems += [f"{title} game {pg.game_id}: bot error {e!r}" for e in env.errors[:3]]
            pg.report.stats = dict(watch.stats)
        finally:
            watch.uninstall()
            if sim.bot.house is not None:
                await sim.bot.house.stop()  # no timer wakes on the database closed below
            if sim.bot.store is not None:
                stores.append(sim.bot.store)
    return pg.report


async def leak_rounds(games_per_title: int = 1, seed: int = 0, *, titles: tuple[str, ...] = TITLES,
                      max_steps: int = 400, bad_rate: float = 0.08, max_seconds: float | None = None,
                      progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play `games_per_title` random games of each title with the leak watch on and bad input
    sprinkled in; count what was played and found. A healthy house: leaks 0, problems [].
    `problems` holds everything else that went wrong (a bad input not answered as it should be,
    also listed in `bad_input_problems`; an internal-error reply; a request Discord would refuse;
    a stuck game)."""
    started = time.perf_counter()
    out: dict[str, Any] = {"games": {}, "actions_per_title": {}, "finished": 0, "actions": 0, "clicks": 0,
                           "dm_clicks": 0, "looks": 0,
                           "bad_inputs": 0, "leaks": 0, "requests": 0, "pictures": 0, "views_checked": 0,
                           "leak_list": [], "problems": [], "bad_input_problems": []}
    with tempfile.TemporaryDirectory(prefix="boardroom-privacy-") as tmp:
        for i in range(games_per_title):
            for title in titles:
                game_seed = random.Random(f"{seed}/{title}/{i}").randrange(2**31)
                report = await play_private(Path(tmp) / f"{title}-{i}.db", title, game_seed,
                                            max_steps=max_steps, bad_rate=bad_rate, max_seconds=max_seconds)
                if progress is not None:
                    progress(f"privacy {title} #{i + 1}: {report.seats} seats, {report.actions} actions, "
                             f"{'finished' if report.finished else 'cut short'}, {len(report.leaks)} leaks, "
                             f"{len(report.problems) + len(report.bad_input_problems)} problems, {report.seconds}s")
                out["games"][title] = out["games"].get(title, 0) + 1
                out["actions_per_title"][title] = out["actions_per_title"].get(title, 0) + report.actions
                out["finished"] += int(report.finished)
                out["actions"] += report.actions
                out["clicks"] += report.clicks
                out["dm_clicks"] += report.dm_clicks
                out["looks"] += report.looks
                out["bad_inputs"] += report.bad_inputs
                out["leaks"] += len(report.leaks)
                out["leak_list"] += [f"{title} seed {game_seed}: {leak}" for leak in report.leaks]
                out["problems"] += report.problems + report.bad_input_problems
                out["bad_input_problems"] += report.bad_input_problems
                for key in ("requests", "pictures", "views_checked"):
                    out[key] += report.stats.get(key, 0)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    result = asyncio.run(leak_rounds(n, s))
    leaks = result.pop("leak_list")
    problems = result.pop("problems")
    print(json.dumps(result, indent=1))
    print(format_leaks([]) if not leaks else "\n".join(leaks[:30]))
    for p in problems[:30]:
        print(" -", p)
