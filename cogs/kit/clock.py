"""The bot's wall clock: discord's, which the test harness drives virtually."""

from __future__ import annotations

import discord


def now() -> float:
    """Wall-clock seconds (discord's clock, which the test harness drives virtually)."""
    return discord.utils.utcnow().timestamp()
