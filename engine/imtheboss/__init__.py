"""I'm the Boss! (Sid Sackson): deals on a ring of 16 spaces, investors from six clans, and
negotiation in which anyone may act at any time, for 2-6 players."""

from .rules import GAME, ImTheBoss  # noqa: F401
