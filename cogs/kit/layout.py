"""Panels in Discord's newer message layout (Components V2): one container per message, the
status text above the picture, each thing a player can act on beside its button (a Section),
the actions in rows below, the small print last.

    Container (the title's colour)
      ### Title            the panel's title and description (what is happening, what to do)
      [picture]            the panel's picture, when it has one
      **Field** value      the panel's fields
      text  [Button]       a Section per acted-on thing (an offer and its Accept)
      **Field** value      the panel's fields after its sections, if any
      [Button] [Button]    action rows (a select has a row of its own)
      -# footer

Selects longer than Discord's 25 options are split into several selects (the later ones carry
`~<n>` after their code, which the router removes), so every option stays reachable with no
"more" sub-panel. Every component is a dynamic item: it works after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.kit.panel import Button, Panel, Select
from cogs.kit.views import button_item, layout, rows_needed, select_item

#: Discord's limits for one Components V2 message.
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_OPTIONS = 25
#: Action rows a panel may use.
MAX_ROWS = 5


def strip_page(code: str) -> str:
    """A split select's code as the title made it (`offer~2` is `offer`)."""
    return re.sub(r"~[0-9]+$", "", code)


def split_select(select: Select) -> list[Select]:
    """A select of more than 25 options as several selects of at most 25 (single choice only)."""
    if len(select.options) <= MAX_OPTIONS or select.max_values > 1:
        return [select]
    chunks = [select.options[i:i + MAX_OPTIONS] for i in range(0, len(select.options), MAX_OPTIONS)]
    out = []
    for n, chunk in enumerate(chunks):
        first, last = n * MAX_OPTIONS + 1, n * MAX_OPTIONS + len(chunk)
        code = select.code if n == 0 else f"{select.code}~{n}"
        out.append(Select(code=code, placeholder=f"{select.placeholder} ({first}–{last})", options=chunk,
                          min_values=select.min_values, max_values=1, any_version=select.any_version,
                          disabled=select.disabled))
    return out


def expand(components: list[Button | Select]) -> list[Button | Select]:
    """The components as sent: long selects split."""
    expanded: list[Button | Select] = []
    for comp in components:
        expanded.extend(split_select(comp) if isinstance(comp, Select) else [comp])
    return expanded


def has_room(components: list[Button | Select], more: Button | Select) -> bool:
    """Whether `more` fits on a panel with these components."""
    return rows_needed(expand([*components, more])) <= MAX_ROWS


def _rows(game: Any, version: int, components: list[Button | Select]) -> list[discord.ui.ActionRow]:
    expanded = expand(components)
    rows: dict[int, list[Any]] = {}
    taken: set[str] = set()
    for comp, row in zip(expanded, layout(expanded)):
        item = select_item(game, version, comp, taken) if isinstance(comp, Select) else button_item(game, version, comp)
        taken.add(item.item.custom_id or "")
        rows.setdefault(row, []).append(item)
    return [discord.ui.ActionRow(*items) for _, items in sorted(rows.items())]


def _clip(parts: list[str], room: int) -> list[str]:
    """Texts cut to fit Discord's total for a message (the last ones give way first)."""
    out = []
    for text in parts:
        text = text[:room]
        if text:
            out.append(text)
        room -= len(text)
    return out


def panel_view(game: Any, version: int, panel: Panel, image: str | None = None,
               accent: int | None = None) -> discord.ui.LayoutView:
    """A panel as a Components V2 view. `image`: the attachment name of its picture."""
    view = discord.ui.LayoutView(timeout=None)
    head = f"### {panel.title}" if panel.title else ""
    if panel.description:
        head = f"{head}\n{panel.description}" if head else panel.description
    fields = [f"**{name}**\n{value}" if name else value for name, value, _ in panel.fields]
    sections = [s.text for s in panel.sections]
    after = [f"**{name}**\n{value}" if name else value for name, value, _ in panel.fields_after]
    footer = f"-# {panel.footer}" if panel.footer else ""
    texts = _clip([head, *fields, *sections, *after, footer], MAX_TEXT)
    head, rest = (texts[0] if head else ""), texts[1 if head else 0:]
    children: list[Any] = []
    if head:
        children.append(discord.ui.TextDisplay(head))
    if image:
        children.append(discord.ui.MediaGallery(discord.MediaGalleryItem(media=f"attachment://{image}")))
    for text in rest[:len(fields)]:
        children.append(discord.ui.TextDisplay(text))
    for section, text in zip(panel.sections, rest[len(fields):len(fields) + len(sections)]):
        children.append(discord.ui.Section(text, accessory=button_item(game, version, section.button)))
    for text in rest[len(fields) + len(sections):len(fields) + len(sections) + len(after)]:
        if not text.startswith("-# "):
            children.append(discord.ui.TextDisplay(text))
    rows = _rows(game, version, panel.components)
    if rows and children:
        children.append(discord.ui.Separator())
    children.extend(rows)
    if footer and rest and rest[-1].startswith("-# "):
        children.append(discord.ui.TextDisplay(rest[-1]))
    colour = panel.colour if panel.colour is not None else accent
    view.add_item(discord.ui.Container(*children, accent_colour=colour))
    return view


def count_components(view: discord.ui.LayoutView) -> int:
    """Every component of the view, nested ones included (Discord allows 40)."""
    def walk(item: Any) -> int:
        inner = list(getattr(item, "children", []) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            inner.append(accessory)
        return 1 + sum(walk(i) for i in inner)

    return sum(walk(item) for item in view.children)

