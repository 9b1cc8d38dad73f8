"""Paged reading: the rules of a title (in the reader's language) and a game's log (a story,
oldest first within a page, one line per event, opening on the latest page)."""

from __future__ import annotations

import re
from typing import Any

import discord

from locales import ROOT as LOCALES, Translator
from store import GameRow

from .panel import Button
from .titles import ui_for, uis
from .views import build_view

LOG_PER_PAGE = 15


def rules_pages(title: str, lang: str) -> list[str]:
    """The rules split at their `## ` sections. A leading `# Title` line is dropped: the embed's
    title already names the game, and a page holding only a heading reads as a broken page."""
    path = LOCALES / lang / f"{title}.rules.md"
    if not path.is_file():
        path = LOCALES / "en" / f"{title}.rules.md"
    if not path.is_file():
        return []
    text = re.sub(r"\A\s*# [^\n]*\n", "", path.read_text(encoding="utf-8"))
    pages = [p.strip() for p in re.split(r"(?m)^## ", text) if p.strip()]
    starts_with_section = text.lstrip().startswith("## ")
    return [p if i == 0 and not starts_with_section else "## " + p for i, p in enumerate(pages)]


def _nav(code: str, page: int, pages: int, game: Any) -> discord.ui.View | None:
    """First / previous / next / last buttons for a paged reading (those that lead somewhere)."""
    buttons = []
    if page > 0:
        buttons += [Button("⏮", f"{code}:0", any_version=True), Button("◀", f"{code}:{page - 1}", any_version=True)]
    if page < pages - 1:
        buttons += [Button("▶", f"{code}:{page + 1}", any_version=True),
                    Button("⏭", f"{code}:{pages - 1}", any_version=True)]
    return build_view(game, 0, buttons)


def rules_page(title: str, page: int, t: Translator) -> tuple[discord.Embed, discord.ui.View | None]:
    pages = rules_pages(title, t.lang)
    if not pages:
        return discord.Embed(title=t(f"{title}.name"), description=t("core.rules.missing")), None
    page = max(0, min(page, len(pages) - 1))
    embed = discord.Embed(title=t(f"{title}.name"), description=pages[page][:4000], colour=ui_for(title).colour)
    embed.set_footer(text=t("core.page", page=page + 1, pages=len(pages)))
    buttons = []
    if page > 0:
        buttons.append(Button("◀", f"Hrules:{page - 1}:{title}", any_version=True))
    if page < len(pages) - 1:
        buttons.append(Button("▶", f"Hrules:{page + 1}:{title}", any_version=True))
    return embed, build_view(0, 0, buttons)


def rules_menu(t: Translator) -> tuple[discord.Embed, discord.ui.View | None]:
    """Outside a game and without a title: the titles to choose from, as buttons."""
    buttons = [Button(t(f"{title}.name"), f"Hrules:0:{title}", "primary", any_version=True) for title in uis()]
    embed = discord.Embed(title=t("core.rules.title"), description=t("core.rules.choose"))
    return embed, build_view(0, 0, buttons)


async def log_page(house: Any, game: GameRow, page: int | None, t: Translator) -> tuple[discord.Embed, Any]:
    """Page `page` (0-based; None: the latest) of the game's story."""
    ui = ui_for(game.title)
    lines: list[str] = []
    for entry in await house.store.actions(game.id):
        for line in house.table.narrate(game, t, entry["events"]):
            lines.append(f"`{entry['seq']:>4}` {line}")
    pages = max(1, (len(lines) + LOG_PER_PAGE - 1) // LOG_PER_PAGE)
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    chunk = lines[page * LOG_PER_PAGE:(page + 1) * LOG_PER_PAGE] or [t("core.log.empty")]
    embed = discord.Embed(title=t("core.log.title", title=t(f"{game.title}.name")),
                          description="\n".join(chunk)[:4000], colour=ui.colour)
    embed.set_footer(text=t("core.page", page=page + 1, pages=pages))
    return embed, _nav("Hlog", page, pages, game)


def page_number(arg: str) -> int:
    head = arg.split(":")[0]
    return int(head) if head.isdigit() and len(head) < 6 else 0

