"""The figures of one game, from what really happened: the game's action log (each entry with
its seat, the user who clicked, the events and the time), the rules replayed over that log (who
was the boss when an offer came), the messages the bot posted (watch.py) and what the tool saw
of the game between moves (game.py: `Track`). Nothing here is set by hand.
"""

from __future__ import annotations

import json
from typing import Any

import engine
from engine.core import copy_json

#: Reminders per person and window the bot promises at most.
REMINDERS = 2
#: Seconds within which a call counts as "at once" (an offer told to the boss, a reminder to
#: someone who just clicked).
MINUTE = 60.0


def short(action: Any, width: int = 90) -> str:
    return "" if action is None else json.dumps(action, separators=(",", ":"), ensure_ascii=False)[:width]


#: E-Wars events that start a round's dice time (the parent's bell, or its deadline).
DICE_TIME = ("dice_time", "dice_time_auto")


def loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def bank_left(clock: Any, seat: int) -> float | None:
    """A seat's time bank in a game row's `clock` (None when it keeps none): `bank` as a list by
    seat, as a map by seat, or inside a per-seat entry."""
    clock = loads(clock)
    if not isinstance(clock, (dict, list)):
        return None
    if isinstance(clock, dict) and "bank" in clock:
        return _by_seat(clock["bank"], seat)
    seats = clock.get("seats") if isinstance(clock, dict) else clock
    entry = _by_seat(seats, seat, raw=True) if seats is not None else None
    if entry is None and isinstance(clock, dict):
        entry = clock.get(str(seat))
    if isinstance(entry, dict) and "bank" in entry:
        return _number(entry["bank"])
    return None


def _by_seat(value: Any, seat: int, raw: bool = False) -> Any:
    got = None
    if isinstance(value, list) and 0 <= seat < len(value):
        got = value[seat]
    elif isinstance(value, dict):
        got = value.get(str(seat), value.get(seat))  # type: ignore[call-overload]
    return got if raw else _number(got)


def _number(value: Any) -> float | None:
    if isinstance(value, dict):
        for key in ("left", "bank", "seconds", "remaining"):
            if key in value:
                return _number(value[key])
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def replay(game: Any, log: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The state before each logged action, from the rules run over the log; None if the log
    does not replay to the stored state (then the figures that need it are left out)."""
    g = engine.get(game.title)
    try:
        state = g.setup(len(game.seats), game.seed, game.options)
        before = []
        for entry in log:
            before.append(copy_json(state))
            g.apply(state, entry["seat"], entry["action"])
    except Exception:
        return None
    return before if state == game.state else None


def _bank_at(tab: Any, index: int, seat: int) -> float | None:
    """The seat's bank once the `index`-th logged action was made: the first sample taken after
    it. The bot takes what an obligation used beyond its allowance from the bank only when the
    obligation ends, so a sample before a deadline's move still shows the bank the running
    obligation was drawing on (a deadline at the end of a three-day bank showed three days); the
    sample after shows what it left."""
    for _, count, sample in tab.track.samples:
        if count > index:
            return bank_left(sample, seat)
    return None


def filler_moves(tab: Any, log: list[dict[str, Any]]) -> dict[str, Any]:
    """Moves made for a person's seat by no person: the seat-filler (at a deadline, or for a
    player away). With time banks, those that left the seat's bank not empty (made before the
    person's time ran out)."""
    humans = tab.track.humans
    made = [(i, e) for i, e in enumerate(log) if e["seat"] in humans and e["user_id"] is None]
    by_habit: dict[str, int] = {}
    for _, e in made:
        habit = humans[e["seat"]].habit
        by_habit[habit] = by_habit.get(habit, 0) + 1
    out: dict[str, Any] = {"filler_for_people": len(made), "filler_by_habit": by_habit,
                           "time_banks": tab.bank_seen}
    if tab.bank_seen:
        left = [1 for i, e in made if (_bank_at(tab, i, e["seat"]) or 0) > 0]
        out["filler_with_bank_left"] = len(left)
    return out


