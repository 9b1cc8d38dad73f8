"""Configuration fails fast: a malformed setting stops the start with one clear line naming the
variable, never a silent fallback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import ROOT, Config, ConfigError


def config(**env: str) -> Config:
    return Config.from_env(env, dotenv=False)


def test_defaults_and_good_values(tmp_path):
    c = config()
    assert c.token is None and c.dev_guild is None and c.log_level == "INFO" and c.metrics_port is None
    assert c.database == str(ROOT / "boardroom.db") and c.metrics_host == "127.0.0.1"
    c = config(DISCORD_TOKEN=" tok ", BOARDROOM_DEV_GUILD=" 123456789012345678 ", BOARDROOM_LOG_LEVEL="debug",
               BOARDROOM_DB=str(tmp_path / "games.db"), BOARDROOM_METRICS_PORT="9108", BOARDROOM_METRICS_HOST="0.0.0.0")
    assert (c.token, c.dev_guild, c.log_level, c.metrics_port, c.metrics_host) == \
        ("tok", 123456789012345678, "DEBUG", 9108, "0.0.0.0")
    assert c.database == str(tmp_path / "games.db")
    url = "postgresql://boardroom:secret@db:5432/boardroom"
    assert config(BOARDROOM_DB=url).database == url
    # libpq's and asyncpg's defaults: no host is the local socket (or PGHOST).
    assert config(BOARDROOM_DB="postgres:///boardroom").database == "postgres:///boardroom"


@pytest.mark.parametrize("name, value, says", [
    ("BOARDROOM_DEV_GUILD", "abc", "server id"),
    ("BOARDROOM_DEV_GUILD", "12345x", "server id"),
    ("BOARDROOM_DEV_GUILD", "-5", "server id"),
    ("BOARDROOM_DEV_GUILD", "0", "server id"),
    ("BOARDROOM_DEV_GUILD", "１２３", "server id"),  # full-width digits are not an id Discord gives
    ("BOARDROOM_DEV_GUILD", "https://discord.com/channels/1/2", "Copy Server ID"),
    ("BOARDROOM_DEV_GUILD", "99999999999999999999999", "server id"),
    ("BOARDROOM_LOG_LEVEL", "verbose", "DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    ("BOARDROOM_LOG_LEVEL", "warn", "not 'warn'"),
    ("BOARDROOM_METRICS_PORT", "http", "port number"),
    ("BOARDROOM_METRICS_PORT", "70000", "port number"),
    ("BOARDROOM_METRICS_PORT", "0", "port number"),
    ("BOARDROOM_DB", "mysql://u:p@host/db", "not supported"),
    ("BOARDROOM_DB", "sqlite:///games.db", "not supported"),
    ("BOARDROOM_DB", "postgresql://u:p@host", "no database"),
    ("BOARDROOM_DB", "postgresql://u:p@host/", "no database"),
    ("BOARDROOM_DB", "postgresql:/boardroom", "without '//'"),
    ("BOARDROOM_DB", "postgres:boardroom", "without '//'"),
    ("BOARDROOM_DB", "postgresql://u:p@host:port/db", "not a valid URL"),
    ("BOARDROOM_DB", "/no/such/folder/games.db", "does not exist"),
])
def test_a_malformed_setting_is_refused_by_name(name, value, says):
    with pytest.raises(ConfigError) as caught:
        config(**{name: value})
    message = str(caught.value)
    assert message.startswith(name) and says in message and "\n" not in message, message


def test_a_database_path_that_is_a_folder_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="is a folder"):
        config(BOARDROOM_DB=str(tmp_path))


def test_the_password_of_a_database_url_is_never_repeated():
    with pytest.raises(ConfigError) as caught:
        config(BOARDROOM_DB="postgresql://boardroom:hunter2@db")
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize("name, value", [("BOARDROOM_DEV_GUILD", "my-server"), ("BOARDROOM_LOG_LEVEL", "loud"),
                                         ("BOARDROOM_DB", "mongodb://x/y")])
def test_python_bot_py_stops_with_one_line(tmp_path, name, value):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOARDROOM_", "DISCORD_"))}
    env.update({"DISCORD_TOKEN": "not-used", name: value, "BOARDROOM_DB": str(tmp_path / "x.db")}
               if name != "BOARDROOM_DB" else {"DISCORD_TOKEN": "not-used", name: value})
    done = subprocess.run([sys.executable, str(Path(ROOT) / "bot.py")], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Boardroom cannot start: {name}"), done.stderr
    assert not (tmp_path / "x.db").exists()  # nothing was started
