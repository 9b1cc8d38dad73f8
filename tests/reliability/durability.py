"""Nothing lost: random games of every title played through the real bot in SimCord, with
restarts at random moments, Discord faults injected at random, and double clicks; every game is
also played a second time without any of that, and the two action logs must be the same.

    await durability_rounds(n_games, seed)  ->  {"games", "actions", "faults", "restarts",
                                                 "lost", "diverging", ...}

What is checked, per game:
  - lost: an action the bot had committed (seen in the log before a restart) is missing after it;
  - diverging: the log replayed from (seed, options) with the engine is not the stored snapshot,
    the log's sequence numbers are not 1..version, or the log differs from the same game played
    without restarts, faults and double clicks (a restart must continue the game exactly);
  - stalled: an open window with a deadline but no deadline timer, or a running game that no
    timer and no player can move;
  - unanswered: a click that got no reply at all (Discord's "This interaction failed");
  - problems: all of the above spelled out, plus requests Discord would refuse (OpenAPI) and
    errors the bot logged that no injected fault explains.
Also counted: "compared" (moves checked against the undisturbed game) and "shifted" (games whose
clock a retried table update moved before their first differing move, see `compare`).

The helpers the reliability tests share (starting a game, clicks at the same moment, the log
against the snapshot) are in tests/support/bot_games.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.results import InteractionResult

import engine
from app import create_bot
from engine.core import RuleError
from cogs.kit import codec
from cogs.table import keeper as table_mod
from store import GameRow, Store, open_store
from tests.support.sim import Sim, clickable, modal_inputs, panel_of

from tests.support.bot_games import FAST, dump, Click, at_once, log_problems, timer_problems, snapshot

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")


# -- a game played at random through the panels ---------------------------------------------------

@dataclass
class Tally:
    actions: int = 0
    faults: int = 0
    restarts: int = 0
    lost: int = 0
    unanswered: int = 0
    double_clicks: int = 0
    old_panel_clicks: int = 0
    problems: list[str] = field(default_factory=list)


class RandomGame:
    """One game: a few people and AI seats at a random title, played through SimCord."""

    def __init__(self, sim: Sim, title: str, seed: int, *, chaos: bool, restart_rate: float, fault_rate: float,
                 double_rate: float) -> None:
        self.sim = sim
        self.title = title
        self.seed = seed
        self.chaos = chaos
        self.restart_rate = restart_rate
        self.fault_rate = fault_rate
        self.double_rate = double_rate
        # Separate streams: what the players do must not depend on the chaos around them.
        self.play = random.Random(f"{seed}/play")
        self.rough = random.Random(f"{seed}/chaos")
        self.tally = Tally()
        self.game_id = 0
        self.members: dict[int, Any] = {}
        self.kept_panel: tuple[int, Any] | None = None

    # -- set-up -------------------------------------------------------------------------------

    async def start(self) -> None:
        g = engine.titles()[self.title]
        rng = self.play
        n = rng.randint(g.min_players, min(g.max_players, 4))
        humans = rng.randint(1, max(1, min(2, n - 1)))
        options: dict[str, Any] = {}
        for spec in g.offered_options(n):
            if spec.kind == "bool":
                options[spec.key] = rng.random() < 0.5
            elif spec.kind == "int" and spec.lo is not None:
                options[spec.key] = rng.choice([None, spec.lo, spec.lo + 1, spec.lo + 2])
        try:  # a combination the title refuses (I'm the Boss! for two needs its two-player rules)
            g.setup(n, self.seed % 2**31, g.resolve_options(n, options))
        except RuleError:
            options = {}
        settings = {**FAST, "on_deadline": rng.choice(["ai", "ai", "skip"])}
        people = [self.sim.player(f"p{i}") for i in range(humans)]
        game = await self.sim.open_lobby(people[0], self.title, people[1:], n - humans)
        await self.sim.store.update_game(game.id, 0, seed=self.seed % 2**31, options=options,
                                         settings={**game.settings, **settings})
        await self.sim.lobby(people[0], "start")
        await self.sim.settle()
        game = await self.sim.game()
        assert game is not None and game.status == "active", f"{self.title} did not start"
        self.game_id = game.id
        self.members = {s.seat: next(m for m in people if m.id == s.user_id) for s in game.seats if not s.is_ai}
        if rng.random() < 0.5:  # someone keeps their panel in a DM
            await people[0].slash(self.sim.channel, "game prefs", dm_panel=True)
            await self.sim.settle()

    # -- one step -----------------------------------------------------------------------------

    async def game(self) -> GameRow:
        game = await self.sim.store.get(self.game_id)
        assert game is not None
        return game

    async def step(self) -> bool:
        """One thing happens: a player clicks through their panel, or time passes until the next
        timer (an AI move, a deadline). False once the game is over or cannot move."""
        game = await self.game()
        if game.status != "active":
            return False
        g = engine.titles()[self.title]
        if self.chaos:
            await self.maybe_fault()
            if self.rough.random() < self.restart_rate:
                movable = [s for s in self.members if g.legal(game.state, s)]
                await self.restart(keep_panel_of=movable[0] if movable else None)
                game = await self.game()
                if game.status != "active":
                    return False
        movable = [s for s in self.members if g.legal(game.state, s)]
        timers = await self.sim.store.timers(self.game_id)
        # The same choice in both runs: it depends only on the play stream and the game.
        click = bool(movable) and (not timers or self.play.random() < 0.55)
        if click:
            seat = self.play.choice(movable)
            before = game.version
            for _ in range(3):
                if await self.walk(seat):
                    break
            if (await self.game()).version != before or timers:
                return True
            if not timers:
                self.tally.problems.append(f"{self.title} game {self.game_id} v{game.version}: stalled, seats "
                                           f"{movable} cannot move through their panels and no timer is set")
                return False
            return True
        self.kept_panel = None
        if not await self.sim.next_timer(self.game_id):
            self.tally.problems.append(f"{self.title} game {self.game_id} v{game.version}: stalled, no timer and "
                                       f"no person can move")
            return False
        return True

    async def walk(self, seat: int) -> bool:
        """The seat's player opens My hand (or uses the panel they opened before a restart) and
        clicks at random, following sub-menus and forms, until an action applies (True) or a few
        clicks went nowhere."""
        member = self.members[seat]
        start = (await self.game()).version
        if self.kept_panel is not None and self.kept_panel[0] == seat:
            panel = self.kept_panel[1]
            self.tally.old_panel_clicks += 1
        else:
            panel = await self.sim.hand(member)
        self.kept_panel = None
        for _ in range(6):
            # Undo is left alone: what it needs lives in memory, so a restart makes a move final
            # by design, and the same game with and without restarts would part ways on it
            # (taking back is tested in tests/bot/test_undo.py).
            comps = [c for c in clickable(panel) if ":Hundo:" not in (c.custom_id or "")]
            if not comps:
                return False
            comp = self.play.choice(comps)
            double = (self.chaos and isinstance(comp, discord.Button) and self._version_bound(comp.custom_id)
                      and self.rough.random() < self.double_rate)
            if isinstance(comp, discord.SelectMenu):
                k = self.play.randint(max(1, comp.min_values), max(1, min(comp.max_values, len(comp.options))))
                values = [o.value for o in self.play.sample(list(comp.options), min(k, len(comp.options)))]
                result = await member.select(panel, values, custom_id=comp.custom_id)
            elif double:
                # The same button twice at the same moment: one applies, the other is told why not.
                results = await at_once(self.sim, [Click(member, panel, comp.custom_id)] * 2)
                self.tally.double_clicks += 1
                for r in results:
                    self._answered(r, f"double click {comp.custom_id}")
                result = results[0] if results[0].followups or results[0].modal else results[1]
            else:
                result = await member.click(panel, custom_id=comp.custom_id)
            if result.modal is not None:
                values = {}
                for node in modal_inputs(result.modal):
                    text = str(self.play.randint(0, 12))
                    lo = int(node.get("min_length") or 0)
                    values[node["custom_id"]] = text.rjust(lo, "1")[: int(node.get("max_length") or 4000)]
                try:
                    result = await member.submit_modal(result, values)
                except simcord.SetupError:  # a form this walk cannot fill in
                    return False
            await self.sim.settle()
            self._answered(result, comp.custom_id)
            if (await self.game()).version != start:
                return True
            try:
                panel = panel_of(result)
            except AssertionError:
                return False
        return False

    @staticmethod
    def _version_bound(custom_id: str) -> bool:
        parsed = codec.parse(custom_id)
        return parsed is not None and parsed.version is not None

    def _answered(self, result: InteractionResult, what: str) -> None:
        if not (result.acknowledged or result.modal is not None):
            self.tally.unanswered += 1
            self.tally.problems.append(f"{self.title} game {self.game_id}: no reply to {what}")

    # -- chaos ----------------------------------------------------------------------------------

    FAULTS = (
        # (method, path, status, code): what the bot sends to the channel, never the replies to
        # clicks, so the game itself goes exactly as without faults.
        ("PATCH", "/channels/*/messages/*", 500, 0),
        ("PATCH", "/channels/*/messages/*", 502, 0),
        ("PATCH", "/channels/*/messages/*", 429, 0),
        ("POST", "/channels/*/messages", 503, 0),
        ("POST", "/channels/*/messages", 429, 0),
        ("POST", "/users/@me/channels", 403, 50007),
    )

    async def maybe_fault(self) -> None:
        if self.rough.random() >= self.fault_rate:
            return
        method, path, status, code = self.rough.choice(self.FAULTS)
        self.sim.env.inject_error(method, path, status=status, code=code, times=self.rough.randint(1, 3),
                                  message="injected by the durability rounds")
        self.tally.faults += 1

    async def restart(self, keep_panel_of: int | None) -> None:
        """Restart the bot here; nothing may change but the bot. A player who can move has their
        panel open across it, and clicks on that old panel next."""
        store = self.sim.store
        if keep_panel_of is not None and keep_panel_of in self.members:
            self.kept_panel = (keep_panel_of, await self.sim.hand(self.members[keep_panel_of]))
        before = await snapshot(store, self.game_id)
        await self.sim.restart()
        self.tally.restarts += 1
        after = await snapshot(self.sim.store, self.game_id)
        lost = [e for e in before["log"] if e not in after["log"]]
        self.tally.lost += len(lost)
        for key in ("status", "version", "state", "timers"):
            if before[key] != after[key]:
                self.tally.problems.append(f"{self.title} game {self.game_id}: {key} changed across a restart")
        house_game = await self.sim.house.games.game(self.game_id)
        if house_game is None or house_game.version != after["version"]:
            self.tally.problems.append(f"{self.title} game {self.game_id}: the new bot sees another version")

    async def check(self) -> list[str]:
        out = await log_problems(self.sim.store, self.game_id)
        out += await timer_problems(self.sim.store, self.game_id)
        return out


async def play_one(db_path: Path, title: str, seed: int, *, chaos: bool, max_steps: int, restart_rate: float,
                   fault_rate: float, double_rate: float) -> tuple[RandomGame, list[tuple]]:
    """Play one game; return it and its log as (seat, action, virtual time) tuples."""
    bot = create_bot(db_path)
    stores: list[Store] = []
    # A table update Discord refused is retried after a moment. SimCord lets a short sleep run
    # on the wall clock and moves virtual time along with it, so the disturbed game's clock
    # runs a little ahead of the undisturbed one's: keep that moment tiny (see `compare`).
    first, table_mod.RETRY_FIRST = table_mod.RETRY_FIRST, 0.01
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            sim = Sim(env, db_path)
            rg = RandomGame(sim, title, seed, chaos=chaos, restart_rate=restart_rate, fault_rate=fault_rate,
                            double_rate=double_rate)
            try:
                await rg.start()
                for _ in range(max_steps):
                    if not await rg.step():
                        break
                    rg.tally.problems += await timer_problems(sim.store, rg.game_id)
                await sim.settle()
                rg.tally.problems += await rg.check()
                log = [(a["seat"], dump(a["action"]), a["at"]) for a in await sim.store.actions(rg.game_id)]
                rg.tally.actions = len(log)
                wire = sim.wire_problems()
                rg.tally.problems += [f"{title} game {rg.game_id}: Discord would refuse: {w}" for w in wire[:3]]
                rg.tally.problems += [f"{title} game {rg.game_id}: bot error {e!r}" for e in env.errors[:3]]
                rg.tally.problems += [f"{title} game {rg.game_id}: logged error: {e}" for e in errors.seen[:3]]
            finally:
                if sim.bot.house is not None:
                    await sim.bot.house.stop()  # no timer wakes on the database closed below
                if sim.bot.store is not None:
                    stores.append(sim.bot.store)
    finally:
        logging.getLogger().removeHandler(errors)
        table_mod.RETRY_FIRST = first
        for store in stores:
            await store.close()
    return rg, log


class _Errors(logging.Handler):
    """Errors the bot logged (a click answered "something went wrong", a timer that failed),
    except those an injected fault explains."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        if "injected" not in text:
            self.seen.append(text[:300])


