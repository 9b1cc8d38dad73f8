"""I'm the Boss! on Discord: the words and small pieces every part of the UI uses (clan names
with their squares, prices, sources and offers in words, the moment a component was drawn for)."""

from __future__ import annotations

import json
from typing import Any

from engine.imtheboss.data import CIDX, CLANS, DRAW, DRAW_BY_PLACARDS, SPACES
from locales import Translator
from locales.format import separator

T = "imtheboss"
MAX_OPTIONS = 25
#: Offers shown as a line with their button beside it; the rest go in a select (a Section costs
#: three of a message's 40 components).
MAX_SECTIONS = 4
CLAN_EMOJI = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "magenta": "🟪", "orange": "🟧", "green": "🟩"}
KIND_EMOJI = {"recruit": "👥", "boss": "📢", "stop": "✋", "travel-grey": "✈️"}


def sep(t: Translator) -> str:
    return separator(t.lang)


def name_of(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def clan(t: Translator, c: str, emoji: bool = True) -> str:
    word = t(f"{T}.clan.{c}")
    return f"{CLAN_EMOJI[c]} {word}" if emoji else word


def kind_emoji(k: str) -> str:
    if k.startswith("clan-"):
        return CLAN_EMOJI[k[5:]]
    if k.startswith("travel-"):
        return "✈️"
    return KIND_EMOJI.get(k, "🂠")


def needs_text(t: Translator, space: int, emoji: bool = True) -> str:
    """What a space asks for: "🟥 Red + 🟦 Blue + 2 of 🟪/🟧/🟩"."""
    sp = SPACES[space]
    parts = [clan(t, c, emoji) for c in sp["req"]]
    for pool, k in sp["pools"]:
        members = "/".join(CLAN_EMOJI[c] if emoji else t(f"{T}.clan.{c}") for c in pool)
        parts.append(t(f"{T}.ui.pool", k=k, clans=members))
    return " + ".join(parts)


def price(t: Translator, ask: dict[str, int], usd: int) -> str:
    if "div" in ask:
        return t(f"{T}.ui.price_div", count=ask["div"], usd=usd)
    return t(f"{T}.ui.price_usd", usd=usd)


def src_text(t: Translator, names: list[str], source: dict[str, Any], owner: bool = True) -> str:
    """ "Bob: 🟧 Orange placard" (or without the owner)."""
    what = t(f"{T}.ui.src", clan=clan(t, source["clan"]), src=source["kind"])
    return t(f"{T}.ui.owned", seat=name_of(names, source["owner"]), what=what) if owner else what


def offer_text(t: Translator, names: list[str], o: dict[str, Any], owner: bool = True) -> str:
    what = src_text(t, names, {"clan": o["clan"], "kind": o["kind"], "owner": o["seat"]}, owner)
    return f"{what} · {price(t, o['ask'], o['usd'])}"


def ctx_key(view: dict[str, Any]) -> str:
    """The moment a deal component was drawn for: the open window, else the deal (its deadline
    id changes with each boss), else the turn's timer."""
    win = view.get("window")
    if win:
        return win["id"]
    deal = view.get("deal")
    if deal:
        return deal.get("deadline") or f"deal{deal['space']}"
    timer = view.get("timer")
    return timer["id"] if timer else "-"


def compact(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def draw_count(view: dict[str, Any], seat: int) -> int:
    if view["options"].get("draw_by_placards"):
        held = len(view["seats"][seat]["placards"])
        return DRAW_BY_PLACARDS[min(held, len(DRAW_BY_PLACARDS) - 1)]
    return DRAW


def pseudo_state(view: dict[str, Any]) -> dict[str, Any]:
    """Enough of an engine state, rebuilt from a view, for the deal's pure functions."""
    deal = view["deal"]
    placards: list[int | None] = [None] * len(CLANS)
    for s in view["seats"]:
        for c in s["placards"]:
            placards[CIDX[c]] = s["seat"]
    return {
        "placards": placards,
        "deal": {"space": deal["space"], "boss": deal["boss"], "away": {a["clan"]: None for a in deal["away"]},
                 "table": [dict(x) for x in deal["table"]], "offers": []},
    }


def money_range(t: Translator, est: list[int]) -> str:
    lo, hi = est
    if hi <= 0:
        return t(f"{T}.render.money_zero")
    return t(f"{T}.render.money_range", lo=lo, hi=hi)


# -- the UI -------------------------------------------------------------------------------------