def reminded(rows: dict[str, dict[str, Any]], seen: dict[str, tuple[float, int]]
             ) -> tuple[dict[int, list[str]], dict[str, tuple[float, int]]]:
    """Which windows the bot reminded each seat of between two looks at its obligation rows
    (`rows`: ref "<window>#<seat>" -> payload; `seen`: ref -> (opened, reminders) at the last
    look): one entry per reminder a row counts since (`n` grew; a row of a new obligation, or
    whose count went back, counts all its `n`). A reminder's words cannot say which of two
    windows it is for (the once-a-day player owing an offer and a reaction was reminded in pairs
    at one minute); the row that counted it can. The count of reminders stays the tool's own
    (messages, per obligation): a row that reset its count and reminded again is still found."""
    out: dict[int, list[str]] = {}
    for ref, payload in rows.items():
        window, _, seat = ref.rpartition("#")
        opened, n = float(payload.get("opened") or 0), int(payload.get("n") or 0)
        was_opened, was_n = seen.get(ref, (None, 0))
        new = n - was_n if was_opened == opened and n >= was_n else n
        if seat.isdigit() and new > 0:
            out.setdefault(int(seat), []).extend([window] * new)
    return out, {ref: (float(p.get("opened") or 0), int(p.get("n") or 0)) for ref, p in rows.items()}


def obligations_reminded(keys: list[tuple[str, int, int]], counted: list[str] | None) -> tuple:
    """The obligations a reminder may be for, oldest first: the one whose row counted it (its
    window named in `counted`, taken off that list) when there is one, else every one the seat
    owes (`keys`: window, seat, when it opened). An obligation is a window and when it opened
    for the seat: asked again after answering (an offer declined), a person owes anew, with a
    call and reminders of its own."""
    while counted:
        window = counted.pop(0)
        named = [k for k in keys if k[0] == window]
        if named:
            return (named[-1],)
    return tuple(keys) or (("-", -1, 0),)


def reminders(tab: Any) -> dict[str, Any]:
    """Reminder lines per person and obligation; those beyond two; those to someone who had
    clicked within the minute before. A reminder counts against the obligation whose row
    counted it (`reminded`); when no row says (the window closed before the tool looked), the
    oldest obligation the person owed that had had fewer than two, and it is beyond two only
    when every obligation they owed then had had its two."""
    track = tab.track
    count: dict[tuple, int] = {}
    beyond = 0
    for _, _, keys in track.reminders:
        room = next((k for k in keys if count.get(k, 0) < REMINDERS), None)
        if room is None:
            beyond += 1
            room = keys[-1]
        count[room] = count.get(room, 0) + 1
    acting = 0
    for at, seat, _ in track.reminders:
        person = track.humans.get(seat)
        if person is not None and any(at - MINUTE <= c <= at for c in person.clicks):
            acting += 1
    return {"reminders": len(track.reminders), "reminders_beyond_two": beyond, "reminders_to_actor": acting}


#: News for the boss is batched: at most one call an hour per deal (play/timing.NEWS_EVERY).
NEWS_EVERY = 3600.0


def _told(track: Any, seat: int, at: float) -> bool:
    """Whether the seat was called within a minute of the moment the bot may call it about news
    that came at `at`: at once, or an hour after its last call when one came within the hour
    (the batching the issue asks for: "at most one per hour per deal")."""
    last = max((t for t, s, _ in track.told if s == seat and t < at), default=None)
    allowed = max(at, last + NEWS_EVERY) if last is not None else at
    return any(seat == s and at <= t <= allowed + MINUTE for t, s, _ in track.told)


def deals(tab: Any, game: Any, log: list[dict[str, Any]], states: list[dict[str, Any]] | None) -> dict[str, Any]:
    """I'm the Boss!: offers the boss was told of within a minute; deals that failed by a
    deadline or the seat-filler (not the boss's own choice, not a publicly impossible deal)
    while the boss had time left (with banks: a bank not empty; without: every one)."""
    if game.title != "imtheboss" or states is None:
        return {}
    track = tab.track
    offers = told = started = failed = failed_left = 0
    for i, e in enumerate(log):
        deal = states[i].get("deal") or {}
        for ev in e["events"] or []:
            kind = ev.get("type", "")
            if kind == "deal_started":
                started += 1
            if kind.startswith("offered") and deal.get("boss") in track.humans:
                offers += 1
                told += _told(track, deal["boss"], e["at"])
            if kind == "deal_failed":
                failed += 1
                boss = ev.get("seat")
                if ev.get("reason") != "impossible" and e["user_id"] is None and boss in track.humans:
                    if not tab.bank_seen or (_bank_at(tab, i, boss) or 0) > 0:
                        failed_left += 1
    return {"offers_to_people": offers, "offers_told_in_a_minute": told,
            "offers_told_pct": round(100 * told / offers) if offers else None,
            "deals": started, "deals_failed": failed, "deals_failed_with_time_left": failed_left}


