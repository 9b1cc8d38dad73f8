"""Click to answer: the time the bot spends on one player's action, for each title at its largest
player count, over whole games.

Each click goes through the real house path with a real store on a temp file:
  1. what the click router does (`GameCog.panel_click`): the game from the house's cache, the
     seat's panel context (view and legal actions) and the action decoded from its custom_id;
  2. `House.act`: rules on a copy, the timers planned, the commit with compare-and-swap; then
     whether the move may be taken back (`Undo.remember`, as the router asks);
  3. the clicker's panel redrawn (`TableKeeper.panel_message`: title panel, private notes,
     panel picture rendered and PNG-encoded in a worker thread) -> "answer";
  4. the table redrawn by the `TableKeeper` task the action started (narration, pings, table
     embed, picture rendered and PNG-encoded, recent lines, DM panels) -> "total".
Only Discord's HTTP is missing (a null channel takes the edits). The players' choices are the
seat-filler's, picked before the clock starts; deadlines that pass when every seat waits are
applied untimed. Nothing is timed through SimCord: its simulated Discord costs more than the bot
itself, so the house is called directly (as the click router would)."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import engine
from cogs.kit import codec
from engine.core import SYSTEM
from locales import Translator

from bench.common import MAX_PLAYERS, Row, ai_decide, dist_row
from bench.rig import Rig
from cogs.titles.contract import panel_context


async def click_title(title: str, clicks: int, *, seed: int = 1, workdir: Path | None = None) -> dict[str, list[float]]:
    players = MAX_PLAYERS[title]
    game_def = engine.get(title)
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"route": [], "act": [], "answer": [], "total": []}
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        rig = await Rig.open(Path(tmp) / "click.db")
        house, keeper = rig.house, rig.keeper
        t = Translator("en")
        channel = 1
        gid = await rig.new_game(title, players, seed, channel_id=channel)
        await keeper.idle()
        while len(out["total"]) < clicks:
            game = await house.games.game(gid)
            if game is None or game.status != "active":
                channel += 1
                gid = await rig.new_game(title, players, seed + channel, channel_id=channel)
                await keeper.idle()
                continue
            state = game.state or {}
            seats = [s for s in range(players) if game_def.legal(state, s)]
            rng.shuffle(seats)
            seat, action = None, None
            for s in seats:
                action = ai_decide(game_def, state, s, rng)
                if action is not None:
                    seat = s
                    break
            if action is None:  # every seat waits: a deadline passes (the scheduler's work)
                windows = game_def.windows(state)
                await house.act(gid, SYSTEM, {"type": "timeout", "id": rng.choice(windows).id})
                await keeper.idle()
                continue
            user_id = game.seats[seat].user_id
            t0 = time.perf_counter()
            # 1. the click router
            g = await house.games.game(gid)
            assert g is not None
            clicker = g.seat_of(user_id)
            pc = panel_context(g, clicker, t)
            code = codec.action_code(action, pc.legal)
            decoded = codec.decode_action(code, pc.legal)
            t1 = time.perf_counter()
            # 2. the house applies it (and remembers whether it may be taken back)
            result = await house.act(gid, clicker, decoded, user_id=user_id, version=g.version)
            t2 = time.perf_counter()
            assert result.applied, (title, action, result.kind, result.error)
            # 3. the clicker's panel, redrawn
            fresh = await house.games.game(gid)
            if fresh is not None and fresh.status == "active":
                await keeper.panels.panel_message(fresh, clicker, t)
            t3 = time.perf_counter()
            # 4. the table, redrawn by the keeper's task
            await keeper.idle()
            t4 = time.perf_counter()
            out["route"].append(t1 - t0)
            out["act"].append(t2 - t1)
            out["answer"].append(t3 - t0)
            out["total"].append(t4 - t0)
        await rig.close()
    return out


async def run(titles: tuple[str, ...], clicks: int) -> list[Row]:
    rows = []
    for title in titles:
        times = await click_title(title, clicks)
        subject = f"{title} {MAX_PLAYERS[title]}p"
        rows.append(dist_row("click", subject, "total (act+panel+table)", times["total"], median_max=100, p99_max=250))
        rows.append(dist_row("click", subject, "answer (act+panel)", times["answer"]))
        rows.append(dist_row("click", subject, "House.act", times["act"]))
    return rows
