"""The store contract: every method the house, the cogs, the tools and the benchmarks call, and
nothing else. Two backends keep it: SQLite (`store.sqlite`, the embedded default) and
PostgreSQL (`store.postgres`, for several processes on one database), both on the SQL they share
(`store.sql`). `open_store(database)` (store/opening.py) picks one: a `postgresql://` URL, or a
file path. The contract knows no backend.

Promises every backend keeps:
- an action is written with its snapshot and the game's timers in one transaction guarded by
  the game's version (compare-and-swap), and every transaction rolls back on any error;
- one live game per channel (a unique index), so two lobbies racing for a channel cannot both win;
- timers are claimed before they are fired (`claim_timers`: an owner and a lease), so two
  processes never fire the same row, and a crashed owner's claims lapse with the lease;
- a database that refuses writes (full disk, read-only, a deleted file, a lost server) raises
  `StoreUnavailable`, said once in the log until writes work again;
- start-up on a database it cannot use raises a `StartupError` whose text is one line for the
  operator, with nothing changed and the connection closed.
"""

from __future__ import annotations

import abc
import logging
from pathlib import Path
from typing import Any, Awaitable, Callable, Protocol

from .ratings import Judged, Player, Skill, Standing
from .rows import GameRow, Seat, Shards, Timer

log = logging.getLogger("store")


class Listening(Protocol):
    """A held connection that hears other processes' moves (PostgreSQL's LISTEN)."""

    @property
    def up(self) -> bool: ...

    async def close(self) -> None: ...


