"""Filthy Rich's words and small pieces shared by its pictures (the table, the hand): catalogue
text, card names and payouts, seat names, colour mixing."""

from __future__ import annotations

from typing import Any, Sequence

from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES
from render.common import t

T = "filthyrich"
KIND_COLOURS = {"business": (70, 120, 200), "asset": (70, 160, 110), "action": (214, 130, 60)}


def say(lang: str, key: str, **params: Any) -> str:
    return t(lang, f"{T}.{key}", **params)


def card_name(lang: str, k: str) -> str:
    return say(lang, f"card.{k}")


def seat_name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if seat < len(names) else f"#{seat + 1}"


def blend(c1, c2, a: float):
    return tuple(int(x * (1 - a) + y * a) for x, y in zip(c1, c2))


DARK_INK = (22, 24, 30)


def is_light(colour) -> bool:
    """Light enough that dark text reads better on it (yellow, orange, green seats)."""
    r, g, b = colour[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


def hit_text(lang: str, k: str) -> str:
    b = BUSINESSES[k]
    args = dict(zip("abc", b["hit"]["args"]))
    text = say(lang, f"hit.{b['hit']['key']}", **args)
    if b.get("on_zero"):
        text += " · " + say(lang, "hit.on_zero", n=b["on_zero"])
    return text


def short_hit(k: str) -> str:
    """The payout as a few characters for a binder cell: $4, $2/$4, $1×p, $0-9, $1+2n."""
    b = BUSINESSES[k]
    key, a = b["hit"]["key"], b["hit"]["args"]
    if key == "pay":
        s = f"${a[0]}"
    elif key == "pay_if_poor":
        s = f"${a[0]}/${a[1]}"
    elif key == "pay_per_page":
        s = f"${a[0]}×p"
    elif key == "pay_d10":
        s = "$0-9"
    elif key == "pay_chain":
        s = f"${a[0]}+{a[1]}n"
    else:
        s = f"${a[0]}+"
    if b.get("on_zero"):
        s += f" 0:${b['on_zero']}"
    return s


def effect_text(lang: str, k: str) -> str:
    if k in BUSINESSES:
        return hit_text(lang, k)
    data = ASSETS.get(k) or ACTIONS[k]
    params = {p: abs(v) if isinstance(v, int) else v for p, v in data["params"].items()}
    return say(lang, f"effect.{k}", **params)
