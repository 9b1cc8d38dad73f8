"""What a game owes next: who must act (obligations), and the timers that follow from it (a
deadline and reminders per open window, a turn for each seat-filler that can move). Timers are
planned from the state after every move, so they never drift from the rules; a re-plan outside a
move (start, settings, a seat changing hands, a player away) writes them for the version it read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.core import Game, Window
from store import GameRow, Store, Timer

from . import orders as orders_mod, settings as settings_mod, timing
from .alarm import Alarm
from .away import Away
from .games import GameCache
from .people import People
from .ports import Clock
from .quiet import Quiet
from .seen import MOST, Seen
from .terms import Terms


def rules(game: GameRow) -> Game:
    return engine.get(game.title)


def obligations(game: GameRow, state: dict[str, Any], opened: list[Window] | None = None) -> set[tuple[str, int]]:
    """Who owes what now: (window id, seat) for each open window, and (`act`, seat) for a seat
    that must act outside any window. A pair that is new after a move is a new obligation, and
    its seat is told, even if it was already waiting for something else. `opened`: the state's
    windows, when the caller has them (see `House._act`)."""
    game_rules = rules(game)
    owed = {(w.id, seat) for w in (game_rules.windows(state) if opened is None else opened) for seat in w.seats}
    covered = {seat for _, seat in owed}
    owed |= {("act", seat) for seat in game_rules.to_act(state) if seat not in covered}
    return owed


def lapses(game_rules: Game, kind: str) -> bool:
    """Whether a person whose time runs out in a window of this kind simply misses it."""
    try:
        return game_rules.timer(kind).lapse
    except KeyError:
        return False


def owing(game: GameRow) -> list[int]:
    """The seats that owe something now."""
    return sorted({seat for _, seat in obligations(game, game.state)}) if game.state else []


def open_window(game_rules: Game, state: dict[str, Any] | None, ref: str) -> Window | None:
    """The window `ref` names, if the game still has it open (else None: what a timer was for
    is over)."""
    return next((w for w in game_rules.windows(state or {}) if w.id == ref), None)


def deadline_of(game: GameRow, timers: list[Timer], seats: list[int]) -> float | None:
    """The earliest true deadline these seats face: the end of the allowance of a window they
    owe, or of the window it lives in if that ends sooner (an I'm the Boss! offer dies with its
    deal), or of a pure timer (None: no deadline)."""
    windows = {w.id: w for w in rules(game).windows(game.state or {})}
    duties = {x.ref: x for x in timers if x.kind == "duty"}
    ends: list[float] = []
    for w in windows.values():
        for seat in set(w.seats) & set(seats):
            ends += [e for e in (window_end(windows, duties, w.id), _until(duties, w.id, seat)) if e is not None]
    return min(ends) if ends else None


def _until(duties: dict[str, Timer], window_id: str, seat: int) -> float | None:
    row = duties.get(timing.duty_ref(window_id, seat))
    until = row.payload.get("until") if row is not None else None
    return float(until) if until is not None else None


def window_end(windows: dict[str, Window], duties: dict[str, Timer], window_id: str) -> float | None:
    """When the window this one lives in ends for good (its last seat's time runs out)."""
    parent = windows.get(window_id)
    outer = windows.get(parent.within) if parent is not None and parent.within else None
    if outer is None:
        return None
    ends = [float(duties[r].payload["end"]) for r in (timing.duty_ref(outer.id, s) for s in outer.seats)
            if r in duties and duties[r].payload.get("end") is not None]
    return max(ends) if ends and len(ends) == len(outer.seats) else None


@dataclass
class Plan:
    """A game's timers after a move, its players' clocks when they changed (None), and the seats
    to call now with news (answers their decision waits on came in)."""

    rows: list[tuple]
    clock: dict[str, Any] | None = None
    news: list[int] | None = None
    #: Of those, the seats a closed window had held up (`unblocked`): theirs is no news of
    #: answers but their question back, so they are called as for a new one.
    freed: list[int] | None = None


def plan(game: GameRow, state: dict[str, Any], existing: list[Timer], t: float,
         daily: dict[int, Quiet] | None = None, away: dict[int, float] | None = None,
         news: News | None = None, opened: list[Window] | None = None, terms: Terms | None = None) -> Plan:
    """The game's timers after an action, planned from the state, so they never drift from the
    rules: per person and open window an obligation ("duty", timing.py: its reminders and its
    deadline on the person's own clock), a deadline for each window nobody owes (a pure timer),
    the answer of a person's standing orders (an "order" row, due at once), and a turn for each
    seat the seat-filler plays that can move. An obligation that ended takes what its person
    spent beyond the allowance from their time bank. `daily`: the quiet hours of
    the seats' people; `away`: {seat: until} of people away now (the seat-filler plays for them
    if the host chose so); `opened`: the state's windows, when the caller has them."""
    if settings_mod.paused(game) is not None:
        return Plan([])
    game_rules = rules(game)
    daily = daily if daily is not None else {}
    if terms is None or not terms.holds(game, daily):  # (the planner keeps one per game)
        terms = Terms(game, game_rules, daily)
    conf = terms.conf
    ai_seats = {s.seat for s in game.seats if s.ai_plays}
    if away and conf["away"] == "filler":
        ai_seats |= set(away)
    duties = {x.ref: x for x in existing if x.kind == "duty"}
    old = {(x.kind, x.ref): x.due_at for x in existing}
    out: list[tuple] = []
    if opened is None:
        opened = game_rules.windows(state)
    for w in opened:
        lapse, length = terms.kind(w.kind)
        if not w.seats:  # a pure timer: the window ends at its deadline, whoever is there
            if length > 0:
                due = min(old.get(("deadline", w.id), t + length), t + length)
                out.append(("deadline", w.id, due, {"kind": w.kind}))
            continue
        for seat in w.seats:
            if seat in ai_seats:
                continue
            ref = timing.duty_ref(w.id, seat)
            was = duties[ref].payload if ref in duties else {}
            due, payload = timing.duty(float(was.get("opened", t)), length, terms.bank(seat),
                                       terms.clock_of(seat, lapse), conf, int(was.get("n", 0)), bool(was.get("out", False)), w.kind,
                                       was, t, w.held)
            out.append(("duty", ref, due, payload))
    # A person's standing orders answer what they can at once (the timer loop plays it).
    people = {seat for w in opened for seat in w.seats} - ai_seats
    for seat in orders_mod.answers(game_rules, game, state, people):
        out.append(("order", str(seat), t, {}))
    # A title may pace its seat-fillers as people where clicks race (E-Wars' live dice time).
    think = max(float(conf["ai_delay"]), game_rules.ai_gap(state))
    for seat in sorted(ai_seats):
        if game_rules.legal(state, seat):
            # Kept while still ahead (others' moves do not push it back); once it has fired,
            # the seat's next move comes after a fresh "thinking" delay.
            due = old.get(("ai", str(seat)))
            out.append(("ai", str(seat), due if due is not None and due > t else t + think, {}))
    calls = timing.batch_news(out, news, t) if news is not None else []
    out = [(kind, ref, timing.news_due(due, payload) if kind == "duty" else due, payload)
           for kind, ref, due, payload in out]
    freed = sorted(news.freed & set(calls)) if news is not None and news.freed else None
    return Plan(out, spent(game, duties, {r[1] for r in out if r[0] == "duty"}, t, terms), calls, freed)


def spent(game: GameRow, duties: dict[str, Timer], kept: set[str], t: float, terms: Terms) -> dict[str, Any] | None:
    """The game's clock once the obligations that ended took their time from the banks (None:
    nothing changed)."""
    if kept.issuperset(duties):  # most moves: every obligation stays open
        return None
    banks = dict((game.clock or {}).get("bank") or {})
    changed = False
    for ref, row in duties.items():
        if ref in kept:  # most of them, at most moves: the window stays open
            continue
        found = timing.duty_of(ref)
        if found is None or found[1] >= len(game.seats):
            continue
        seat = found[1]
        left = terms.bank(seat)
        if row.payload.get("out"):
            new = 0.0
        else:
            length = terms.kind(str(row.payload.get("kind", "")))[1]
            new = max(0.0, left - timing.charge(float(row.payload.get("opened", t)), t, length, terms.clock_of(seat),
                                                terms.conf, row.payload))
        if new != left:
            banks[str(seat)] = new
            changed = True
    return {**(game.clock or {}), "bank": banks} if changed else None


def news_of(game: GameRow, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]],
            mover: int | None, opened: tuple[list[Window], list[Window]] | None = None) -> News:
    """Who has news after a move: seats whose decision waits on others' answers. An event may
    name them (`tell`: an offer for the boss); and when a window that lives in another closes
    (every answer is in), the seats owing the outer window hear at once, as do seats a closed window
    held up (`unblocked`). `opened`: the windows
    of `before` and of `after`, when the caller has them."""
    game_rules = rules(game)
    was, now = opened if opened is not None else (game_rules.windows(before), game_rules.windows(after))
    told = {s for ev in events for s in ev.get("tell") or [] if isinstance(s, int) and s != mover}
    outer = {w.id: w for w in now}
    closed = [w for w in was if w.id not in outer and w.seats]
    at_once = {s for w in closed if w.within in outer for s in outer[w.within].seats if s != mover}
    freed = unblocked(game_rules, before, after, was, now, mover) if closed else set()
    return News(told | at_once | freed, at_once | freed, freed - told - at_once)


