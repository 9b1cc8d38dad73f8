"""The real house on a real store, with Discord replaced by a null channel: the benchmarks run
`House.act`, the `TableKeeper`'s redraw (narration, table embed, picture, PNG) and the seat's
panel exactly as the bot does, and only the HTTP requests to Discord are left out.

Also: filling a store file with many games quickly (bulk SQL with states and logs from games the
seat-filler played), for the many-games and start-up benchmarks."""

from __future__ import annotations

import itertools
import random
import sqlite3
from pathlib import Path
from typing import Any

import engine
from service import collector
from store import Seat, Store, open_store

from bench.common import MAX_PLAYERS, Played, dumps, play_ai

_ids = itertools.count(10_000)


class NullMessage:
    def __init__(self, channel: NullChannel) -> None:
        self.id = next(_ids)
        self.channel = channel


class NullPartial:
    """A message handle whose edits cost what building the request costs, and nothing more."""

    def __init__(self, channel: NullChannel) -> None:
        self.channel = channel

    async def edit(self, **kwargs: Any) -> None:
        self.channel.sent += 1
        for f in kwargs.get("attachments") or []:
            self.channel.bytes += len(f.fp.getbuffer())

    async def delete(self) -> None:
        return None


class NullChannel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.sent = 0
        self.bytes = 0

    async def send(self, content: str | None = None, **kwargs: Any) -> NullMessage:
        self.sent += 1
        f = kwargs.get("file")
        if f is not None:
            self.bytes += len(f.fp.getbuffer())
        return NullMessage(self)

    def get_partial_message(self, message_id: int) -> NullPartial:
        return NullPartial(self)


class NullBot:
    """What the house and the table keeper ask of the bot: channels (null ones) and readiness."""

    def __init__(self) -> None:
        self.channels: dict[int, NullChannel] = {}

    def get_channel(self, channel_id: int) -> NullChannel:
        ch = self.channels.get(channel_id)
        if ch is None:
            ch = self.channels[channel_id] = NullChannel(channel_id)
        return ch

    async def wait_until_ready(self) -> None:
        return None


class Rig:
    """A store on a file, a House and its TableKeeper (scheduler not started: timers are rows)."""

    def __init__(self, store: Store, *, tell: bool = True) -> None:
        from app import discord_clock
        from cogs.table.keeper import TableKeeper
        from play.ports import Silent
        from play.runtime import Parts, Runtime

        collector.tune()  # as the bot's process (bot.py)
        self.store = store
        self.bot = NullBot()
        parts = Parts.build(store, clock=discord_clock)  # as app.py composes the bot's
        self.keeper = TableKeeper(self.bot, parts)  # type: ignore[arg-type]
        # `tell=False`: moves tell nobody (no table redraws: the click benchmark's part).
        self.house = Runtime.build(parts, self.keeper if tell else Silent()).house

    @classmethod
    async def open(cls, path: str | Path, *, tell: bool = True) -> Rig:
        return cls(await open_store(path), tell=tell)

    async def close(self) -> None:
        await self.keeper.idle()
        await self.house.stop()
        await self.keeper.stop()
        await self.store.close()

    async def new_game(self, title: str, players: int, seed: int, *, channel_id: int, ai_seats: int = 0,
                       lang: str = "en", user_base: int = 1000) -> int:
        """A game started as the lobby starts one: seats, the first snapshot, its timers."""
        from cogs.kit.clock import now

        t = now()
        store = self.store
        game = await store.create_lobby(guild_id=1, channel_id=channel_id, title=title, host_id=user_base,
                                        host_name="Player 1", lang=lang, seed=seed, settings={}, now=t)
        seats = [Seat(i, None if i >= players - ai_seats else user_base + i, f"Player {i + 1}",
                      is_ai=i >= players - ai_seats) for i in range(players)]
        await store.set_seats(game.id, seats, t)
        g = engine.get(title)
        options = g.resolve_options(players, {})
        state = g.setup(players, seed, options)
        await store.start(game.id, state, options, t)
        fresh = await self.house.games.game(game.id, fresh=True)
        assert fresh is not None
        await self.house.planner.replan(fresh)
        return game.id


