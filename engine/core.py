"""The contract every title implements, so the bot, the seat-filling AI, fuzzers and tests
drive all games the same way (see docs/ENGINE.md for the full description).

A game is one `Game` object. Its state is a plain JSON value (dicts with string keys, lists,
str, int, float, bool, None) owned by the caller; the game never keeps state of its own.

    state  = game.setup(seats, seed, options)       # a new game
    acts   = game.legal(state, seat)                # what that seat may do now
    events = game.apply(state, seat, action)        # validates, applies, or raises RuleError
    pub    = game.view(state, None)                 # the public table
    mine   = game.view(state, seat)                 # what that seat may see, nothing more

Pure: no clock, no I/O, no global randomness. Chance comes from `Chance`, whose whole state is
one small JSON value inside the game state, so (seed, options, action log) replays a game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

#: Seat id used for actions the bot applies on nobody's behalf (deadline timeouts).
SYSTEM = None

#: The seat-filler's strengths (issue 26), weakest first. "strong" plays the best it can;
#: "friendly" plays plausible but weaker moves and never throws a game away (no move that
#: loses money for nothing). Catalogue: core.ai_level.<level>, core.ai_level_help.<level>.
AI_LEVELS = ("friendly", "strong")
DEFAULT_AI_LEVEL = "strong"


def check_level(level: str) -> str:
    """The level, if it is one of AI_LEVELS; a wrong one is the caller's bug (ValueError)."""
    if level not in AI_LEVELS:
        raise ValueError(f"unknown seat-filler level {level!r} (one of {', '.join(AI_LEVELS)})")
    return level


class RuleError(Exception):
    """A refused action. `key` names a message in the title's catalogue, `params` fill it.

    Keys are relative to the title (`"not_your_turn"` is looked up as `<title>.error.not_your_turn`),
    except keys that start with `core.`, which are shared messages.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class OptionSpec:
    """A lobby option (a variant or a setting) of a title.

    kind: "bool", "choice" (one of `choices`) or "int" (`lo`..`hi`). Label and help text come
    from the catalogue: `<title>.option.<key>` and `<title>.option.<key>.help`; choice labels from
    `<title>.option.<key>.<choice>`.
    """

    key: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    lo: int | None = None
    hi: int | None = None
    #: Player counts for which the option is offered (empty: all).
    players: tuple[int, ...] = ()
    #: Set by the house from the game setting of the same key (e.g. "pace"), never offered in
    #: the lobby: the rules may depend on how the game is played (live or over hours) without
    #: the engine reading a clock.
    house: bool = False

    def validate(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RuleError("core.error.bad_option", option=self.key)
        elif self.kind == "choice":
            if value not in self.choices:
                raise RuleError("core.error.bad_option", option=self.key)
        elif self.kind == "int":
            if value is not None and (
                not isinstance(value, int)
                or isinstance(value, bool)
                or (self.lo is not None and value < self.lo)
                or (self.hi is not None and value > self.hi)
            ):
                raise RuleError("core.error.bad_option", option=self.key)
        return value


@dataclass(frozen=True)
class OrderSpec:
    """A standing order a title offers (engine/orders.py). Its text comes from the catalogue:
    `<title>.order.<key>.label` (with `{amount}` for an amount) and `<title>.order.<key>.help`.
    `scopes`: "game", and any narrower scope the title binds (`Game.order_scope`)."""

    key: str
    amount: bool = False
    scopes: tuple[str, ...] = ("game",)


@dataclass(frozen=True)
class TimerKind:
    """A kind of timed window a title opens. The bot turns it into a wall-clock deadline.

    `live` and `slow` are the default lengths in seconds for a live game and for a slow
    (asynchronous, over hours) game; a server or a game's settings may override them.
    """

    kind: str
    live: int
    slow: int
    #: When one person's time runs out in a window of this kind, they simply miss it: nobody
    #: decides for them (E-Wars' slow dice time: an absent seat has rolled nothing). The bot then
    #: applies `{"type": "timeout", "id": ..., "seats": [seat]}` (`Game._lapse`) whatever the game's
    #: deadline setting, so nobody's absence holds the window for the others.
    lapse: bool = False


@dataclass(frozen=True)
class Window:
    """An open timed window: who still owes an answer, and the id a timeout must name.
    `within`: the id of the window it lives in (I'm the Boss!'s offers live in the deal): when
    that one ends, this one ends too, so its true deadline is the earlier of the two.
    `held`: its seats cannot answer it now, as it waits on another window (I'm the Boss!: no
    offer is made nor accepted while a reaction window is open); the house stops its clock
    meanwhile, so a person's time is never spent on a question they could not answer."""

    id: str
    kind: str
    seats: tuple[int, ...] = ()
    within: str | None = None
    held: bool = False


