"""Settings, read once from the environment (and a `.env` file beside bot.py) into one typed
object. Nothing else in the code reads environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Config:
    token: str | None
    database: str  # an SQLite file path, or a postgresql:// URL
    dev_guild: int | None
    log_level: str

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: bool = True) -> "Config":
        if env is None:
            if dotenv:
                from dotenv import load_dotenv

                load_dotenv(ROOT / ".env")
            env = dict(os.environ)
        guild = (env.get("BOARDROOM_DEV_GUILD") or "").strip()
        database = (env.get("BOARDROOM_DB") or "").strip() or str(ROOT / "boardroom.db")
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database=database,
            dev_guild=int(guild) if guild.isdigit() else None,
            log_level=(env.get("BOARDROOM_LOG_LEVEL") or "INFO").upper(),
        )


NO_TOKEN = """\
Boardroom needs a Discord bot token to connect, and none was found. Create an application at
https://discord.com/developers/applications, open its "Bot" page, press "Reset Token" and copy
the token; then either put it in a file named .env next to bot.py (a line
`DISCORD_TOKEN=your-token`) or set the environment variable DISCORD_TOKEN, and run
`python bot.py` again. The README's "Create the Discord application" section shows how to
invite the bot to your server with the permissions it needs."""
