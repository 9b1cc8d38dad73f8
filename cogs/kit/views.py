"""Panels to discord.py objects. Every component is a dynamic item (registered at start-up), so
a button drawn before a restart still reaches its handler after it."""

from __future__ import annotations

import io
from typing import Any

import discord

from . import codec
from .names import unescape
from .panel import Button, Modal, Select, short


def plain(text: str) -> str:
    """Text for a place where Discord shows no markdown (button and option labels, select
    placeholders, form titles): the escapes of names (names.py) removed, which would show there."""
    return unescape(text)


_STYLE = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    """Every click of ours goes to the bot's router (app.py composes it; discord.py hands each
    component its client)."""
    parsed = codec.parse(custom_id)
    router = getattr(interaction.client, "router", None)
    if parsed is None or router is None:
        return
    await router.route(interaction, parsed, values)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"br:" + codec.PATTERN):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any, /):
        return cls(discord.ui.Button(custom_id=item.custom_id))  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.item.custom_id or "", [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"bs:" + codec.PATTERN):
    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any, /):
        return cls(discord.ui.Select(custom_id=item.custom_id))  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _route(interaction, self.item.custom_id or "", values)


class GameUserSelect(discord.ui.DynamicItem[discord.ui.UserSelect], template=r"bu:" + codec.PATTERN):
    """A member picker (handing a seat to someone): the chosen user ids arrive as the values."""

    def __init__(self, select: discord.ui.UserSelect) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any, /):
        return cls(discord.ui.UserSelect(custom_id=item.custom_id))  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _route(interaction, self.item.custom_id or "", values)


def user_select_item(game: Any, code: str, placeholder: str) -> GameUserSelect:
    """A one-member picker for `code` (valid at any version: the house judges the choice)."""
    return GameUserSelect(discord.ui.UserSelect(custom_id=codec.make("bu", game, None, code),
                                                placeholder=plain(placeholder)[:150], min_values=1, max_values=1))


DYNAMIC_ITEMS = (GameButton, GameSelect, GameUserSelect)


def layout(components: list[Button | Select]) -> list[int]:
    """The row of each component, before Discord's limit of five: a select takes a row of its
    own, buttons fill rows of five, and a component's explicit `row` starts that row."""
    rows: list[int] = []
    row, used = 0, 0
    for comp in components:
        if isinstance(comp, Select):
            if used:
                row, used = row + 1, 0
            target = comp.row if comp.row is not None else row
            rows.append(target)
            row = target + 1
        else:
            if comp.row is not None:
                if comp.row != row:
                    row, used = comp.row, 0
            elif used == 5:
                row, used = row + 1, 0
            rows.append(row)
            used += 1
    return rows


def rows_needed(components: list[Button | Select]) -> int:
    """How many rows `layout` fills (a panel may use five)."""
    return max(layout(components)) + 1 if components else 0


def select_item(game: Any, version: int, comp: Select, taken: set[str]) -> GameSelect:
    """A select as a dynamic item. `taken`: the custom_ids already on the message (two action
    selects get distinct ids: act, act:2, act:3...)."""
    ver = None if comp.any_version else version
    cid = codec.make("bs", game, ver, comp.code)
    n = 2
    while cid in taken and codec.is_act_select(comp.code):
        # Discord refuses a message whose components share a custom_id.
        cid, n = codec.make("bs", game, ver, f"act:{n}"), n + 1
    options = [
        discord.SelectOption(label=plain(o.label)[:100] or "-", value=o.value,
                             description=short(plain(o.description)) if o.description else None,
                             emoji=o.emoji, default=o.default)
        for o in comp.options[:25]
    ]
    return GameSelect(discord.ui.Select(custom_id=cid, placeholder=plain(comp.placeholder)[:150], options=options,
                                        min_values=min(comp.min_values, len(options)),
                                        max_values=min(comp.max_values, len(options)), disabled=comp.disabled))


def button_item(game: Any, version: int, comp: Button) -> GameButton:
    cid = codec.make("br", game, None if comp.any_version else version, comp.code)
    return GameButton(discord.ui.Button(custom_id=cid, label=plain(comp.label)[:80] or None,
                                        style=_STYLE.get(comp.style, discord.ButtonStyle.secondary), emoji=comp.emoji,
                                        disabled=comp.disabled))


def build_view(game: Any, version: int, components: list[Button | Select]) -> discord.ui.View | None:
    """A classic persistent view (no timeout) holding the components, laid out in rows of five
    (messages that are not panels: a ping's My hand button, confirmations). `game`: the game
    they act on (its id and nonce go into every custom_id), or 0 for none."""
    if not components:
        return None
    view = discord.ui.View(timeout=None)
    taken: set[str] = set()
    for comp, row in zip(components, layout(components)):
        if row > 4:
            break
        item = select_item(game, version, comp, taken) if isinstance(comp, Select) else button_item(game, version, comp)
        item.item.row = row
        taken.add(item.item.custom_id or "")
        view.add_item(item)
    return view


def image_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


class FormModal(discord.ui.Modal):
    """A modal whose answer is handled by the router's modal listener (so it also works after a
    restart); its own on_submit does nothing."""

    def __init__(self, game: Any, version: int, modal: Modal) -> None:
        super().__init__(title=plain(modal.title)[:45], custom_id=codec.make("bm", game, version, modal.code),
                         timeout=15 * 60)  # a form lives as long as its interaction token
        for field in modal.inputs:
            # Each input under a label of the newer form layout, whose description can say what
            # is allowed ("1 to 40") where a placeholder would vanish as soon as one types.
            self.add_item(discord.ui.Label(
                text=plain(field.label)[:45], description=short(plain(field.help)) if field.help else None,
                component=discord.ui.TextInput(
                    custom_id=field.key, placeholder=plain(field.placeholder)[:100] or None,
                    default=field.default[:4000] or None, min_length=field.min_length, max_length=field.max_length,
                    style=discord.TextStyle.paragraph if field.paragraph else discord.TextStyle.short,
                    required=field.required)))

    async def on_submit(self, interaction: discord.Interaction) -> None:  # handled by the router
        return None


def form_values(interaction: discord.Interaction) -> dict[str, Any]:
    """Every control of a submitted form by custom_id: a text input's or radio group's value
    (str), a select's or checkbox group's values (list), a checkbox's (bool)."""
    out: dict[str, Any] = {}

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if "custom_id" in item:
                if "values" in item:
                    out[item["custom_id"]] = list(item.get("values") or [])
                elif "value" in item:
                    out[item["custom_id"]] = item.get("value")
            for key in ("components", "component"):
                child = item.get(key)
                if isinstance(child, list):
                    walk(child)
                elif isinstance(child, dict):
                    walk([child])

    walk(list((interaction.data or {}).get("components", [])))  # type: ignore[union-attr]
    return out


def modal_values(interaction: discord.Interaction) -> dict[str, str]:
    """Text inputs of a submitted modal, by custom_id (top-level rows or labels)."""
    out: dict[str, str] = {}

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if "custom_id" in item and "value" in item:
                out[item["custom_id"]] = item.get("value") or ""
            for key in ("components", "component"):
                child = item.get(key)
                if isinstance(child, list):
                    walk(child)
                elif isinstance(child, dict):
                    walk([child])

    walk(list((interaction.data or {}).get("components", [])))  # type: ignore[union-attr]
    return out
