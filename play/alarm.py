"""Wakes the timer loop: a timer may now be due sooner than the loop's sleep (a move planned a
new one). Whoever plans timers rings; the timer loop listens and restarts its sleep, as
RoboDanny's reminders do. (The loop sleeps in a plain `asyncio.sleep`, which the test harness
drives in virtual time; ringing cancels that sleep.)"""

from __future__ import annotations

from typing import Callable


class Alarm:
    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def listen(self, wake: Callable[[], None]) -> None:
        self._listeners.append(wake)

    def ring(self) -> None:
        for wake in self._listeners:
            wake()
