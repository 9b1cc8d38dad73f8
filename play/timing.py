"""The time model (issue 24): waited for, not decided for.

Each person has their own clock (quiet.py), which runs only outside their quiet hours and their
granted absences. For every obligation (a window a seat owes: a turn, a reaction, dice time) the
bot counts on that clock:

- the **allowance**: the window kind's length for the game's pace, but never less than the
  **minimum time to look** (a day when slow), so a window never closes on someone who has not
  had their chance to look;
- then the person's **time bank** (days when slow, per game), drawn on only beyond the allowance;
- the **deadline** is when both are used up. Only then does the seat-filler answer, for that
  seat, in that window (or the host's chosen action happens). Time used beyond the allowance is
  taken from the bank when the person answers.

A person's obligation is one timer row, kind "duty", ref "<window id>#<seat>", whose payload
carries when it opened, the reminders sent so far (two at most for the window's whole life), and
whether its time ran out; its due time is the next reminder or the deadline. The game's `clock`
keeps each seat's bank and the absences granted to it.
"""

from __future__ import annotations

from typing import Any

from store import GameRow

from . import settings as settings_mod
from .quiet import Quiet

#: A duty row with nothing more to do (its reminders sent, its time out) waits here until its
#: window closes: far beyond any game.
NEVER = 4_102_444_800.0  # 2100-01-01
#: Reminders per person and window, for the window's whole life.
MAX_REMINDERS = 2
#: The window within which absences count toward a game's `away_days`.
AWAY_PERIOD = 30 * 86400
#: News for a seat (offers for the boss) is told at most this often per obligation, unless every
#: answer is in.
NEWS_EVERY = 3600


#: A clock that never stops (a live game's, or a person's without quiet hours).
_RUNS = Quiet()


def duty_ref(window_id: str, seat: int) -> str:
    return f"{window_id}#{seat}"


def duty_of(ref: str) -> tuple[str, int] | None:
    """(window id, seat) of a duty row's ref."""
    window, sep, seat = ref.rpartition("#")
    return (window, int(seat)) if sep and seat.isdigit() else None


def bank_left(game: GameRow, seat: int, conf: dict[str, Any]) -> float:
    """The seat's time bank now (full until it is first drawn on)."""
    return bank_in(game.clock, seat, conf)


def has_bank(conf: dict[str, Any]) -> bool:
    """Whether these settings give each player a time bank at all (a host may set none): with
    none, nothing says what is left of one, nor that it is used up."""
    return settings_mod.bank_of(conf) > 0


def bank_in(clock: dict[str, Any] | None, seat: int, conf: dict[str, Any]) -> float:
    """`bank_left` from the game's clock alone (terms.py keeps it, not the whole row)."""
    banks = (clock or {}).get("bank") or {}
    return float(banks.get(str(seat), settings_mod.bank_of(conf)))


def gaps_of(game: GameRow, seat: int) -> tuple[tuple[float, float], ...]:
    """The absences granted to the seat in this game (its clock stands still in them)."""
    return gaps_in(game.clock, seat)


def gaps_in(clock: dict[str, Any] | None, seat: int) -> tuple[tuple[float, float], ...]:
    granted = ((clock or {}).get("away") or {}).get(str(seat)) or []
    return tuple((float(a), float(b)) for a, b in granted)


def person_clock(game: GameRow, seat: int, conf: dict[str, Any], daily: Quiet | None, *,
                 lapse: bool = False) -> Quiet:
    """The seat's clock in this game: their quiet hours (a slow game's only: a live game is
    played now) and the absences granted to them (not in a window where nobody decides for a
    late person, `lapse`: there waiting longer would only hold the others)."""
    return clock_in(game.clock, seat, conf, daily, lapse=lapse)


def clock_in(clock: dict[str, Any] | None, seat: int, conf: dict[str, Any], daily: Quiet | None, *,
             lapse: bool = False) -> Quiet:
    """`person_clock` from the game's clock alone."""
    slow = conf.get("pace") == "slow"
    base = daily if (daily is not None and slow) else _RUNS
    gaps = () if lapse else gaps_in(clock, seat)
    # A Quiet is frozen: the person's own clock serves as it is when the game grants them no
    # absence (most seats, at every move; a new one costs 2 us a seat and window).
    return base if gaps == base.gaps else Quiet(base.daily, base.tz, gaps)


def floor_of(allowance: float, conf: dict[str, Any]) -> float:
    """The allowance of an obligation, never under the minimum time to look (0: no deadline)."""
    return max(allowance, settings_mod.min_look_of(conf)) if allowance > 0 else 0.0


def held_spans(was: dict[str, Any], held: bool, t: float | None) -> tuple[list[list[float]], float | None]:
    """The spans in which the obligation's window was held (its seat could not answer it:
    `Window.held`) and since when it is held now (None: it is not), after the window's state
    at `t`: a hold begins at `t`, or ends there."""
    spans = [list(x) for x in was.get("held") or []]
    since = was.get("held_from")
    if held and since is None and t is not None:
        since = t
    elif not held and since is not None:
        if t is not None and t > float(since):
            spans.append([float(since), t])
        since = None
    return spans, None if since is None else float(since)


def held_clock(clock: Quiet, spans: list[list[float]]) -> Quiet:
    """The person's clock for one obligation: it also stands still in the spans its window was
    held, so waiting on someone else's answer spends neither their allowance nor their bank."""
    if not spans:
        return clock
    return Quiet(clock.daily, clock.tz, clock.gaps + tuple((float(a), float(b)) for a, b in spans))


