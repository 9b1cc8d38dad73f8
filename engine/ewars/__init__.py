"""E-Wars: Real Estate Acquisition (イーウォーズ～不動産買収編～): a real-time dice race for
property cards on a 4x4 grid, secret employee placements, and sandwich captures. 2-4 players."""

from .rules import GAME, EWars  # noqa: F401
