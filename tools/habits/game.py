"""One slow game, played to its end by people with habits, on SimCord's virtual clock.

The loop: look at what the bot said since (who was called), at what the game owes now (the
rules' windows and whose move it is), then let virtual time run to whatever comes first: the
game's next timer (a deadline, a reminder, a seat-filler seat's move) or the next person who
looks in. A person who looks opens their panel their way and makes every move the seat-filler
would make for their seat, one click (or select, or form) at a time, until it would wait.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import simcord

import engine
from app import create_bot
from tests.support.sim import Sim, in_locale, stop_detached

from . import report, table
from .panels import Desk, Moved, move, open_panel
from .people import DAY, HOUR, TICK, Person, spread
from .transcript import write as write_transcript
from .watch import Watch, install

#: Moves one person makes in one look at most (an E-Wars dispatch is several picks and a Confirm).
MOVES_PER_LOOK = 20
#: The virtual hour of the first day at which the host opens the lobby.
OPENS_AT = 9 * HOUR
#: Virtual time the loop lets pass at most in one go (it looks at the game at least this often).
MOST = DAY


@dataclass
class Track:
    """What the tool saw while the game ran (report.py turns it into figures)."""

    start: float
    humans: dict[int, Person]
    open: dict[tuple[str, int], float] = field(default_factory=dict)
    spans: list[tuple[tuple[str, int], float, float]] = field(default_factory=list)
    turns: int = 0
    distances: list[int] = field(default_factory=list)
    #: (time, actions logged so far, the game's clock column or None)
    samples: list[tuple[float, int, Any]] = field(default_factory=list)
    #: (time, seat) of every call: a ping in the channel or a new DM
    told: list[tuple[float, int, bool]] = field(default_factory=list)
    #: (time, seat, keys of the windows the reminder may be for, oldest first) of every
    #: reminder line; a key is (window id, seat, when it opened), one obligation
    reminders: list[tuple[float, int, tuple]] = field(default_factory=list)
    last: float | None = None
    looks: int = 0
    empty_calls: int = 0
    no_panel: int = 0
    off_panel: list[dict[str, Any]] = field(default_factory=list)
    audited: int = 0
    unreachable: list[dict[str, Any]] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    away: list[tuple[int, float, float]] = field(default_factory=list)
    quiet: dict[str, Any] = field(default_factory=dict)
    #: What happened, line by line (--trace)
    trace: list[tuple[float, str]] = field(default_factory=list)

    def say(self, at: float, text: str) -> None:
        self.trace.append((at, text))

    def lines(self) -> list[str]:
        out = []
        for at, text in sorted(self.trace, key=lambda x: x[0]):
            day, clock = int(at // DAY - self.start // DAY), (at % DAY) / HOUR
            out.append(f"d{day} {int(clock):02d}:{int(clock % 1 * 60):02d} {text}")
        return out


def obligations(title: str, state: dict[str, Any]) -> set[tuple[str, int]]:
    """(window id, seat) of each open window, ("act", seat) for a move owed outside one."""
    g = engine.get(title)
    owed = {(w.id, s) for w in g.windows(state) for s in w.seats}
    covered = {s for _, s in owed}
    return owed | {("act", s) for s in g.to_act(state) if s not in covered}


def has_clock_column(db: Path) -> bool:
    """Whether this version of the store keeps a `clock` column in its games (time banks)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            return "clock" in {row[1] for row in con.execute("PRAGMA table_info(games)")}
    except sqlite3.Error:
        return False


def read_clock(game: Any, db: Path, column: bool) -> Any:
    """The game row's per-seat clock (time banks), if this version of the store keeps one."""
    value = getattr(game, "clock", None)
    if value is not None or not column:
        return value
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            row = con.execute("SELECT clock FROM games WHERE id = ?", (game.id,)).fetchone()
    except sqlite3.Error:
        return None
    return report.loads(row[0]) if row else None


