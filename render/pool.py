"""Pictures drawn outside the bot's process: a pool of worker processes, so one bot process is not
capped by the GIL (threads drawing with Pillow share one interpreter: about 60 table pictures a
second on this machine, whatever the cores).

A job crosses the process boundary by pickling, so it is a renderer function named by its module
(`render.<title>.table_image`, a title's static method) and plain data: an engine view (dicts and
lists), the names, the language; PNG bytes come back. Anything else (a closure drawing a panel)
is drawn in a thread of the bot's process, as before.

The pool starts on the first picture (tests that draw nothing pay nothing), from a fork server
(a clean process that preloads the drawing code), never by forking the bot itself: forking a
process with running threads (the database worker, the event loop's executor) can leave a held
lock in the child. `close()` stops the workers; the bot calls it in its graceful stop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
from typing import Any, Callable

from PIL import Image

from render.common import png

log = logging.getLogger(__name__)

#: What each worker imports once, before its first picture.
PRELOAD = ["render.common"]
#: Pools that may break in a row (workers that die at start: a broken installation, no memory)
#: before pictures are drawn in threads for good, rather than starting doomed pools forever.
BREAKS = 3


def draw_png(fn: Callable[..., Image.Image], *args: Any) -> bytes:
    """The job: draw and encode (both CPU-bound), in whichever process runs it."""
    return png(fn(*args))


def call(fn: Callable[..., Any], *args: Any) -> Any:
    """A job that returns its own answer (already encoded)."""
    return fn(*args)


def by_reference(fn: Callable[..., Any]) -> bool:
    """A function another process can find by name (a lambda or a nested function cannot), or
    a `functools.partial` of one."""
    if isinstance(fn, functools.partial):
        return by_reference(fn.func)
    qualname = getattr(fn, "__qualname__", "<")
    return "<" not in qualname and getattr(fn, "__module__", None) not in (None, "__main__")


class Pictures:
    """Draws PNGs in `processes` worker processes (0: in threads of this process)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = max(0, int(processes))
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.closed = False
        self.breaks = 0  # pools broken in a row

    @property
    def started(self) -> bool:
        return self._executor is not None

    def executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._executor = concurrent.futures.ProcessPoolExecutor(max_workers=self.processes, mp_context=context)
            log.info("drawing pictures in %d processes", self.processes)
        return self._executor

    async def png(self, fn: Callable[..., Image.Image], *args: Any) -> bytes:
        """`fn(*args)` drawn and encoded as PNG, in a worker process when it can travel there."""
        return await self.run(draw_png, fn, *args)

    async def job(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Any picture job `fn(*args)` whose answer is plain data (the picture story: a replay,
        its frames and their encoding, render/story.py), in a worker process."""
        return await self.run(call, fn, *args)

    async def run(self, runner: Callable[..., Any], fn: Callable[..., Any], *args: Any) -> Any:
        if self.processes == 0 or self.closed or not by_reference(fn):
            return await asyncio.to_thread(runner, fn, *args)
        try:
            data = await asyncio.get_running_loop().run_in_executor(self.executor(), runner, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            # A worker died (killed, out of memory): a fresh pool next time; this one in a thread.
            self._drop()
            self.breaks += 1
            if self.breaks >= BREAKS:
                log.error("picture workers keep dying (%d pools in a row); drawing in threads from now on",
                          self.breaks)
                self.processes = 0
            else:
                log.warning("a picture worker died; starting the pool again")
            return await asyncio.to_thread(runner, fn, *args)
        self.breaks = 0
        return data

    def _drop(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (pictures still asked for are drawn in threads)."""
        self.closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


#: For a bot without a pool of its own (benchmarks' stand-ins): threads, as before.
THREADS = Pictures(0)


def pictures_of(bot: Any) -> Pictures:
    return getattr(bot, "pictures", None) or THREADS
