"""I'm the Boss!'s component data, loaded once from `data.json` and checked at import.

Every number the rules and the renderer use comes from here, so an owner of the printed game
can correct a [house] value in one place (the JSON) and the checks below say at once if the
data no longer holds together (98 cards, pools never overlap required clans, dividends =
investors + 1, ...). Renderers may import this module too: it is static data, no state.
"""

from __future__ import annotations

import json
from pathlib import Path

_PATH = Path(__file__).resolve().parent / "data.json"
RAW = json.loads(_PATH.read_text(encoding="utf-8"))

MARKS = ("confirmed", "house")

CLANS: tuple[str, ...] = tuple(c["id"] for c in RAW["clans"]["list"])
CIDX = {c: i for i, c in enumerate(CLANS)}
CLAN_LETTER = {c["id"]: c["letter"] for c in RAW["clans"]["list"]}
CLAN_NAME = {c["id"]: c["name"] for c in RAW["clans"]["list"]}
CLAN_RGB = {c["id"]: tuple(c["rgb"]) for c in RAW["clans"]["list"]}

MIN_PLAYERS: int = RAW["players"]["min"]
MAX_PLAYERS: int = RAW["players"]["max"]
PLACARDS_PER_PLAYER: dict[int, int] = {int(k): v for k, v in RAW["placards"]["per_player"].items()}

_deck = RAW["deck"]
DECK_TOTAL: int = _deck["total"]
HAND_INITIAL: int = RAW["hand"]["initial"]
DRAW: int = RAW["hand"]["draw"]
HAND_LIMIT: int = RAW["hand"]["limit"]
HAND_LIMIT_LATE: int = RAW["hand"]["limit_late"]
RECRUIT_SET: int = RAW["recruit_set"]["value"]
DIE_SIDES: int = RAW["die"]["sides"]
DRAW_BY_PLACARDS: tuple[int, ...] = tuple(RAW["draw_by_placards"]["value"])
NO_DEAL_AT: int = RAW["no_deal_at"]["value"]
MUST_DEAL_AT: int = RAW["must_deal_at"]["value"]
LATE_FROM_CARD: int = RAW["late_from_card"]["value"]
MONEY_BRACKET: int = RAW["money_bracket"]["value"]

# -- the board ------------------------------------------------------------------------------

SPACES: tuple[dict, ...] = tuple(
    {
        "id": s["id"],
        "req": tuple(s["req"]),
        "pools": tuple((tuple(p["clans"]), p["k"]) for p in s["pools"]),
        "div": s["div"],
    }
    for s in RAW["board"]["spaces"]
)
NSPACES = len(SPACES)


def investors(space: int) -> int:
    sp = SPACES[space]
    return len(sp["req"]) + sum(k for _, k in sp["pools"])


def space_clans(space: int) -> tuple[str, ...]:
    """Every clan named on a space (required or in a pool), in clan order."""
    sp = SPACES[space]
    named = set(sp["req"])
    for pool, _ in sp["pools"]:
        named.update(pool)
    return tuple(c for c in CLANS if c in named)


SPACE_CLANS: tuple[tuple[str, ...], ...] = tuple(space_clans(i) for i in range(NSPACES))
INVESTORS: tuple[int, ...] = tuple(investors(i) for i in range(NSPACES))

# -- deal cards -----------------------------------------------------------------------------

DEAL_CARDS: dict[int, dict] = {
    c["no"]: {"no": c["no"], "value": c["value"], "back": tuple(c["back"]), "end": bool(c.get("end", False))}
    for c in RAW["deal_cards"]["cards"]
}
SHORT_REMOVED: tuple[int, ...] = tuple(RAW["deal_cards"]["short_game_removed"]["value"])
LAST_DEAL = max(DEAL_CARDS)

# -- the influence deck -------------------------------------------------------------------------

def _deck_ids() -> list[str]:
    ids: list[str] = []
    for c in CLANS:
        ids += [f"clan-{c}-{i}" for i in range(1, _deck["clan_per_clan"] + 1)]
    for c in CLANS:
        ids += [f"travel-{c}-{i}" for i in range(1, _deck["travel_per_clan"] + 1)]
    ids += [f"travel-grey-{i}" for i in range(1, _deck["travel_grey"] + 1)]
    ids += [f"recruit-{i:02d}" for i in range(1, _deck["recruit"] + 1)]
    ids += [f"boss-{i:02d}" for i in range(1, _deck["boss"] + 1)]
    ids += [f"stop-{i:02d}" for i in range(1, _deck["stop"] + 1)]
    return ids


