"""Settings, read once from the environment (and a `.env` file beside bot.py) into one typed
object. Nothing else in the code reads environment variables.

A value that is set but malformed stops the start with one line naming the variable
(`ConfigError`), never a silent fallback: an admin who mistyped the development server would
otherwise wait an hour for global commands, and one who mistyped the database would start
an empty one beside their games.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: URL schemes of the PostgreSQL backend (libpq accepts both spellings).
POSTGRES_SCHEMES = ("postgresql", "postgres")


class ConfigError(ValueError):
    """A setting is malformed: the message is the one line the admin reads."""


@dataclass(frozen=True)
class Config:
    token: str | None
    #: A SQLite file path, or a `postgresql://user:pass@host/db` URL (as given).
    database: str
    dev_guild: int | None
    log_level: str
    #: The health and metrics endpoint's port (None: no endpoint) and address.
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    #: Discord shards in all (None: one process, Discord's recommended count) and the ones this
    #: process runs (None: all of them). Several processes on one PostgreSQL split the shards;
    #: a game belongs to the process that runs its guild's shard (docs/SCALING.md).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: Processes that draw pictures (0: threads of this process, as the tests do by default).
    render_processes: int = 0
    #: Where REST calls go instead of Discord's API (None: Discord): a REST proxy that holds the
    #: rate limits for every process of the bot, e.g. nirn-proxy's `http://nirn-proxy:8080/api/v10`.
    discord_api: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: bool = True) -> "Config":
        if env is None:
            if dotenv:
                from dotenv import load_dotenv

                load_dotenv(ROOT / ".env")
            env = dict(os.environ)
        config = cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database=database_setting(env.get("BOARDROOM_DB") or ""),
            dev_guild=guild_setting(env.get("BOARDROOM_DEV_GUILD") or ""),
            log_level=log_level_setting(env.get("BOARDROOM_LOG_LEVEL") or ""),
            metrics_port=port_setting(env.get("BOARDROOM_METRICS_PORT") or ""),
            metrics_host=(env.get("BOARDROOM_METRICS_HOST") or "").strip() or "127.0.0.1",
            **shard_settings(env.get("BOARDROOM_SHARDS") or "", env.get("BOARDROOM_SHARD_IDS") or ""),
            render_processes=render_setting(env.get("BOARDROOM_RENDER_PROCESSES") or ""),
            discord_api=api_setting(env.get("BOARDROOM_DISCORD_API") or ""),
        )
        if config.shard_ids is not None and len(config.shard_ids) < (config.shard_count or 0) \
                and "://" not in config.database:
            # The other shards' games would be run by nobody: an SQLite file has one process.
            raise ConfigError("BOARDROOM_SHARD_IDS runs part of the shards, so other processes must run the rest "
                              "on one PostgreSQL database: set BOARDROOM_DB to a postgresql:// URL (an SQLite file "
                              "serves one process, which runs every shard).")
        return config


def guild_setting(raw: str) -> int | None:
    value = raw.strip()
    if not value:
        return None
    # A Discord id is a snowflake: a positive 64-bit integer written in ASCII digits.
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) < 2**64:
        raise ConfigError(f"BOARDROOM_DEV_GUILD must be a server id (only digits, e.g. 123456789012345678), "
                          f"not {value!r}: in Discord, right-click the server and choose Copy Server ID.")
    return int(value)


def log_level_setting(raw: str) -> str:
    value = raw.strip().upper()
    if not value:
        return "INFO"
    if value not in LOG_LEVELS:
        raise ConfigError(f"BOARDROOM_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw.strip()!r}.")
    return value


def port_setting(raw: str) -> int | None:
    value = raw.strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) < 65536:
        raise ConfigError(f"BOARDROOM_METRICS_PORT must be a port number from 1 to 65535, not {value!r}.")
    return int(value)


def shard_settings(count_raw: str, ids_raw: str) -> dict:
    """BOARDROOM_SHARDS (how many shards in all) and BOARDROOM_SHARD_IDS (this process's share,
    e.g. "0,1"): both checked here, so a typo never makes two processes run the same shard (two
    owners of one game) or leave one unrun (its games frozen)."""
    count_text, ids_text = count_raw.strip(), ids_raw.strip()
    if not count_text:
        if ids_text:
            raise ConfigError("BOARDROOM_SHARD_IDS needs BOARDROOM_SHARDS (the number of shards in all), e.g. "
                              "BOARDROOM_SHARDS=4 BOARDROOM_SHARD_IDS=0,1.")
        return {"shard_count": None, "shard_ids": None}
    if not (count_text.isascii() and count_text.isdigit()) or not 0 < int(count_text) <= 4096:
        raise ConfigError(f"BOARDROOM_SHARDS must be a number of shards from 1 to 4096, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count, "shard_ids": None}
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        raise ConfigError(f"BOARDROOM_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not "
                          f"{ids_text!r}.")
    ids = tuple(int(p) for p in parts)
    wrong = [i for i in ids if i >= count]
    if wrong:
        raise ConfigError(f"BOARDROOM_SHARD_IDS: shard {wrong[0]} does not exist with BOARDROOM_SHARDS={count} "
                          f"(shards are numbered 0 to {count - 1}).")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"BOARDROOM_SHARD_IDS names a shard twice: {ids_text!r}.")
    return {"shard_count": count, "shard_ids": tuple(sorted(ids))}


def render_setting(raw: str) -> int:
    """Picture-drawing processes: default min(2, cores); 0 draws in threads of the bot's process."""
    value = raw.strip()
    if not value:
        return min(2, os.cpu_count() or 1)
    if not (value.isascii() and value.isdigit()) or int(value) > 64:
        raise ConfigError(f"BOARDROOM_RENDER_PROCESSES must be a number of processes from 0 to 64, not {value!r}.")
    return int(value)