class Store(abc.ABC):
    """One database, whichever backend. Times are epoch seconds (floats) everywhere."""

    #: Where the backend's numbered migrations live (store/migrations/<backend>/NNNN_name.sql).
    migrations: Path
    #: For the start-up line: the backend ("SQLite", "PostgreSQL"), where the database is (never
    #: a password), and the schema version found at start-up and the one after its migrations.
    backend: str = "?"
    where: str = "?"
    schema: tuple[int, int] = (0, 0)

    # -- games ------------------------------------------------------------------------------

    @abc.abstractmethod
    async def create_lobby(self, *, guild_id: int | None, channel_id: int, title: str, host_id: int,
                           host_name: str, lang: str, seed: int, settings: dict[str, Any], now: float) -> GameRow:
        """A new game in its lobby with the host in seat 0; `ChannelBusy` if the channel has one."""

    @abc.abstractmethod
    async def get(self, game_id: int) -> GameRow | None: ...

    @abc.abstractmethod
    async def live_in(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or running."""

    @abc.abstractmethod
    async def latest_in(self, channel_id: int) -> GameRow | None:
        """The channel's newest game, whatever its status."""

    @abc.abstractmethod
    async def active_games(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        """(id, channel_id) of every game in its lobby or running (of these shards' guilds)."""

    @abc.abstractmethod
    async def games_of_member(self, guild_id: int, user_id: int, status: str = "active") -> list[int]:
        """Games of a server in this status (running by default; a lobby; finished) in which
        the user holds a seat."""

    @abc.abstractmethod
    async def games_of_user(self, user_id: int) -> list[int]:
        """Running games, in any server, in which the user holds a seat (away mode holds in
        all of them; the daily digest lists them)."""

    @abc.abstractmethod
    async def games_in_guild(self, guild_id: int) -> list[int]:
        """Running games of a server."""

    @abc.abstractmethod
    async def untold_games(self, shards: Shards | None = None) -> list[int]:
        """Running or finished games (of these shards' guilds) with moves the channel was not
        told about (a crash came between the commit and the table update)."""

    @abc.abstractmethod
    async def mark_told(self, game_id: int, version: int) -> None:
        """The channel was told up to `version` (never moves back)."""

    @abc.abstractmethod
    async def history(self, *, guild_id: int | None, limit: int = 10, offset: int = 0) -> list[GameRow]:
        """Finished games of a guild, newest first."""

    @abc.abstractmethod
    async def user_stats(self, user_id: int, *, guild_id: int | None) -> dict[str, Any]:
        """{title: {"played": n, "won": n}} over the user's finished games in one server (a
        server's stats never show another's)."""

    @abc.abstractmethod
    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        """Set columns of a game (JSON ones encoded) and its `updated_at`."""

    @abc.abstractmethod
    async def start(self, game_id: int, state: dict[str, Any], options: dict[str, Any], now: float) -> bool:
        """Lobby -> active, with the first snapshot. False if the lobby was no longer there."""

    @abc.abstractmethod
    async def commit_action(
        self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
        action: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], now: float,
        finished: dict[str, Any] | None = None, timers: list[tuple[str, str, float, dict]] | None = None,
        notify: bool = False, clock: dict[str, Any] | None = None,
        known: list[tuple[str, str, float, dict]] | None = None,
    ) -> bool:
        """Append the action and write the new snapshot, only if the game is still at
        `expected_version`. `timers`, if given, replaces the game's timers in the same
        transaction (planned for the new version; a timer kept under the same kind and ref keeps
        its claim), and `clock`, if given, the players' clocks. `known`: the game's timer rows as
        they are now, when the caller is sure of them (it wrote them, and nothing touched them
        since): only the rows that differ are written. False, with nothing written, when another
        action won. `notify`: the game belongs to another process, which is told (`listen`) once
        the commit is durable."""

    @abc.abstractmethod
    async def undo_action(self, game_id: int, *, version: int, state: dict[str, Any], now: float,
                          timers: list[tuple[str, str, float, dict]], notify: bool = False,
                          clock: dict[str, Any] | None = None) -> bool:
        """Take back the game's last move: only if the game is running at `version` and its log
        ends with that move (seq `version`). The move leaves the log for `undone_actions` (so
        the log still replays to the snapshot), `state` (the snapshot before the move) becomes
        the snapshot at `version + 1` (versions never repeat: a click drawn for the move taken
        back is stale, never mistaken for one drawn later), and `timers` (planned for
        `version + 1`) replace the game's, all in one transaction. The log's seqs and the
        records' `seq` and `undone_seq` are together 1..version. False, with nothing written,
        when another action won. `notify`: the game is another process's, told at the commit
        (as `commit_action`'s)."""

    @abc.abstractmethod
    async def undone(self, game_id: int) -> list[dict[str, Any]]:
        """The moves taken back in a game, oldest first: {seq, seat, user_id, action, events,
        at, undone_at, undone_seq} (`undone_seq`: the version the taking back made)."""

    @abc.abstractmethod
    async def finish(self, game_id: int, status: str, now: float, result: dict[str, Any] | None = None) -> bool:
        """End a live game without an action (cancelled, abandoned, ended by the host); its
        timers go. False if it was not live."""

    @abc.abstractmethod
    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None,
                      newest_first: bool = False, through: int | None = None) -> list[dict[str, Any]]:
        """Log entries {seq, seat, user_id, action, events, at} with seq > `after` (and, with
        `through`, seq <= `through`: the log as it stood at that version)."""

    @abc.abstractmethod
    async def action_count(self, game_id: int) -> int: ...

    # -- seats ------------------------------------------------------------------------------

    @abc.abstractmethod
    async def seats(self, game_id: int) -> list[Seat]: ...

    @abc.abstractmethod
    async def set_seats(self, game_id: int, seats: list[Seat], now: float) -> None:
        """Replace the lobby's seat list (join, leave, add or remove an AI, shuffle)."""

    @abc.abstractmethod
    async def seat_left(self, game_id: int, seat: int, now: float) -> None: ...

    @abc.abstractmethod
    async def hand_seat(self, game_id: int, seat: int, user_id: int, name: str, now: float) -> bool:
        """A running game's seat passes to another member (from a player, an AI seat or a seat
        whose player left): it becomes that member's, human and present. False (nothing
        written) if the game is not running or the member already holds a seat in it."""

    # -- timers -----------------------------------------------------------------------------

    @abc.abstractmethod
    async def replace_timers(self, game_id: int, version: int, timers: list[tuple[str, str, float, dict]],
                             clock: dict[str, Any] | None = None) -> bool:
        """Replace a game's timers with ones planned for `version` (and its players' clocks, if
        given), only if the game is still at that version (False otherwise, nothing written)."""

    @abc.abstractmethod
    async def timers(self, game_id: int) -> list[Timer]:
        """A game's timers, soonest first."""

    @abc.abstractmethod
    async def next_due(self, shards: Shards | None = None) -> float | None:
        """When the next timer (of these shards' games) can be claimed: its due time, or the end
        of the lease another process holds on it."""

    @abc.abstractmethod
    async def claim_timers(self, now: float, *, owner: str, lease: float, limit: int = 10,
                           shards: Shards | None = None) -> list[Timer]:
        """Atomically claim due timers nobody holds (or whose lease ran out) for `owner` until
        `now + lease`; the claimed rows, soonest first. Only claimed timers may be fired."""

    @abc.abstractmethod
    async def consume_timer(self, timer: Timer, *, rearm_at: float | None = None,
                            payload: dict[str, Any] | None = None) -> bool:
        """A fired timer is done: its row goes (or, with `rearm_at`, stays due then, unclaimed,
        with `payload` if given),
        only if the row and its game are still at the version it was planned for. Otherwise
        (what it did moved the game, and the row was planned again) the claim is released.
        True if consumed."""

    @abc.abstractmethod
    async def retry_timer(self, timer: Timer, at: float) -> None:
        """A fired timer's work failed: release the claim; nobody claims it before `at`."""

    # -- other processes --------------------------------------------------------------------

    async def listen(self, on_notice: Callable[[int, int, int | None], None],
                     on_gap: Callable[[], Awaitable[None]]) -> "Listening | None":
        """Hear of moves other processes commit with `notify` (`on_notice(game_id, version,
        guild_id)`); `on_gap()` after a lost connection was made again (notices may have been
        missed). None: this backend serves one process only (SQLite), which makes every move
        itself."""
        return None

    # -- ratings (store/ratings/) -----------------------------------------------------------

    @abc.abstractmethod
    async def rate_game(self, game: GameRow, now: float) -> Judged | None:
        """Rate a finished game, once: the first call judges it (store/ratings/rule.py) and
        writes its ratings in its server's scope and across servers in one transaction; every
        later call (and a game not finished) gets None. See `judged` for what it did."""

    @abc.abstractmethod
    async def judged(self, game_id: int) -> Judged | None:
        """Whether a game was rated (and why not) and its rating changes; None: not judged yet."""

    @abc.abstractmethod
    async def leaderboard(self, scope: int, title: str, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[Standing], int]:
        """A page of a title's leaderboard in a scope (a guild id, or 0 across servers), best
        first, and how many players it has."""

    @abc.abstractmethod
    async def standing(self, scope: int, title: str, player: Player) -> Standing | None:
        """A player's line (rank, rating, games) on a leaderboard; None if not rated there."""

    @abc.abstractmethod
    async def rating_history(self, scope: int, title: str, player: Player, limit: int = 200) -> list[Skill]:
        """The player's rating before their first rated game and after each one, oldest first."""

    @abc.abstractmethod
    async def rated_titles(self, scope: int, player: Player) -> list[str]:
        """The titles in which the player has a rating in this scope."""

    # -- figures for the metrics endpoint (read-only) ---------------------------------------

    @abc.abstractmethod
    async def game_counts(self) -> dict[tuple[str, str], int]:
        """How many games there are, by (title, status)."""

    @abc.abstractmethod
    async def timer_counts(self, now: float, late: float) -> tuple[int, int, int]:
        """Timers (scheduled, due by `now`, due more than `late` seconds before `now`), claimed
        or not."""

    # -- settings and preferences -----------------------------------------------------------

    @abc.abstractmethod
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]: ...

    @abc.abstractmethod
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...

    @abc.abstractmethod
    async def prefs(self, user_id: int) -> dict[str, bool]:
        """{"dm_panel", "pings", "dm_closed", "digest"} with defaults for a user never seen."""

    @abc.abstractmethod
    async def set_prefs(self, user_id: int, **values: bool) -> dict[str, bool]: ...

    @abc.abstractmethod
    async def set_digest(self, user_id: int, on: bool, lang: str) -> dict[str, bool]:
        """Opt in to (or out of) the daily digest DM, written in `lang`; the prefs after."""

    @abc.abstractmethod
    async def digest_users(self, before: float) -> list[tuple[int, str]]:
        """(user_id, lang) of the users who want the digest and were last sent one at or before
        `before` (or never)."""

    @abc.abstractmethod
    async def claim_digest(self, user_id: int, now: float, every: float) -> bool:
        """Note a digest as sent at `now`, only if the user still wants it and the last one is
        at least `every` seconds old (or there was none): True if this caller may send it.
        Claimed before sending, so two processes (or a retry after a restart) never send two."""

    @abc.abstractmethod
    async def quiet(self, user_ids: list[int]) -> dict[int, tuple[str | None, str | None]]:
        """{user_id: (quiet hours "23:00-07:00" or None, time zone or None)} of these users."""

    @abc.abstractmethod
    async def set_quiet(self, user_id: int, quiet: str | None, tz: str | None) -> None:
        """The user's quiet hours and time zone (None: none, or unchanged for `tz`)."""

    @abc.abstractmethod
    async def langs(self, user_ids: list[int]) -> dict[int, str]:
        """{user_id: language} of these users, for those whose language is known."""

    @abc.abstractmethod
    async def set_lang(self, user_id: int, lang: str) -> None:
        """The user's language, as their latest interaction showed it."""

    @abc.abstractmethod
    async def away(self, after: float) -> dict[int, float]:
        """{user_id: until} of every user away until later than `after` (a few rows: the house
        keeps them in memory, so a move never waits for this read)."""

    @abc.abstractmethod
    async def set_away(self, user_id: int, until: float | None) -> None:
        """The user is away until `until` (epoch seconds) in every game; None: back."""

    @abc.abstractmethod
    async def dm_panel(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        """(channel_id, message_id) of the user's DM panel for the game."""

    @abc.abstractmethod
    async def set_dm_panel(self, game_id: int, user_id: int, channel_id: int, message_id: int) -> None: ...

    # -- meta -------------------------------------------------------------------------------

    @abc.abstractmethod
    async def meta(self, key: str) -> str | None: ...

    @abc.abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abc.abstractmethod
    async def integrity(self) -> str:
        """"ok", or what the database's own check found."""
