"""The seat-filler for I'm the Boss!: sensible, quick, and only from the seat's view.

What it does, and why:
  - early it collects cards (a hand of stops and travels protects later deals), and it starts a
    deal only where it can see the requirements being met: its own placards and clan cards, plus
    placards held by others that it can buy at a fair price;
  - as a placard or clan-card holder it offers when the boss needs that clan, asking about a
    dividend (two when it is the only way to cover a required clan), and asks less after each
    refusal, down to nothing, so every negotiation ends;
  - as boss it plays its own clan cards first, accepts the cheapest needed offer it can afford
    while keeping about a third of the proceeds, declines the rest, closes as soon as the
    requirements are met and fails when a needed clan has no possible source;
  - it answers every window: it stops a card that hurts it (a travel on its committed source or
    on its own deal, a boss card against its deal, a recruit of its placard) and passes otherwise;
  - it uses travel and boss cards against a rival's rich deal it has no share in.

In a deal every other player owes the boss an offer or a pass (issue 19): the seat-filler passes
when it has nothing worth offering, and as boss it gives up once nobody owes it an answer and the
deal is still short (it closes as soon as it can). `choose` may still return None when the boss
waits for answers: the bot then simply waits (the deal deadline still runs). Windows, turns and
discards always get an answer.
"""

from __future__ import annotations

import random

from engine.core import check_level

from .data import CLANS, INVESTORS, KINDS, SPACE_CLANS, SPACES

KEEP_SHARE = 0.34  # the share of the proceeds a boss wants to keep at least
#: The friendly level: it keeps less of a deal for itself (pays partners more generously) and
#: never travels or takes over a rival's deal, but still never fails a deal it can close.
FRIENDLY_KEEP_SHARE = 0.2


def _pick(legal: list[dict], **match) -> dict | None:
    for a in legal:
        if all(a.get(k) == v for k, v in match.items()):
            return a
    return None


def choose(view: dict, legal: list[dict], rng: random.Random, level: str = "strong") -> dict | None:
    """The seat-filler's move (see the module note); `level` "friendly" is the gentler player."""
    friendly = check_level(level) == "friendly"
    if not legal:
        return None
    me = view["me"]
    win = view.get("window")
    if win is not None and win["kind"] == "reaction":
        return _react(view, legal, me, rng)
    phase = view["phase"]
    if phase == "marker":
        return _marker(view, legal, me)
    if phase in ("turn_start", "moved"):
        return _turn(view, legal, me, rng)
    if phase == "discard":
        return _discard(view, legal, me)
    if phase == "deal":
        return _deal(view, legal, me, rng, friendly)
    return rng.choice(legal)


# -- evaluating a space ---------------------------------------------------------------------------

def _prospect(view: dict, space: int, me: int) -> tuple[bool, float]:
    """Can I (as boss) see the requirements met at `space`, and what would I keep?"""
    sp = SPACES[space]
    value = view["top"]["value"] if view.get("top") else 0
    P = sp["div"] * value
    share = P / (INVESTORS[space] + 1)
    mine = set(view["seats"][me]["placards"])
    kinds = view.get("private", {}).get("kinds", {})
    cards = {c for c in CLANS if kinds.get(f"clan-{c}", 0) > 0}
    others = {c for s in view["seats"] if s["seat"] != me and not s["resigned"] for c in s["placards"]}
    cost = 0.0
    used_cards = 0

    def cover(c: str) -> bool:
        nonlocal cost, used_cards
        if c in mine:
            return True
        if c in cards:
            used_cards += 1
            return True
        if c in others:
            cost += share * (1.0 if view["shared"] else 1.2)
            return True
        return False

    for c in sp["req"]:
        if not cover(c):
            return False, 0.0
    for pool, k in sp["pools"]:
        got = 0
        # cheapest first: own placards, own cards, then others' placards
        for c in sorted(pool, key=lambda c: (c not in mine, c not in cards, c not in others)):
            if got >= k:
                break
            if cover(c):
                got += 1
        if got < k:
            return False, 0.0
    return True, P - cost - used_cards * 1.5