@dataclass
class Outcome:
    """The end of a game. `places[seat]` is 1 for winners (ties share a place); `None` means the
    seat is unranked (resigned). `scores[seat]` is what the results table shows for the seat,
    as catalogue params (e.g. {"money": 12}); `summary_key` names the title's results line."""

    places: list[int | None]
    scores: list[dict[str, Any]] = field(default_factory=list)
    summary_key: str = "result"


class Chance:
    """Seeded, serialisable randomness for the rules.

    The whole generator state is {"seed": decimal text, "n": int}, stored in the game state. Every draw
    builds a fresh `random.Random` from (seed, n) and bumps n: no 625-word Mersenne state in
    every snapshot, and CPython seeds string seeds with SHA-512, so a game replays exactly on
    any machine. The generator state never appears in a view.
    """

    __slots__ = ("_box",)

    def __init__(self, box: dict[str, Any]) -> None:
        self._box = box

    @staticmethod
    def new(seed: int) -> dict[str, Any]:
        """The box for a new game. The seed as decimal text: 128 bits fit no fast JSON writer
        (orjson refuses them: the store's then falls back to the json module's, 7x slower), and
        the text seeds each draw exactly as the integer's decimal did (a box stored with an
        int seed plays on alike)."""
        return {"seed": str(int(seed)), "n": 0}

    def _next(self) -> random.Random:
        box = self._box
        rnd = random.Random(f"{box['seed']}/{box['n']}")
        box["n"] += 1
        return rnd

    def randint(self, lo: int, hi: int) -> int:
        return self._next().randint(lo, hi)

    def die(self, sides: int = 6) -> int:
        return self._next().randint(1, sides)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        rnd = self._next()
        return [rnd.randint(1, sides) for _ in range(count)]

    def choice(self, seq: Sequence[Any]) -> Any:
        return self._next().choice(seq)

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def sample(self, seq: Sequence[Any], k: int) -> list[Any]:
        return self._next().sample(list(seq), k)