def api_setting(raw: str) -> str | None:
    """BOARDROOM_DISCORD_API: an http(s) base URL; without a path, Discord's `/api/v10` is added
    (what discord.py asks of Discord). The proxy sees the bot's token: only plain http on a
    private network (nirn-proxy speaks no TLS), never across the internet."""
    value = raw.strip().rstrip("/")
    if not value:
        return None
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise ConfigError(f"BOARDROOM_DISCORD_API is not a valid URL ({exc}); expected e.g. "
                          "http://nirn-proxy:8080/api/v10.") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(f"BOARDROOM_DISCORD_API must be an http:// or https:// base URL such as "
                          f"http://nirn-proxy:8080/api/v10, not {value!r}.")
    return value if parts.path not in ("", "/") else value + "/api/v10"


def database_setting(raw: str) -> str:
    """A SQLite file path (default `boardroom.db` beside bot.py), or a PostgreSQL URL."""
    value = raw.strip()
    if not value:
        return str(ROOT / "boardroom.db")
    if "://" in value:
        return _postgres_url(value)
    if ":" in value and value.split(":", 1)[0].lower() in (*POSTGRES_SCHEMES, "sqlite", "file"):
        # "postgresql:/db", "sqlite:games.db": a URL missing its "//", not a file name.
        raise ConfigError(f"BOARDROOM_DB {value.split(':')[0] + ':...'!r} looks like a URL without '//'; expected "
                          "a SQLite file path or a URL postgresql://user:password@host[:port]/database.")
    path = Path(value).expanduser()
    if path.is_dir():
        raise ConfigError(f"BOARDROOM_DB must name a database file, but {value!r} is a folder.")
    if not path.resolve().parent.is_dir():
        raise ConfigError(f"BOARDROOM_DB: the folder of {value!r} does not exist; create it or choose another path.")
    return str(path)


def _postgres_url(value: str) -> str:
    """Checked, never rewritten: the backend hands it to the driver as given."""
    hint = "a SQLite file path or a URL postgresql://user:password@host[:port]/database"
    try:
        parts = urlsplit(value)
        port = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise ConfigError(f"BOARDROOM_DB is not a valid URL ({exc}); expected {hint}.") from None
    if parts.scheme.lower() not in POSTGRES_SCHEMES:
        raise ConfigError(f"BOARDROOM_DB: the scheme {parts.scheme + '://'!r} is not supported; expected {hint}.")
    if not parts.path.strip("/"):
        raise ConfigError(f"BOARDROOM_DB names no database after the host; expected {hint}.")
    if port == 0:
        raise ConfigError(f"BOARDROOM_DB has port 0; expected {hint}.")
    return value


NO_TOKEN = """\
To try Boardroom without Discord, run `python bot.py --local`: the same bot plays every game in
your browser, on this computer only (http://127.0.0.1), with AI seats to fill the table.

To run it on Discord, Boardroom needs a bot token, and none was found. Create an application at
https://discord.com/developers/applications, open its "Bot" page, press "Reset Token" and copy
the token; then either put it in a file named .env next to bot.py (a line
`DISCORD_TOKEN=your-token`) or set the environment variable DISCORD_TOKEN, and run
`python bot.py` again. The README's "Create the Discord application" section shows how to
invite the bot to your server with the permissions it needs."""
