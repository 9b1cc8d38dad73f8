"""Filthy Rich's component data: every card and every number the rules use, in this one file,
each marked with its status and, in a comment, its source. The checks at the bottom run at
import, so a set that no longer holds together fails at once. Renderers and the panel may
import this module too (static data only).

Marks: "confirmed" = the rulebook of record or public research states it; "house" = our own
value (the printed card list is not available; see ../shared/rules/filthyrich.md section 6).
Sources in the comments:
  RULEBOOK  ../shared/seeds/001_421c23a3e281dd96.txt (the Japanese translation of the rules);
  RESEARCH  issue 14's research summary (the box's card counts, known printed cards);
  DIGEST    ../shared/rules/filthyrich.md (our digest: [house] decisions and their reasons).
An owner of the printed game can enter the real cards here, reusing the effect keys.

Card identity: each kind is given once with `copies`; a physical card is `<kind>#<n>`
(n = 1..copies), unique in the game. A business's ad is named by its `sign`: two copies of a
business share one sign, so while one is out the other cannot be opened (RULEBOOK: "もし同じ
サインを他の人が出していた場合は、そのビジネスカードはプレーできません").
"""

from __future__ import annotations

from typing import Any

CONFIRMED, HOUSE = "confirmed", "house"


def _c(value: int, status: str = CONFIRMED) -> dict[str, Any]:
    return {"value": value, "status": status}


def _biz(id_: str, name: str, cost: int, marks: int, hit: tuple, shape: str, *, copies: int = 1,
         on_zero: int | None = None, status: str = HOUSE) -> dict[str, Any]:
    """A business: opening cost, $ marks, hit effect (key, *args), ad shape; its sign is itself."""
    return {"id": id_, "name": name, "cost": cost, "marks": marks, "hit": {"key": hit[0], "args": list(hit[1:])},
            "on_zero": on_zero, "shape": shape, "cards": len(SHAPE_OFFSETS[shape]), "copies": copies, "sign": id_,
            "status": status}


def _lux(id_: str, name: str, price: int, marks: int, special: str | None = None,
         status: str = HOUSE) -> dict[str, Any]:
    return {"id": id_, "name": name, "price": price, "marks": marks, "special": special, "status": status}


def _asset(id_: str, name: str, cost: int, marks: int, copies: int, effect: str, /, **params: int) -> dict[str, Any]:
    return {"id": id_, "name": name, "cost": cost, "marks": marks, "copies": copies, "effect": effect,
            "params": params, "status": HOUSE}


def _action(id_: str, name: str, copies: int, effect: str, targets: bool = False, /, **params: int) -> dict[str, Any]:
    return {"id": id_, "name": name, "copies": copies, "effect": effect, "params": params, "targets": targets,
            "status": HOUSE}


CONSTANTS: dict[str, dict[str, Any]] = {
    "players_min": _c(2),  # RULEBOOK 人数 2〜5人
    "players_max": _c(5),  # RULEBOOK
    "pages": _c(4),  # RULEBOOK: tags 1-4 on the binder's sheets
    "slots_per_page": _c(9),  # RULEBOOK: 9 places per page, numbered 1-9
    "start_money": _c(10),  # RULEBOOK セットアップ 3
    "hand_size": _c(5),  # RULEBOOK セットアップ 2, turn step 4
    "actions_per_turn": _c(2),  # RULEBOOK turn step 2
    "discard_gain": _c(1),  # RULEBOOK 2 b)
    "cover_fee": _c(2),  # RULEBOOK: $2 per directly covered ad space
    "sale_per_card": _c(2),  # RULEBOOK 税金の支払い 1: $2 per ad card
    "tax_per_mark": _c(1),  # RULEBOOK 税金の支払い 2
    "luxuries_to_win": _c(3),  # RULEBOOK 目的
    "business_die_faces": _c(10),  # RULEBOOK: ten-sided dice, faces 0-9, a 0 is a tax day
    "page_die_sides": _c(6),  # RULEBOOK: 1-4 turn to that page, 5-6 stay
    "start_page": _c(1),  # RULEBOOK セットアップ 4
    "bid_increment": _c(1, HOUSE),  # DIGEST 4.4: the rulebook names no increment
    "box_cards": _c(121),  # RESEARCH: the box holds 121 cards
    "deck_size": _c(73),  # RESEARCH: 73 cards with the "Filthy Rich" back
    "sign_count": _c(22),  # RESEARCH: 22 business signs
    "sign_pieces": _c(36),  # RESEARCH: 121 - 73 - 12 = 36 sign pieces = the binder's 4 pages x 9 pockets
    "luxury_count": _c(12),  # RESEARCH
    "luxury_price_min": _c(6),  # RESEARCH: Personal Trainer, the cheapest
    "luxury_price_max": _c(45),  # RESEARCH: Space Shuttle, the dearest
}

