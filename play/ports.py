"""What the runtime calls upward through. The Discord side implements these (the table keeper
is the notifier); the runtime never imports it."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Protocol

from store import GameRow

#: Wall-clock seconds. The bot's is Discord's clock (which the test harness drives virtually).
Clock = Callable[[], float]
#: Waits until the bot is connected (the timer loop and the catch-up start only then).
Ready = Callable[[], Awaitable[Any]]


class Notifier(Protocol):
    """Whoever tells the players what happened: the table, the turn message, pings, DM panels.
    Every method only queues what is to be told and returns at once."""

    def changed(self, game: GameRow, events: list[dict[str, Any]], ping: list[int],
                news: list[int] | tuple[int, ...] = ()) -> None:
        """The game moved: narrate `events`, ping `ping` (seats with a new obligation), and call
        `news` (seats whose decision waits on answers that came in)."""

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        """A house note with no move behind it: a deadline passed, a seat left, a player away..."""

    def remind(self, game_id: int, seats: list[int], passed: bool = False, kind: str | None = None) -> None:
        """Remind these seats of what they owe (`passed`: their deadline passed, nothing happened;
        `kind`: the kind of the window the reminder is for, when it is for one)."""

    def refresh(self, game_id: int, repost: bool = False) -> None:
        """Draw the table again (at the bottom, with `repost`)."""

    def reposts(self, game: GameRow) -> bool:
        """Whether the game's table was posted in an older layout and should be posted again."""


class Silent:
    """A notifier that tells nobody (tools and benchmarks that run the runtime without Discord)."""

    def changed(self, game: GameRow, events: list[dict[str, Any]], ping: list[int],
                news: list[int] | tuple[int, ...] = ()) -> None:
        return None

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        return None

    def remind(self, game_id: int, seats: list[int], passed: bool = False, kind: str | None = None) -> None:
        return None

    def refresh(self, game_id: int, repost: bool = False) -> None:
        return None

    def reposts(self, game: GameRow) -> bool:
        return False
