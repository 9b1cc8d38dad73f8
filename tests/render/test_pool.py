"""Pictures leave the bot's process: a pool of worker processes (render/pool.py) draws them from
plain data (a renderer named by its module, a view dict) and hands back PNG bytes. It starts on
the first picture, falls back to a thread for what cannot travel (a closure), and stops cleanly
with the bot."""

from __future__ import annotations

import functools
import io
import os
import time

import pytest
from PIL import Image

from app import create_bot
from render.pool import BREAKS, Pictures, by_reference
from tests.support.sim import picture_urls


def pid_picture(tag: int) -> Image.Image:
    """A 2x1 picture carrying the drawing process's id (first pixel) and the tag (second)."""
    pid = os.getpid()
    img = Image.new("RGB", (2, 1))
    img.putpixel((0, 0), (pid >> 16 & 255, pid >> 8 & 255, pid & 255))
    img.putpixel((1, 0), (tag, 0, 0))
    return img


def dies_in_a_worker(parent: int, tag: int) -> Image.Image:
    """Kills the worker process that runs it (a crash, the OOM killer); in the parent, draws."""
    if os.getpid() != parent:
        os._exit(3)
    return pid_picture(tag)


def drawn_by(data: bytes) -> tuple[int, int]:
    img = Image.open(io.BytesIO(data)).convert("RGB")
    r, g, b = img.getpixel((0, 0))
    return r << 16 | g << 8 | b, img.getpixel((1, 0))[0]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A worker that exited but was not yet reaped by its parent (the fork server) is a zombie.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def all_gone(pids: set[int], seconds: float = 10.0) -> bool:
    """The workers exited (close() waited for them; the fork server reaps them just after)."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


async def test_pictures_are_drawn_in_other_processes_and_the_pool_stops():
    pictures = Pictures(2)
    assert not pictures.started  # lazily: nothing runs before the first picture
    results = [drawn_by(await pictures.png(pid_picture, i)) for i in range(6)]
    assert [tag for _, tag in results] == list(range(6))
    workers = {pid for pid, _ in results}
    assert os.getpid() not in workers and pictures.started
    await pictures.close()
    assert all_gone(workers)
    # After the stop a late picture is still drawn (in a thread), never lost.
    assert drawn_by(await pictures.png(pid_picture, 7)) == (os.getpid(), 7)


async def test_what_cannot_travel_is_drawn_in_a_thread():
    pictures = Pictures(2)
    assert not by_reference(lambda: pid_picture(1)) and by_reference(pid_picture)
    # A panel's picture handed over as a partial of a module-level renderer travels too.
    pid, tag = drawn_by(await pictures.png(functools.partial(pid_picture, 5)))
    assert tag == 5 and pid != os.getpid()
    await pictures.close()
    pictures = Pictures(2)
    assert drawn_by(await pictures.png(lambda: pid_picture(3))) == (os.getpid(), 3)
    assert not pictures.started  # no worker was needed
    threads = Pictures(0)
    assert drawn_by(await threads.png(pid_picture, 4)) == (os.getpid(), 4) and not threads.started


async def test_a_dead_worker_costs_no_picture_and_workers_that_keep_dying_leave_it_to_threads():
    pictures = Pictures(1)
    for i in range(BREAKS):
        # The worker dies: the picture is drawn in a thread all the same, and a new pool is tried.
        assert drawn_by(await pictures.png(dies_in_a_worker, os.getpid(), i)) == (os.getpid(), i)
    assert pictures.processes == 0 and not pictures.started  # given up: threads from now on
    assert drawn_by(await pictures.png(pid_picture, 9)) == (os.getpid(), 9) and not pictures.started
    await pictures.close()


@pytest.fixture
def simcord_bot(database):
    return create_bot(database, render_processes=2)


async def test_a_bot_with_picture_processes_posts_its_table_and_stops_cleanly(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, "toy", others=[bob])
    table = await sim.table_message()
    assert picture_urls(table) and table.attachments and table.attachments[0].size > 0
    pictures = sim.bot.pictures
    assert pictures.started  # the table picture came from a worker process
    await sim.bot.close()
    assert pictures.closed and not pictures.started
