"""What the bot said, and when: every REST request the bot makes to SimCord, stamped with the
virtual clock, read as people receive it (a message in the channel that mentions them, a DM).

    Post        one message the bot posted (in the game's channel or a DM), with the users it
                pings (mentioned in its text AND allowed to be pinged), the users a reminder
                line names (a line that pings them and says "Reminder" or starts with ⏰,
                the words of `core.ping.reminder` and `core.ping.overdue`), and whether it
                carries a My hand button.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

MENTION = re.compile(r"<@!?(\d+)>")


class TimedLog(list):
    """SimCord's list of the bot's requests, which also keeps when each was made."""

    def __init__(self, entries: list[Any], clock: Callable[[], float]) -> None:
        super().__init__(entries)
        self.clock = clock
        start = clock()
        self.times: list[float] = [start] * len(entries)

    def append(self, entry: Any) -> None:  # SimCord's router appends every request it serves
        super().append(entry)
        self.times.append(self.clock())


def install(env: Any) -> TimedLog:
    """Stamp every further request of the bot with the virtual clock."""
    backend = env.backend
    log = TimedLog(list(backend.http_requests), lambda: env.now().timestamp())
    backend.http_requests = log
    return log


@dataclass
class Post:
    at: float
    channel_id: int
    content: str
    pings: set[int] = field(default_factory=set)
    reminded: set[int] = field(default_factory=set)
    has_hand: bool = False
    body: dict[str, Any] = field(default_factory=dict)


def _body(entry: Any) -> dict[str, Any]:
    body = entry.json
    if isinstance(body, dict) and "payload_json" in body:
        body = json.loads(body["payload_json"])
    return body if isinstance(body, dict) else {}


def _allowed(body: dict[str, Any], user: int) -> bool:
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return True
    return str(user) in {str(u) for u in allowed.get("users") or []} or "users" in (allowed.get("parse") or [])


def _has_hand(body: dict[str, Any]) -> bool:
    return ":Hhand" in json.dumps(body.get("components") or [])


def read_post(entry: Any, at: float) -> Post | None:
    """A message the bot posted, or None (an edit, a deletion, anything else)."""
    if entry.method != "POST":
        return None
    m = re.fullmatch(r"/channels/(\d+)/messages", entry.path)
    if m is None:
        return None
    body = _body(entry)
    content = str(body.get("content") or "")
    pings = {int(u) for u in MENTION.findall(content) if _allowed(body, int(u))}
    reminded: set[int] = set()
    for line in content.splitlines():
        if "Reminder" in line or line.lstrip().startswith("⏰"):
            reminded |= {int(u) for u in MENTION.findall(line)} & pings
    return Post(at, int(m[1]), content, pings, reminded, _has_hand(body), body)


class Watch:
    """Reads the bot's requests as they come: `fresh()` gives the posts made since last asked."""

    def __init__(self, log: TimedLog) -> None:
        self.log = log
        self.seen = len(log)
        self.posts: list[Post] = []

    def fresh(self) -> list[Post]:
        out = []
        for i in range(self.seen, len(self.log)):
            post = read_post(self.log[i], self.log.times[i])
            if post is not None:
                out.append(post)
        self.seen = len(self.log)
        self.posts += out
        return out
