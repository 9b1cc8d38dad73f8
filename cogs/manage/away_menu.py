"""Where a player says they are away, and back (away.py does the rest): `/game away` with a
duration or a date, and a select in the table's ⚙️ menu. The away time holds in every game the
player plays, in any server."""

from __future__ import annotations

import discord

from locales import Translator
from locales.format import duration
from play import settings as settings_mod
from play.away import MENU_CHOICES, parse
from play.house import House

from cogs.kit.codec import Verb, house
from cogs.kit.panel import Option, Select
from cogs.kit.replies import reply, tr_for


def status(t: Translator, until: float | None) -> str:
    return t("seat.away.now", when=f"<t:{int(until)}:f>") if until else t("seat.away.not_away")


def menu_select(t: Translator, until: float | None) -> Select:
    """The ⚙️ menu's "Away for..." select (with "I'm back" while away)."""
    options = [Option(t("seat.away.for", length=duration(s, t.lang)), str(s), emoji="💤") for s in MENU_CHOICES]
    if until:
        options.insert(0, Option(t("seat.away.back"), "back", emoji="👋"))
    return Select(house(Verb.AWAY), t("seat.away.choose"), options, any_version=True, row=2)


async def until_of(house: House, user_id: int) -> float | None:
    return (await house.away.until([user_id])).get(user_id)


async def set_away(house: House, interaction: discord.Interaction, until: float | None) -> None:
    await house.set_away(interaction.user.id, until)


async def command(house: House, interaction: discord.Interaction, text: str | None) -> None:
    """`/game away until:<3d | 1d12h | 2026-12-24 18:00 | back>`; without it, where they stand."""
    t = tr_for(interaction)
    if not text:
        await reply(interaction, status(t, await until_of(house, interaction.user.id)))
        return
    when = parse(text, house.clock())
    if when is None:
        await reply(interaction, t("seat.away.unreadable"))
        return
    if when == "back":
        await set_away(house, interaction, None)
        await reply(interaction, t("seat.away.welcome"))
        return
    assert isinstance(when, float)
    await set_away(house, interaction, when)
    await reply(interaction, t("seat.away.set", when=f"<t:{int(when)}:f>", days=settings_mod.HOUSE["away_days"]))


async def menu_click(house: House, interaction: discord.Interaction, values: list[str]) -> bool:
    """A choice in the ⚙️ menu's away select; False if it is not one the menu offers."""
    value = values[0] if len(values) == 1 else ""
    if value == "back":
        await set_away(house, interaction, None)
        return True
    if not value.isdigit() or int(value) not in MENU_CHOICES:
        return False
    await set_away(house, interaction, house.clock() + int(value))
    return True
