"""What a title's Discord panel is made of, independent of discord.py: the house turns these
into embeds, attachments and persistent components (see `views.py`).

A title UI returns one of the replies at the bottom for every click:
`Apply(action)` (the house applies it), `Show(panel)` (a sub-menu in place of the panel),
`Ask(modal)` (a form; its answer comes back to the title UI), `Refuse(key, params)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Union



@dataclass
class Button:
    label: str
    code: str
    style: str = "secondary"
    emoji: str | None = None
    disabled: bool = False
    #: The code means the same at any version (a self-describing action the engine will judge).
    any_version: bool = False
    row: int | None = None


@dataclass
class Option:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None
    default: bool = False


@dataclass
class Select:
    """A string select. With code "act" (or "act:<name>" for a second one on the same panel),
    each option's value is an action code and choosing
    one applies it; any other code goes to the title UI with the chosen values."""

    code: str
    placeholder: str
    options: list[Option]
    min_values: int = 1
    max_values: int = 1
    any_version: bool = False
    disabled: bool = False
    row: int | None = None


Component = Union[Button, Select]


@dataclass
class Section:
    """A line about one thing with the button that acts on it beside it (an offer and its
    Accept, a market card and its Buy, a seat and its Kick)."""

    text: str
    button: Button


@dataclass
class Panel:
    title: str
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    #: Draws the panel picture (runs in a worker thread); None for a text-only panel.
    image: Callable[[], Any] | None = None
    footer: str = ""
    colour: int | None = None
    #: Things a player acts on, each with its button beside it (shown after the fields).
    sections: list[Section] = field(default_factory=list)
    #: Fields shown after the sections (the lobby: its AI seats, each with Remove, belong with
    #: the players above the set-up).
    fields_after: list[tuple[str, str, bool]] = field(default_factory=list)


@dataclass
class TextInput:
    key: str
    label: str
    placeholder: str = ""
    default: str = ""
    min_length: int | None = None
    max_length: int | None = None
    paragraph: bool = False
    required: bool = True
    #: Shown under the label (what is allowed, what it does); at most 100 characters.
    help: str = ""


@dataclass
class Modal:
    title: str
    code: str
    inputs: list[TextInput]


@dataclass
class Apply:
    action: dict[str, Any]


@dataclass
class Show:
    panel: Panel


@dataclass
class Ask:
    modal: Modal


@dataclass
class Refuse:
    key: str
    params: dict[str, Any] = field(default_factory=dict)


Reply = Union[Apply, Show, Ask, Refuse]


def short(text: str | None, limit: int = 100) -> str | None:
    """`text` cut to Discord's `limit` at a word boundary with an ellipsis, so a description
    never stops mid-word; whatever is cut must also be said where it shows in full."""
    if text is None or len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = max(cut.rfind(" "), cut.rfind("、"), cut.rfind("。"), cut.rfind(","))
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,、。;:") + "…"


def parse_amount(text: str, lo: int | None = None, hi: int | None = None) -> int | None:
    """A whole number typed by a player, or None. Accepts full-width and other scripts' digits
    (Python's int() does), a leading $ or ¥ and thousands separators; refuses signs, decimals,
    words and anything outside [lo, hi]."""
    cleaned = (text or "").strip().replace(",", "").replace("，", "").replace("_", "")
    for prefix in ("$", "＄", "¥", "￥"):
        cleaned = cleaned.removeprefix(prefix)
    cleaned = cleaned.strip()
    if not cleaned or len(cleaned) > 12 or not all(ch.isdecimal() for ch in cleaned):
        return None
    value = int(cleaned)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return None
    return value
