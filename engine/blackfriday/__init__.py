"""Black Friday (Friedemann Friese, 2010): stocks in five colours, silver and gold, for 2-5 players."""

from .rules import GAME, BlackFriday  # noqa: F401
