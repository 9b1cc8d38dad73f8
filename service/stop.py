"""The graceful stop: SIGTERM (docker stop, systemctl stop) and SIGINT (Ctrl+C) close the bot
properly within a bounded time, and the process exits 0.

In order (`graceful_stop`, called from `Boardroom.close`):
  1. the interactions being handled finish and are answered (their handlers are tracked by
     `InFlight`); the gateway stays open meanwhile, so a click that arrives now is answered too;
  2. the table updates waiting to go out are sent (`TableKeeper.idle`); one still waiting when
     time runs out is left to the restart's catch-up: its game's `told_version` stays behind
     its version, so the next start tells the channel (House.catch_up);
  3. the timer loop and the table keeper stop (House.stop). A timer cut short is a row that
     fires again after the restart; an action is one transaction, committed whole or not at all;
then the bot closes the gateway and its HTTP session, and the store closes its database.

A second signal while stopping skips what is left of the waiting.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from typing import TYPE_CHECKING, Any

from . import metrics

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

#: Seconds the stop may wait for interactions and table updates, in all. Docker's grace period
#: (compose.yaml) and systemd's TimeoutStopSec (deploy/boardroom.service) leave room above it.
STOP_SECONDS = 20.0
#: Of which at most this long for the interactions in flight (Discord waits 3 s for an answer;
#: a handler that still runs after this is stuck).
INTERACTIONS_SECONDS = 10.0


class InFlight:
    """The interactions being handled now: their handler tasks, from the moment the house took
    them (`track`) until the handler returned. Feeds the stop and the latency histogram."""

    def __init__(self) -> None:
        self.tasks: dict[asyncio.Task, str] = {}
        self.hurry = asyncio.Event()  # a second signal: stop waiting

    def track(self, kind: str) -> None:
        """Called at the start of a handler, in its own task."""
        task = asyncio.current_task()
        if task is None or task in self.tasks:
            return
        started = time.perf_counter()
        self.tasks[task] = kind
        metrics.INTERACTIONS_IN_FLIGHT.inc()

        def done(finished: asyncio.Task) -> None:
            self.tasks.pop(finished, None)
            metrics.INTERACTIONS_IN_FLIGHT.dec()
            if not finished.cancelled():
                metrics.answered(kind, time.perf_counter() - started)

        task.add_done_callback(done)

    def __len__(self) -> int:
        return len(self.tasks)

    async def drain(self, deadline: float) -> int:
        """Wait until no handler runs (new ones may start meanwhile), or until `deadline` (loop
        time) or a hurry; the number of handlers still running then."""
        current = asyncio.current_task()
        while True:
            running = [t for t in self.tasks if t is not current and not t.done()]
            if not running or not await wait_until(asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED),
                                                   deadline, self.hurry):
                return len(running)


def track(interaction: "discord.Interaction", kind: str) -> None:
    """Mark the current task as the handler of `interaction` (kinds: command, click, form)."""
    inflight = getattr(interaction.client, "inflight", None)
    if inflight is not None:
        inflight.track(kind)


async def wait_until(awaitable: Any, deadline: float, hurry: asyncio.Event) -> bool:
    """Await `awaitable` until `deadline` (loop time) or `hurry` is set: True if it finished."""
    task = asyncio.ensure_future(awaitable)
    hurried = asyncio.ensure_future(hurry.wait())
    timeout = max(0.0, deadline - asyncio.get_running_loop().time())
    try:
        await asyncio.wait([task, hurried], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        hurried.cancel()
    if not task.done():
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return False
    return True


async def graceful_stop(bot: Any, seconds: float = STOP_SECONDS) -> None:
    """Steps 1 to 3 of the module's docstring, within `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    inflight: InFlight = bot.inflight
    house = getattr(bot, "house", None)
    keeper = getattr(bot, "keeper", None)
    queued = len(keeper.busy()) if keeper is not None else 0
    log.info("stopping: %d interactions in flight, %d table updates queued", len(inflight), queued)
    left = await inflight.drain(min(deadline, loop.time() + INTERACTIONS_SECONDS))
    if left:
        log.warning("stopping: %d interactions still running after %.0fs are cut short", left, INTERACTIONS_SECONDS)
    untold: set[int] = set()
    if keeper is not None:
        if not await wait_until(keeper.idle(), deadline, inflight.hurry):
            log.warning("stopping: table updates still running are left to the restart's catch-up")
        untold = keeper.busy()
    if house is not None:
        await house.stop()
    if keeper is not None:
        await keeper.stop()
    if untold:
        log.info("stopping: games %s will be told after the restart (catch-up)", sorted(untold))


def stop_on_signals(bot: "discord.Client") -> None:
    """SIGTERM and SIGINT start the graceful stop (`bot.close()`); a second one hurries it.
    Where the loop cannot take signal handlers (Windows), Ctrl+C stays a KeyboardInterrupt."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task] = []  # a reference keeps the task alive until it is done

    def on_signal(sig: signal.Signals) -> None:
        if closing:
            log.warning("%s again: stopping without waiting any longer", sig.name)
            bot.inflight.hurry.set()  # type: ignore[attr-defined]
            return
        log.info("%s received: stopping gracefully (at most %.0fs)", sig.name, STOP_SECONDS)
        closing.append(asyncio.ensure_future(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, on_signal, sig)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no support
            return
