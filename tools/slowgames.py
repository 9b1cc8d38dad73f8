"""Slow games, measured: a slow-pace game of each title played through the real bot in SimCord,
with people acting hours apart on virtual time (and an AI seat), as four people would over a day
or two. Prints, per title, what the asynchronous loop costs and whether it works:

    turns                 moves after which someone new owed something (a new obligation)
    messages/turn         messages the bot posted in the channel, per turn
    obligations pinged    human obligations (window, seat) whose player was mentioned (or sent a
                          new DM) while it was open, of all human obligations
    pings/obligation      mentions per human obligation (reminders included)
    table distance        messages below the table message after each step: the most, the mean
    early windows         windows a deadline closed in under 8 hours (too soon for people who
                          are not online at the same moment)
    AI for people early   moves the seat-filler made for a person less than 8 hours after that
                          person's obligation opened (decided for someone who may be asleep)

    python tools/slowgames.py                       # every title, seed 1
    python tools/slowgames.py --titles ewars --seed 3 --json slow.json

It drives only what every version of the bot has (the lobby, the house's act, virtual time), so
the same script measures an older checkout too (docs/UI.md compares them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402 (after the path)

import engine  # noqa: E402
from app import create_bot  # noqa: E402
from cogs.kit import codec  # noqa: E402
from tests.support import fuzz, toy  # noqa: E402
from tests.support.sim import Sim  # noqa: E402

TITLES = ("imtheboss", "filthyrich", "blackfriday", "ewars")
HOUR = 3600.0
#: Hours under which a window closed by its deadline counts as closed too early in a slow game.
EARLY = 8
MENTION = re.compile(r"<@(\d+)>")


def _obligations(g: Any, state: dict[str, Any]) -> set[tuple[str, int]]:
    owed = {(w.id, s) for w in g.windows(state) for s in w.seats}
    covered = {s for _, s in owed}
    return owed | {("act", s) for s in g.to_act(state) if s not in covered}


@dataclass
class _Watch:
    """What the loop saw of the people's obligations, the windows and the channel, look by look."""

    user_of: dict[int, int]  # seat -> user id of each person
    seen_requests: int  # HTTP requests already read for pings
    open_since: dict[tuple[str, int], float] = field(default_factory=dict)
    spans: list[tuple[int, float, float]] = field(default_factory=list)  # (seat, opened, closed) of each obligation
    window_open: dict[str, tuple[float, str]] = field(default_factory=dict)
    pinged: dict[tuple[str, int], int] = field(default_factory=dict)
    distances: list[int] = field(default_factory=list)
    turns: int = 0

    def look(self, g: Any, game: Any, env: Any, sim: Sim) -> set[tuple[str, int]]:
        """Note what is owed now, who was told since the last look and where the table message
        is; return what is owed."""
        now = env.now().timestamp()
        owed = _obligations(g, game.state)
        new = owed - set(self.open_since)
        if any(s in self.user_of for _, s in new):
            self.turns += 1
        for key in new:
            self.open_since[key] = now
        for key in set(self.open_since) - owed:
            self.spans.append((key[1], self.open_since.pop(key), now))
        for w in g.windows(game.state):
            self.window_open.setdefault(w.id, (now, w.kind))
        # Who was told since the last look: mentions in the channel, new DMs.
        for entry in env.http_requests[self.seen_requests:]:
            if entry.method != "POST" or not entry.path.endswith("/messages"):
                continue
            users = {int(u) for u in MENTION.findall(json.dumps(entry.json or {}))}
            for key in self.open_since:
                if self.user_of.get(key[1]) in users:
                    self.pinged[key] = self.pinged.get(key, 0) + 1
        self.seen_requests = len(env.http_requests)
        for key in new:
            if key[1] in self.user_of:
                self.pinged.setdefault(key, 0)
        ids = [m.id for m in sim.channel.history()]
        if game.table_message_id in ids:
            self.distances.append(len(ids) - 1 - ids.index(game.table_message_id))
        return owed


async def _start(sim: Sim, env: Any, title: str, seed: int, people: list[Any], ai: int) -> tuple[Any, int]:
    """Open a slow-pace lobby (the AI decides for a late person) and start it; return the game
    and how many HTTP requests came before the start."""
    game = await sim.open_lobby(people[0], title, people[1:], ai)
    await sim.store.update_game(game.id, 0, seed=seed,
                                settings={**game.settings, "pace": "slow", "on_deadline": "ai"})
    posts_before = len(env.http_requests)  # the first call to act counts too
    await sim.lobby(people[0], "start")
    await sim.settle()
    game = await sim.store.get(game.id)
    assert game is not None and game.status == "active", f"{title} did not start"
    return game, posts_before


async def _click(sim: Sim, env: Any, g: Any, game: Any, member: Any, seat: int, rng: random.Random) -> None:
    """The person at `seat` makes the seat-filler's move (or a random legal one)."""
    legal = g.legal(game.state, seat)
    action = g.ai_action(g.view(game.state, seat), legal, rng) or rng.choice(legal)
    # The player clicks it: a button carrying the action (as their panel's would), so
    # the move goes through the bot on SimCord's virtual clock.
    code = codec.action_code(action, legal)
    target = game if hasattr(codec, "nonce") else game.id  # older checkouts: bare ids
    cid = codec.make("br", target, game.version, code)
    # The button sits on a message the bot never hears of (as an ephemeral panel
    # would), which goes once clicked: the channel holds only what the bot posted.
    carrier = env.backend.create_message(sim.channel.id, env.backend.bot_user.id, "", broadcast=False,
                                         components=[{"type": 1, "components": [
                                             {"type": 2, "style": 2, "label": "?", "custom_id": cid}]}])
    await fuzz.press(sim, member, cid, message=carrier)
    env.backend.delete_message(sim.channel.id, carrier.id)
    await sim.settle()


