"""Prometheus metrics of a running bot, in one place.

Counters and histograms are fed by one-line calls where things happen (`action` in the house,
`table_retry` in the table keeper, the interaction tracker in service/stop.py, the aiohttp trace
on every REST request to Discord). Figures that are a count of rows or of queued work (games,
timers, table updates) are read when Prometheus scrapes (`refresh`), so they can never drift
from the database.

Names follow Prometheus' conventions: `_total` for counters (added by the client library),
`_seconds` for durations. The process collectors of prometheus-client (memory, CPU, open files)
come with the default registry. No `_created` series (a timestamp per labelled child that doubles
the series and that Prometheus does not use), and every labelled counter starts at 0 for the labels
it is known to take (`known`), so a rate over a series that has not moved yet is 0, not absent.
"""

from __future__ import annotations

import math
import platform
from importlib import metadata
from typing import Any

import aiohttp
from prometheus_client import REGISTRY, Counter, Gauge, Histogram, Info, disable_created_metrics, generate_latest

from . import build

#: A timer due longer ago than this is overdue: the scheduler is behind, or its work keeps failing.
OVERDUE_AFTER = 60.0
#: The HTTP statuses Discord answers errors with that an operator watches (plus "network").
KNOWN_HTTP_ERRORS = ("400", "401", "403", "404", "429", "500", "502", "503", "504", "network")
ANSWER_KINDS = ("command", "click", "form")
RESULTS = ("applied", "refused")
CROSSING_WAYS = ("sent", "taken")

disable_created_metrics()

ACTIONS = Counter("boardroom_actions", "Actions the house was asked to apply, by title and result "
                  "(applied, refused by the rules)", ["title", "result"])
ANSWER_SECONDS = Histogram(
    "boardroom_interaction_answer_seconds",
    "From the moment the bot starts handling an interaction (slash command, click, form) until its "
    "handler has answered and returned",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
)
TABLE_RETRIES = Counter("boardroom_table_update_retries", "Table updates Discord refused for a passing reason "
                        "(server error, rate limit), retried later")
HTTP_ERRORS = Counter("boardroom_discord_http_errors", "REST requests to Discord answered with an error, by HTTP "
                      "status ('network' when no answer came)", ["status"])
CROSSING = Counter("boardroom_crossing_moves", "Moves across processes sharing the database: 'sent', committed "
                   "here for a game another process owns (a DM click); 'taken', made elsewhere for a game of this "
                   "process and told here", ["way"])

GAMES = Gauge("boardroom_games", "Games in the database, by title and status", ["title", "status"])
TIMERS = Gauge("boardroom_timers", "Timers (deadlines, reminders, AI moves) in the database, by state: "
               "scheduled (all), due (their time has come), overdue (due more than a minute ago)", ["state"])
TABLE_QUEUED = Gauge("boardroom_table_updates_queued", "Games whose table update waits to be sent or is being sent")
TABLE_RETRYING = Gauge("boardroom_table_updates_retrying", "Games whose table update waits for a retry")
INTERACTIONS_IN_FLIGHT = Gauge("boardroom_interactions_in_flight", "Interactions being handled now")
GATEWAY_UP = Gauge("boardroom_gateway_connected", "1 while the Discord gateway is connected")
LISTENING = Gauge("boardroom_crossing_listening", "1 while this process hears moves other processes make in its "
                  "games (only when processes share the shards)")
DATABASE_UP = Gauge("boardroom_database_writable", "1 if the last health check could write to the database")
GUILDS = Gauge("boardroom_guilds", "Servers this process's shards are in")
LATENCY = Gauge("boardroom_gateway_latency_seconds", "The gateway's heartbeat latency, by shard", ["shard"])
BUILD = Info("boardroom_build", "What runs: Boardroom's version and source revision, Python, discord.py")
BUILD.info({"version": build.version(), "revision": build.revision(), "python": platform.python_version(),
            "discord_py": metadata.version("discord.py")})


def known(titles: list[str] | tuple[str, ...]) -> None:
    """Every labelled counter's known children at 0 (the titles come from the caller: this
    module knows no game)."""
    for title in titles:
        for result in RESULTS:
            ACTIONS.labels(title, result)
    for status in KNOWN_HTTP_ERRORS:
        HTTP_ERRORS.labels(status)
    for kind in ANSWER_KINDS:
        ANSWER_SECONDS.labels(kind)
    for way in CROSSING_WAYS:
        CROSSING.labels(way)


def bot_figures(bot: Any) -> None:
    """What the Discord client knows without asking anyone: servers, latency per shard."""
    guilds = getattr(bot, "guilds", None)
    if guilds is not None:
        GUILDS.set(len(guilds))
    latencies = getattr(bot, "latencies", None) or []
    LATENCY.clear()  # shards that went away show no stale row
    for shard, seconds in latencies:
        if math.isfinite(seconds):  # no heartbeat yet: inf or nan, no figure
            LATENCY.labels(str(shard)).set(seconds)


#: `ACTIONS`' children by (title, result): `labels` takes a lock and checks its arguments at
#: every move (3 us, a child's `inc` 1). Never cleared, so a kept child stays the counter's.
_ACTIONS: dict[tuple[str, str], Any] = {}


def action(title: str, result: str) -> None:
    child = _ACTIONS.get((title, result))
    if child is None:
        child = _ACTIONS[(title, result)] = ACTIONS.labels(title, result)
    child.inc()


def crossing(way: str) -> None:
    CROSSING.labels(way).inc()


def table_retry() -> None:
    TABLE_RETRIES.inc()


def answered(kind: str, seconds: float) -> None:
    ANSWER_SECONDS.labels(kind).observe(seconds)


def http_trace() -> aiohttp.TraceConfig:
    """Counts Discord's error answers on the aiohttp session discord.py opens (every REST call,
    interaction responses included, goes through it), 429s that discord.py then retries too."""
    trace = aiohttp.TraceConfig()

    async def on_end(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        if params.response.status >= 400:
            HTTP_ERRORS.labels(str(params.response.status)).inc()

    async def on_exception(session: Any, context: Any, params: aiohttp.TraceRequestExceptionParams) -> None:
        HTTP_ERRORS.labels("network").inc()

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace


async def refresh(bot: Any, now: float) -> None:
    # `bot`: the discord.Client (not imported here: the game runtime counts through this module).
    """Read the figures that are counts of rows or of queued work (at each scrape)."""
    store = getattr(bot, "store", None)
    house = getattr(bot, "house", None)
    if store is not None:
        counts = await store.game_counts()
        GAMES.clear()  # a title whose last game of a status is gone shows no stale row
        for (title, status), n in counts.items():
            GAMES.labels(title, status).set(n)
        scheduled, due, overdue = await store.timer_counts(now, OVERDUE_AFTER)
        TIMERS.labels("scheduled").set(scheduled)
        TIMERS.labels("due").set(due)
        TIMERS.labels("overdue").set(overdue)
    crossing_ = getattr(house, "crossing", None)
    if crossing_ is not None and crossing_.listens:
        LISTENING.set(1 if crossing_.listening_now() else 0)
    keeper = getattr(bot, "keeper", None)
    if keeper is not None:
        TABLE_QUEUED.set(len(keeper.busy()))
        TABLE_RETRYING.set(len(keeper.retrying))


def exposition() -> bytes:
    """The text Prometheus scrapes."""
    return generate_latest(REGISTRY)