def duty(opened: float, allowance: float, bank: float, clock: Quiet, conf: dict[str, Any], sent: int,
         out: bool, kind: str, was: dict[str, Any] | None = None, t: float | None = None,
         held: bool = False) -> tuple[float, dict[str, Any]]:
    """An obligation's row: when it is due next (a reminder or the deadline) and its payload.
    `was`: the row's payload so far. When the host changes the window's length while it is open,
    it runs again from now (`t`) with the new length, but never ends later than it would have.
    While the window is `held` (its seat cannot answer it), nothing is due: no reminder, no
    deadline; once it is free again, the held time counts on nobody's clock (`held_clock`)."""
    was = was or {}
    spans, since = held_spans(was, held, t)
    if since is not None:
        payload = {**was, "kind": kind, "opened": opened, "n": sent, "out": out, "until": None, "end": None,
                   "held": spans, "held_from": since}
        return NEVER, payload
    clock = held_clock(clock, spans)
    floor = floor_of(allowance, conf)
    restarted = "allow" in was and was["allow"] != floor and t is not None
    if restarted:
        assert t is not None
        opened = t
    until = clock.after(opened, floor) if floor else None  # the allowance ends
    end = clock.after(opened, floor + bank) if floor and not out else None  # the bank ends too
    if restarted and end is not None and was.get("end") is not None:
        end = min(end, float(was["end"]))
        until = min(until, end) if until is not None else None
    every = int(conf.get("reminder") or 0)
    reminder = None
    if every > 0 and sent < MAX_REMINDERS and not out:  # once out of time, nobody is reminded again
        if floor:  # halfway through the allowance, then as the bank begins (three quarters in, if
            # there is little bank left to begin)
            second = 1.0 if bank >= floor / 4 else 0.75
            reminder = clock.after(opened, max(floor * (0.5 if sent == 0 else second), every * (sent + 1)))
        else:
            reminder = clock.after(opened, every * (sent + 1))
        if end is not None and reminder >= end:
            reminder = None
    due = min([x for x in (reminder, end) if x is not None], default=NEVER)
    payload = {"kind": kind, "opened": opened, "n": sent, "out": out, "until": until, "end": end, "allow": floor}
    if spans:
        payload["held"] = spans
    for key in ("told", "news"):  # the news calls' own bookkeeping stays with the obligation
        if key in was:
            payload[key] = was[key]
    return due, payload


def news_due(due: float, payload: dict[str, Any]) -> float:
    """An obligation row's due time once its news bookkeeping is settled: news still waiting
    brings it forward to the end of the hour. Applied last, never before: news told at once
    (every answer in) must not leave the row due at the hour's end, where, with nothing left
    to tell, it fired as the next reminder hours early (tools/habits: a boss's second deal
    reminder 1 h 40 after the first)."""
    return min(due, float(payload.get("told") or 0) + NEWS_EVERY) if payload.get("news") else due


def batch_news(rows: list[tuple], news: Any, t: float) -> list[int]:
    """Mark the news in the seats' obligation rows: the seats to call now (their last news call
    is an hour old, or every answer is in); for the others the row comes due when the hour is up
    (`Duties` calls them then). Rows are (kind, ref, due, payload) and are changed in place."""
    calls: set[int] = set()
    marked: set[int] = set()  # one obligation row per seat carries its news
    for i, (kind, ref, due, payload) in enumerate(rows):
        found = duty_of(ref) if kind == "duty" else None
        if found is None or found[1] not in news.seats or found[1] in marked:
            continue
        seat, told = found[1], float(payload.get("told") or 0)
        marked.add(seat)
        if seat in news.at_once or t - told >= NEWS_EVERY:
            calls.add(seat)
            rows[i] = (kind, ref, due, {**payload, "told": t, "news": False})
        else:
            later = told + NEWS_EVERY
            rows[i] = (kind, ref, min(due, later), {**payload, "news": True})
    return sorted(calls)


def charge(opened: float, now: float, allowance: float, clock: Quiet, conf: dict[str, Any],
           was: dict[str, Any] | None = None) -> float:
    """What an obligation answered at `now` takes from the bank: the person's clock time beyond
    the allowance, the spans its window was held not counted (`was`: the row's payload)."""
    floor = floor_of(allowance, conf)
    if not floor:
        return 0.0
    spans, _ = held_spans(was or {}, False, now)  # a hold still on ends now
    return max(0.0, held_clock(clock, spans).running(opened, now) - floor)


def grant_away(game: GameRow, seat: int, now: float, until: float | None, conf: dict[str, Any]) -> dict[str, Any]:
    """The game's clock after the seat's player said they are away until `until` (None: back).
    The stretch is capped per game (`away_days` in any 30 days), whatever they type and however
    often: "back" ends the current absence, and a new one only gets what is left."""
    clock = dict(game.clock or {})
    away = dict(clock.get("away") or {})
    granted = [list(x) for x in away.get(str(seat)) or [] if x[1] > now - AWAY_PERIOD]
    granted = [[a, min(b, now)] if a <= now < b else [a, b] for a, b in granted]  # the current one ends now
    granted = [g for g in granted if g[1] > g[0]]
    if until is not None and until > now:
        used = sum(min(b, now) - max(a, now - AWAY_PERIOD) for a, b in granted if b > now - AWAY_PERIOD)
        left = max(0.0, int(conf.get("away_days", 7)) * 86400 - used)
        if left > 0:
            granted.append([now, min(until, now + left)])
    away[str(seat)] = granted
    clock["away"] = away
    return clock
