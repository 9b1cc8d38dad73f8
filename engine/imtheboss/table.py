"""The deal on the table: sources, coverage, requirements, and the public impossibility test.

Pure functions of the game state (no events, no chance). A *source* is something that can
take part in the current deal (digest 5.1): an owned placard that is not away, or a clan card
face up on the table, whose clan is named on the space. Source ids are short strings the panel
can put in a select: `placard:red` and `card:red:2` (seat 2's red clan card; a player has at
most one clan card per clan on the table, so clan and owner name it).
"""

from __future__ import annotations

from itertools import combinations

from .data import CIDX, CLAN_CARDS_PER_CLAN, CLANS, DECK, INVESTORS, RECRUIT_SET, SPACE_CLANS, SPACES, kind

#: Recruit cards in the deck (the count comes from the data file).
RECRUIT_TOTAL = sum(1 for c in DECK if c.startswith("recruit-"))


def placard_src(clan: str) -> str:
    return f"placard:{clan}"


def card_src(clan: str, owner: int) -> str:
    return f"card:{clan}:{owner}"


def parse_src(src) -> tuple[str, str, int | None] | None:
    """`placard:red` -> ("placard", "red", None); `card:red:2` -> ("card", "red", 2)."""
    if not isinstance(src, str):
        return None
    parts = src.split(":")
    if len(parts) == 2 and parts[0] == "placard" and parts[1] in CIDX:
        return ("placard", parts[1], None)
    if len(parts) == 3 and parts[0] == "card" and parts[1] in CIDX and parts[2].isdigit():
        return ("card", parts[1], int(parts[2]))
    return None


def sources(state: dict) -> list[dict]:
    """Every live source of the current deal, placards first, then table cards in play order."""
    deal = state["deal"]
    out = []
    away = deal["away"]
    for c in SPACE_CLANS[deal["space"]]:
        owner = state["placards"][CIDX[c]]
        if owner is not None and c not in away:
            out.append({"src": placard_src(c), "clan": c, "owner": owner, "kind": "placard"})
    for t in deal["table"]:
        out.append({"src": card_src(t["clan"], t["owner"]), "clan": t["clan"], "owner": t["owner"], "kind": "card"})
    return out


def find_source(state: dict, src: str) -> dict | None:
    for s in sources(state):
        if s["src"] == src:
            return s
    return None


def accepted_srcs(deal: dict) -> set[str]:
    return {o["src"] for o in deal["offers"] if o["state"] != "pending"}


def is_committed(state: dict, source: dict, acc: set[str] | None = None) -> bool:
    """5.2: the boss's sources count by themselves; others need an accepted offer. With the
    2-player rules (7.1/7.2) every source on the table counts."""
    deal = state["deal"]
    if state["shared"] or source["owner"] == deal["boss"]:
        return True
    if acc is None:
        acc = accepted_srcs(deal)
    return source["src"] in acc


def covered(state: dict) -> set[str]:
    acc = accepted_srcs(state["deal"])
    return {s["clan"] for s in sources(state) if is_committed(state, s, acc)}


def boss_blocked(state: dict, srcs: list[dict] | None = None) -> set[str]:
    """Clans the boss may not lay a clan card for (digest 5.3: "the boss may not play one for a
    covered clan"). In the base game, every covered clan. Under the 2-player rules (7.1/7.2)
    only the clans the boss's own sources cover: a rival's investor on the table is one the
    boss "may use" (使用できます, JA 6), paying a share, not one she must use; 3-1 lets any
    boss lay her own clan card in an investor's place instead (issue 26)."""
    if not state["shared"]:
        return covered(state)
    boss = state["deal"]["boss"]
    return {s["clan"] for s in (sources(state) if srcs is None else srcs) if s["owner"] == boss}


def met(space: int, clans) -> bool:
    """Every required clan covered and every pool has at least k covered clans."""
    sp = SPACES[space]
    clans = set(clans)
    if not set(sp["req"]) <= clans:
        return False
    return all(len(clans & set(pool)) >= k for pool, k in sp["pools"])