#: One encoder for every copy (`json.dumps` with options builds one per call). No check for
#: circular references: a state is a tree, and a loop still fails (RecursionError), only later.
_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
#: The types a JSON value's leaves have after a load (exactly these: not a subclass).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy through JSON: it also proves the value is JSON, so a game that would
    behave differently after a save and load (int dict keys, tuples, sets) fails at once.

    Dicts with string keys, lists and exact leaves are copied directly, as a load would give
    them; anything else (a tuple, an int key, a set, a subclass) goes through the JSON round
    trip itself, which converts it or refuses it as before. The same value, about twice as
    fast: this copy runs on every move (`apply`) and every view. (Not orjson's round trip,
    though 2-4x faster again: it writes NaN and infinities as null, where a save keeps them.)"""
    kind = type(value)
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                return json.loads(_ENCODE(value))
            out[key] = item if type(item) in _LEAVES else copy_json(item)
        return out
    if kind is list:
        return [item if type(item) in _LEAVES else copy_json(item) for item in value]
    if kind in _LEAVES:
        return value
    return json.loads(_ENCODE(value))


class Game:
    """Base class of a title. Subclasses implement the underscored hooks and declare data.

    Subclass duties:
      - `title`, `min_players`, `max_players`, `options`, `timers`;
      - `_setup`, `_legal`, `_apply`, `_view`, `windows`, `to_act`, `outcome`, `ai_action`,
        `secrets`.
    The base class gives `apply` its all-or-nothing guarantee and handles `timeout` routing.
    """

    title: str = ""
    min_players: int = 2
    max_players: int = 6
    options: tuple[OptionSpec, ...] = ()
    timers: tuple[TimerKind, ...] = ()
    #: The standing orders the title offers (engine/orders.py; `_order_answer` says what each
    #: answers). None by default: a title whose every decision is its own turn needs none.
    order_specs: tuple[OrderSpec, ...] = ()
    #: Where the state keeps its `Chance` box (every title keeps it at the top level): a move
    #: that drew from it cannot be taken back (see `undoable`).
    chance_key: str = "chance"

    # -- the contract -----------------------------------------------------------------------

    def setup(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError("core.error.player_count", lo=self.min_players, hi=self.max_players)
        opts = self.resolve_options(seats, options or {})
        state = self._setup(seats, int(seed), opts)
        return copy_json(state)

    def legal(self, state: State, seat: int | None) -> list[Action]:
        """Every action that seat may take now, as complete action dicts.

        Numeric choices (prices, bids) are enumerated over their legal range. The timeout
        action is not listed: it is the bot's, applied with seat `SYSTEM`.
        """
        if seat is None or self.outcome(state) is not None:
            return []
        return self._legal(state, seat)

    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        """Validate and apply one action in place; return the events it caused.

        All or nothing: the rules run on a copy, and only a successful action replaces the
        caller's state. A refused action raises RuleError and leaves `state` untouched.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError("core.error.bad_action")
        if self.outcome(state) is not None:
            raise RuleError("core.error.game_over")
        work = copy_json(state)
        action = copy_json(action)
        if action["type"] == "timeout":
            if seat is not SYSTEM:
                raise RuleError("core.error.not_allowed")
            open_ids = {w.id for w in self.windows(work)}
            if action.get("id") not in open_ids:
                raise RuleError("core.error.stale_timeout")
            seats = action.get("seats")
            if seats is None:
                events = self._timeout(work, action["id"])
            elif isinstance(seats, list) and seats and all(isinstance(x, int) and not isinstance(x, bool)
                                                           for x in seats):
                events = self._lapse(work, action["id"], seats)
            else:
                raise RuleError("core.error.bad_action")
        else:
            if seat is SYSTEM:
                raise RuleError("core.error.not_allowed")
            events = self._apply(work, seat, action)
        events = copy_json(events or [])
        state.clear()
        state.update(work)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: the public table). Never the generator, never the
        order of a hidden pile, never another seat's private data."""
        return copy_json(self._view(state, seat))

    # -- hooks for subclasses ---------------------------------------------------------------

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> State:
        raise NotImplementedError

    def _legal(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def _timeout(self, state: State, window_id: str) -> list[Event]:
        raise NotImplementedError

    def _lapse(self, state: State, window_id: str, seats: list[int]) -> list[Event]:
        """These seats' time ran out in a window of a `lapse` kind: they miss it. Titles with
        such windows implement it; elsewhere it is refused."""
        raise RuleError("core.error.bad_action")

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def windows(self, state: State) -> list[Window]:
        """The open timed windows. Each has a stable id; a timeout naming a closed window is
        refused. A window's `kind` is one of `timers`."""
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        """Seats that must (or may, in a free-for-all) act now: the bot mentions them."""
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs; the final places and scores once it is over."""
        raise NotImplementedError

    def ai_action(self, view: dict[str, Any], legal: list[Action], rng: random.Random,
                  level: str = DEFAULT_AI_LEVEL) -> Action | None:
        """The seat-filler's choice, from that seat's view and legal actions only. None means
        "wait": allowed only when the seat owes nothing (it is not in `view["to_act"]`), e.g. a
        seat with nothing to offer in a free-for-all negotiation. `level` is one of AI_LEVELS
        (check it with `check_level`); the same (view, legal, rng state, level) gives the same
        choice."""
        raise NotImplementedError

    def ai_gap(self, state: State) -> float:
        """The least seconds between two moves of one seat-filler in this state, where the title
        paces it as a person (a race its tireless clicks would otherwise win); 0: the house's
        `ai_delay` alone."""
        return 0.0

    def secrets(self, state: State) -> dict[str, list[str]]:
        """For leak tests: per seat (as a string), the string tokens (card ids and the like)
        that only that seat may see right now; key "hidden" lists what nobody may see."""
        raise NotImplementedError

    def _order_answer(self, state: State, seat: int, order: dict[str, Any]) -> Action | None:
        """The move one standing order makes for the seat now (None: it answers nothing open
        now). The base class checks the move is legal."""
        return None

    def order_scope(self, state: State, scope: str) -> str | None:
        """What an order of a narrower scope is bound to now (I'm the Boss!'s "deal": the deal
        on the table); None when that scope cannot be chosen now."""
        return "game" if scope == "game" else None

    # -- shared helpers -----------------------------------------------------------------------

    def standing_answer(self, state: State, seat: int, orders: list[dict[str, Any]]) -> Action | None:
        """The move the seat's standing orders make now, if any: the first order still in force
        (its deal not over) whose answer is a legal move of the seat's."""
        if not orders or self.outcome(state) is not None:
            return None
        legal: list[Action] | None = None
        for order in orders:
            scope = order.get("scope", "game")
            if scope != "game" and self.order_scope(state, scope) != order.get("until"):
                continue
            action = self._order_answer(state, seat, order)
            if action is None:
                continue
            legal = self.legal(state, seat) if legal is None else legal
            if action in legal:
                return action
        return None

    def live_orders(self, state: State, orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The orders still in force (an order for one deal ends with that deal)."""
        return [o for o in orders if o.get("scope", "game") == "game"
                or self.order_scope(state, o.get("scope", "")) == o.get("until")]

    def resolve_options(self, seats: int, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults filled in, unknown keys refused, values checked."""
        specs = {o.key: o for o in self.options}
        for key in given:
            if key not in specs:
                raise RuleError("core.error.bad_option", option=key)
        return {key: spec.validate(given.get(key, spec.default)) for key, spec in specs.items()}

    def offered_options(self, seats: int) -> list[OptionSpec]:
        return [o for o in self.options if not o.players or seats in o.players]

    def timer(self, kind: str) -> TimerKind:
        for t in self.timers:
            if t.kind == kind:
                return t
        raise KeyError(kind)


_SAME = object()


def _beyond(seen: Any, public: Any) -> Any:
    """The parts of a seat's view that the public view does not show as they are (`_SAME` when
    none): only branches that differ are walked, so a view mostly equal to the public one
    costs little more than the comparison."""
    if seen == public:
        return _SAME
    if isinstance(seen, dict) and isinstance(public, dict):
        return {k: d for k, v in seen.items() if (d := _beyond(v, public.get(k, _SAME))) is not _SAME}
    if isinstance(seen, list) and isinstance(public, list) and len(seen) == len(public):
        return {i: d for i, (v, p) in enumerate(zip(seen, public)) if (d := _beyond(v, p)) is not _SAME}
    return seen


def privates(game: Game, state: State, seats: Iterable[int] | None = None) -> dict[int, Any]:
    """What each seat's view shows that the public table does not: its private part, whatever
    the title calls it (Black Friday's holdings are numbers, which `secrets` cannot list); every
    seat's, or those of `seats`. The title's own `_view`, read only: `view`'s JSON copy would
    cost more than the comparison. A caller may keep the answer for a state it never changes
    (`undoable`'s `privates_of`)."""
    public = game._view(state, None)
    if seats is None:
        seats = range(len(public.get("seats") or []))
    return {seat: _beyond(game._view(state, seat), public) for seat in seats}


def undoable(game: Game, before: State, after: State, seat: int | None,
             privates_of: Callable[[State], dict[int, Any]] | None = None) -> bool:
    """May `seat` take back the move that turned `before` into `after`? Only if the move
    revealed nothing: no chance was drawn (the `Chance` box is unchanged), nothing nobody may
    see changed (`secrets(...)["hidden"]`: a card taken from the pile), and no other seat's
    secret changed (their `secrets` tokens, and the private part of their view). A move that
    ended the game, and the system's timeouts, are never taken back. Whether anybody else
    acted since is the caller's to know (the log). `privates_of`: `privates` of a state, from
    the caller's memory where it has them (a move's `before` is the previous move's `after`)."""
    if seat is None or game.outcome(after) is not None or game.outcome(before) is not None:
        return False
    if before.get(game.chance_key) != after.get(game.chance_key):
        return False
    old, new = game.secrets(before), game.secrets(after)
    for key in set(old) | set(new):
        if key != str(seat) and sorted(old.get(key, [])) != sorted(new.get(key, [])):
            return False
    of = privates_of or (lambda state: privates(game, state))
    was, now = of(before), of(after)
    return all(s in now and was[s] == now[s] for s in was if s != seat)


def seats_from(first: int, count: int) -> Iterable[int]:
    """Seat numbers clockwise starting at `first`."""
    return ((first + i) % count for i in range(count))
