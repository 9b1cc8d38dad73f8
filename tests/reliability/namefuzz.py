"""Names built to combine (issue 25, finding 1): whole games through the bot whose players are
named so that their names, side by side, would make a masked link, a bare link, a mention, a
code span or spoiler that swallows the bot's own words, or a heading, in every title and in
en, ja and es. Every REST request the bot sends in the game is read with a real markdown parser
(tests/support/markup.py): nothing may parse to a link or a mention the bot did not make itself,
and no escape may show where Discord shows plain text (labels, placeholders, forms).

A game: the lobby (the names joined in order, so each group sits side by side), the start, then
random play through the players' panels as tests/reliability/privacy.py plays (My hand, every
sub-menu, selects, forms, DM panels, looks at the log, the status and the rules, bad input;
deadlines let the seat-filler move), a hand-over (the seat picker lists every name), `/game
mine`, a daily digest, then the end: declared in the store with a ranking in seat order (playing
a six-seat game of I'm the Boss! to its end takes thousands of moves), which the table keeper
announces as after any last move: the results with their ranking and picture, and Rematch,
pressed for a new lobby; then `/game history` and `/game stats`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import engine
from cogs.kit.names import text_name
from play.names import clean_name
from tests.reliability.privacy import PrivateGame, user_locales
from tests.support import markup
from tests.support.sim import TIGHT, Sim, button, custom_ids, panel_of

#: Groups of names, each seated side by side (two pairs and two triples fill three tables of
#: every title: E-Wars seats four). Every name fits Discord's 32 characters.
GROUPS: tuple[tuple[str, ...], ...] = (
    # The pair: one masked link in the bot's voice once the two are listed together.
    ("[Claim your free Nitro", "](https://evil.test)"),
    # Mentions (a user, a role, a channel, everyone, here) and a scheme split from its address.
    ("<@123> <@&123> @everyone http:", "//evil.test <#123> @here"),
    # The link text over three seats, Discord's <url> form, a bare address, and a spoiler and
    # a code span opened in the first name and closed in the last, around the bot's own words.
    ("`||[Claim", "your free Nitro https://e.test", "](<https://evil.test>)||`"),
    # Line starts and breaks: a heading, subtext, a quote and a list, a link across them.
    ("# [Nitro", "-# ](https://evil.test)", "> x\n# y\n- <https://e.test>"),
)
LANGS = ("en", "ja", "es")
LOCALES = {"en": "en-US", "ja": "ja", "es": "es-ES"}
#: Live deadlines; an AI "thinking" delay longer than a step, as in the privacy games.
SETTINGS = {"pace": "live", "ai_delay": 30, "on_deadline": "ai"}
#: The member a seat is handed to: a name that would close a link opened by the seat before it.
HEIR = "](https://evil.test) @everyone"
#: Random steps through the panels before the hand-over and the end.
STEPS = 15


def tables(title: str) -> list[tuple[str, ...]]:
    """The groups packed into games of the title's largest table (each group whole, in order),
    at least one game per language."""
    size = engine.get(title).max_players
    games: list[list[str]] = []
    for group in sorted(GROUPS, key=len, reverse=True):
        for names in games:
            if len(names) + len(group) <= size:
                names.extend(group)
                break
        else:
            games.append(list(group))
    while len(games) < len(LANGS):
        games.append(list(GROUPS[len(games) % len(GROUPS)]))
    return [tuple(names) for names in games]


def cases(titles: tuple[str, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(title, language, names) for every game to play: each title's tables, the languages in turn."""
    return [(title, LANGS[i % len(LANGS)], names) for title in titles for i, names in enumerate(tables(title))]


class _NoWatch:
    """PrivateGame checkpoints its leak watch after every step; these games watch names instead."""

    stats: dict[str, int] = {}

    def checkpoint(self) -> None:
        pass

    async def check(self) -> list[Any]:
        return []


@dataclass
class Figures:
    names: int = 0
    requests: int = 0
    markdown: int = 0
    plain: int = 0
    showing_names: int = 0
    actions: int = 0
    finished: bool = False
    problems: list[str] = field(default_factory=list)