#: shape key -> (row, col) offsets from the anchor; never rotated (RULEBOOK: the ad keeps the
#: shape on its business card). Shapes no card uses stay for owners entering the printed set.
SHAPE_OFFSETS: dict[str, list[list[int]]] = {
    "single": [[0, 0]],
    "pair_h": [[0, 0], [0, 1]],
    "pair_v": [[0, 0], [1, 0]],  # RULEBOOK: Tornado Cleaners' two-card vertical ad
    "row3": [[0, 0], [0, 1], [0, 2]],
    "col3": [[0, 0], [1, 0], [2, 0]],
    "l3": [[0, 0], [1, 0], [1, 1]],
    "gamma3": [[0, 0], [0, 1], [1, 0]],
    "rev_l3": [[0, 1], [1, 0], [1, 1]],
    "square": [[0, 0], [0, 1], [1, 0], [1, 1]],
    "tee": [[0, 0], [0, 1], [0, 2], [1, 1]],
    "long_l": [[0, 0], [1, 0], [2, 0], [2, 1]],
}
_SHAPE_STATUS = {"pair_v": CONFIRMED}

#: The 22 signs and their business cards. The 36 sign pieces (sign_pieces) are split as 12
#: one-card, 7 two-card, 2 three-card and 1 four-card ads [house: RESEARCH gives 1-4 cards per
#: sign and the 36 total; the split is ours]. The five commonest trades come in two copies
#: [house: the RULEBOOK's same-sign rule means some businesses have copies; which is ours].
#: Cost / hit: 3-4.5 hits to pay back for the plain `pay` businesses, fewer per card for the
#: bigger ads, which catch more dice (DIGEST 6.3).
BUSINESS_LIST: list[dict[str, Any]] = [
    # RULEBOOK ビジネスカードの説明: cost 12, two $ marks, "hit $4", a two-card vertical ad.
    _biz("tornado_cleaners", "Tornado Cleaners", 12, 2, ("pay", 4), "pair_v", status=CONFIRMED),
    _biz("donut_shop", "Hole Lotta Donuts", 6, 1, ("pay", 2), "single", copies=2),
    _biz("tattoo_parlour", "Ink Spot Tattoo Parlour", 9, 1, ("pay", 3), "single", copies=2),
    _biz("tax_prep", "Number Crunchers Tax Prep", 8, 0, ("pay", 2), "single", on_zero=2),
    _biz("pawn_shop", "Second Chance Pawn", 6, 1, ("pay_if_poor", 2, 4, 10), "single", copies=2),
    _biz("knockoff_boutique", "Knockoff Boutique", 7, 1, ("skim_neighbours", 1, 1), "single"),
    _biz("rooftop_bar", "Skyline Rooftop Bar", 8, 1, ("pay_per_page", 1), "single"),
    _biz("hair_salon", "Curl Up & Dye Salon", 10, 0, ("pay", 3), "single"),
    _biz("gym", "Iron Will Gym", 11, 1, ("pay", 4), "single"),
    _biz("arcade", "Pixel Palace Arcade", 12, 2, ("pay", 4), "single"),
    _biz("shopping_mall", "Mega Mall Management", 12, 2, ("pay_chain", 1, 2), "single"),
    _biz("used_cars", "Lemon Lot Used Cars", 14, 2, ("pay", 5), "single"),
    _biz("tea_house", "Bubble Trouble Tea House", 7, 0, ("pay", 2), "single"),
    _biz("laundromat", "Suds & Duds Laundromat", 10, 1, ("pay", 3), "pair_h", copies=2),
    _biz("pet_grooming", "Pampered Pooch Grooming", 8, 1, ("pay", 2), "pair_h"),
    _biz("funeral_parlour", "Last Stop Funeral Parlour", 12, 1, ("pay", 2), "pair_v", on_zero=2),
    _biz("car_wash", "Sparkle Car Wash", 14, 1, ("pay", 4), "pair_h", copies=2),
    _biz("casino", "Jackpot Casino", 15, 2, ("pay_d10",), "pair_v"),
    _biz("cinema", "Reel Deal Cinema", 16, 2, ("pay", 5), "pair_h"),
    _biz("psychic_hotline", "Crystal Ball Psychic Hotline", 9, 3, ("pay", 2), "row3"),
    _biz("karaoke", "Karaoke Kingdom", 14, 2, ("pay", 4), "l3"),
    _biz("hotel", "Hotel Snooze", 25, 3, ("pay", 6), "square"),
]

