"""Player names are text, not markup: a nickname like `[FREE NITRO](https://example.test)`, one
with `**`, `||`, backticks, a mention or a line break must read literally wherever the bot puts
it in a message, an embed or a panel. Pictures draw names as they are (`render.common`)."""

from __future__ import annotations

import discord


def text_name(name: str) -> str:
    """`name` escaped for Discord's markdown: no formatting, masked link, spoiler, heading,
    mention or line break can come from a name."""
    flat = " ".join((name or "").split())  # line breaks and runs of spaces: one space
    escaped = discord.utils.escape_markdown(flat, as_needed=False)
    escaped = escaped.replace("<", "\\<")
    return discord.utils.escape_mentions(escaped)


def text_names(names: list[str]) -> list[str]:
    return [text_name(n) for n in names]