def _marker(view: dict, legal: list[dict], me: int) -> dict:
    best, best_score = legal[0], -1e9
    for a in legal:
        ok, keep = _prospect(view, a["space"], me)
        score = keep if ok else -len(SPACES[a["space"]]["req"])
        if score > best_score:
            best, best_score = a, score
    return best


def _turn(view: dict, legal: list[dict], me: int, rng: random.Random) -> dict:
    deal = _pick(legal, type="deal_here")
    other = _pick(legal, type="roll") or _pick(legal, type="draw")
    if deal is None:
        return other or legal[0]
    if other is None:
        return deal
    ok, keep = _prospect(view, view["marker"], me)
    hand = view["seats"][me]["hand"]
    kinds = view.get("private", {}).get("kinds", {})
    defended = kinds.get("stop", 0) > 0
    # collect cards early: a first deal wants a few cards behind it
    want = 4.0 if (hand >= 5 or defended) else 8.0
    if ok and keep >= want:
        return deal
    return other


def _card_value(k: str, view: dict, me: int) -> float:
    kinds = view.get("private", {}).get("kinds", {})
    mine = set(view["seats"][me]["placards"])
    if k == "stop":
        return 5.0
    if k == "boss":
        return 4.0
    if k == "travel-grey":
        return 3.5
    if k.startswith("travel-"):
        return 2.5
    if k.startswith("clan-"):
        return 1.5 if k[5:] in mine else 3.0
    if k == "recruit":
        return 2.2 if kinds.get("recruit", 0) >= 3 else 1.0
    return 1.0


def _discard(view: dict, legal: list[dict], me: int) -> dict:
    recruits = [a for a in legal if a["type"] == "recruit"]
    if recruits:
        return _best_recruit(view, recruits)
    discards = [a for a in legal if a["type"] == "discard"]
    return min(discards, key=lambda a: (_card_value(a["cards"][0].rsplit("-", 1)[0], view, me),
                                        KINDS.index(a["cards"][0].rsplit("-", 1)[0])))


def _best_recruit(view: dict, recruits: list[dict]) -> dict:
    """The placard named on most uncovered spaces, preferably a rival leader's."""
    free = [s for s in range(len(view["covered"])) if view["covered"][s] is None]

    def worth(a: dict) -> float:
        return sum(1 for s in free if a["clan"] in SPACE_CLANS[s])

    return max(recruits, key=worth)


# -- windows ----------------------------------------------------------------------------------------

def _react(view: dict, legal: list[dict], me: int, rng: random.Random) -> dict:
    stop = _pick(legal, type="stop")
    passing = _pick(legal, type="pass") or legal[0]
    if stop is None:
        return passing
    win = view["window"]
    deal = view.get("deal")
    hurts = False
    if win["card"] == "recruit":
        hurts = win.get("target_owner") == me
    elif deal is not None:
        boss = deal["boss"]
        if win["card"] == "boss":
            hurts = boss == me or (_partner(deal, me) and rng.random() < 0.3)
        elif win["card"] == "travel":
            src = next((s for s in deal["sources"] if s["src"] == win["target"]), None)
            if src is not None:
                if src["owner"] == me and src["committed"]:
                    hurts = True
                elif boss == me and src["committed"]:
                    hurts = True
                elif boss == me and src["clan"] in _needed(deal):
                    hurts = True
    return stop if hurts else passing


def _partner(deal: dict, me: int) -> bool:
    return any(o["seat"] == me and o["state"] != "pending" for o in deal["offers"])


def _needed(deal: dict) -> set[str]:
    """Clans the deal still lacks: uncovered required clans and clans of short pools."""
    cov = set(deal["covered"])
    need = set()
    for slot in deal["slots"]:
        if slot["kind"] == "req":
            if not slot["filled"]:
                need.update(slot["clans"])
        elif len(slot["filled"]) < slot["k"]:
            need.update(c for c in slot["clans"] if c not in cov)
    return need