class Table:
    """The game being played: the simulated Discord, the people, what was seen."""

    def __init__(self, sim: Sim, db: Path, title: str, people: list[Person], seed: int, lang: str = "en") -> None:
        self.sim, self.db, self.title, self.people, self.seed, self.lang = sim, db, title, people, seed, lang
        self.watch = Watch(install(sim.env))
        self.desk: Desk | None = None
        self.track: Track | None = None
        self.bank_seen = False
        self.clock_column: bool | None = None
        #: The bot's obligation rows as last seen: ref -> (when it opened, reminders sent)
        self.duties: dict[str, tuple[float, int]] = {}

    def _dm_of(self, person: Person) -> int | None:
        channel = person.member.user.dm_channel
        return channel.id if channel is not None else None

    async def observe(self) -> Any:
        """Read what was said and what the game owes now; the game row."""
        assert self.desk is not None and self.track is not None
        track, sim = self.track, self.sim
        game = await sim.store.get(self.desk.game_id)
        now = self.desk.now()
        sent = await self._reminded_windows()
        for post in self.watch.fresh():
            called = [p.name for p in self.people if p.user_id in post.pings or post.channel_id == self._dm_of(p)]
            if called:
                what = "DM" if post.channel_id != sim.channel.id else "reminds" if post.reminded else "pings"
                last = (post.content.splitlines() or [""])[-1][:70]
                track.say(post.at, f"bot {what} {', '.join(called)}: {last!r}")
            for person in self.people:
                via_dm = post.channel_id == self._dm_of(person)
                if via_dm or person.user_id in post.pings:
                    person.called(post.at, via_dm)
                    track.told.append((post.at, person.seat, via_dm))
                if person.user_id in post.reminded:
                    track.reminders.append((post.at, person.seat, self._window_of(person.seat, sent)))
        owed = obligations(self.title, game.state) if game.status == "active" and game.state else set()
        fresh = owed - set(track.open)
        if any(s in track.humans for _, s in fresh):
            track.turns += 1
        for key in fresh:  # it opened after the last look at the game, at the latest now
            track.open[key] = track.last if track.last is not None else now
        for key in set(track.open) - owed:
            track.spans.append((key, track.open.pop(key), now))
        ids = [m.id for m in sim.channel.history()]
        if game.table_message_id in ids:
            track.distances.append(len(ids) - 1 - ids.index(game.table_message_id))
        if self.clock_column is None:
            self.clock_column = has_clock_column(self.db)
        clock = read_clock(game, self.db, self.clock_column)
        self.bank_seen = self.bank_seen or any(report.bank_left(clock, s) is not None for s in track.humans)
        track.samples.append((now, await sim.store.action_count(game.id), clock))
        track.last = now
        return game

    async def _reminded_windows(self) -> dict[int, list[str]]:
        """Per seat, the windows the bot's obligation rows counted a reminder for since the last
        look at the game (report.reminded)."""
        assert self.desk is not None
        rows = {t.ref: t.payload for t in await self.sim.store.timers(self.desk.game_id) if t.kind == "duty"}
        sent, self.duties = report.reminded(rows, self.duties)
        return sent

    def _window_of(self, seat: int, sent: dict[int, list[str]]) -> tuple:
        """The obligations a reminder to `seat` may be for (report.obligations_reminded)."""
        assert self.track is not None
        mine = sorted((opened, key) for key, opened in self.track.open.items() if key[1] == seat)
        return report.obligations_reminded([(key[0], seat, int(opened)) for opened, key in mine], sent.get(seat))

    async def look(self, person: Person, away_day: float) -> None:
        """The person looks in: goes away (once, mid-game), or opens the panel and moves."""
        assert self.desk is not None and self.track is not None
        desk, track, now = self.desk, self.track, self.desk.now()
        called = person.called_at is not None
        person.done_looking(now)
        track.looks += 1
        if person.habit == "away" and person.away_from is None and now >= track.start + away_day * DAY:
            person.clicks.append(now)
            await person.member.slash(self.sim.channel, "game away", until="2d")
            await self.sim.settle()
            person.go_away(now)
            track.say(now, f"{person.name} goes away until day {(person.away_until or now) / DAY - track.start / DAY:.1f}")
            track.away.append((person.seat, now, person.away_until or now))
            return
        opened = await open_panel(desk, person)
        if opened is None:
            track.no_panel += 1
            track.say(now, f"{person.name} [{person.opens}] has no panel to open")
            return
        actor, message = opened
        moved = 0
        for _ in range(MOVES_PER_LOOK):
            result = await move(desk, person, actor, message)
            self._note(result)
            track.say(now, f"{person.name} [{person.opens}] {result.kind} {report.short(result.action)}"
                           + (f" (off panel: {report.short(result.off_panel)})" if result.off_panel else "")
                           + (f" {result.note}" if result.note else "")
                           + "".join(f" (not on the panel: {report.short(a)})" for a in result.unreachable))
            if result.kind != "moved":
                break
            moved += 1
            await self.observe()
            message = await self._panel_after(person, result)
            if message is None:
                break
        if called and moved == 0:
            track.empty_calls += 1
        person.done_looking(self.desk.now())

    def _note(self, result: Moved) -> None:
        assert self.track is not None
        if result.off_panel is not None:
            self.track.off_panel.append(result.off_panel)
        self.track.audited += result.audited
        self.track.unreachable += result.unreachable
        if result.kind == "stuck":
            self.track.stuck.append(result.note)
        elif result.kind == "failed":
            self.track.failed.append(result.note)

    async def _panel_after(self, person: Person, result: Moved) -> Any:
        """The panel in front of the person after a move: the one the click answered with (a DM
        panel: the newest one in their DMs), or their way to it again."""
        if person.opens == "dm":
            opened = await open_panel(self.desk, person)
            return opened[1] if opened else None
        if result.message is not None and result.message.components:
            return result.message
        opened = await open_panel(self.desk, person)
        return opened[1] if opened else None

    async def run(self, ai: int, cap_days: float, away_day: float, audit: int = 0) -> dict[str, Any]:
        sim = self.sim
        await sim.advance(OPENS_AT)
        quiet = await table.preferences(sim, self.people)
        game, start = await table.sit_down(sim, self.title, self.people, ai, self.seed, self.lang)
        self.desk = Desk(sim, game.id, self.seed, audit)
        # Whatever opened from the Start click on (a seat-filler seat may move at once) counts.
        self.track = Track(start, {p.seat: p for p in self.people}, quiet=quiet, last=start)
        for person in self.people:
            person.looked = start
        capped = False
        while True:
            game = await self.observe()
            now = self.desk.now()
            if game.status != "active":
                break
            if now - start >= cap_days * DAY:
                capped = True
                break
            looks = [(p.next_look(), i) for i, p in enumerate(self.people)]
            due = [(t, i) for t, i in looks if t is not None]
            timers = await sim.store.timers(game.id)
            wake = min([t.due_at + 0.01 for t in timers] + [now + MOST, start + cap_days * DAY])
            first = min(due) if due else None
            if first is None or first[0] > wake:
                await sim.advance(max(10 * TICK, wake - now))  # a timer already due: let the bot fire it
                continue
            if first[0] > now + TICK:
                await sim.advance(first[0] - now)
                continue
            await self.look(self.people[first[1]], away_day)
        game = await sim.store.get(game.id)
        return await report.figures(self, game, capped)