class NamedGame:
    def __init__(self, sim: Sim, title: str, lang: str, names: tuple[str, ...], seed: int) -> None:
        self.sim, self.title, self.lang, self.names, self.seed = sim, title, lang, names, seed
        self.rng = random.Random(f"{seed}/names")
        self.locales: dict[int, str] = {}
        self.members: list[Any] = []
        self.pg: PrivateGame | None = None
        self.game_id = 0

    def member(self, key: str, nick: str) -> Any:
        m = self.sim.guild.add_member(self.sim.env.create_user(key), nick=nick)
        self.sim.players[key] = m
        self.locales[m.id] = LOCALES[self.lang]
        return m

    async def play(self, steps: int = STEPS) -> Figures:
        with user_locales(self.locales):
            await self.start()
            for _ in range(steps):
                if not await self.pg.step():
                    break
            await self.extras()
            await self.finish()
            await self.after()
        return self.check()

    async def start(self) -> None:
        sim = self.sim
        self.members = [self.member(f"n{i}", name) for i, name in enumerate(self.names)]
        outsider = self.member("outsider", "outsider")
        host = self.members[0]
        game = await sim.open_lobby(host, self.title, self.members[1:])
        await sim.store.update_game(game.id, 0, seed=self.seed, lang=self.lang,
                                    settings={**game.settings, **TIGHT, **SETTINGS})
        await sim.lobby(host, "start")
        await sim.settle()
        game = await sim.game()
        assert game.status == "active", f"{self.title} did not start with {len(self.names)} seats"
        self.game_id = game.id
        pg = self.pg = PrivateGame(sim, _NoWatch(), self.title, self.seed, bad_rate=0.05, locales=self.locales)
        pg.game_id, pg.outsider, pg.dm_users = game.id, outsider, set()
        pg.members = {s.seat: next(m for m in self.members if m.id == s.user_id) for s in game.seats}
        for m in self.members[:2]:  # panels in DMs; a digest for the first
            await m.slash(sim.channel, "game prefs", dm_panel=True, digest=m is self.members[0])
            pg.dm_users.add(m.id)
        await sim.settle()

    async def extras(self) -> None:
        """What lists every name: the hand-over picker (and the hand-over said at the table), the
        digest, `/game mine`."""
        sim, host = self.sim, self.members[0]
        game = await sim.game()
        if game.status != "active":
            return
        await sim.bot.digest.round()
        await self.members[-1].slash(sim.channel, "game mine")
        heir = self.member("heir", HEIR)
        seat = len(game.seats) - 1
        opened = panel_of(await sim.menu_click(host, "Hhandover"))
        chosen = panel_of(await host.select(opened, [str(seat)], custom_id=button(opened, ":Hhseat")))
        picker = next(c for c in custom_ids(chosen) if c.startswith("bu:") and c.endswith(f":Hhto:{seat}"))
        await host.select(chosen, [heir], custom_id=picker)
        await sim.settle()
        self.pg.members[seat] = heir

    async def finish(self) -> None:
        """The end, declared: every seat ranked in seat order. The keeper posts the results as
        it does after a game's last move (play/records.py: announced once)."""
        sim = self.sim
        n = len((await sim.game()).seats)
        await sim.store.finish(self.game_id, "finished", sim.env.now().timestamp(),
                               {"places": list(range(1, n + 1)), "scores": [{} for _ in range(n)]})
        sim.house.games.forget(self.game_id)
        sim.keeper.refresh(self.game_id)
        await sim.settle()

    async def after(self) -> None:
        """The results, a rematch lobby (its presser hosts it), the history and the stats."""
        sim = self.sim
        results = [m for m in sim.channel.history() if any(c.endswith(":Hrematch") for c in custom_ids(m))]
        if results:
            await self.members[1].click(results[-1], custom_id=button(results[-1], code_suffix=":Hrematch"))
            await sim.settle()
        await self.members[0].slash(sim.channel, "game history")
        await self.members[0].slash(sim.channel, "game stats", member=self.members[1].user)
        await sim.settle()

    def check(self) -> Figures:
        sim = self.sim
        game_names = [clean_name(n) for n in (*self.names, HEIR)]
        escaped = [text_name(n) for n in game_names if text_name(n) != n]
        known = markup.Known(users=set(sim.env.backend.users), channels=set(sim.env.backend.channels))
        figures = Figures(names=len(game_names))
        for entry in sim.env.http_requests:
            body = markup.request_body(entry)
            if not body or entry.method == "GET":
                continue
            figures.requests += 1
            for where, text, parsed in markup.shown(body):
                figures.markdown += parsed
                figures.plain += not parsed
                figures.showing_names += any(n in text for n in game_names + escaped)
                found = markup.problems(text, known) if parsed else \
                    [f"escape shown in plain text: {e!r}" for e in escaped if e in text]
                figures.problems += [f"{entry.method} {entry.path} {where}: {p} in {text[:300]!r}" for p in found]
        return figures


async def named_game(sim: Sim, title: str, lang: str, names: tuple[str, ...], *, seed: int, steps: int = STEPS) -> Figures:
    game = NamedGame(sim, title, lang, names, seed)
    figures = await game.play(steps)
    final = await sim.store.get(game.game_id)
    figures.actions = final.version if final else 0
    figures.finished = bool(final and final.status == "finished")
    return figures


def summary(figures: Figures) -> str:
    return (f"{figures.names} names, {figures.actions} actions, {figures.requests} requests, "
            f"{figures.markdown} markdown and {figures.plain} plain strings ({figures.showing_names} showing a name), "
            f"{'finished' if figures.finished else 'not finished'}, {len(figures.problems)} problems")
