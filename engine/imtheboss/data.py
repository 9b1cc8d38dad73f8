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


def check() -> None:
    """The invariants the digest lists; an edit of data.json that breaks one fails at import."""
    _walk_marks(RAW)
    assert len(CLANS) == 6 and len(set(CLANS)) == 6
    for c in RAW["clans"]["list"]:
        assert "mark" in c and len(c["rgb"]) == 3
    # 98 cards: 24 clan + 21 travel + 33 recruit + 10 boss + 10 stop
    assert len(DECK) == DECK_TOTAL == 98, len(DECK)
    assert len(set(DECK)) == len(DECK)
    assert sum(1 for d in DECK if d.startswith("clan-")) == 24
    assert sum(1 for d in DECK if d.startswith("travel-")) == 21
    assert all(kind(d) in KIND_ORDER for d in DECK)
    # the board
    assert NSPACES == 16 and [s["id"] for s in SPACES] == list(range(16))
    for s in RAW["board"]["spaces"]:
        assert s.get("mark") in MARKS
    for sp in SPACES:
        req = set(sp["req"])
        assert req <= set(CLANS) and len(req) == len(sp["req"])
        seen: set[str] = set()
        for pool, k in sp["pools"]:
            assert set(pool) <= set(CLANS) and len(set(pool)) == len(pool)
            assert not (set(pool) & req), f"space {sp['id']}: a pool overlaps the required clans"
            assert not (set(pool) & seen), f"space {sp['id']}: pools overlap"
            assert 1 <= k <= len(pool), f"space {sp['id']}: pool needs {k} of {len(pool)}"
            seen |= set(pool)
        assert sp["div"] == investors(sp["id"]) + 1, f"space {sp['id']}: dividends != investors + 1"
    # deal cards 1..15, values never fall, backs only from #10, #15 ends
    assert sorted(DEAL_CARDS) == list(range(1, 16))
    values = [DEAL_CARDS[i]["value"] for i in range(1, 16)]
    assert values == sorted(values)
    for no, card in DEAL_CARDS.items():
        assert all(1 <= f <= DIE_SIDES for f in card["back"])
        if no < 10:
            assert not card["back"] and not card["end"]
    assert DEAL_CARDS[LAST_DEAL]["end"]
    assert set(SHORT_REMOVED) < set(DEAL_CARDS) and LAST_DEAL not in SHORT_REMOVED
    # placards: never more handed out than exist
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        assert n * PLACARDS_PER_PLAYER[n] <= len(CLANS), n
    assert len(DRAW_BY_PLACARDS) == 4 and HAND_LIMIT_LATE <= HAND_LIMIT
    assert MONEY_BRACKET >= 2


check()
