"""`python -m store rerate`: every rating rebuilt from the stored results, in the order the
games ended (then by id), through the same judging and the same model as the live rating, so
the rebuild of a database rated live gives the same numbers. Games whose log was pruned are
judged as they were when first rated (`rated_games.players`); pruned before ever being rated,
they cannot be judged (who played most of a seat is in the log) and stay unrated.

One transaction: the bot may keep running (its ratings wait for the rebuild, then go on from
the rebuilt numbers); a failure changes nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from ..rows import dumps
from .book import SQLStore, apply, decision


@dataclass(frozen=True)
class Rebuilt:
    games: int
    rated: int
    players: int
    seconds: float

    def line(self) -> str:
        return (f"rebuilt the ratings from {self.games} finished games ({self.rated} rated, "
                f"{self.players} ratings) in {self.seconds:.2f} s")


async def rerate(store: SQLStore, now: float | None = None) -> Rebuilt:
    started = time.perf_counter()
    when = time.time() if now is None else now
    ids = [r[0] for r in await store.db.fetch("SELECT id FROM games WHERE status = 'finished'"
                                              " ORDER BY finished_at, id")]
    judged = []
    for game_id in ids:  # judged before the transaction: reads only, and the log may be long
        game = await store.get(game_id)
        if game is not None:
            judged.append((game, await decision(store, game)))
    async with store.db.transaction() as tx:
        await store.lock_ratings(tx)
        for table in ("rating_changes", "ratings", "rated_games"):
            await tx.execute(f"DELETE FROM {table}")
        for game, d in judged:
            await tx.execute("INSERT INTO rated_games (game_id, rated, why, players, at) VALUES ($1, $2, $3, $4, $5)",
                             game.id, d.rated, d.why, dumps([e.row() for e in d.entries]), when)
            await apply(tx, game, d, when)
        row = await tx.fetchrow("SELECT COUNT(*) FROM ratings")
    return Rebuilt(len(judged), sum(1 for _, d in judged if d.rated), int(row[0]) if row else 0,
                   time.perf_counter() - started)
