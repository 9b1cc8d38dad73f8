"""The start-up SIGTERM handler of bot.py ends the process wherever the signal lands, even in
code whose exceptions Python ignores (a weakref callback, as the import machinery's module locks
use): CI once saw its SystemExit printed as "Exception ignored" and the start go on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os, signal, sys, time, weakref
sys.path.insert(0, sys.argv[1])
from bot import _stopped_while_starting
signal.signal(signal.SIGTERM, _stopped_while_starting)

class Held:
    pass

def callback(_):  # the signal is handled at a check inside this loop: inside the callback
    os.kill(os.getpid(), signal.SIGTERM)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        pass

held = Held()
ref = weakref.ref(held, callback)
del held
print("the start went on", flush=True)
"""


def test_a_signal_inside_a_callback_whose_exceptions_are_ignored_still_ends_the_start():
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT)], capture_output=True, text=True, timeout=60)
    assert "stopped during start-up" in done.stderr, done.stderr
    assert "the start went on" not in done.stdout, (done.stdout, done.stderr)
    assert "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
