"""Ratings in the database: rating a finished game (once), the changes it made, the
leaderboards, a player's standing and history. Both backends share it (store/sql.py's SQL, in
numbered placeholders); the one thing a backend does its own way is keeping two rating
transactions apart (`SQLStore.lock_ratings`: SQLite has one writer already; PostgreSQL takes
an advisory lock), so two games finishing at once never both read a player's old rating.

Scopes: a server's ratings live under its guild id, the ratings across servers under GLOBAL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..database import Database, Statements
from ..rows import dumps, loads
from .model import Player, Skill, fresh, rate
from .rule import LOG_ARCHIVED, Decision, Entry, decide, level_of



class SQLStore(Protocol):
    """What rating needs of a store (store/sql.py's `SQLStore`, which calls this module)."""

    db: Database

    async def get(self, game_id: int) -> Any: ...

    async def lock_ratings(self, tx: Statements) -> None: ...

#: The scope of the ratings across servers (no guild id is 0).
GLOBAL = 0
#: A game's seat moves, with whether the seat-filler made each for a late person; the JSON
#: operators read the first event's `ai_for` alike on SQLite (3.38+) and PostgreSQL.
MOVES_SQL = ("SELECT seat, user_id, (events -> 0 ->> 'ai_for') IS NOT NULL FROM actions"
             " WHERE game_id = $1 AND seat IS NOT NULL ORDER BY seq")


@dataclass(frozen=True)
class Change:
    """One player's rating before and after one game, in one scope."""

    scope: int
    player: Player
    before: Skill
    after: Skill

    @property
    def delta(self) -> int:
        return self.after.points - self.before.points


@dataclass(frozen=True)
class Standing:
    """A player's line on a leaderboard."""

    rank: int
    player: Player
    skill: Skill
    games: int
    name: str


@dataclass(frozen=True)
class Judged:
    """What rating a game did: whether it was rated (and why not), and the changes."""

    rated: bool
    why: str | None
    changes: list[Change]


def scopes(guild_id: int | None) -> list[int]:
    return [GLOBAL] if not guild_id else [int(guild_id), GLOBAL]


async def decision(store: SQLStore, game: Any) -> Decision:
    """Who the finished game rates, from its seats, result and log (or, if its log was pruned,
    as decided when it was first rated)."""
    places = (game.result or {}).get("places")
    archived = await store.db.fetchrow("SELECT log_archived_at FROM games WHERE id = $1", game.id)
    if archived is not None and archived[0] is not None:
        row = await store.db.fetchrow("SELECT rated, why, players FROM rated_games WHERE game_id = $1", game.id)
        if row is None:
            return Decision([], LOG_ARCHIVED)
        return Decision([Entry.of_row(r) for r in loads(row[2]) or []], None if row[0] else row[1])
    moves = [(r[0], r[1], bool(r[2])) for r in await store.db.fetch(MOVES_SQL, game.id)]
    return decide(game.seats, places, moves, level_of(game))


async def current(tx: Statements, scope: int, title: str, players: set[Player]) -> dict[Player, Skill]:
    out = {}
    for p in players:
        row = await tx.fetchrow("SELECT mu, sigma FROM ratings WHERE scope = $1 AND title = $2 AND user_id = $3"
                                " AND level = $4", scope, title, p.user_id, p.level)
        if row is not None:
            out[p] = Skill(float(row[0]), float(row[1]))
    return out


async def apply(tx: Statements, game: Any, judged: Decision, now: float) -> list[Change]:
    """Write one game's rating in every scope (inside the caller's transaction). Its changes are
    dated by the game's end, not by when they were written: history and the rebuild both
    follow the order in which games ended."""
    changes: list[Change] = []
    if not judged.rated:
        return changes
    names = {e.player: e.name for e in judged.entries}
    places = [(e.player, e.place) for e in judged.entries]
    for scope in scopes(game.guild_id):
        before = await current(tx, scope, game.title, set(names))
        after = rate(places, before)
        for player, skill in after.items():
            old = before.get(player)
            await tx.execute(
                "INSERT INTO ratings (scope, title, user_id, level, mu, sigma, ordinal, games, name, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9) ON CONFLICT (scope, title, user_id, level) DO UPDATE"
                " SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                " games = ratings.games + 1, name = excluded.name, updated_at = excluded.updated_at",
                scope, game.title, player.user_id, player.level, skill.mu, skill.sigma, skill.ordinal,
                names[player], now)
            start = old or fresh()
            await tx.execute(
                "INSERT INTO rating_changes (game_id, scope, title, user_id, level, mu_before, sigma_before, mu, sigma,"
                " at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", game.id, scope, game.title, player.user_id,
                player.level, start.mu, start.sigma, skill.mu, skill.sigma, game.finished_at or now)
            changes.append(Change(scope, player, start, skill))
    return changes


async def rate_game(store: SQLStore, game: Any, now: float) -> Judged | None:
    """Rate a finished game once: the first caller judges and writes it, every later one (the
    results after the ending move, a restart) gets None and reads `changes`. Games that are not
    finished are never rated."""
    if game.status != "finished":
        return None
    judged = await decision(store, game)
    async with store.db.transaction() as tx:
        await store.lock_ratings(tx)
        first = await tx.execute(
            "INSERT INTO rated_games (game_id, rated, why, players, at) VALUES ($1, $2, $3, $4, $5)"
            " ON CONFLICT (game_id) DO NOTHING", game.id, judged.rated, judged.why,
            dumps([e.row() for e in judged.entries]), now)
        if first != 1:
            return None
        changes = await apply(tx, game, judged, now)
    return Judged(judged.rated, judged.why, changes)


async def judged(store: SQLStore, game_id: int) -> Judged | None:
    """What rating did to a game (None: not judged yet)."""
    row = await store.db.fetchrow("SELECT rated, why FROM rated_games WHERE game_id = $1", game_id)
    if row is None:
        return None
    rows = await store.db.fetch("SELECT scope, user_id, level, mu_before, sigma_before, mu, sigma FROM rating_changes"
                                " WHERE game_id = $1 ORDER BY scope DESC, user_id, level", game_id)
    changes = [Change(r[0], Player(r[1], r[2]), Skill(r[3], r[4]), Skill(r[5], r[6])) for r in rows]
    return Judged(bool(row[0]), row[1], changes)


async def board(store: SQLStore, scope: int, title: str, *, offset: int, limit: int) -> tuple[list[Standing], int]:
    """One page of a leaderboard, best first, and how many are on it."""
    rows = await store.db.fetch(
        "SELECT user_id, level, mu, sigma, games, name FROM ratings WHERE scope = $1 AND title = $2"
        " ORDER BY ordinal DESC, user_id, level LIMIT $3 OFFSET $4", scope, title, limit, offset)
    count = await store.db.fetchrow("SELECT COUNT(*) FROM ratings WHERE scope = $1 AND title = $2", scope, title)
    lines = [Standing(offset + i + 1, Player(r[0], r[1]), Skill(r[2], r[3]), r[4], r[5]) for i, r in enumerate(rows)]
    return lines, int(count[0]) if count else 0


async def standing(store: SQLStore, scope: int, title: str, player: Player) -> Standing | None:
    """A player's own line on a leaderboard (None: not rated there)."""
    row = await store.db.fetchrow("SELECT mu, sigma, ordinal, games, name FROM ratings WHERE scope = $1"
                                  " AND title = $2 AND user_id = $3 AND level = $4", scope, title, player.user_id,
                                  player.level)
    if row is None:
        return None
    above = await store.db.fetchrow(
        "SELECT COUNT(*) FROM ratings WHERE scope = $1 AND title = $2 AND (ordinal > $3 OR (ordinal = $3 AND"
        " (user_id < $4 OR (user_id = $4 AND level < $5))))", scope, title, row[2], player.user_id, player.level)
    return Standing(int(above[0]) + 1 if above else 1, player, Skill(row[0], row[1]), row[3], row[4])


async def history(store: SQLStore, scope: int, title: str, player: Player, limit: int = 200) -> list[Skill]:
    """A player's rating after each of their rated games in a scope, oldest first (the first
    point is where they started)."""
    rows = await store.db.fetch(
        "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes WHERE scope = $1 AND title = $2"
        " AND user_id = $3 AND level = $4 ORDER BY at DESC, game_id DESC LIMIT $5", scope, title, player.user_id,
        player.level, limit)
    rows = list(reversed(rows))
    if not rows:
        return []
    return [Skill(rows[0][0], rows[0][1])] + [Skill(r[2], r[3]) for r in rows]


async def titles_of(store: SQLStore, scope: int, player: Player) -> list[str]:
    rows = await store.db.fetch("SELECT title FROM ratings WHERE scope = $1 AND user_id = $2 AND level = $3"
                                " ORDER BY title", scope, player.user_id, player.level)
    return [r[0] for r in rows]