def unblocked(game_rules: Game, before: dict[str, Any], after: dict[str, Any], was: list[Window],
              now: list[Window], mover: int | None) -> set[int]:
    """Seats owing a window that stays open, which could not move while another window was open
    and can now (I'm the Boss!: the boss, once a travel's reaction window ends). Their obligation
    is not new, so nothing else calls them; with its reminders spent they would wait unseen until
    their time ran out."""
    kept = {w.id for w in was}
    seats = {s for w in now if w.id in kept for s in w.seats if s != mover}
    return {s for s in seats if not game_rules.legal(before, s) and game_rules.legal(after, s)}


@dataclass
class News:
    seats: set[int]
    at_once: set[int]
    #: Seats called only because a closed window had held them up (`unblocked`).
    freed: set[int] = field(default_factory=set)


def plan_timers(game: GameRow, state: dict[str, Any], existing: list[Timer], t: float,
                daily: dict[int, Quiet] | None = None, away: dict[int, float] | None = None) -> list[tuple]:
    """The timer rows of `plan` alone."""
    return plan(game, state, existing, t, daily, away).rows


class Planner:
    """Plans a game's timers and writes them (for the version they were planned from)."""

    def __init__(self, store: Store, games: GameCache, away: Away, people: People, clock: Clock,
                 alarm: Alarm) -> None:
        self.store = store
        self.games = games
        self.away = away
        self.people = people
        self.clock = clock
        self.alarm = alarm
        #: The seats' people's quiet hours and absences, kept per game (asked on every move).
        self.seen = Seen(people, away)
        #: What the plan reads of each game's settings and clock (terms.py).
        self._terms: dict[int, Terms] = {}

    async def daily(self, game: GameRow) -> dict[int, Quiet]:
        """The quiet hours of the people in the game's seats."""
        held = {s.user_id: s.seat for s in game.seats if s.human and s.user_id is not None}
        if not held:
            return {}
        return {held[u]: q for u, q in (await self.people.quiet(list(held))).items()}

    async def timers_after(self, game: GameRow, state: dict[str, Any], existing: list[Timer], t: float,
                           news: News | None = None, opened: list[Window] | None = None) -> Plan:
        daily, away = await self.seen.of(game, t)
        terms = self._terms.get(game.id)
        if terms is None or not terms.holds(game, daily):
            if len(self._terms) >= MOST:
                self._terms.clear()
            terms = self._terms[game.id] = Terms(game, rules(game), daily)
        return plan(game, state, existing, t, daily, away, news, opened, terms)

    async def replan(self, game: GameRow, *, locked: bool = False, clock: dict[str, Any] | None = None) -> None:
        """Recompute a game's timers outside an action (start, settings change, a seat left, an
        absence: `clock`, the game's new clock, written with them). `locked`: the caller already
        holds the game's lock."""
        if not locked:
            async with self.games.lock(game.id):
                return await self.replan(game, locked=True, clock=clock)
        fresh = await self.games.game(game.id, fresh=True)
        if fresh is None or fresh.status != "active" or fresh.state is None:
            return
        if clock is not None:
            fresh = replace(fresh, clock=clock)  # a new row: the cached one may be in a reader's hands
        existing = await self.store.timers(game.id)
        planned = await self.timers_after(fresh, fresh.state, existing, self.clock())
        # Only for the version it was planned from: a move committed meanwhile planned its own.
        await self.store.replace_timers(game.id, fresh.version, planned.rows,
                                        clock=planned.clock if planned.clock is not None else clock)
        self.games.forget(game.id)
        self.alarm.ring()

    async def deadline(self, game: GameRow, seats: list[int]) -> float | None:
        """The earliest deadline these seats face now (from the game's timer rows)."""
        if not seats or game.state is None:
            return None
        return deadline_of(game, await self.games.timers(game.id, game.version), seats)