#: The 12 luxuries, face up, one each. RESEARCH names the cheapest and the dearest; the rest
#: (names, prices between, $ marks, the tax-doubling special) are [house] (DIGEST 6.4).
LUXURY_LIST: list[dict[str, Any]] = [
    _lux("personal_trainer", "Personal Trainer", 6, 1, status=CONFIRMED),  # RESEARCH: $6, the cheapest; marks house
    _lux("entourage", "Celebrity Entourage", 8, 0, "double_taxes"),
    _lux("diamond_phone", "Diamond-Studded Phone", 10, 2),
    _lux("racehorse", "Champion Racehorse", 12, 1),
    _lux("gold_bathtub", "Solid Gold Bathtub", 15, 2),
    _lux("sports_car", "Vintage Sports Car", 18, 1),
    _lux("art_collection", "Modern Art Collection", 21, 2),
    _lux("mega_yacht", "Mega-Yacht", 25, 3),
    _lux("ski_chalet", "Alpine Ski Chalet", 29, 2),
    _lux("private_jet", "Private Jet", 34, 2),
    _lux("private_island", "Tropical Private Island", 39, 3),
    _lux("space_shuttle", "Space Shuttle", 45, 2, status=CONFIRMED),  # RESEARCH: $45, the dearest; marks house
]

#: Assets (DIGEST 6.5, all [house]): 16 cards. Two fewer than the digest's 18 (the Accountant
#: and the Neon Sign lost their second copy) to make room for the business copies in the 73.
ASSET_LIST: list[dict[str, Any]] = [
    _asset("zoning_cousin", "Cousin on the Zoning Board", 6, 1, 2, "no_cover_fees"),
    _asset("ironclad_lease", "Ironclad Lease", 5, 0, 1, "cover_fee_to_me", per_card=4),
    _asset("fire_insurance", "Fire Insurance", 3, 0, 1, "fire_insurance"),
    _asset("creative_accountant", "Creative Accountant", 8, 1, 1, "one_zero_only"),
    _asset("tax_shelter", "Offshore Tax Shelter", 10, 0, 1, "tax_shelter", marks=2),
    _asset("business_broker", "Business Broker", 4, 0, 1, "sale_per_card", per_card=3),
    _asset("neighbourhood_muscle", "Friendly Neighbourhood Muscle", 5, 0, 2, "muscle", take=1),
    _asset("bank_loan", "Small-Business Loan", 0, 1, 2, "loan", gain=10, repay=12, interest=0),
    _asset("loan_shark", "Knuckles' Quick Cash", 0, 0, 2, "loan", gain=20, repay=20, interest=3),
    _asset("neon_sign", "Neon Sign Upgrade", 10, 1, 1, "hit_bonus", bonus=1),
    _asset("savings_bonds", "Savings Bonds", 7, 0, 1, "per_zero", gain=1),
    _asset("lawyer", "Lawyer on Retainer", 6, 1, 1, "lawyer"),
]