DECK: tuple[str, ...] = tuple(_deck_ids())
CLAN_CARDS_PER_CLAN: int = _deck["clan_per_clan"]

#: Card kinds, the unit players think in (all copies of a kind are alike): clan-<clan>,
#: travel-<clan>, travel-grey, recruit, boss, stop. Order = how a hand is sorted and shown.
KINDS: tuple[str, ...] = (
    tuple(f"clan-{c}" for c in CLANS)
    + tuple(f"travel-{c}" for c in CLANS)
    + ("travel-grey", "recruit", "boss", "stop")
)
KIND_ORDER = {k: i for i, k in enumerate(KINDS)}


def kind(card: str) -> str:
    """`clan-red-3` -> `clan-red`, `recruit-07` -> `recruit`."""
    return card.rsplit("-", 1)[0]


def card_sort_key(card: str) -> tuple[int, str]:
    return (KIND_ORDER[kind(card)], card)


# -- checks -----------------------------------------------------------------------------------

def _walk_marks(node, path: str = "") -> None:
    if isinstance(node, dict):
        mark = node.get("mark")
        if mark is not None:
            assert mark in MARKS, f"data.json {path}: mark {mark!r}"
        for key, value in node.items():
            _walk_marks(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _walk_marks(value, f"{path}[{i}]")


def check(raw: dict | None = None) -> None:
    """The invariants the digest lists, on `raw` (default: the loaded data.json); an edit that
    breaks one fails at import: 98 cards, pools never overlap the required clans (nor each
    other), dividends = investors + 1, deal cards 1-15 with rising values, placards enough."""
    raw = RAW if raw is None else raw
    _walk_marks(raw)
    clans = [c["id"] for c in raw["clans"]["list"]]
    assert len(clans) == 6 and len(set(clans)) == 6, "six clans"
    for c in raw["clans"]["list"]:
        assert "mark" in c and len(c["rgb"]) == 3
    d = raw["deck"]
    clan_cards = d["clan_per_clan"] * len(clans)
    travels = d["travel_per_clan"] * len(clans) + d["travel_grey"]
    total = clan_cards + travels + d["recruit"] + d["boss"] + d["stop"]
    assert total == d["total"] == 98, f"the deck has {total} cards, not 98"
    assert clan_cards == 24 and travels == 21
    spaces = raw["board"]["spaces"]
    assert [s["id"] for s in spaces] == list(range(16)), "16 spaces, ids 0-15"
    for sp in spaces:
        assert sp.get("mark") in MARKS
        req = set(sp["req"])
        assert req <= set(clans) and len(req) == len(sp["req"])
        seen: set[str] = set()
        inv = len(req)
        for p in sp["pools"]:
            pool, k = p["clans"], p["k"]
            assert set(pool) <= set(clans) and len(set(pool)) == len(pool)
            assert not (set(pool) & req), f"space {sp['id']}: a pool overlaps the required clans"
            assert not (set(pool) & seen), f"space {sp['id']}: pools overlap"
            assert 1 <= k <= len(pool), f"space {sp['id']}: pool needs {k} of {len(pool)}"
            seen |= set(pool)
            inv += k
        assert sp["div"] == inv + 1, f"space {sp['id']}: dividends != investors + 1"
    cards = {c["no"]: c for c in raw["deal_cards"]["cards"]}
    assert sorted(cards) == list(range(1, 16)), "deal cards 1-15"
    values = [cards[i]["value"] for i in range(1, 16)]
    assert values == sorted(values), "deal values never fall"
    for no, card in cards.items():
        assert all(1 <= f <= raw["die"]["sides"] for f in card["back"])
        if no < 10:
            assert not card["back"] and not card.get("end"), "no roll before #10"
    assert cards[15].get("end"), "#15 ends the game"
    removed = raw["deal_cards"]["short_game_removed"]["value"]
    assert set(removed) < set(cards) and 15 not in removed
    per = {int(k): v for k, v in raw["placards"]["per_player"].items()}
    for n in range(raw["players"]["min"], raw["players"]["max"] + 1):
        assert n * per[n] <= len(clans), f"{n} players: not enough placards"
    assert len(raw["draw_by_placards"]["value"]) == 4
    assert raw["hand"]["limit_late"] <= raw["hand"]["limit"]
    assert raw["money_bracket"]["value"] >= 2


check()
assert len(DECK) == DECK_TOTAL and len(set(DECK)) == len(DECK)
assert all(kind(card) in KIND_ORDER for card in DECK)
