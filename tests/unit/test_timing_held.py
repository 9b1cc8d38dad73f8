"""An obligation's clock stands still while its window is held (`Window.held`: its seat cannot
answer it, as it waits on another window): neither the allowance nor the bank runs then."""

from __future__ import annotations

from play import timing
from play.quiet import Quiet, parse_quiet

HOUR = 3600.0
CONF = {"reminder": 0, "min_look": 0}
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC


def test_a_held_window_has_nothing_due_and_remembers_since_when():
    due, payload = timing.duty(T0, 2 * HOUR, 0.0, Quiet(), CONF, 0, False, "offers", {}, T0 + 60, held=True)
    assert due == timing.NEVER and payload["end"] is None and payload["until"] is None
    assert payload["held_from"] == T0 + 60
    # Planned again while still held: the hold keeps its start.
    due, again = timing.duty(T0, 2 * HOUR, 0.0, Quiet(), CONF, 0, False, "offers", payload, T0 + HOUR, held=True)
    assert due == timing.NEVER and again["held_from"] == T0 + 60


def test_the_time_held_is_added_to_the_deadline_once_free():
    _, held = timing.duty(T0, 2 * HOUR, HOUR, Quiet(), CONF, 0, False, "offers", {}, T0 + 60, held=True)
    due, free = timing.duty(T0, 2 * HOUR, HOUR, Quiet(), CONF, 0, False, "offers", held, T0 + 60 + 3 * HOUR)
    assert free["held"] == [[T0 + 60, T0 + 60 + 3 * HOUR]] and "held_from" not in free
    assert free["until"] == T0 + 5 * HOUR  # the two hours' allowance, three hours later
    assert free["end"] == due == T0 + 6 * HOUR  # then the hour of bank


def test_held_time_inside_quiet_hours_is_not_counted_twice():
    night = Quiet(parse_quiet("22:00-06:00"), "UTC")
    start = T0  # 08:00 UTC
    # Opened at 08:00 with two hours; held from 09:00 to 09:00 the next day (13 awake hours, the
    # night, 3 awake hours): the hour left runs from 09:00, so the deadline is 10:00 that day.
    _, held = timing.duty(start, 2 * HOUR, 0.0, night, CONF, 0, False, "offers", {}, start + HOUR, held=True)
    _, free = timing.duty(start, 2 * HOUR, 0.0, night, CONF, 0, False, "offers", held, start + 25 * HOUR)
    assert free["end"] == start + 26 * HOUR


def test_the_bank_is_charged_only_for_time_that_ran():
    _, held = timing.duty(T0, HOUR, 5 * HOUR, Quiet(), CONF, 0, False, "offers", {}, T0 + 30 * 60, held=True)
    _, free = timing.duty(T0, HOUR, 5 * HOUR, Quiet(), CONF, 0, False, "offers", held, T0 + 30 * 60 + 4 * HOUR)
    answered = T0 + 30 * 60 + 4 * HOUR + 45 * 60  # 30 min before the hold, 45 after: 15 min beyond the hour
    assert timing.charge(T0, answered, HOUR, Quiet(), CONF, free) == 15 * 60
    # A hold still on when the obligation ends (its window closed while held) counts until then.
    assert timing.charge(T0, T0 + 3 * HOUR, HOUR, Quiet(), CONF, held) == 0