# -- a store with many games --------------------------------------------------------------------

def templates(titles: tuple[str, ...] = tuple(MAX_PLAYERS), seeds: int = 2, keep_every: int = 1) -> list[Played]:
    """Whole games the seat-filler played, for each title at its largest player count."""
    return [play_ai(t, MAX_PLAYERS[t], 7000 + s, keep_every=keep_every) for t in titles for s in range(seeds)]


async def seed_store(path: Path, *, active: int, finished: int, rng: random.Random,
                     played: list[Played] | None = None, log_cap: int | None = None) -> list[int]:
    """Fill a store file with `active` running games (mid-game states, their action logs, one
    channel each) and `finished` ended ones (final states, results, logs), in bulk. Running
    games get their timers as the house plans them. Returns the ids of the running games."""
    store = await open_store(path)  # the schema, by the migrations
    await store.close()
    played = played or templates()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    (start_id,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
    active_ids = []
    games, seats, actions = [], [], []
    t = 1_700_000_000.0
    for i in range(active + finished):
        gid = start_id + 1 + i
        p = played[i % len(played)]
        is_active = i < active
        if is_active:
            version = rng.choice([v for v in p.states if v < p.length] or [0])
            status, result, fin = "active", None, None
            active_ids.append(gid)
        else:
            version = p.length
            outcome = engine.get(p.title).outcome(p.states[version])
            status, fin = "finished", t
            result = dumps({"places": list(outcome.places), "scores": list(outcome.scores),
                            "summary_key": outcome.summary_key}) if outcome else None
        state = p.states[version]
        options = dumps(engine.get(p.title).resolve_options(p.players, {}))
        games.append((gid, 1 + i % 50, 5_000_000 + gid, p.title, status, 1000 + gid, "en", options, "{}", p.seed,
                      dumps(state), version, None, 900_000 + gid, result, t, t, fin))
        for s in range(p.players):
            seats.append((gid, s, 1000 + gid * 10 + s, f"Player {s + 1}", 0, None))
        logged = p.log[:version] if log_cap is None else p.log[max(0, version - log_cap):version]
        first = version - len(logged)
        for k, (seat, action, events) in enumerate(logged):
            actions.append((gid, first + k + 1, seat, None if seat is None else 1000 + gid * 10 + seat,
                            dumps(action), dumps(events), t))
        if len(actions) > 50_000:
            _flush(db, games, seats, actions)
    _flush(db, games, seats, actions)
    db.execute("COMMIT")
    db.close()
    # The running games' timers, planned by the house from their states.
    from play.plan import plan_timers

    rig = await Rig.open(path)
    for gid in active_ids:
        game = await rig.store.get(gid)
        assert game is not None
        await rig.store.replace_timers(gid, game.version, plan_timers(game, game.state or {}, [], t))
    await rig.close()
    return active_ids


def _flush(db: sqlite3.Connection, games: list, seats: list, actions: list) -> None:
    db.executemany("INSERT INTO games (id, guild_id, channel_id, title, status, host_id, lang, options, settings, seed,"
                   " state, version, lobby_message_id, table_message_id, result, created_at, updated_at, finished_at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
    db.executemany("INSERT INTO seats (game_id, seat, user_id, name, is_ai, left_at) VALUES (?, ?, ?, ?, ?, ?)", seats)
    db.executemany("INSERT INTO actions (game_id, seq, seat, user_id, action, events, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   actions)
    games.clear()
    seats.clear()
    actions.clear()


def headless(store: Store, shards: Any = None) -> Any:
    """A house that tells nobody (processes of the backend benchmark)."""
    from app import discord_clock
    from play.ports import Silent
    from play.runtime import Parts, Runtime

    collector.tune()  # as the bot's process (bot.py)
    return Runtime.build(Parts.build(store, shards=shards, clock=discord_clock), Silent()).house


__all__ = ["NullBot", "NullChannel", "Rig", "headless", "seed_store", "templates"]
