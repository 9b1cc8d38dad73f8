"""Answering an interaction: in the clicker's language, whether or not it was acknowledged."""

from __future__ import annotations

from typing import Any

import discord

from locales import Translator, language_of


def tr_for(interaction: discord.Interaction) -> Translator:
    """The clicking user's language (replies follow it; the table follows the game's)."""
    return Translator(language_of(interaction.locale))


def with_file(file: discord.File | None, **kwargs: Any) -> dict[str, Any]:
    """Message kwargs with `file` only when there is one."""
    if file is not None:
        kwargs["file"] = file
    return kwargs


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kw: Any) -> None:
    """Answer an interaction whether or not it was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kw)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kw)


async def say(interaction: discord.Interaction, key: str, **params: Any) -> None:
    """A short ephemeral reply from the core catalogue, in the clicker's language."""
    await reply(interaction, tr_for(interaction)(key, **params))
