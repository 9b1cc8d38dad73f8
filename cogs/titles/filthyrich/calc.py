"""Filthy Rich's panel arithmetic and wording helpers, from a seat's view only: card names and
effect lines, cover fees, sale values and taxes as the rules charge them, where an ad sits.
Pure functions shared by the panel (cogs/filthyrich.py) and its card menus."""

from __future__ import annotations

from typing import Any

from engine.filthyrich import binder as bd
from engine.filthyrich.data import (
    ACTIONS,
    ASSETS,
    BUSINESSES,
    COVER_FEE,
    LUXURIES,
    SALE_PER_CARD,
    SIGN_KINDS,
    TAX_PER_MARK,
    kind,
)
from locales import Translator
from locales.format import separator

T = "filthyrich"
KIND_EMOJI = {"business": "🏪", "asset": "💼", "action": "⚡"}
MAX_OPTIONS = 25


def category(k: str) -> str:
    return "business" if k in BUSINESSES else "asset" if k in ASSETS else "action"


def effect_key(k: str) -> str | None:
    if k in ASSETS:
        return ASSETS[k]["effect"]
    if k in ACTIONS:
        return ACTIONS[k]["effect"]
    return None


def effect_text(t: Translator, k: str) -> str:
    """The card's effect in a line (the same words as the card pictures)."""
    if k in BUSINESSES:
        b = BUSINESSES[k]
        text = t(f"{T}.hit.{b['hit']['key']}", **dict(zip("abc", b["hit"]["args"])))
        if b.get("on_zero"):
            text += " · " + t(f"{T}.hit.on_zero", n=b["on_zero"])
        return text
    data = ASSETS.get(k) or ACTIONS[k]
    params = {p: abs(v) if isinstance(v, int) else v for p, v in data["params"].items()}
    return t(f"{T}.effect.{k}", **params)


def card_name(t: Translator, k: str) -> str:
    return t(f"{T}.card.{k}")


def sep(t: Translator) -> str:
    return separator(t.lang)


def sentences(t: Translator, *parts: str) -> str:
    """Sentences on one line: a space between them, none after Japanese 。"""
    return t("core.punct.sentence").join(p for p in parts if p)


def at(slots: list[int]) -> str:
    return "+".join(str(s) for s in slots)


def mini_grid(slots: list[int]) -> str:
    """The ad's slots as a 3x3 picture in one line: ■□□ ■□□ □□□."""
    return " ".join("".join("■" if 3 * r + c + 1 in slots else "□" for c in range(3)) for r in range(3))


def name_of(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def asset_effects(view: dict[str, Any], seat: int, effect: str) -> list[dict[str, Any]]:
    return [ASSETS[a["kind"]] for a in view["seats"][seat]["assets"] if ASSETS[a["kind"]]["effect"] == effect]


def cover_fees(view: dict[str, Any], seat: int, page: int, slots: list[int],
               ignore: str | None = None) -> list[tuple[int, int]]:
    """(owner, amount) per directly covered rival card, as the rules charge them (the Cousin
    beats the Ironclad Lease)."""
    if asset_effects(view, seat, "no_cover_fees"):
        return []
    out = []
    for s in slots:
        below = bd.covered(view["binder"], page, s, ignore)
        if below is None:
            continue
        ad = view["ads"].get(below[1])
        if ad is None or ad["owner"] == seat:
            continue
        leases = asset_effects(view, ad["owner"], "cover_fee_to_me")
        out.append((ad["owner"], max(a["params"]["per_card"] for a in leases) if leases else COVER_FEE))
    return out


def sale_value(view: dict[str, Any], seat: int, card: str) -> int:
    brokers = asset_effects(view, seat, "sale_per_card")
    per = max(a["params"]["per_card"] for a in brokers) if brokers else SALE_PER_CARD
    return per * BUSINESSES[kind(card)]["cards"]


def tax_due(view: dict[str, Any], seat: int, zeros: int, sold: list[str] = ()) -> int:
    """What the seat would pay for `zeros` zeros after selling `sold` (the rules' formula)."""
    if zeros <= 0:
        return 0
    tx = view.get("tax")
    if tx and tx["kind"] == "tax" and view["turn"]["greased"] and seat == view["active"]:
        return 0
    marks = view["seats"][seat]["marks"] - sum(BUSINESSES[kind(c)]["marks"] for c in sold)
    shelter = sum(a["params"]["marks"] for a in asset_effects(view, seat, "tax_shelter"))
    times = 1 if zeros >= 2 and asset_effects(view, seat, "one_zero_only") else zeros
    doublings = sum(1 for x in view["seats"][seat]["luxuries"] if LUXURIES[x].get("special") == "double_taxes")
    return max(0, marks - shelter) * TAX_PER_MARK * times * 2 ** doublings


def sign_kind(sign: str) -> str:
    return SIGN_KINDS[sign][0]


def visibility(view: dict[str, Any], sign: str) -> tuple[int, int]:
    """(cards of the ad showing on the open page, cards of the ad)."""
    ad = view["ads"].get(sign)
    if ad is None:
        return 0, 0
    shown = sum(1 for cell in view["grid"] if cell is not None and cell["sign"] == sign)
    return shown, len(ad["slots"])


def business_sign(card: str) -> str:
    return BUSINESSES[kind(card)]["sign"]
