"""Paged reading: the rules of a title (in the reader's language) and a game's log (a story,
oldest first within a page, one line per event, opening on the latest page)."""

from __future__ import annotations

import re

import discord

from locales import ROOT as LOCALES, Translator
from store import GameRow, Store

from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.panel import Button, Panel
from cogs.titles.contract import ui_for, uis
from cogs.titles.variants import variants_text

from .narration import narrate

LOG_PER_PAGE = 15
#: A rules button's last argument when it opens the page beside the message it sits on (a
#: panel's rule note) instead of turning that message's page.
APART = "apart"


def rules_pages(title: str, lang: str) -> list[str]:
    """The rules split at their `## ` sections, then the house's own page (time banks, quiet
    hours, standing orders: the same for every title). A leading `# Title` line is dropped: the
    embed's title already names the game, and a page holding only a heading reads as a broken
    page."""
    title_pages = _pages(title, lang)
    return title_pages + _pages("house", lang) if title_pages else []


def _pages(name: str, lang: str) -> list[str]:
    path = LOCALES / lang / f"{name}.rules.md"
    if not path.is_file():
        path = LOCALES / "en" / f"{name}.rules.md"
    if not path.is_file():
        return []
    text = re.sub(r"\A\s*# [^\n]*\n", "", path.read_text(encoding="utf-8"))
    pages = [p.strip() for p in re.split(r"(?m)^## ", text) if p.strip()]
    starts_with_section = text.lstrip().startswith("## ")
    return [p if i == 0 and not starts_with_section else "## " + p for i, p in enumerate(pages)]


def section_page(title: str, lang: str, section: int) -> int:
    """The page of the title's rules (as `rules_pages` splits them) that opens with its
    `section`-th `## ` heading (0 the first); the first page when there is no such section."""
    heads = [i for i, page in enumerate(rules_pages(title, lang)) if page.startswith("## ")]
    return heads[section] if 0 <= section < len(heads) else 0


def nav_buttons(code: str, page: int, pages: int, suffix: str = "") -> list[Button]:
    """First / previous / next / last buttons for a paged reading (those that lead somewhere)."""
    buttons = []
    if page > 1:  # the first page, unless "previous" is the first page already
        buttons.append(Button("⏮", f"{code}:0{suffix}", any_version=True))
    if page > 0:
        buttons.append(Button("◀", f"{code}:{page - 1}{suffix}", any_version=True))
    if page < pages - 1:
        buttons.append(Button("▶", f"{code}:{page + 1}{suffix}", any_version=True))
    if page < pages - 2:
        buttons.append(Button("⏭", f"{code}:{pages - 1}{suffix}", any_version=True))
    return buttons


def rules_page(title: str, page: int, t: Translator, game: GameRow | None = None) -> discord.ui.LayoutView:
    """A page of the title's rules. Opened from a game's table (`game`), the first page says
    first which variants that table plays: the rules pages say what the game does (issue 30)."""
    colour = ui_for(title).colour
    pages = rules_pages(title, t.lang)
    if not pages:
        return panel_view(0, 0, Panel(title=t(f"{title}.name"), description=t("core.rules.missing")), accent=colour)
    page = max(0, min(page, len(pages) - 1))
    text = pages[page]
    if game is not None and page == 0:
        text = t("core.rules.this_table", variants=variants_text(game, t)) + "\n\n" + text
    panel = Panel(title=t(f"{title}.name"), description=text, footer=t("core.page", page=page + 1,
                                                                        pages=len(pages)),
                  components=nav_buttons(house(Verb.RULES), page, len(pages), f":{title}"))
    # Paging from a game's rules stays the game's (its first page keeps the table's variants).
    return panel_view(game if game is not None else 0, 0, panel, accent=colour)


def rules_menu(t: Translator) -> discord.ui.LayoutView:
    """Outside a game and without a title: the titles to choose from, as buttons."""
    buttons = [Button(t(f"{title}.name"), house(Verb.RULES, f"0:{title}"), "primary", any_version=True) for title in uis()]
    return panel_view(0, 0, Panel(title=t("core.rules.title"), description=t("core.rules.choose"), components=buttons))


async def log_page(store: Store, game: GameRow, page: int | None, t: Translator) -> discord.ui.LayoutView:
    """Page `page` (0-based; None: the latest) of the game's story."""
    ui = ui_for(game.title)
    lines: list[str] = []
    for entry in await store.actions(game.id):
        for line in narrate(game, t, entry["events"]):
            lines.append(f"`{entry['seq']:>4}` {line}")
    pages = max(1, (len(lines) + LOG_PER_PAGE - 1) // LOG_PER_PAGE)
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    chunk = lines[page * LOG_PER_PAGE:(page + 1) * LOG_PER_PAGE] or [t("core.log.empty")]
    panel = Panel(title=t("core.log.title", title=t(f"{game.title}.name")), description="\n".join(chunk),
                  footer=t("core.page", page=page + 1, pages=pages), components=nav_buttons(house(Verb.LOG), page, pages))
    return panel_view(game, 0, panel, accent=ui.colour)


def page_number(arg: str) -> int:
    head = arg.split(":")[0]
    return int(head) if head.isdigit() and len(head) < 6 else 0

