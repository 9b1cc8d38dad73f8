"""Component custom_ids: they carry the game, the state version they were drawn for and what
the click means, so every button works after a restart and a stale one is recognised.

    br:<game>.<nonce>:<version>:<code>   a button        (version "*": valid at any version)
    bs:<game>.<nonce>:<version>:<code>   a string select (the chosen values arrive with the click)
    bm:<game>.<nonce>:<version>:<code>   a modal
    bu:<game>.<nonce>:<version>:<code>   a member (user) select: the chosen user ids arrive with it

A custom_id is a request, never a credential: the router checks every click against the game it
names (its channel, the clicker's seat and membership). The nonce tells games apart that share an
id (a database restored from a backup hands out ids again): a click drawn for another game with
the same id is refused. Components that belong to no game (rules pages) carry game 0, no nonce.

Codes that stand for an engine action start with a sign, so titles may use any word:
    !<json>   the action itself, compact JSON (when it fits in Discord's 100 characters)
    #<n>      the n-th entry of the clicking seat's legal list at that version (version-bound)
Other codes belong to the lobby (`L...`), the house (`H<verb>[:<arg>]`, the verbs below) or the
title's panel.
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

MAX = 100
#: Game ids and versions fit SQLite's 64-bit integers (at most 18 digits here), so a forged
#: huge number is not ours rather than an overflow deep in the store.
PATTERN = r"(?P<gid>[0-9]{1,18})(?:\.(?P<nonce>[0-9a-z]{1,8}))?:(?P<ver>[0-9]{1,18}|\*):(?P<code>.*)"
ANY = "*"
NONCE_LENGTH = 6
_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_NONCE_RE = re.compile(r"[0-9a-z]{1,8}")


class Verb(enum.StrEnum):
    """The house's codes (`H<verb>[:<arg>]`): the buttons every game has, whatever its title."""

    HAND = "hand"          # My hand: the clicker's private panel
    RULES = "rules"        # a page of the rules (arg: the page; with no game: page:title)
    LOG = "log"            # a page of the game's log
    MENU = "menu"          # the table's ⚙️ menu
    PREF = "pref"          # a preference in the menu (arg: dm, pings, digest)
    AWAY = "away"          # away mode from the menu (the select's value)
    LEAVE = "leave"        # leave the game (arg: yes/no once asked)
    UNDO = "undo"          # take back the last move (arg: the version it produced)
    REMATCH = "rematch"    # a new lobby with the same seats
    SETTINGS = "settings"  # the game's settings panel
    SET = "set"            # a setting chosen (arg: which)
    KIND = "kind"          # which window's length to choose
    LENGTH = "len"         # a window's length chosen (arg: the window kind)
    END_ASK = "endask"     # end the game? (asks first)
    END = "end"            # end the game (arg: yes/no)
    HANDOVER = "handover"  # hand a seat to another member
    HAND_SEAT = "hseat"    # ...which seat
    HAND_TO = "hto"        # ...to whom (arg: the seat)
    THREAD = "thread"      # start the game in a new thread (arg: the title; no game)
    ORDERS = "orders"      # the clicker's standing orders page
    ORDER = "order"        # ...an order set or cancelled there (arg: set, cancel, or the order a form asked)


def house(verb: Verb, arg: object = None) -> str:
    """A house code: `H<verb>`, or `H<verb>:<arg>`."""
    return f"H{verb}" if arg is None else f"H{verb}:{arg}"


@dataclass(frozen=True)
class Parsed:
    kind: str  # "br" | "bs" | "bm" | "bu"
    game_id: int
    version: int | None  # None: any version
    code: str
    nonce: str | None = None


def new_nonce() -> str:
    """A fresh random nonce for a new game (kept in its settings)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(NONCE_LENGTH))


def nonce(game: Any) -> str:
    """The game's nonce: drawn at random when its lobby opened, so another game given the same
    id (a restored backup) never shares it. Games older than nonces get a digest of their id,
    channel and creation instant instead. Not a secret and not a credential: an identity check."""
    stored = (getattr(game, "settings", None) or {}).get("nonce")
    if isinstance(stored, str) and _NONCE_RE.fullmatch(stored):
        return stored
    digest = hashlib.blake2b(f"{game.id}/{game.channel_id}/{game.created_at!r}".encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "big")
    out = ""
    for _ in range(NONCE_LENGTH):
        value, digit = divmod(value, len(_ALPHABET))
        out += _ALPHABET[digit]
    return out


def key(game: Any) -> str:
    """What a custom_id names: `<id>.<nonce>` for a game, `0` for none (an int is taken as a bare
    id, which the router refuses for any real game: only forged or pre-nonce clicks carry one)."""
    if isinstance(game, int):
        return str(game)
    return f"{game.id}.{nonce(game)}"


def room(game_id: int, version: int) -> int:
    """Characters left for a code in a custom_id of this game and version."""
    return MAX - len(f"br:{game_id}.{'0' * NONCE_LENGTH}:{version}:")


def make(kind: str, game: Any, version: int | None, code: str) -> str:
    cid = f"{kind}:{key(game)}:{ANY if version is None else version}:{code}"
    if len(cid) > MAX:
        raise ValueError(f"custom_id too long ({len(cid)}): {cid[:60]}...")
    return cid


#: Without re.S, like the dynamic items' templates: a code never holds a line break.
_RE = re.compile(r"(?P<kind>br|bs|bm|bu):" + PATTERN)


def parse(custom_id: str) -> Parsed | None:
    m = _RE.fullmatch(custom_id or "")
    if not m:
        return None
    try:
        gid = int(m["gid"])
    except ValueError:
        return None
    ver = None if m["ver"] == ANY else int(m["ver"])
    return Parsed(m["kind"], gid, ver, m["code"], m["nonce"])


def _compact(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def action_code(action: dict[str, Any], legal: list[dict[str, Any]] | None = None, room: int = 72) -> str:
    """The shortest faithful code for an action: inline JSON if it fits, else its index in the
    seat's legal list (which binds the code to the version the panel was drawn for)."""
    text = "!" + _compact(action)
    if len(text) <= room:
        return text
    if legal is not None:
        wanted = _compact(action)
        for i, candidate in enumerate(legal):
            if _compact(candidate) == wanted:
                return f"#{i}"
    raise ValueError(f"action too long for a custom_id and not in the legal list: {text[:60]}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is not a finite number")
    return value


def decode_action(code: str, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The action a code stands for, or None if it is not an action code (or is malformed)."""
    if code.startswith("!"):
        try:
            value = json.loads(code[1:], parse_constant=_no_constant, parse_float=_finite)
        except ValueError:
            return None
        return value if isinstance(value, dict) and isinstance(value.get("type"), str) else None
    digits = code[1:]
    # Only the codes `action_code` writes: ASCII digits without leading zeros (not "#٣", "#²", "#007").
    if code.startswith("#") and digits.isascii() and digits.isdigit() and str(int(digits)) == digits:
        i = int(digits)
        return legal[i] if i < len(legal) else None
    return None


def needs_version(code: str) -> bool:
    """Index codes only make sense at the version they were drawn for."""
    return code.startswith("#")


def is_act_select(code: str) -> bool:
    """A select whose options are action codes: "act", or "act:<anything>" when a panel has
    several (components of one message need distinct custom_ids)."""
    return code == "act" or code.startswith("act:")


def is_action_code(code: str) -> bool:
    return code[:1] in ("!", "#")
