"""Games through the real bot, and the checks of a stored game, shared by the reliability, service
and bot tests: `start_game` (a lobby opened, seated and started with a fixed seed), `at_once`
(several clicks delivered at the same moment, optionally as virtual time passes a deadline),
`log_problems` (the action log against the snapshot), `timer_problems`, `first_deadline`, and
`snapshot` (a game's state, log and timers, to compare across a restart)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from simcord import actors as sim_actors
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

import engine
from play import settings as settings_mod
from cogs.titles.contract import ui_for
from store import GameRow, Store
from tests.support.sim import TIGHT, Sim



#: Settings of the games played here: live deadlines, and an AI "thinking" delay longer than
#: SimCord's settle timeout, so an AI move waits for virtual time instead of wall-clock time.
FAST = {"pace": "live", "ai_delay": 10}


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# -- clicks at the same moment ------------------------------------------------------------------

@dataclass
class Click:
    """One click: a button (`custom_id`), or a select with `values`."""

    member: Any
    message: Any
    custom_id: str
    values: list[str] | None = None


def _interaction_data(member: Any, message: Any, click: Click) -> tuple[Any, dict[str, Any]]:
    stored = sim_actors._visible_message(member, message)
    if click.values is None:
        comp = sim_actors._find_component(stored.components, types=(ComponentType.BUTTON,),
                                          custom_id=click.custom_id, label=None)
        data: dict[str, Any] = {"custom_id": click.custom_id, "component_type": ComponentType.BUTTON}
    else:
        comp = sim_actors._find_component(stored.components, types=(ComponentType.STRING_SELECT,),
                                          custom_id=click.custom_id, label=None)
        data = {"custom_id": click.custom_id, "component_type": ComponentType.STRING_SELECT,
                "values": list(click.values)}
    if comp.get("id") is not None:
        data["id"] = comp["id"]
    return stored, data


async def at_once(sim: Sim, clicks: list[Click], *, advance: float = 0.0, yields: int = 0, clock_first: bool = False,
                  pause: float = 0.0) -> list[InteractionResult]:
    """Deliver every click's INTERACTION_CREATE before the bot handles any of them, so their
    handlers truly race (SimCord's own `click` settles after each one). With `advance`, virtual
    time also moves on by that much at the same moment, waking whatever timer falls due (a
    deadline, an AI move): the clicks run `yields` loop turns ahead of the timer, or with
    `clock_first` the timer runs that many turns (and `pause` wall-clock seconds) ahead of the
    clicks. Keep `advance` under 3 seconds: Discord forgets an interaction not answered by then.
    Built from the same pieces as `MemberActor.click`."""
    env = sim.env
    records = []
    env._begin_operation("at_once")
    try:
        settling = None
        if advance and clock_first:
            env._move_clock(env._virtual_time + advance)
            settling = asyncio.ensure_future(env._settle_internal(dispatch="advance_time"))
            for _ in range(yields):
                await asyncio.sleep(0)
            if pause:
                await asyncio.sleep(pause)
        for click in clicks:
            stored, data = _interaction_data(click.member, click.message, click)
            record, payload = sim_actors._interactions.base_payload(
                env.backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
                guild_id=click.member.guild.id, user_id=click.member.id, data=data)
            payload["message"] = dict(serializers.message_payload(env.backend, stored))
            record.source_message_id = stored.id
            env._notify_dispatch_observers(record)
            env.backend.emit("INTERACTION_CREATE", payload)
            records.append(record)
        if settling is None:
            for _ in range(yields):
                await asyncio.sleep(0)
            if advance:
                env._move_clock(env._virtual_time + advance)
        else:
            await settling
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    await sim.settle()
    return [InteractionResult(env, r) for r in records]


# -- games --------------------------------------------------------------------------------------

async def start_game(sim: Sim, host: Any, title: str, *, others: tuple = (), ai: int = 0, seed: int = 1,
                     options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
                     channel: Any = None) -> GameRow:
    """Open a lobby, seat everyone, fix the seed, options and settings (FAST unless given), start."""
    game = await sim.open_lobby(host, title, others, ai, channel)
    await sim.store.update_game(game.id, 0, seed=seed, options=options or {},
                                settings={**game.settings, **TIGHT, **(FAST if settings is None else settings)})
    await sim.lobby(host, "start", channel)
    await sim.settle()
    game = await sim.game(channel)
    assert game is not None and game.status == "active", f"{title} did not start"
    return game


# -- the log against the snapshot ---------------------------------------------------------------

def replay(game: GameRow, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The state (seed, options, action log) gives, through the engine alone."""
    g = engine.titles()[game.title]
    state = g.setup(len(game.seats), game.seed, game.options)
    for entry in actions:
        g.apply(state, entry["seat"], entry["action"])
    return state


async def log_problems(store: Store, game_id: int) -> list[str]:
    """How the stored action log and the snapshot disagree (nothing: they agree)."""
    game = await store.get(game_id)
    if game is None or game.state is None:
        return []
    actions = await store.actions(game_id)
    out = []
    # A move taken back left the log; it and its taking back each had a version.
    seqs = sorted([a["seq"] for a in actions] + [n for u in await store.undone(game_id)
                                                 for n in (u["seq"], u["undone_seq"])])
    if seqs != list(range(1, game.version + 1)):
        out.append(f"game {game_id}: log seqs {seqs[:3]}..{seqs[-3:]} for version {game.version}")
    try:
        replayed = replay(game, actions)
    except Exception as exc:  # a logged action the engine refuses on replay
        return out + [f"game {game_id}: replay failed: {exc!r}"]
    if dump(replayed) != dump(game.state):
        out.append(f"game {game_id}: replaying {len(actions)} actions does not give the snapshot at version "
                   f"{game.version}")
    g = engine.titles()[game.title]
    outcome = g.outcome(replayed)
    if (outcome is None) != (game.status != "finished") and game.status != "cancelled":
        out.append(f"game {game_id}: status {game.status} but the replayed outcome is {outcome}")
    return out


async def timer_problems(store: Store, game_id: int) -> list[str]:
    """An open window whose deadline is on must have its timers: each person who owes it an
    obligation row ("duty", play/timing.py), a window nobody owes its deadline."""
    game = await store.get(game_id)
    if game is None or game.status != "active" or game.state is None:
        return []
    g = engine.titles().get(game.title) or ui_for(game.title).game
    conf = settings_mod.merged(game.settings)
    rows = {(t.kind, t.ref) for t in await store.timers(game_id)}
    people = {s.seat for s in game.seats if not s.ai_plays}
    out = []
    for w in g.windows(game.state):
        if settings_mod.deadline_for(g, conf, w.kind) <= 0:
            continue
        if not w.seats and ("deadline", w.id) not in rows:
            out.append(f"game {game_id} v{game.version}: window {w.id} has no deadline timer")
        out += [f"game {game_id} v{game.version}: seat {s} owes window {w.id} and has no obligation timer"
                for s in w.seats if s in people and ("duty", f"{w.id}#{s}") not in rows]
    return out


async def first_deadline(store: Store, game_id: int) -> tuple[Any, float, str]:
    """A person's obligation row of the game, the moment their time runs out, and the window."""
    row = next(t for t in await store.timers(game_id) if t.kind == "duty")
    return row, float(row.payload["end"]), row.ref.rpartition("#")[0]


async def snapshot(store: Store, game_id: int) -> dict[str, Any]:
    game = await store.get(game_id)
    assert game is not None
    return {
        "status": game.status, "version": game.version, "state": dump(game.state),
        "log": [(a["seq"], a["seat"], dump(a["action"])) for a in await store.actions(game_id)],
        "timers": sorted((t.kind, t.ref, t.due_at, dump(t.payload)) for t in await store.timers(game_id)),
    }
