"""The rules of every title, pure Python. `titles()` finds each `engine/<title>/` package that
exposes `GAME`, so a new title is added by writing its package and nothing else."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from .core import Game, RuleError  # noqa: F401  (re-exported: the contract)


def discover() -> dict[str, Game]:
    """Every title package under engine/ (uncached; `titles` is the cached registry)."""
    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.title] = game
    return found


@cache
def titles() -> dict[str, Game]:
    return discover()


def get(title: str) -> Game:
    try:
        return titles()[title]
    except KeyError:
        raise RuleError("core.error.unknown_title", title=title) from None