def _short_by(deal: dict) -> int:
    short = 0
    for slot in deal["slots"]:
        short += max(0, slot["k"] - len(slot["filled"]))
    return short


# -- the negotiation ----------------------------------------------------------------------------------

def _deal(view: dict, legal: list[dict], me: int, rng: random.Random, friendly: bool = False) -> dict | None:
    deal = view["deal"]
    win = view.get("window")
    if win is not None and win["kind"] == "last_call":
        if deal["boss"] == me:
            return None  # my own call: wait for the others
        sab = None if friendly else _sabotage(view, legal, me, rng, last_call=True)
        return sab or _pick(legal, type="pass")
    if deal["boss"] == me:
        return _as_boss(view, legal, me, rng, FRIENDLY_KEEP_SHARE if friendly else KEEP_SHARE)
    # nothing worth offering: say so, so that the boss need not wait for me (issue 19)
    return _as_other(view, legal, me, rng, friendly) or _pick(legal, type="pass")


def _as_boss(view: dict, legal: list[dict], me: int, rng: random.Random, keep: float = KEEP_SHARE) -> dict | None:
    deal = view["deal"]
    need = _needed(deal)
    close = _pick(legal, type="close")
    if close is not None:
        # Under the 2-player rules the close pays each rival investor used a share: my own
        # clan card for that clan keeps the share (issue 26), when it is worth more than a card.
        saving = _own_card_saving(view, legal, me) if view["shared"] else None
        return saving or close
    # my own clan cards for what is missing (free but for the card)
    for a in legal:
        if a["type"] == "play_clan" and a["clan"] in need:
            return a
    # a recruit triple for a missing clan's placard
    for a in legal:
        if a["type"] == "recruit" and a["clan"] in need:
            return a
    P = deal["proceeds"]
    short = max(1, _short_by(deal))
    budget = (P * (1 - keep) - deal["accepted_total"]) / short
    pending = sorted((o for o in deal["offers"] if o["state"] == "pending"), key=lambda o: o["usd"])
    accepts = {a["offer"] for a in legal if a["type"] == "accept"}
    for o in pending:
        if o["clan"] in need and o["id"] in accepts and (o["usd"] <= budget or o["usd"] == 0):
            return {"type": "accept", "offer": o["id"]}
    for o in pending:
        if o["clan"] not in need or o["usd"] > budget:
            d = _pick(legal, type="decline", offer=o["id"])
            if d is not None:
                return d
    # hopeless? a missing clan with no source anywhere I can see and none in my hand
    live = {s["clan"] for s in deal["sources"]}
    if any(c not in live for c in need) and not _could_cover(deal, need - live):
        return _pick(legal, type="fail")
    # every other player has offered or passed: no more offers are coming, so give up rather
    # than sit on the deal until its deadline (issue 19)
    if not deal.get("asked"):
        return _pick(legal, type="fail")
    return None


def _foreign_needed(space: int, own: set[str]) -> int:
    """How many rival investors a 2-player close must use beside the clans in `own`."""
    sp = SPACES[space]
    return sum(1 for c in sp["req"] if c not in own) + sum(max(0, k - len(own & set(pool))) for pool, k in sp["pools"])


def _own_card_saving(view: dict, legal: list[dict], me: int) -> dict | None:
    """A clan card of mine that spares a rival's share at the close, if the share is worth the
    card (a clan card kept is worth about $2M in later deals)."""
    deal = view["deal"]
    share = deal["proceeds"] // INVESTORS[deal["space"]]
    if share < 2:
        return None
    own = {s["clan"] for s in deal["sources"] if s["owner"] == me}
    base = _foreign_needed(deal["space"], own)
    for a in legal:
        if a["type"] == "play_clan" and _foreign_needed(deal["space"], own | {a["clan"]}) < base:
            return a
    return None