def requirements_met(state: dict) -> bool:
    return met(state["deal"]["space"], covered(state))


def discard_clan_counts(state: dict) -> dict[str, int]:
    counts = {c: 0 for c in CLANS}
    for card in state["discard"]:
        if card.startswith("clan-"):
            counts[kind(card)[5:]] += 1
    return counts


def unseen_recruits(state: dict) -> int:
    """Recruit cards that may still be in someone's hand or the draw pile: all but the public
    discard pile's (and those being played in an open window)."""
    seen = sum(1 for c in state["discard"] if c.startswith("recruit-"))
    win = state.get("window")
    if win is not None and win.get("kind") == "reaction":
        seen += sum(1 for c in win["cards"] if c.startswith("recruit-"))
    return RECRUIT_TOTAL - seen


def alive_clans(state: dict) -> tuple[set[str], set[str]]:
    """Which of the space's clans could still take part (digest 9.6 as issue 14 #1 reads it).

    Returns (alive, spares): a clan is alive when its placard is owned and not away, one of its
    clan cards is on the table, or not all of its clan cards are in the (public) discard pile.
    A clan whose only way in is its spare placard is in `spares`: a recruit triple can still
    bring it (JA 3-2-2, ES "deben reclutarse primero"). Hands are never looked at, so the test
    reveals nothing."""
    deal = state["deal"]
    on_table = {t["clan"] for t in deal["table"]}
    dead_counts = discard_clan_counts(state)
    out, spares = set(), set()
    for c in SPACE_CLANS[deal["space"]]:
        owner = state["placards"][CIDX[c]]
        if owner is not None and c not in deal["away"]:
            out.add(c)
        elif c in on_table or dead_counts[c] < CLAN_CARDS_PER_CLAN:
            out.add(c)
        elif owner is None and c not in deal["away"]:
            spares.add(c)
    return out, spares


def publicly_impossible(state: dict) -> bool:
    """True only when no card that could still be in anyone's hand could complete the deal
    (issue 14 #1): each spare placard the deal needs takes a recruit triple, and a triple is
    possible while three recruit cards are unseen."""
    alive, spares = alive_clans(state)
    space = state["deal"]["space"]
    if met(space, alive):
        return False
    triples = unseen_recruits(state) // RECRUIT_SET
    for size in range(1, min(triples, len(spares)) + 1):
        if any(met(space, alive | set(pick)) for pick in combinations(sorted(spares), size)):
            return False
    return True


def own_cards_needed(space: int, have: set[str], own_cards: dict[str, str]) -> list[str]:
    """Which of the boss's clan cards on the table take part in the deal, given the clans `have`
    already covers (the boss's placards; accepted offers): only those a requirement still needs,
    required clans first, then pools in clan order. The others took no part and go back to hand
    at the close (JA 3-3 「取引に参加もせず…手に持ってきます」, ES "no estaba involucrada en el
    reparto"; issue 14 #2)."""
    sp = SPACES[space]
    have = set(have)
    used: list[str] = []
    for c in sp["req"]:
        if c not in have and c in own_cards:
            used.append(own_cards[c])
            have.add(c)
    for pool, k in sp["pools"]:
        count = len(have & set(pool))
        for c in pool_order(pool):
            if count >= k:
                break
            if c not in have and c in own_cards:
                used.append(own_cards[c])
                have.add(c)
                count += 1
    return used


def slots(state: dict) -> list[dict]:
    """The space's requirements, each with the committed sources that fill it (for views)."""
    deal = state["deal"]
    sp = SPACES[deal["space"]]
    acc = accepted_srcs(deal)
    by_clan: dict[str, list[str]] = {}
    for s in sources(state):
        if is_committed(state, s, acc):
            by_clan.setdefault(s["clan"], []).append(s["src"])
    out = []
    for c in sp["req"]:
        out.append({"kind": "req", "clans": [c], "k": 1, "filled": [c] if c in by_clan else [],
                    "by": by_clan.get(c, [])})
    for pool, k in sp["pools"]:
        filled = [c for c in pool if c in by_clan]
        out.append({"kind": "pool", "clans": list(pool), "k": k, "filled": filled,
                    "by": [src for c in filled for src in by_clan[c]]})
    return out