def compare(log: list[tuple], ref_log: list[tuple]) -> tuple[str, int]:
    """("same" | "shifted" | "diverging", index) for the disturbed log against the undisturbed.
    The undisturbed game may have gone further (no steps spent on restarts), so only the common
    prefix counts. An action that differs while both clocks still agreed is a divergence: the
    restarts, faults or double clicks changed the game. Once a retried table update has moved
    the disturbed game's clock (`play_one`), a deadline may fairly fall elsewhere: "shifted"."""
    for k, (mine, theirs) in enumerate(zip(log, ref_log)):
        if mine[:2] != theirs[:2]:
            shifted = any(a[2] != b[2] for a, b in zip(log[:k + 1], ref_log[:k + 1]))
            return ("shifted" if shifted else "diverging"), k
    return "same", min(len(log), len(ref_log))


async def durability_rounds(n_games: int, seed: int, *, max_steps: int = 60, restart_rate: float = 0.12,
                            fault_rate: float = 0.12, double_rate: float = 0.3,
                            titles: tuple[str, ...] = TITLES, reference: bool = True) -> dict[str, Any]:
    """Play `n_games` random games (titles in turn) with restarts, faults and double clicks,
    each also without them (`reference`), and count what went wrong. The counts of a healthy
    house: lost 0, diverging 0, stalled 0, unanswered 0."""
    started = time.perf_counter()
    out: dict[str, Any] = {"games": 0, "actions": 0, "faults": 0, "restarts": 0, "lost": 0, "diverging": 0,
                           "stalled": 0, "unanswered": 0, "double_clicks": 0, "old_panel_clicks": 0,
                           "finished": 0, "compared": 0, "shifted": 0, "per_title": {}, "problems": []}
    with tempfile.TemporaryDirectory(prefix="boardroom-durability-") as tmp:
        for i in range(n_games):
            title = titles[i % len(titles)]
            game_seed = random.Random(f"{seed}/{i}").randrange(2**31)
            rg, log = await play_one(Path(tmp) / f"chaos-{i}.db", title, game_seed, chaos=True, max_steps=max_steps,
                                     restart_rate=restart_rate, fault_rate=fault_rate, double_rate=double_rate)
            problems = list(rg.tally.problems)
            diverging = any("replay" in p or "log seqs" in p or "outcome" in p or "changed across" in p
                            for p in problems)
            if reference:
                ref, ref_log = await play_one(Path(tmp) / f"quiet-{i}.db", title, game_seed, chaos=False,
                                              max_steps=max_steps, restart_rate=0, fault_rate=0, double_rate=0)
                problems += [p for p in ref.tally.problems if p not in problems]
                verdict, k = compare(log, ref_log)
                out["compared"] += k
                out["shifted"] += int(verdict == "shifted")
                if verdict == "diverging":
                    problems.append(f"{title} game seed {game_seed}: action {k + 1} differs from the same game "
                                    f"without restarts and faults: {log[k][:2]} vs {ref_log[k][:2]}")
                    diverging = True
            game = await _final(Path(tmp) / f"chaos-{i}.db", rg.game_id)
            t = rg.tally
            out["games"] += 1
            out["actions"] += t.actions
            out["faults"] += t.faults
            out["restarts"] += t.restarts
            out["lost"] += t.lost
            out["diverging"] += int(diverging)
            out["stalled"] += int(any("stalled" in p or "no deadline timer" in p for p in problems))
            out["unanswered"] += t.unanswered
            out["double_clicks"] += t.double_clicks
            out["old_panel_clicks"] += t.old_panel_clicks
            out["finished"] += int(game is not None and game.status == "finished")
            per = out["per_title"].setdefault(title, {"games": 0, "actions": 0, "restarts": 0, "faults": 0})
            per["games"] += 1
            per["actions"] += t.actions
            per["restarts"] += t.restarts
            per["faults"] += t.faults
            out["problems"] += problems
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


async def _final(db_path: Path, game_id: int) -> GameRow | None:
    store = await open_store(db_path)
    try:
        return await store.get(game_id)
    finally:
        await store.close()


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    result = asyncio.run(durability_rounds(n, s))
    problems = result.pop("problems")
    print(json.dumps(result, indent=1))
    for p in problems[:40]:
        print(" -", p)