def _could_cover(deal: dict, missing: set[str]) -> bool:
    """Whether the missing clans could still come (others' clan cards are unseen): hope only
    for a pool that can still be filled from live clans, never for a missing required clan."""
    for slot in deal["slots"]:
        if slot["kind"] == "req" and set(slot["clans"]) & missing:
            return False
    return True


def _ask(view: dict, deal: dict, src: dict, me: int) -> dict:
    v = deal["value"]
    last = [d for d in deal["declined"] if d["seat"] == me and d["src"] == src["src"]]
    if last:
        prev = min(d["usd"] for d in last)
        return {"usd": max(0, prev - max(1, v // 2))}
    alternatives = [s for s in deal["sources"] if s["clan"] == src["clan"] and s["src"] != src["src"]]
    required = src["clan"] in deal["req"]
    k = 2 if (required and not alternatives and deal["div"] >= 4) else 1
    return {"div": k}


def _as_other(view: dict, legal: list[dict], me: int, rng: random.Random, friendly: bool = False) -> dict | None:
    deal = view["deal"]
    need = _needed(deal)
    sab = None if friendly else _sabotage(view, legal, me, rng, last_call=False)
    if sab is not None:
        return sab
    if not view["shared"]:
        my_offers = {o["src"]: o for o in deal["offers"] if o["seat"] == me}
        for s in deal["sources"]:
            if s["owner"] != me or s["clan"] not in need or s["src"] in my_offers:
                continue
            last = [d for d in deal["declined"] if d["seat"] == me and d["src"] == s["src"]]
            if last and min(d["usd"] for d in last) == 0:
                continue  # refused even for free: leave it
            ask = _ask(view, deal, s, me)
            if friendly and "div" in ask:
                ask = {"div": min(1, ask["div"])}  # the friendly level never asks two dividends
            want = {"type": "offer", "src": s["src"], "ask": ask}
            if want in legal:
                return want
        # lay a clan card the boss lacks, to offer it
        my_srcs = {s["clan"] for s in deal["sources"] if s["owner"] == me}
        for a in legal:
            if a["type"] == "play_clan" and a["clan"] in need and a["clan"] not in my_srcs:
                live = [s for s in deal["sources"] if s["clan"] == a["clan"]]
                if not live:
                    return a
    return None


def _sabotage(view: dict, legal: list[dict], me: int, rng: random.Random, last_call: bool) -> dict | None:
    """Travel or a boss card against a rival's rich deal I have no share in."""
    deal = view["deal"]
    if _partner(deal, me) or deal["proceeds"] < 10:
        return None
    boss = deal["boss"]
    boss_est = view["seats"][boss]["money_est"][1]
    my_money = view.get("private", {}).get("money", 0)
    rich = boss_est >= my_money or deal["proceeds"] >= 16
    if not rich:
        return None
    if _short_by(deal) <= 1:
        bosses = _pick(legal, type="boss")
        if bosses is not None and rng.random() < 0.5:
            mine = set(view["seats"][me]["placards"])
            if sum(1 for c in SPACE_CLANS[deal["space"]] if c in mine) >= 1:
                return bosses
        travels = [a for a in legal if a["type"] == "travel"]
        if travels and rng.random() < (0.6 if last_call else 0.35):
            by_src = {s["src"]: s for s in deal["sources"]}
            good = []
            for a in travels:
                s = by_src.get(a["src"])
                # one's own investors may be sent away only under the 2-player rules, where
                # that is the way to keep a rival from using them
                if s is None or not s["committed"] or (s["owner"] == me and not view["shared"]):
                    continue
                alternatives = [x for x in deal["sources"] if x["clan"] == s["clan"] and x["src"] != s["src"]]
                if alternatives:
                    continue
                good.append((a["color"] == "grey", a))
            if good:
                good.sort(key=lambda g: g[0])  # keep grey travels for later
                return good[0][1]
    return None