#: What takes part in E-Wars dice time: a roll, or a claim with the dice as they were dealt (the
#: rules deal them rolled: engine/ewars/dice.py `took_part` unlocks the slow bell for either).
TAKES_PART = ("roll", "claim")


def dice(tab: Any, game: Any, log: list[dict[str, Any]]) -> dict[str, Any]:
    """E-Wars: rounds with dice time, and those in which the once-a-day player rolled himself:
    his own click rolled or claimed. Counting rolls alone missed the rounds in which his dealt
    dice already matched a card (seed 1: 3 of 8, though he took part in all 8 and the seat-filler
    never moved for him)."""
    if game.title != "ewars":
        return {}
    daily = next((p for p in tab.track.humans.values() if p.habit == "daily"), None)
    rounds: set[int] = set()
    rolled: set[int] = set()
    current = None
    for e in log:
        for ev in e["events"] or []:
            if ev.get("type") in DICE_TIME:
                current = ev.get("round")
                rounds.add(current)
        if daily is not None and e["seat"] == daily.seat and e["action"].get("type") in TAKES_PART \
                and e["user_id"] == daily.user_id:
            rolled.add(current)
    return {"dice_rounds": len(rounds), "daily_rolled_himself": len(rolled & rounds)}


def slowgames(tab: Any, game: Any) -> dict[str, Any]:
    """The figures of tools/slowgames.py: messages per turn, obligations pinged, table distance."""
    track, humans = tab.track, tab.track.humans
    channel = tab.sim.channel.id
    posts = [p for p in tab.watch.posts if p.channel_id == channel and p.at >= track.start]
    spans = track.spans + [(key, opened, float("inf")) for key, opened in track.open.items()]
    human = [(key, o, c) for key, o, c in spans if key[1] in humans]
    pinged = 0
    for key, o, c in human:
        if any(s == key[1] and o <= t <= c for t, s, _ in track.told):
            pinged += 1
        else:
            track.say(o, f"  never called while it was open: {humans[key[1]].name} owes {key[0]} (until {c:.0f})")
    return {"turns": track.turns, "channel_messages": len(posts),
            "messages_per_turn": round(len(posts) / max(track.turns, 1), 2),
            "obligations": len(human), "obligations_pinged": pinged,
            "table_distance_max": max(track.distances, default=0),
            "table_distance_mean": round(sum(track.distances) / max(len(track.distances), 1), 1)}


def panel_findings(track: Any) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for action in track.off_panel:
        kinds[action.get("type", "?")] = kinds.get(action.get("type", "?"), 0) + 1
    missing: dict[str, int] = {}
    for action in track.unreachable:
        missing[action.get("type", "?")] = missing.get(action.get("type", "?"), 0) + 1
    return {"off_panel": len(track.off_panel), "off_panel_types": kinds, "stuck": len(track.stuck),
            "audited": track.audited, "not_on_panel": len(track.unreachable), "not_on_panel_types": missing,
            "not_on_panel_examples": [short(a, 140) for a in track.unreachable[:5]],
            "failed_clicks": len(track.failed), "notes": (track.stuck + track.failed)[:5],
            "looks": track.looks, "calls_with_nothing_to_do": track.empty_calls, "no_panel": track.no_panel}


async def figures(tab: Any, game: Any, capped: bool) -> dict[str, Any]:
    log = await tab.sim.store.actions(game.id)
    states = replay(game, log)
    end = (game.finished_at or tab.desk.now()) if game.status != "active" else tab.desk.now()
    out: dict[str, Any] = {"title": game.title, "players": len(game.seats), "status": game.status,
                           "capped": capped, "virtual_days": round((end - tab.track.start) / 86400, 1),
                           "actions": len(log), "replayed": states is not None,
                           "quiet_hours_set": sorted(tab.track.quiet),
                           "away": [(s, round(a), round(b)) for s, a, b in tab.track.away]}
    out.update(filler_moves(tab, log))
    out.update(reminders(tab))
    out.update(deals(tab, game, log, states))
    out.update(dice(tab, game, log))
    out.update(slowgames(tab, game))
    out.update(panel_findings(tab.track))
    for e in log:
        if e["user_id"] is None:
            who = tab.track.humans.get(e["seat"])
            name = who.name if who is not None else "nobody" if e["seat"] is None else f"seat {e['seat']} (AI)"
            tab.track.say(e["at"], f"  seat-filler/deadline for {name}: {short(e['action'])}")
    out["trace"] = tab.track.lines()
    return out