async def play(title: str, seed: int, *, players: int | None = None, filler: bool = False, cap_days: float = 60,
               away_day: float = 3, audit: int = 0, pictures: bool = False, inspect: Any = None,
               lang: str = "en", transcript: Path | None = None) -> dict[str, Any]:
    """Play one game in `lang`; its figures (report.py). `inspect(table, figures)`, if given, is
    awaited while the simulated Discord still runs (a test compares the figures with the raw
    record). With `transcript`, everything the bot said is written there (transcript.py), and
    the figures count the rough edges found in it."""
    count = players or engine.get(title).max_players
    habits = spread(count, filler)
    with (nullcontext() if pictures else pictures_stubbed()), members_speaking(lang), \
            tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "habits.db"
        bot = create_bot(db)
        async with simcord.run(bot, check_errors=False) as env:
            # A game of weeks on a shared machine: a click's settle waits for the table's
            # pictures off the loop, which under load outlast SimCord's default 5 s (a run
            # died so at load 5; the figures do not depend on how long a settle takes).
            env.settle_timeout = 60.0
            sim = Sim(env, db)
            try:
                people = [Person(f"p{i}-{h}", h, sim.player(f"p{i}-{h}"), seed) for i, h in enumerate(habits) if h != "ai"]
                tab = Table(sim, db, title, people, seed, lang)
                out = await tab.run(habits.count("ai"), cap_days, away_day, audit)
                out.update(filler=filler, habits=habits, lang=lang)
                if transcript is not None:
                    out["wording_problems"] = write_transcript(transcript, tab.watch.log)
                if inspect is not None:
                    await inspect(tab, out)
                return out
            finally:
                await stop_detached(env.bot)


#: The Discord client language of the game's people (a ja game's people read ja panels).
CLIENT_LOCALES = {"en": "en-US", "ja": "ja", "es": "es-ES"}


@contextmanager
def members_speaking(lang: str) -> Iterator[None]:
    """Every click and command of the game comes from a client in the game's language, so what
    the bot addresses to one person (private panels, replies, DMs: issue 30.3, they follow the
    person's language) is in it too and the transcript reads it (SimCord's members are en-US)."""
    with pytest.MonkeyPatch.context() as patch:
        in_locale(patch, CLIENT_LOCALES[lang])
        yield


@contextmanager
def pictures_stubbed() -> Iterator[None]:
    """Pictures cost CPU and change no figure: each is drawn as a tiny PNG while a game plays
    (--pictures keeps them), and the real drawing is put back after it: the tests play games
    in the same process as others that send pictures to worker processes (CI: a stand-in left
    behind could not be pickled, and the picture pool of a later test hung)."""
    import render.pool as pool
    from render.common import png
    from PIL import Image

    blank = png(Image.new("RGB", (2, 2)))
    real = pool.draw_png
    pool.draw_png = lambda fn, *args: blank
    try:
        yield
    finally:
        pool.draw_png = real