#: Actions (DIGEST 6.6, all [house]): 30 cards. Three fewer than the digest's 33 (Angel
#: Investor and Ribbon-Cutting 3 -> 2, Rush Hour 2 -> 1), for the business copies.
ACTION_LIST: list[dict[str, Any]] = [
    _action("ribbon_cutting", "Ribbon-Cutting Ceremony", 2, "open_discount", discount=3),
    _action("zoning_variance", "Zoning Variance", 1, "open_any_page"),
    _action("moving_day", "Moving Day", 2, "move_ad"),
    _action("detour", "Detour Signs", 2, "set_page"),
    _action("rush_hour", "Rush Hour", 1, "dice", dice=1),
    _action("public_holiday", "Public Holiday", 1, "dice", dice=-1),
    _action("faulty_wiring", "Faulty Wiring", 2, "destroy", True),
    _action("tax_inspector", "Taxman's Surprise Visit", 2, "audit", True),
    _action("market_research", "Market Research", 2, "research"),
    _action("overtime", "Overtime", 2, "extra_actions", actions=2),
    _action("angel_investor", "Angel Investor", 2, "gain", gain=5),
    _action("city_contract", "City Contract", 2, "per_business", gain=2),
    _action("tax_refund", "Tax Refund", 1, "per_mark", gain=1),
    _action("estate_sale", "Estate Sale", 2, "estate_sale", discount=4),
    _action("hostile_takeover", "Hostile Takeover", 1, "takeover", True),
    _action("frivolous_lawsuit", "Frivolous Lawsuit", 1, "lawsuit", True, take=4),
    _action("headhunter", "Headhunter", 1, "headhunt", True),
    _action("ad_blitz", "Ad Blitz", 1, "hit_bonus_turn", bonus=2),
    _action("price_war", "Price War", 1, "price_war", True),
    _action("greased_palms", "Greased Palms", 1, "no_taxes_turn"),
]

#: Everything above in one structure (the shape the rules and the checks read).
RAW: dict[str, Any] = {
    "constants": CONSTANTS,
    "shapes": {k: {"offsets": v, "status": _SHAPE_STATUS.get(k, HOUSE)} for k, v in SHAPE_OFFSETS.items()},
    "businesses": BUSINESS_LIST,
    "luxuries": LUXURY_LIST,
    "assets": ASSET_LIST,
    "actions": ACTION_LIST,
}

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
    pieces = sum(BUSINESSES[SIGN_KINDS[s][0]]["cards"] for s in SIGNS)
    need(pieces == _const("sign_pieces"), f"{pieces} sign pieces, not {_const('sign_pieces')}")
    need(_const("box_cards") == _const("deck_size") + _const("luxury_count") + _const("sign_pieces"), "box count")
    need(pieces <= PAGES * SLOTS, "more sign pieces than the binder has pockets")
    for s in SIGNS:
        shapes = {BUSINESSES[k]["shape"] for k in SIGN_KINDS[s]}
        need(len(shapes) == 1, f"sign {s} has business cards of different shapes")
    need(len(LUXURIES) == _const("luxury_count"), f"{len(LUXURIES)} luxuries, not {_const('luxury_count')}")
    prices = [x["price"] for x in RAW["luxuries"]]
    need(min(prices) == _const("luxury_price_min") and max(prices) == _const("luxury_price_max"), "luxury price range")
    need(all(1 <= len(SHAPES[b["shape"]]) <= 4 for b in RAW["businesses"]), "an ad has 1-4 cards")
    need(PAGES == 4 and SLOTS == 9, "the binder is 4 pages of 3x3 slots")
    need(BUSINESS_DIE_FACES == 10 and PAGE_DIE_SIDES >= PAGES, "dice")
    # Enough luxuries that the market cannot run dry without a winner (digest 5, safety valve).
    need(len(LUXURIES) > (LUXURIES_TO_WIN - 1) * PLAYERS_MAX, "too few luxuries for the player count")
    if problems:
        raise ValueError("filthyrich data: " + "; ".join(problems))


_check()
