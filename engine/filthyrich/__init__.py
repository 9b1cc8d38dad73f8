"""Filthy Rich (Richard Garfield, 1998): businesses advertised in a four-page binder, dice that
hit the visible ads, taxes on every 0, and three luxuries to win. 2-5 players."""

from .rules import GAME, FilthyRich  # noqa: F401