# -- the 2-player rules' close (7.1 / 7.2) ---------------------------------------------------------

def shared_plan(state: dict, use: list[str] | None = None) -> tuple[list[str], list[dict]]:
    """Which sources the boss uses at a close under the 2-player rules.

    The boss uses their own sources first (placards, then their clan cards only as needed), then
    as few foreign sources as possible: `use` names them; by default placards first, then clan
    cards, in clan order R B Y M O G. Returns (own clan-card srcs used, foreign sources used).
    Raises ValueError when `use` is not a valid minimal choice or the requirements are unmet.
    """
    deal = state["deal"]
    boss = deal["boss"]
    sp = SPACES[deal["space"]]
    srcs = sources(state)
    own_placards = {s["clan"] for s in srcs if s["owner"] == boss and s["kind"] == "placard"}
    own_cards = {s["clan"]: s["src"] for s in srcs if s["owner"] == boss and s["kind"] == "card"}
    own_used = own_cards_needed(deal["space"], own_placards, own_cards)
    have = set(own_placards) | {c for c, src in own_cards.items() if src in own_used}
    need_req = [c for c in sp["req"] if c not in have]
    need_pools: list[tuple[tuple[str, ...], int]] = []
    for pool, k in sp["pools"]:
        count = len(have & set(pool))
        if count < k:
            need_pools.append((pool, k - count))
    foreign = [s for s in srcs if s["owner"] != boss]
    minimum = len(need_req) + sum(r for _, r in need_pools)
    if use is None:
        chosen = _default_foreign(foreign, need_req, need_pools, have)
        if chosen is None:
            raise ValueError("unmet")
        return own_used, chosen
    if (not isinstance(use, list) or not all(isinstance(u, str) for u in use)
            or len(use) != minimum or len(set(use)) != len(use)):
        raise ValueError("bad_use")
    by_src = {s["src"]: s for s in foreign}
    chosen = []
    for src in use:
        if src not in by_src:
            raise ValueError("bad_use")
        chosen.append(by_src[src])
    clans = [s["clan"] for s in chosen]
    if len(set(clans)) != len(clans) or set(clans) & have:
        raise ValueError("bad_use")
    if not met(deal["space"], have | set(clans)):
        raise ValueError("bad_use")
    return own_used, chosen


def pool_order(pool) -> list[str]:
    return sorted(pool, key=lambda c: CIDX[c])


def _default_foreign(foreign: list[dict], need_req, need_pools, have: set[str]) -> list[dict] | None:
    def pick(clan: str) -> dict | None:
        placards = [s for s in foreign if s["clan"] == clan and s["kind"] == "placard"]
        if placards:
            return placards[0]
        cards = [s for s in foreign if s["clan"] == clan]
        return cards[0] if cards else None

    chosen = []
    for c in need_req:
        s = pick(c)
        if s is None:
            return None
        chosen.append(s)
    for pool, r in need_pools:
        cands = [c for c in pool_order(pool) if c not in have]
        # placards first, then clan cards, each in clan order
        with_placard = [c for c in cands if any(s["clan"] == c and s["kind"] == "placard" for s in foreign)]
        with_card = [c for c in cands if c not in with_placard and any(s["clan"] == c for s in foreign)]
        picks = (with_placard + with_card)[:r]
        if len(picks) < r:
            return None
        chosen += [pick(c) for c in picks]
    return chosen


def share(space: int, proceeds: int) -> int:
    """7.1: a foreign source used is paid floor(P / the space's investors)."""
    return proceeds // INVESTORS[space]
