"""Hidden information through the bot: a watch on everything the bot sends to Discord.

`LeakWatch(sim)` (tests/support/leakwatch.py) sits on the one function every REST request of the bot goes through in
SimCord (`simcord.http.router.dispatch`, whose log is `sim.env.http_requests`) and on the
store's writes, and answers one question for each request: does it show its audience anything
the engine says that audience may not see?

What a request shows
    Every string of its JSON body (message content, embed titles, descriptions, fields and
    footers, component labels, placeholders, custom_ids, select option values and
    descriptions, modal titles and inputs, file names) and its files (the pictures).

Who sees it (resolved from SimCord's Discord model right after the request)
    a message in a guild channel or thread: everybody ("public");
    a DM: that user; an ephemeral message (callback, followup, edit of either) or a modal:
    the interaction's user. A user is the seat they hold in the game, or the public if they
    hold none.

What they may not see
    The title's `secrets(state)`: per seat, the tokens only that seat may see (card ids in hand,
    face-down employees...), and "hidden" (the draw pile). The watch records the secrets of
    every version of every game as the house commits it (`Store.start`, `Store.commit_action`,
    and states written by tests through `Store.update_game`). A request can only have been
    drawn from a version between the one at the driver's last `checkpoint()` and the newest
    one committed (or being committed) when it was sent; a token counts as a leak only if it
    was secret from the audience at every one of those versions, so a card played in this very
    action may be named, and the check never blames a legitimate message. Drivers that
    checkpoint after every settled step make that window one action wide.

Three ways a secret can show, three checks:
  1. ids: any secret token (a card id such as `boss-10`, `tea_house#1`, `red-staff-1`, a draw
     pile card) as a whole word anywhere in the strings (custom_ids carry action JSON, so a
     panel sent to the wrong person shows its ids);
  2. names: people read card *names*, not ids, and names are per kind ("Boss"), shared by
     copies. For titles whose hands are drawn from a shared deck (I'm the Boss!, Filthy Rich)
     the watch appends a marker to every card name in the catalogue (`Boss⟦boss⟧`, in every
     language) and flags a marked kind shown to an audience that has never been able to see
     any copy of that kind in this game (every copy has stayed in other seats' hands or in the
     draw pile since the start). A kind seen once stays seen (old narration may name it);
     kinds named by the rules in public (Market Research names a card) are listed in
     DECLARED. E-Wars ranks are public knowledge (every seat has the same staff), so its face-
     down employees are covered by ids, pictures and the view check below; Black Friday's
     secrets are numbers: with `plant_numbers` the watch writes unmistakable values (987654...)
     into the private money, units and gold and flags them in any text another seat sees;
  3. pictures: every picture the bot draws goes through one of the title's `*_image`
     functions (`table_image`, `panel_image`, `results_image`, ...) and then `png()`; the
     watch tags each drawn picture with the view it was drawn from, and looks every attachment
     up by its bytes. A picture whose bytes match no recorded drawing is a leak of unknown origin; a public picture must come
     from the public view (`me` is None), a private one from the audience's own view; and the
     view it came from is scanned for the audience's secrets (check 1). A public picture is
     therefore exactly `render(public view)`, and `check_views` shows the public view (and each
     seat's view) is identical when the other seats' secrets, the draw pile order and the
     chance box are randomised: the picture cannot depend on them.

The same view check runs on every committed state (`view_every`), and public events are
scanned for secret ids as the engine harness does, so a leak is caught at the layer it starts
in as well as on the wire.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import engine
from engine.core import copy_json

#: Titles whose card names get a kind marker, with the catalogue section of the names and the
#: function from a secret token (a card id) to its kind.
MARKED: dict[str, tuple[str, Callable[[str], str]]] = {
    "imtheboss": ("imtheboss.card", lambda token: token.rsplit("-", 1)[0]),
    "filthyrich": ("filthyrich.card", lambda token: token.split("#", 1)[0]),
}

#: Public events whose card kind the rules announce (the player named it): the kind counts as
#: seen by everybody from then on.
DECLARED: dict[str, dict[str, tuple[str, ...]]] = {
    "filthyrich": {"research_found": ("card",), "research_missed": ("card",)},
}

MARK_RE = re.compile(r"⟦([A-Za-z0-9_\-]+)⟧")
WORD_RE = re.compile(r"[A-Za-z0-9_#\-]+")
#: Whole numbers as people read them ("987654", "987,654", "$987654", "987654円"), not digits inside a code.
NUMBER_RE = re.compile(r"(?<![A-Za-z0-9_])\d+(?:[,，]\d{3})*(?![A-Za-z0-9_])")
TAG = "_leakwatch"
SENTINEL_FLOOR = 1000


@dataclass
class Leak:
    kind: str  # "id" | "name" | "number" | "picture" | "view" | "event" | "refusal"
    audience: str
    token: str
    owner: str
    where: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.audience} was shown {self.owner}'s {self.token!r} in {self.where}"


@dataclass
class Request:
    index: int
    method: str
    path: str
    strings: list[str]
    files: list[tuple[str, bytes]]
    audience: tuple[str, int] | None = None  # ("public", channel) | ("user", user id)
    channel_id: int | None = None
    windows: dict[int, tuple[int, int]] = field(default_factory=dict)  # game -> (lo, hi) version
    delivered: bool = True


@dataclass
class Version:
    secret: dict[str, frozenset[str]]  # owner ("0", "1", ..., "hidden") -> tokens
    numbers: dict[str, frozenset[int]]  # owner -> private sentinel numbers


@dataclass
class GameTrack:
    game_id: int
    title: str
    versions: dict[int, Version] = field(default_factory=dict)
    latest: int = 0
    pending: set[int] = field(default_factory=set)
    lo: int = 0
    universe: set[str] = field(default_factory=set)  # every token ever secret
    #: viewer ("public" or seat str) -> kinds it could see at some version so far, with the version
    seen: dict[str, dict[str, int]] = field(default_factory=dict)
    declared: dict[str, int] = field(default_factory=dict)  # kind -> first version announced
    channel_id: int | None = None
    users: dict[int, int] = field(default_factory=dict)  # user id -> seat
    seats: int = 0


def strings_in(value: Any, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            strings_in(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            strings_in(v, out)
    return out


def numbers_in(texts: list[str]) -> set[int]:
    out: set[int] = set()
    for text in texts:
        for m in NUMBER_RE.finditer(text):
            out.add(int(m.group(0).replace(",", "").replace("，", "")))
    return out


def ints_in(value: Any, out: set[int]) -> set[int]:
    if isinstance(value, bool):
        return out
    if isinstance(value, int):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            ints_in(v, out)
    elif isinstance(value, list):
        for v in value:
            ints_in(v, out)
    return out


# -- secrets, scrambles -------------------------------------------------------------------------

def private_numbers(title: str, state: dict[str, Any]) -> dict[str, frozenset[int]]:
    """Black Friday's private numbers that are unusual enough to be recognised in any text
    (planted sentinels), per seat; other titles have none."""
    if title != "blackfriday":
        return {}
    out = {}
    for s, p in enumerate(state["players"]):
        values = {p["money"], p["units"], p["gold"], p["owed"], *p["bags"]}
        out[str(s)] = frozenset(v for v in values if isinstance(v, int) and v >= SENTINEL_FLOOR)
    return out


def plant_numbers(state: dict[str, Any]) -> None:
    """Black Friday: private money, subsidy units and gold become values far from anything the
    table shows (as tests/engine/test_blackfriday_random.py does), so they can be told apart
    in any text."""
    for s, p in enumerate(state["players"]):
        p["money"] = 987654 + 100000 * s
        p["units"] = 3217 + 100 * s
        p["gold"] = 7919 + 100 * s


def _token_class(title: str, token: str) -> str:
    if title == "ewars":
        head = token.split("-", 1)[0]
        return head if "-" in token else "deck"
    return "card"


def _replace(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_replace(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, mapping) for k, v in value.items()}
    return value


def scramble(title: str, state: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """A copy of `state` in which everything `viewer` may not see is randomised: the other
    seats' secret tokens and the hidden pile are permuted among themselves (within kinds that
    can trade places: E-Wars employees keep their colour), the chance box gets a new seed, and
    Black Friday's other seats' private numbers get new values. What `viewer` may see is
    unchanged, so its view must be too."""
    game = engine.get(title)
    out = copy_json(state)
    secrets = game.secrets(state)
    pool: dict[str, list[str]] = {}
    for owner, tokens in secrets.items():
        if owner != "hidden" and viewer is not None and owner == str(viewer):
            continue
        for token in tokens:
            cls = _token_class(title, token)
            if title == "ewars" and cls != "deck":
                cls = f"{owner}:{cls}"
            pool.setdefault(cls, []).append(token)
    mapping: dict[str, str] = {}
    for tokens in pool.values():
        shuffled = list(tokens)
        rng.shuffle(shuffled)
        mapping.update(zip(tokens, shuffled))
    out = _replace(out, {a: b for a, b in mapping.items() if a != b})
    if isinstance(out.get("chance"), dict):
        out["chance"] = {**out["chance"], "seed": rng.randrange(2**31), "n": rng.randrange(1000)}
    if title == "blackfriday":
        for s, p in enumerate(out["players"]):
            if viewer is not None and s == viewer:
                continue
            p["money"] = rng.randrange(0, 400)
            p["units"] = rng.randrange(0, 6)
            p["gold"] = rng.randrange(0, 6)
            p["bags"] = [rng.randrange(0, 9) for _ in p["bags"]]
            if p["owed"] > 0:
                p["owed"] = rng.randrange(1, 200)
    return out


def check_views(title: str, state: dict[str, Any], rng: random.Random, tries: int = 1) -> list[str]:
    """Each view (the public one and every seat's), and each seat's legal actions, must not
    change when what its viewer may not see is randomised. Returns the differences found."""
    game = engine.get(title)
    problems = []
    seats = len(game.view(state, None).get("seats") or []) or state.get("n") or 0
    for viewer in [None, *range(seats)]:
        real = game.view(state, viewer)
        for _ in range(tries):
            twin = scramble(title, state, viewer, rng)
            other = game.view(twin, viewer)
            if other != real:
                problems.append(f"{title}: the view of {'the public' if viewer is None else f'seat {viewer}'} "
                                f"changes with secrets it may not see: {_first_difference(real, other)}")
                break
            if viewer is not None:
                mine, theirs = game.legal(state, viewer), game.legal(twin, viewer)
                if mine != theirs:
                    problems.append(f"{title}: the legal actions of seat {viewer} change with secrets it may not "
                                    f"see: {_first_difference(mine, theirs, 'legal')}")
                    break
    return problems


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
    if type(a) is not type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:80]} vs {str(b)[:80]}"


# -- the watch ----------------------------------------------------------------------------------

def format_leaks(leaks: list[Leak], limit: int = 20) -> str:
    lines = [str(leak) for leak in leaks[:limit]]
    if len(leaks) > limit:
        lines.append(f"... and {len(leaks) - limit} more")
    return "\n".join(lines)
