"""Playing Boardroom as people do, through SimCord: a guild, a channel, players, and short verbs
for the things players do (open a lobby, join, start, open their panel, click, restart the bot,
let time pass). Every REST request the bot makes is checked against Discord's OpenAPI spec."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import simcord

from app import create_bot
from cogs.kit import codec
from cogs.kit.clock import now
from engine.core import copy_json
from store import GameRow
from tests.support.openapi import problems


def _body(entry: Any) -> Any:
    body = entry.json
    if isinstance(body, dict) and "payload_json" in body:
        body = json.loads(body["payload_json"])
    return body


#: Most tests are about what happens at a window's deadline, not about the time model (per-person
#: time banks and a day's least time to look: tests/bot/test_time_model.py); they play with the
#: window lengths alone, as the bot did before it had one.
TIGHT = {"bank": 0, "min_look": 0}


STEP = 12 * 3600.0  # the longest single advance of virtual time


class Sim:
    def __init__(self, env: simcord.Env, database: str | Path) -> None:
        self.env = env
        self.database = str(database)  # an SQLite file path or a postgresql:// URL
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("games")
        self.players: dict[str, simcord.MemberActor] = {}
        self._checked = 0

    # -- the world --------------------------------------------------------------------------

    @property
    def db_path(self) -> Path:
        """The SQLite file (for tests that open it directly; they run on SQLite only)."""
        assert not self.database.startswith("postgresql://"), "this test reads the SQLite file itself"
        return Path(self.database)

    @property
    def bot(self):
        return self.env.bot

    @property
    def store(self):
        return self.env.bot.store

    @property
    def house(self):
        return self.env.bot.house

    @property
    def keeper(self):
        """The table keeper (the runtime's notifier): the table, turn messages, DM panels."""
        return self.env.bot.keeper

    def player(self, name: str, roles=()) -> simcord.MemberActor:
        if name not in self.players:
            self.players[name] = self.guild.add_member(self.env.create_user(name), roles=list(roles))
        return self.players[name]

    async def game(self, channel=None):
        return await self.store.live_in((channel or self.channel).id) or await self.store.latest_in((channel or self.channel).id)

    # -- the lobby --------------------------------------------------------------------------

    async def new_game(self, host, title: str, channel=None) -> simcord.InteractionResult:
        return await host.slash(channel or self.channel, "game new", title=title)

    def lobby_message(self, channel=None) -> discord.Message:
        for message in reversed((channel or self.channel).history()):
            if any(self._is_lobby_button(c) for c in _custom_ids(message)):
                return message
        raise AssertionError("no lobby message in the channel")

    @staticmethod
    def _is_lobby_button(custom_id: str) -> bool:
        parsed = codec.parse(custom_id)
        return parsed is not None and parsed.code.startswith("L")

    async def lobby(self, member, verb: str, channel=None) -> simcord.InteractionResult:
        message = self.lobby_message(channel)
        # A verb may name one of several buttons (Remove beside each AI seat): the last one.
        cid = [c for c in _custom_ids(message) if c.endswith(f":L{verb}") or f":L{verb}:" in c][-1]
        return await member.click(message, custom_id=cid)

    async def open_lobby(self, host, title: str, others=(), ai: int = 0, channel=None) -> GameRow:
        """`host` opens a lobby, `others` join, the host adds `ai` AI seats; the lobby's game."""
        await self.new_game(host, title, channel)
        for member in others:
            await self.lobby(member, "join", channel)
        for _ in range(ai):
            await self.lobby(host, "addai", channel)
        return await self.game(channel)

    async def start(self, host, title: str, others=(), ai: int = 0, options: dict[str, Any] | None = None,
                    channel=None, clock: dict[str, Any] | None = TIGHT) -> None:
        """Open a lobby, seat everyone, set options, start. `clock`: the game's time-model
        settings (by default the window lengths alone, see TIGHT; None: the bot's defaults)."""
        game = await self.open_lobby(host, title, others, ai, channel)
        if options:
            await self.store.update_game(game.id, 0, options={**game.options, **options})
        if clock:
            await self.store.update_game(game.id, 0, settings={**game.settings, **clock})
        await self.lobby(host, "start", channel)
        await self.settle()

    async def arrange(self, build: Callable[[dict[str, Any]], None], *, replan: bool = True) -> dict[str, Any]:
        """Write a prepared engine state (the current one changed by `build`) into the store as a
        new version, and let the house pick it up: the table, and its timers unless `replan` is
        False (when only amounts change, the timers stand)."""
        game = await self.game()
        state = copy_json(game.state)
        build(state)
        await self.store.update_game(game.id, now(), state=state, version=game.version + 1)
        self.house.games.forget(game.id)
        if replan:
            await self.house.planner.replan(await self.house.games.game(game.id))
        self.keeper.refresh(game.id)
        await self.settle()
        return state

    # -- the table --------------------------------------------------------------------------

    async def table_message(self, channel=None) -> discord.Message:
        game = await self.game(channel)
        assert game is not None and game.table_message_id, "no table message"
        for message in (channel or self.channel).history():
            if message.id == game.table_message_id:
                return message
        raise AssertionError("the table message is not in the channel")

    async def hand(self, member, channel=None) -> discord.Message:
        """Click My hand; return the ephemeral panel message."""
        table = await self.table_message(channel)
        cid = next(c for c in _custom_ids(table) if c.endswith(":Hhand"))
        result = await member.click(table, custom_id=cid)
        return panel_of(result)

    async def menu(self, member, channel=None) -> discord.Message:
        """Click the table's ⚙️ Game button; return the ephemeral menu."""
        table = await self.table_message(channel)
        cid = next(c for c in _custom_ids(table) if c.endswith(":Hmenu"))
        return panel_of(await member.click(table, custom_id=cid))

    async def menu_click(self, member, code: str, channel=None):
        """Open the ⚙️ menu and click its `code` button (`Hsettings`, `Hendask`, `Hleave`...)."""
        menu = await self.menu(member, channel)
        cid = next((c for c in _custom_ids(menu) if c.endswith(f":{code}")), None)
        assert cid is not None, f"{code} is not in {member.name}'s menu: {_custom_ids(menu)}"
        return await member.click(menu, custom_id=cid)

    async def settings(self, member, channel=None) -> discord.Message:
        """The host's (or a manager's) settings panel, opened from the table's ⚙️ menu."""
        return panel_of(await self.menu_click(member, "Hsettings", channel))

    async def leave(self, member, channel=None) -> simcord.InteractionResult:
        """`/game leave`, confirmed."""
        asked = await member.slash(channel or self.channel, "game leave")
        return await member.click(asked.response.message, custom_id=button(asked.response.message, ":Hleave:yes"))

    async def settle(self) -> None:
        await self.env.settle()
        catching_up = self.house.catching_up if self.house else None
        if catching_up is not None and not catching_up.done():
            await asyncio.wait([catching_up])  # a restarted bot's catch-up, then its table updates
        keeper = self.keeper
        if keeper is not None:
            await keeper.idle()
        await self.env.settle()

    async def advance(self, seconds: float) -> None:
        """Let virtual time run `seconds`, half a day per step: SimCord gives each advance a few
        seconds of real time, and days of the bot's hourly rounds take longer on a busy machine."""
        end = self.env.now().timestamp() + seconds
        while (left := end - self.env.now().timestamp()) > 1e-3:
            await self.env.advance_time(min(left, STEP))
            await self.settle()

    async def next_timer(self, game_id: int) -> bool:
        """Let virtual time run to the game's next timer (an AI move, a deadline, a reminder);
        False if it has none."""
        timers = await self.store.timers(game_id)
        if not timers:
            return False
        await self.advance(max(0.0, min(t.due_at for t in timers) - self.env.now().timestamp()) + 0.01)
        return True

    async def run_ai(self, limit: int = 2000) -> None:
        """Let the AI seats move until none has a move due (the house's ai timers)."""
        for _ in range(limit):
            game = await self.game()
            if game is None or game.status != "active":
                return
            timers = [t for t in await self.store.timers(game.id) if t.kind == "ai"]
            if not timers:
                return
            wait = max(0.0, min(t.due_at for t in timers) - self.env.now().timestamp())
            await self.advance(wait + 0.01)
        raise AssertionError("the AI seats did not stop moving")

    async def restart(self) -> None:
        """Stop the bot and start a fresh one on the same database, as after a crash or deploy.
        SimCord detaches the old bot without closing it (as a crash would); its database
        connection's worker thread would then keep the test process alive, so close it here."""
        old = self.env.bot
        await self.settle()
        await self.env.restart_bot(create_bot(self.database))
        await stop_detached(old)
        await self.settle()

    # -- the wire ---------------------------------------------------------------------------

    def wire_problems(self) -> list[str]:
        out = []
        for entry in self.env.http_requests[self._checked:]:
            body = _body(entry)
            out.extend(problems(entry.method, entry.path, body))
        self._checked = len(self.env.http_requests)
        return out

    def check_wire(self) -> None:
        found = self.wire_problems()
        assert not found, "requests Discord would refuse:\n" + "\n".join(found[:20])


async def stop_detached(bot: Any) -> None:
    """Stop a bot SimCord detached without closing it: its timer loop (which would otherwise
    wake on a closed database and log errors) and its database connection (whose worker thread
    would keep the test process alive)."""
    if getattr(bot, "house", None) is not None:
        await bot.house.stop()
    if getattr(bot, "keeper", None) is not None:
        await bot.keeper.stop()
    if getattr(bot, "store", None) is not None:
        await bot.store.close()


def _leaves(message: Any) -> list[Any]:
    """Every component of a message, classic rows and Components V2 alike (containers, sections
    with their accessory, action rows), in reading order."""
    out: list[Any] = []

    def walk(node: Any) -> None:
        out.append(node)
        for child in getattr(node, "children", None) or []:
            walk(child)
        accessory = getattr(node, "accessory", None)
        if accessory is not None:
            walk(accessory)

    for row in message.components:
        walk(row)
    return out


def _custom_ids(message: discord.Message) -> list[str]:
    return [c.custom_id for c in components_of(message) if getattr(c, "custom_id", None)]


def components_of(message: Any) -> list[Any]:
    """The message's buttons and selects, in reading order."""
    return [c for c in _leaves(message) if isinstance(c, (discord.Button, discord.SelectMenu))]


def first_option(message: Any) -> str:
    """The value of the first option of the message's first select."""
    select = next(c for c in components_of(message) if isinstance(c, discord.SelectMenu))
    return select.options[0].value


def clickable(message: Any) -> list[Any]:
    """The message's buttons and selects a person can use (with a custom_id, not disabled)."""
    return [c for c in components_of(message) if getattr(c, "custom_id", None) and not getattr(c, "disabled", False)]


def modal_nodes(modal: dict[str, Any], wanted: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The components of a modal's payload that `wanted` picks, wherever they sit (rows or labels)."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if wanted(node):
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(modal.get("components", []))
    return found


def modal_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The text inputs of a modal's payload, wherever they sit (rows or labels)."""
    return modal_nodes(modal, lambda node: node.get("type") == 4 and bool(node.get("custom_id")))


def custom_ids(message: discord.Message) -> list[str]:
    return _custom_ids(message)


def labels(message: discord.Message) -> list[str]:
    out = []
    for child in components_of(message):
        label = getattr(child, "label", None) or getattr(child, "placeholder", None)
        if label:
            out.append(label)
    return out


def panel_of(result: simcord.InteractionResult) -> discord.Message:
    """The panel message a click produced: its followup, or the edited original."""
    if result.followups:
        return result.followups[-1].message
    assert result.response is not None, f"no reply: {result}"
    return result.response.message


def button(message: discord.Message, code_suffix: str | None = None, label: str | None = None) -> str:
    for child in components_of(message):
        cid = getattr(child, "custom_id", None) or ""
        if (code_suffix is not None and cid.endswith(code_suffix)) or (label is not None and getattr(child, "label", None) == label):
            return cid
    raise AssertionError(f"no button {code_suffix or label!r} in {labels(message)}")


def text_of(message: discord.Message) -> str:
    """All the text a message shows: content, embeds (titles, descriptions, fields, footers)
    and the text displays of a Components V2 layout."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in e.fields]
    parts += [c.content for c in _leaves(message) if isinstance(c, discord.TextDisplay)]
    return "\n".join(parts)


def heading(message: discord.Message) -> str:
    """What a panel says first (its title and description), without what follows (fields,
    sections, buttons): the part every seat's panel shares in a public moment."""
    for c in _leaves(message):
        if isinstance(c, discord.TextDisplay):
            return c.content
    return message.embeds[0].description or "" if message.embeds else ""


def picture_urls(message: discord.Message) -> list[str]:
    """The pictures a message shows: its embeds' images and its media galleries' items."""
    urls = [e.image.url for e in message.embeds if e.image and e.image.url]
    for c in _leaves(message):
        if isinstance(c, discord.MediaGalleryComponent):
            urls += [item.media.url for item in c.items]
    return urls


def reply_text(result: simcord.InteractionResult) -> str:
    """Everything the clicker was shown: the answer (or edited panel), followups, a form's title."""
    parts = [text_of(m.message) for m in ([result.response] if result.response is not None else [])]
    parts += [text_of(f.message) for f in result.followups]
    if result.modal is not None:
        parts.append(str(result.modal.get("title") or ""))
    return "\n".join(p for p in parts if p)


def channel_text(sim: Sim, since: int = 0) -> str:
    """The text of the channel's messages, from the `since`-th on; and the one before it when
    it is a turn message that was extended since (moves that call nobody new extend the latest
    turn message by an edit instead of posting a new one)."""
    history = sim.channel.history()
    start = since
    if 0 < since <= len(history):
        before = history[since - 1]
        if before.edited_at is not None and before.content and not before.embeds:
            start = since - 1
    return "\n".join(text_of(m) for m in history[start:])


async def save_picture(message: Any, name: str, *, folder: Path) -> bytes:
    """Keep a message's picture in `folder` (under artifacts/, to look at) and return its bytes."""
    assert message.attachments, f"{name}: the message has no picture"
    data = await message.attachments[0].read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return data


def write_transcript(message: Any, name: str, *, folder: Path) -> None:
    """Append what a message shows (text, components, options) to `folder`/transcript.txt."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"===== {name}", text_of(message)]
    for c in components_of(message):
        text = getattr(c, "label", None) or getattr(c, "placeholder", None)
        lines.append(f"  [{type(c).__name__}{' disabled' if getattr(c, 'disabled', False) else ''}] {text}")
        for o in getattr(c, "options", []) or []:
            lines.append(f"      - {o.label} | {o.description or ''}")
    with (folder / "transcript.txt").open("a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def results_message(sim: "Sim") -> Any:
    """The game's final results: the channel's last message, but for the picture story that may
    follow it (a message of its own, an attachment named story-<game>.webp)."""
    for message in reversed(sim.channel.history()):
        if not any(a.filename.startswith("story-") for a in message.attachments):
            return message
    raise AssertionError("the channel has no message")


def in_locale(monkeypatch, locale: str) -> None:
    """Every interaction from now on comes from a client in `locale`."""
    import simcord.interactions as interactions

    original = interactions.base_payload

    def with_locale(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", with_locale)