async def _play(sim: Sim, env: Any, g: Any, game: Any, people: list[Any], watch: _Watch, rng: random.Random,
                max_steps: int) -> Any:
    """Look, let a few hours pass, and have one person who owes something act; until the game
    ends or `max_steps` looks. Returns the game as last read."""
    steps = 0
    while steps < max_steps:
        steps += 1
        game = await sim.store.get(game.id)
        if game is None or game.status != "active":
            break
        owed = watch.look(g, game, env, sim)
        # The humans who owe something act one to five hours later, one at a time.
        owing = sorted({s for _, s in owed if s in watch.user_of})
        await sim.advance(rng.uniform(1, 5) * HOUR)
        game = await sim.store.get(game.id)
        if game is None or game.status != "active":
            break
        owing = [s for s in owing if g.legal(game.state, s)]
        if not owing:
            continue
        seat = rng.choice(owing)
        member = next(m for m in people if m.id == watch.user_of[seat])
        await _click(sim, env, g, game, member, seat, rng)
    return game


def _message_kinds(channel_posts: list[Any]) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for entry in channel_posts:
        body = json.dumps(entry.json or {}, ensure_ascii=False)
        kind = ("table" if "attachment://table-" in body else "results" if "results-" in body
                else "reminder" if ("Reminder" in body or "deadline has passed" in body) else "call"
                if "🔔" in body else "narration" if "▸" in body else "other")
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def _early_windows(actions: list[dict[str, Any]], watch: _Watch) -> int:
    """Windows a person waits on that their deadline closed in under EARLY hours: too soon for
    people who are not online at the same moment."""
    early = 0
    for entry in actions:
        action = entry["action"]
        if entry["seat"] is None and action.get("type") == "timeout" and action.get("id") in watch.window_open:
            opened, _kind = watch.window_open[action["id"]]
            if entry["at"] - opened < EARLY * HOUR:
                early += 1
    return early


def _early_for_absent(actions: list[dict[str, Any]], watch: _Watch) -> int:
    """Moves the seat-filler made for a person (no user behind them) less than EARLY hours after
    the person's obligation opened: decided for someone who may have been asleep."""
    spans = watch.spans + [(seat, opened, float("inf")) for (_, seat), opened in watch.open_since.items()]
    for_absent = 0
    for entry in actions:
        if entry["seat"] in watch.user_of and entry["user_id"] is None:
            opened = [o for s, o, c in spans if s == entry["seat"] and o <= entry["at"] <= c + 1]
            if opened and entry["at"] - max(opened) < EARLY * HOUR:
                for_absent += 1
    return for_absent


async def _slow_game(title: str, seed: int, humans: int, ai: int, max_steps: int) -> dict[str, Any]:
    toy.install()
    rng = random.Random(seed)
    g = engine.get(title)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "slow.db"
        bot = create_bot(db)
        async with simcord.run(bot, check_errors=False) as env:
            sim = Sim(env, db)
            people = [sim.player(f"p{i}") for i in range(humans)]
            game, posts_before = await _start(sim, env, title, seed, people, ai)
            watch = _Watch({s.seat: s.user_id for s in game.seats if not s.is_ai}, posts_before)
            started = env.now().timestamp()
            game = await _play(sim, env, g, game, people, watch, rng, max_steps)
            game = await sim.store.get(game.id)
            channel_posts = [e for e in env.http_requests[posts_before:]
                             if e.method == "POST" and e.path == f"/channels/{sim.channel.id}/messages"]
            actions = await sim.store.actions(game.id)
            humans_owed = len(watch.pinged)
            return {
                "title": title, "status": game.status, "actions": len(actions), "turns": watch.turns,
                "channel_messages": len(channel_posts),
                "messages_per_turn": round(len(channel_posts) / max(watch.turns, 1), 2),
                "obligations": humans_owed,
                "obligations_pinged": sum(1 for n in watch.pinged.values() if n),
                "pings_per_obligation": round(sum(watch.pinged.values()) / max(humans_owed, 1), 2),
                "table_distance_max": max(watch.distances, default=0),
                "table_distance_mean": round(sum(watch.distances) / max(len(watch.distances), 1), 1),
                "early_windows": _early_windows(actions, watch),
                "ai_moves_for_people_early": _early_for_absent(actions, watch),
                "virtual_hours": round((env.now().timestamp() - started) / HOUR),
                "messages_by_kind": _message_kinds(channel_posts),
            }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default=",".join(TITLES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--humans", type=int, default=3)
    parser.add_argument("--ai", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=400)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = []
    for title in args.titles.split(","):
        rows.append(asyncio.run(_slow_game(title, args.seed, args.humans, args.ai, args.max_steps)))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    keys = ["title", "status", "actions", "turns", "channel_messages", "messages_per_turn", "obligations",
            "obligations_pinged", "pings_per_obligation", "table_distance_max", "table_distance_mean",
            "early_windows", "ai_moves_for_people_early", "virtual_hours"]
    print(" | ".join(keys))
    for row in rows:
        print(" | ".join(str(row[k]) for k in keys))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
