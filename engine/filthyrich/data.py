"""Filthy Rich's component data, loaded once from `data.json` and checked at import.

Every card and every number the rules use comes from here, so an owner of the printed game can
enter the real cards in one place (the JSON) and the checks below say at once if the set no
longer holds together. Renderers and the panel may import this module too (static data only).

Card identity: the data gives each kind once with `copies`; a physical card is `<kind>#<n>`
(n = 1..copies), unique in the game. A business's ad is named by its `sign` (the kind itself in
the house set, which has one card per sign).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_PATH = Path(__file__).resolve().parent / "data.json"
RAW: dict[str, Any] = json.loads(_PATH.read_text(encoding="utf-8"))

MARKS = ("confirmed", "house")

#: Hit-effect keys the rules know (section 6.2 of the digest), with their argument counts.
HIT_KEYS = {"pay": 1, "pay_if_poor": 3, "pay_per_page": 1, "pay_d10": 0, "pay_chain": 2, "skim_neighbours": 2}
#: Asset effect keys the rules know, with the params each needs.
ASSET_EFFECTS = {
    "no_cover_fees": (),
    "cover_fee_to_me": ("per_card",),
    "fire_insurance": (),
    "one_zero_only": (),
    "tax_shelter": ("marks",),
    "sale_per_card": ("per_card",),
    "muscle": ("take",),
    "loan": ("gain", "repay", "interest"),
    "hit_bonus": ("bonus",),
    "per_zero": ("gain",),
    "lawyer": (),
}
#: Action effect keys the rules know, with the params each needs.
ACTION_EFFECTS = {
    "open_discount": ("discount",),
    "open_any_page": (),
    "move_ad": (),
    "set_page": (),
    "dice": ("dice",),
    "destroy": (),
    "audit": (),
    "research": (),
    "extra_actions": ("actions",),
    "gain": ("gain",),
    "per_business": ("gain",),
    "per_mark": ("gain",),
    "estate_sale": ("discount",),
    "takeover": (),
    "lawsuit": ("take",),
    "headhunt": (),
    "hit_bonus_turn": ("bonus",),
    "price_war": (),
    "no_taxes_turn": (),
}
#: Luxury specials the rules know.
LUXURY_SPECIALS = (None, "double_taxes")


def _const(key: str) -> int:
    return RAW["constants"][key]["value"]


PLAYERS_MIN = _const("players_min")
PLAYERS_MAX = _const("players_max")
PAGES = _const("pages")
SLOTS = _const("slots_per_page")
START_MONEY = _const("start_money")
HAND_SIZE = _const("hand_size")
ACTIONS_PER_TURN = _const("actions_per_turn")
DISCARD_GAIN = _const("discard_gain")
COVER_FEE = _const("cover_fee")
SALE_PER_CARD = _const("sale_per_card")
TAX_PER_MARK = _const("tax_per_mark")
LUXURIES_TO_WIN = _const("luxuries_to_win")
BUSINESS_DIE_FACES = _const("business_die_faces")
PAGE_DIE_SIDES = _const("page_die_sides")
START_PAGE = _const("start_page")
BID_INCREMENT = _const("bid_increment")

#: shape key -> tuple of (row, col) offsets
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    k: tuple((int(r), int(c)) for r, c in v["offsets"]) for k, v in RAW["shapes"].items()
}

BUSINESSES: dict[str, dict[str, Any]] = {b["id"]: b for b in RAW["businesses"]}
LUXURIES: dict[str, dict[str, Any]] = {x["id"]: x for x in RAW["luxuries"]}
ASSETS: dict[str, dict[str, Any]] = {a["id"]: a for a in RAW["assets"]}
ACTIONS: dict[str, dict[str, Any]] = {a["id"]: a for a in RAW["actions"]}

#: kind -> "business" | "asset" | "action" (luxuries are not in the deck)
CATEGORY: dict[str, str] = {}
for _k in BUSINESSES:
    CATEGORY[_k] = "business"
for _k in ASSETS:
    CATEGORY[_k] = "asset"
for _k in ACTIONS:
    CATEGORY[_k] = "action"

#: Luxury ids in market order: price, then data order.
LUXURY_ORDER: tuple[str, ...] = tuple(
    x["id"] for _, x in sorted(enumerate(RAW["luxuries"]), key=lambda ix: (ix[1]["price"], ix[0]))
)
LUXURY_RANK = {lid: i for i, lid in enumerate(LUXURY_ORDER)}
#: Every sign, in data order.
SIGNS: tuple[str, ...] = tuple(dict.fromkeys(b["sign"] for b in RAW["businesses"]))
#: sign -> business kinds bearing it
SIGN_KINDS: dict[str, tuple[str, ...]] = {
    s: tuple(b["id"] for b in RAW["businesses"] if b["sign"] == s) for s in SIGNS
}


def _deck() -> tuple[str, ...]:
    ids: list[str] = []
    for group in (RAW["businesses"], RAW["assets"], RAW["actions"]):
        for entry in group:
            ids.extend(f"{entry['id']}#{n}" for n in range(1, entry["copies"] + 1))
    return tuple(ids)


DECK: tuple[str, ...] = _deck()


def kind(card_id: str) -> str:
    """`angel_investor#2` -> `angel_investor`."""
    return card_id.split("#", 1)[0]


def marks_of(kind_id: str) -> int:
    """Printed $ marks of a business, asset or luxury kind."""
    for table in (BUSINESSES, ASSETS, LUXURIES):
        if kind_id in table:
            return int(table[kind_id]["marks"])
    return 0


def _check() -> None:
    """The digest's consistency checks: they fail at import, so bad data never reaches a game."""
    problems: list[str] = []

    def need(cond: bool, msg: str) -> None:
        if not cond:
            problems.append(msg)

    for key, entry in RAW["constants"].items():
        need(entry.get("status") in MARKS, f"constant {key} has no mark")
    for key, entry in RAW["shapes"].items():
        need(entry.get("status") in MARKS, f"shape {key} has no mark")
        offs = SHAPES[key]
        need(len(set(offs)) == len(offs) and offs, f"shape {key} repeats offsets")
        need(all(0 <= r < 3 and 0 <= c < 3 for r, c in offs), f"shape {key} does not fit the 3x3 page")
    seen: set[str] = set()
    for group, required in (
        (RAW["businesses"], ("id", "name", "cost", "marks", "hit", "shape", "cards", "copies", "sign", "status")),
        (RAW["assets"], ("id", "name", "cost", "marks", "copies", "effect", "params", "status")),
        (RAW["actions"], ("id", "name", "copies", "effect", "params", "targets", "status")),
        (RAW["luxuries"], ("id", "name", "price", "marks", "status")),
    ):
        for e in group:
            for f in required:
                need(f in e, f"{e.get('id')} lacks {f}")
            need(e.get("status") in MARKS, f"{e.get('id')} has no mark")
            need(e["id"] not in seen and "#" not in e["id"], f"id {e['id']} repeated or malformed")
            seen.add(e["id"])
            for f in ("cost", "marks", "price", "copies"):
                if f in e:
                    need(isinstance(e[f], int) and e[f] >= 0, f"{e['id']}.{f} is not a whole number")
            if "copies" in e:
                need(e["copies"] >= 1, f"{e['id']} has no copies")
    for b in RAW["businesses"]:
        need(b["shape"] in SHAPES, f"{b['id']} has unknown shape {b['shape']}")
        need(b["shape"] not in SHAPES or len(SHAPES[b["shape"]]) == b["cards"], f"{b['id']}: cards != shape size")
        key = b["hit"].get("key")
        need(key in HIT_KEYS, f"{b['id']} has unknown hit effect {key}")
        need(key not in HIT_KEYS or len(b["hit"].get("args", [])) == HIT_KEYS[key], f"{b['id']} hit args")
        need(b.get("on_zero") is None or (isinstance(b["on_zero"], int) and b["on_zero"] > 0), f"{b['id']} on_zero")
    for a in RAW["assets"]:
        need(a["effect"] in ASSET_EFFECTS, f"{a['id']} has unknown effect {a['effect']}")
        for p in ASSET_EFFECTS.get(a["effect"], ()):
            need(isinstance(a["params"].get(p), int), f"{a['id']} lacks param {p}")
    for a in RAW["actions"]:
        need(a["effect"] in ACTION_EFFECTS, f"{a['id']} has unknown effect {a['effect']}")
        for p in ACTION_EFFECTS.get(a["effect"], ()):
            need(isinstance(a["params"].get(p), int), f"{a['id']} lacks param {p}")
    for x in RAW["luxuries"]:
        need(x.get("special") in LUXURY_SPECIALS, f"{x['id']} has unknown special")
    # Counts the research gives.
    need(len(DECK) == _const("deck_size"), f"deck has {len(DECK)} cards, not {_const('deck_size')}")
    need(len(SIGNS) == _const("sign_count"), f"{len(SIGNS)} signs, not {_const('sign_count')}")
    need(len(LUXURIES) == _const("luxury_count"), f"{len(LUXURIES)} luxuries, not {_const('luxury_count')}")
    prices = [x["price"] for x in RAW["luxuries"]]
    need(min(prices) == _const("luxury_price_min") and max(prices) == _const("luxury_price_max"), "luxury price range")
    need(all(1 <= len(SHAPES[b["shape"]]) <= 4 for b in RAW["businesses"]), "an ad has 1-4 cards")
    need(PAGES == 4 and SLOTS == 9, "the binder is 4 pages of 3x3 slots")
    need(BUSINESS_DIE_FACES == 10 and PAGE_DIE_SIDES >= PAGES, "dice")
    # Enough luxuries that the market cannot run dry without a winner (digest 5, safety valve).
    need(len(LUXURIES) > (LUXURIES_TO_WIN - 1) * PLAYERS_MAX, "too few luxuries for the player count")
    if problems:
        raise ValueError("filthyrich data.json: " + "; ".join(problems))


_check()
