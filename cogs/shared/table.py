"""The table in the channel: one message (embed + board picture + public buttons) edited in
place, a short narration message that mentions whoever must act (edits do not notify), DM panels
for players who asked for them, and the results when a game ends.

Updates are coalesced per game: while one update is being sent, later changes accumulate and go
out together in the next, so a burst of clicks (E-Wars dice time) costs one edit, and Discord's
rate limits are respected by construction.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from locales import Translator
from locales.format import join_list, separator
from render.common import picture_names, png
from service import metrics
from store import GameRow

from .clock import now
from .names import text_name, text_names
from .pause import paused
from .panel import Button, Panel
from .titles import TableContext, seat_names, ui_for
from .views import build_embed, build_view, image_file

if TYPE_CHECKING:
    from .house import House

log = logging.getLogger(__name__)

RECENT_LINES = 6
MESSAGE_LIMIT = 1900
#: Seconds before the first retry of a table update Discord refused for a passing reason (a
#: server error, a rate limit without retry_after); doubled at each further failure.
RETRY_FIRST = 2.0
RETRIES = 5
#: What the bot needs in a game's channel to keep its table there.
TABLE_PERMS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def ai_tagged(name: str, ai: bool) -> str:
    """A seat's name with the robot mark when the AI plays it (AI seats' names already carry it)."""
    return f"{name} 🤖" if ai and "🤖" not in name else name


@dataclass
class Pending:
    events: list[dict[str, Any]] = field(default_factory=list)
    ping: set[int] = field(default_factory=set)
    remind: set[int] = field(default_factory=set)
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    overdue: bool = False
    repost: bool = False

    def said(self) -> None:
        """The narration went out (or cannot): a retry of the rest must not say it again."""
        self.events, self.ping, self.remind, self.notes, self.overdue = [], set(), set(), [], False

    def merge(self, later: "Pending") -> None:
        self.events.extend(later.events)
        self.ping |= later.ping
        self.remind |= later.remind
        self.notes.extend(later.notes)
        self.overdue = self.overdue or later.overdue
        self.repost = self.repost or later.repost


class TableKeeper:
    def __init__(self, house: "House") -> None:
        self.house = house
        self.pending: dict[int, Pending] = {}
        self.tasks: dict[int, asyncio.Task] = {}
        #: Games whose channel refuses the bot (a permission was taken away): the permissions
        #: missing, shown to players in their panels until a table update succeeds again.
        self.blocked: dict[int, list[str]] = {}
        #: Games whose update waits to be retried.
        self.retrying: set[int] = set()

    # -- what changed -----------------------------------------------------------------------

    def _pending(self, game_id: int) -> Pending:
        p = self.pending.get(game_id)
        if p is None:
            p = self.pending[game_id] = Pending()
        return p

    def changed(self, game: GameRow, events: list[dict[str, Any]], ping: list[int]) -> None:
        p = self._pending(game.id)
        p.events.extend(events)
        p.ping.update(ping)
        self._ensure(game.id)

    def note(self, game_id: int, kind: str, **params: Any) -> None:
        self._pending(game_id).notes.append((kind, params))
        self._ensure(game_id)

    def remind(self, game_id: int, seats: list[int], passed: bool = False) -> None:
        p = self._pending(game_id)
        p.remind.update(seats)
        p.overdue = p.overdue or passed
        self._ensure(game_id)

    def refresh(self, game_id: int, repost: bool = False) -> None:
        p = self._pending(game_id)
        p.repost = p.repost or repost
        self._ensure(game_id)

    def _ensure(self, game_id: int) -> None:
        task = self.tasks.get(game_id)
        if task is None or task.done():
            self.tasks[game_id] = asyncio.create_task(self._loop(game_id), name=f"table-{game_id}")

    async def idle(self) -> None:
        """Wait until every pending update has gone out, or waits to be retried (tests and
        shutdown): a retry comes only once time has passed."""
        while True:
            busy = [t for gid, t in self.tasks.items() if not t.done() and gid not in self.retrying]
            if not busy:
                return
            await asyncio.wait(busy, return_when=asyncio.FIRST_COMPLETED)

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)

    async def _loop(self, game_id: int) -> None:
        """Send the game's pending updates. A refusal for a passing reason (server error, rate
        limit) is retried with a growing wait, keeping later changes merged in; after RETRIES
        failures the update stays pending and goes out with the game's next change."""
        failures = 0
        while game_id in self.pending:
            p = self.pending.pop(game_id)
            try:
                await self.flush(game_id, p)
                failures = 0
            except (discord.HTTPException, discord.RateLimited) as exc:
                failures += 1
                later = self.pending.pop(game_id, None)
                if later is not None:
                    p.merge(later)
                self.pending[game_id] = p
                if failures > RETRIES:
                    log.error("giving up on the table of game %s until its next change (%s)", game_id, exc)
                    return
                delay = self.retry_delay(exc, failures)
                log.warning("table update for game %s failed (%s); retrying in %.1fs", game_id, exc, delay)
                self.retrying.add(game_id)
                metrics.table_retry()
                try:
                    await asyncio.sleep(delay)
                finally:
                    self.retrying.discard(game_id)
            except Exception:
                log.exception("table update for game %s failed", game_id)
                return

    @staticmethod
    def retry_delay(exc: Exception, failures: int) -> float:
        """Discord's retry_after when it gave one (a rate limit), else an exponential backoff."""
        backoff = RETRY_FIRST * 2 ** (failures - 1)
        if isinstance(exc, discord.RateLimited):
            return max(float(exc.retry_after), 0.1)
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        try:
            after = float(headers.get("Retry-After") or headers.get("retry-after") or 0)
        except (TypeError, ValueError):
            after = 0.0
        return after if after > 0 else backoff

    # -- sending ----------------------------------------------------------------------------

    async def channel(self, game: GameRow) -> discord.abc.Messageable | None:
        bot = self.house.bot
        channel = bot.get_channel(game.channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(game.channel_id)
            except discord.NotFound:
                await self.house_lost_channel(game)
                return None
            except discord.Forbidden:
                log.warning("no access to channel %s of game %s", game.channel_id, game.id)
                return None
        return channel  # type: ignore[return-value]

    async def house_lost_channel(self, game: GameRow) -> None:
        """The channel or thread is gone: the game cannot be shown any more, so it ends."""
        if await self.house.store.finish(game.id, "cancelled", now(), {"reason": "channel_deleted"}):
            log.info("game %s ended: its channel %s is gone", game.id, game.channel_id)
            self.house.forget(game.id)
            self.pending.pop(game.id, None)
            await self.close_dm_panels(game)
        self.house.forget(game.id)

    async def close_dm_panels(self, game: GameRow) -> None:
        """Players who keep their panel in a DM learn there why the game stopped."""
        t = Translator(game.lang)
        for s in game.seats:
            if not s.user_id:
                continue
            where = await self.house.store.dm_panel(game.id, s.user_id)
            if where is None:
                continue
            channel = self.house.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
            try:
                await channel.get_partial_message(where[1]).edit(
                    content="🛑 " + t("core.error.channel_gone"), embed=None, attachments=[], view=None)
            except discord.HTTPException as exc:
                log.warning("could not close the DM panel of user %s in game %s (%s)", s.user_id, game.id, exc)

    async def flush(self, game_id: int, p: Pending) -> None:
        """Narration and pings, the table, the results, the DM panels. A refusal that retrying
        cannot cure (a permission taken away) is remembered in `blocked` and shown to players in
        their panels; a passing one (server error, rate limit) propagates to be retried, and
        the narration already sent is not sent again."""
        house = self.house
        game = await house.game(game_id, fresh=True)
        if game is None or game.state is None:
            return
        channel = await self.channel(game)
        if channel is None:
            return
        t = Translator(game.lang)
        refused: list[str] = []
        message = await self._narration_message(game, p, t)
        if message:
            content, mentions = message
            try:
                await channel.send(content, allowed_mentions=discord.AllowedMentions(
                    users=mentions, everyone=False, roles=False, replied_user=False))
            except discord.Forbidden as exc:
                if await house.pauser.refused(game, exc, channel):
                    p.said()
                    return
                refused.append(self._send_perm(channel))
            except discord.NotFound as exc:
                if exc.code == 10003:  # Unknown Channel: it was deleted under the game
                    await self.house_lost_channel(game)
                    return
                raise
            except discord.HTTPException as exc:
                if await house.pauser.refused(game, exc, channel):  # a thread archived or locked
                    p.said()
                    return
                raise
        p.said()
        try:
            await self.update_table(game, channel, repost=p.repost)
            p.repost = False
            if game.status == "finished":
                await self.post_results(game, channel)
        except discord.Forbidden as exc:
            if await house.pauser.refused(game, exc, channel):
                return
            refused += [self._send_perm(channel), "attach_files"]
        except discord.NotFound as exc:
            if exc.code == 10003:
                await self.house_lost_channel(game)
                return
            raise
        except discord.HTTPException as exc:
            if await house.pauser.refused(game, exc, channel):
                return
            raise
        # Told (or, without the permission, told as far as the channel allows): a restart
        # from here on has nothing to catch up for this game.
        await house.store.mark_told(game.id, game.version)
        await self.update_dm_panels(game)
        if refused:
            missing = self.missing_permissions(channel) or sorted(set(refused))
            if self.blocked.get(game_id) != missing:
                log.warning("game %s: the channel %s refuses the bot (missing %s)", game_id, game.channel_id, missing)
            self.blocked[game_id] = missing
        else:
            self.blocked.pop(game_id, None)

    @staticmethod
    def _send_perm(channel: Any) -> str:
        return "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"

    def missing_now(self, game: GameRow) -> list[str] | None:
        """What the table needs in the game's channel and lacks now, as the bot's cache knows it
        (so a panel drawn right after a permission was taken away, or given back, says so at
        once); None when the channel is not in the cache."""
        bot = self.house.bot
        channel = bot.get_channel(game.channel_id) if bot is not None else None
        if channel is None or getattr(getattr(channel, "guild", None), "me", None) is None:
            return None
        return self.missing_permissions(channel)

    def missing_permissions(self, channel: Any) -> list[str]:
        """The permissions the table needs that the bot lacks in `channel` (from the cache)."""
        needed = [self._send_perm(channel) if p == "send_messages" else p for p in TABLE_PERMS]
        try:
            me = channel.guild.me
            perms = channel.permissions_for(me)
        except Exception:
            return []
        return [p for p in needed if not getattr(perms, p, False)]

    def narrate(self, game: GameRow, t: Translator, events: list[dict[str, Any]]) -> list[str]:
        ui = ui_for(game.title)
        lines = []
        for ev in events:
            if ev.get("to") is not None:
                continue
            try:
                line = ui.narrate(t, ev, text_names(game.names))
            except Exception:
                log.exception("narration of %s failed", ev)
                line = None
            if line:
                lines.append(line)
        return lines

    async def _narration_message(self, game: GameRow, p: Pending, t: Translator):
        quiet = ui_for(game.title).quiet_events
        lines = [f"▸ {line}" for line in self.narrate(game, t, [e for e in p.events if e.get("type") not in quiet])]
        names = text_names(game.names)
        for kind, params in p.notes:
            if kind == "deadline":
                window = params["window"]
                lines.append("⏰ " + t(f"core.deadline.{params['mode']}", seats=seat_names(list(window.seats), names, t)))
            elif kind in ("left", "lost_access"):
                lines.append("🚪 " + t(f"core.leave.{'announce' if kind == 'left' else 'lost_access'}",
                                      name=seat_names(params["seat"], names, t)))
            elif kind == "abandoned":
                lines.append("🛑 " + t("core.leave.abandoned"))
            elif kind == "resumed":
                lines.append("▶️ " + t("core.pause.resumed"))
        mentions: list[discord.abc.Snowflake] = []
        who = sorted((p.ping | p.remind) & self._human_seats(game))
        if who and game.status == "active":
            parts = []
            for seat in who:
                user_id = game.seats[seat].user_id
                prefs = await self.house.store.prefs(user_id) if user_id else {"pings": False}
                if user_id and prefs["pings"]:
                    parts.append(f"<@{user_id}>")
                    mentions.append(discord.Object(id=user_id))
                else:
                    parts.append(f"**{text_name(game.seats[seat].name)}**")
            deadline = await self._deadline_for(game, who)
            key = "core.ping.overdue" if p.overdue else ("core.ping.reminder" if p.remind and not p.ping else "core.ping.your_move")
            text = t(key, who=" ".join(parts))
            if deadline:
                text += " " + t("core.ping.deadline", when=f"<t:{int(deadline)}:R>")
            custom = ui_for(game.title).ping_text(t, ui_for(game.title).game.view(game.state or {}, None))
            if custom:
                text += " " + custom
            lines.append("🔔 " + text)
        if not lines:
            return None
        content = "\n".join(lines)
        while len(content) > MESSAGE_LIMIT and len(lines) > 1:
            lines.pop(0)
            content = "…\n" + "\n".join(lines)
        return content[:2000], mentions

    def _human_seats(self, game: GameRow) -> set[int]:
        return {s.seat for s in game.seats if not s.ai_plays}

    async def _deadline_for(self, game: GameRow, seats: list[int]) -> float | None:
        engine = ui_for(game.title).game
        owing = {w.id for w in engine.windows(game.state or {}) if set(w.seats) & set(seats)}
        dues = [tm.due_at for tm in await self.house.store.timers(game.id) if tm.kind == "deadline" and tm.ref in owing]
        return min(dues) if dues else None

    async def render_table(self, game: GameRow, final: bool = False) -> tuple[discord.Embed, bytes, discord.ui.View | None]:
        """The table embed, picture and public buttons for the current state."""
        ui = ui_for(game.title)
        engine = ui.game
        t = Translator(game.lang)
        public = engine.view(game.state or {}, None)
        names = game.names
        fn = ui.render.results_image if final else ui.render.table_image
        data = await asyncio.to_thread(lambda: png(fn(public, picture_names(names), game.lang)))
        tc = TableContext(game.id, game.version, public, t, text_names(names), game.title)
        lines = list(ui.table_lines(tc))
        if game.status == "active":
            humans = self._human_seats(game)
            waiting = [s for s in engine.to_act(game.state or {})]
            if waiting:
                lines.append(t("core.table.waiting", seats=separator(t.lang).join(
                    text_name(ai_tagged(game.seats[s].name, s not in humans)) for s in waiting)))
            deadline = await self._deadline_for(game, waiting)
            if deadline:
                lines.append(t("core.table.deadline", when=f"<t:{int(deadline)}:R>"))
        elif game.status == "cancelled":
            lines.append(t("core.table.ended"))
        players = []
        for s in game.seats:
            tag = " " + t("core.table.left") if s.left_at else ""
            players.append(f"`{s.seat + 1}` {text_name(ai_tagged(s.name, s.ai_plays))}{tag}")
        recent = await self.recent_lines(game, t, RECENT_LINES)
        panel = Panel(
            title=f"{t(f'{game.title}.name')}",
            description="\n".join(lines),
            fields=[(t("core.table.players"), "\n".join(players), True)]
            + ([(t("core.table.recent"), "\n".join(recent), False)] if recent else []),
            footer=t("core.table.footer", id=game.id, version=game.version),
        )
        embed = build_embed(panel, ui.colour)
        embed.set_image(url=f"attachment://table-{game.id}-{game.version}.png")
        components: list[Any] = []
        if game.status == "active":
            components.append(Button(label=t("core.table.hand"), code="Hhand", style="primary", emoji="🂠",
                                     any_version=True))
            components.extend(ui.table_buttons(tc))
        components.append(Button(label=t("core.table.rules"), code="Hrules:0", style="secondary", emoji="📖",
                                 any_version=True))
        components.append(Button(label=t("core.table.log"), code="Hlog", style="secondary", emoji="📜",
                                 any_version=True))
        if game.status == "active":
            components.append(Button(label=t("core.table.menu"), code="Hmenu", style="secondary", emoji="⚙️",
                                     any_version=True))
        return embed, data, build_view(game, game.version, components)

    async def recent_lines(self, game: GameRow, t: Translator, count: int) -> list[str]:
        lines: list[str] = []
        for entry in await self.house.store.actions(game.id, newest_first=True, limit=count * 2):
            lines[:0] = self.narrate(game, t, entry["events"])
            if len(lines) >= count:
                break
        return lines[-count:]

    async def update_table(self, game: GameRow, channel: discord.abc.Messageable, repost: bool = False) -> None:
        embed, data, view = await self.render_table(game)
        file = image_file(data, f"table-{game.id}-{game.version}.png")
        message_id = game.table_message_id
        if message_id and not repost:
            partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
            try:
                await partial.edit(embed=embed, attachments=[file], view=view)
                return
            except discord.NotFound:
                pass  # the table message was deleted: post a new one
            except discord.Forbidden:
                # No Attach Files any more: keep the table playable without its picture (and
                # let the caller know, so players are told).
                embed.set_image(url=None)
                await partial.edit(embed=embed, attachments=[], view=view)
                raise
        elif message_id and repost:
            try:
                await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]
            except discord.HTTPException:
                pass
        file = image_file(data, f"table-{game.id}-{game.version}.png")
        refused: discord.Forbidden | None = None
        try:
            sent = await channel.send(embed=embed, file=file, view=view)
        except discord.Forbidden as exc:  # no Attach Files: a table without its picture
            refused = exc
            embed.set_image(url=None)
            sent = await channel.send(embed=embed, view=view) if view is not None else await channel.send(embed=embed)
        await self.house.store.update_game(game.id, now(), table_message_id=sent.id)
        game.table_message_id = sent.id
        cached = self.house._cache.get(game.id)
        if cached is not None:
            cached.table_message_id = sent.id
        if refused is not None:
            raise refused

    async def post_results(self, game: GameRow, channel: discord.abc.Messageable) -> None:
        if not game.result or game.result.get("announced"):
            return
        ui = ui_for(game.title)
        t = Translator(game.lang)
        embed, data, _ = await self.render_table(game, final=True)
        embed = discord.Embed(title=t("core.results.title", title=t(f"{game.title}.name")),
                              description="\n".join(self.ranking_lines(game, t)), colour=ui.colour)
        embed.set_image(url=f"attachment://results-{game.id}.png")
        embed.set_footer(text=t("core.table.footer", id=game.id, version=game.version))
        await channel.send(embed=embed, file=image_file(data, f"results-{game.id}.png"))
        game.result = {**game.result, "announced": True}
        await self.house.store.update_game(game.id, now(), result=game.result)

    def ranking_lines(self, game: GameRow, t: Translator) -> list[str]:
        result = game.result or {}
        places = result.get("places") or []
        scores = result.get("scores") or []
        key = f"{game.title}.{result.get('summary_key', 'result')}"
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        order = sorted(range(len(places)), key=lambda s: (places[s] is None, places[s] or 99))
        lines = []
        for seat in order:
            place = places[seat]
            name = text_name(game.seats[seat].name) if seat < len(game.seats) else str(seat)
            score = t(key, **scores[seat]) if seat < len(scores) and scores[seat] else ""
            mark = medals.get(place, f"{place}.") if place else "—"
            lines.append(f"{mark} **{name}** {score}".rstrip())
        return lines

    # -- DM panels --------------------------------------------------------------------------

    async def update_dm_panels(self, game: GameRow) -> None:
        for s in game.seats:
            if s.ai_plays or not s.user_id:
                continue
            prefs = await self.house.store.prefs(s.user_id)
            if not prefs["dm_panel"] or prefs["dm_closed"]:
                continue
            try:
                await self.send_dm_panel(game, s.seat, s.user_id)
            except discord.HTTPException as exc:
                # One player's DM must not hold up the table (nor the other DMs): their panel
                # catches up at the next change, and My hand always works.
                log.warning("DM panel of user %s in game %s not updated (%s)", s.user_id, game.id, exc)

    async def send_dm_panel(self, game: GameRow, seat: int, user_id: int) -> bool:
        t = Translator(game.lang)
        embed, file, view = await self.panel_message(game, seat, t)
        existing = await self.house.store.dm_panel(game.id, user_id)
        try:
            if existing:
                channel_id, message_id = existing
                channel = self.house.bot.get_channel(channel_id)
                if channel is None:
                    user = await self.house.bot.fetch_user(user_id)
                    channel = await user.create_dm()
                try:
                    await channel.get_partial_message(message_id).edit(  # type: ignore[union-attr]
                        embed=embed, attachments=[file] if file else [], view=view)
                    return True
                except discord.NotFound:
                    pass
            user = self.house.bot.get_user(user_id) or await self.house.bot.fetch_user(user_id)
            sent = await user.send(embed=embed, file=file, view=view) if file else await user.send(embed=embed, view=view)
            await self.house.store.set_dm_panel(game.id, user_id, sent.channel.id, sent.id)
            return True
        except discord.Forbidden:
            # DMs closed: remember it, and say so once in the channel with the way out.
            await self.house.store.set_prefs(user_id, dm_closed=True)
            channel = await self.channel(game)
            if channel is not None:
                try:
                    await channel.send(t("core.dm.closed", user=f"<@{user_id}>"),
                                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]))
                except discord.Forbidden:
                    log.warning("game %s: could not tell %s in the channel that their DMs are closed", game.id,
                                user_id)
            return False

    async def panel_message(self, game: GameRow, seat: int, t: Translator, notice: str | None = None,
                            panel: Panel | None = None) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
        """A seat's private panel as an embed, picture and components."""
        ui = ui_for(game.title)
        pc = self.house.panel_context(game, seat, t)
        if panel is None:
            panel = ui.panel(pc)
        notes = await self.private_notes(game, seat, t)
        blocked = self.missing_now(game)
        if blocked is None:  # the channel is not in the cache: what Discord last refused
            blocked = self.blocked.get(game.id)
        if blocked and game.status == "active":
            warning = "⚠️ " + t("core.table.blocked", perms=join_list((t(f"core.perm.{p}") for p in blocked), t.lang))
            notice = f"{notice}\n{warning}" if notice else warning
        if paused(game) is not None and game.status == "active":
            warning = "⏸️ " + self.house.pauser.reason(game, t)
            notice = f"{notice}\n{warning}" if notice else warning
        if notice:
            panel.description = f"{notice}\n\n{panel.description}".strip()
        if notes:
            panel.fields.append((t("core.panel.for_you"), "\n".join(notes)[:1024], False))
        if not panel.footer:
            panel.footer = t("core.panel.footer", id=game.id, version=game.version)
        embed = build_embed(panel, ui.colour)
        file = None
        if panel.image is not None:
            data = await asyncio.to_thread(lambda: png(panel.image()))
            name = f"panel-{game.id}-{game.version}.png"
            file = image_file(data, name)
            embed.set_image(url=f"attachment://{name}")
        return embed, file, build_view(game, game.version, panel.components)

    async def private_notes(self, game: GameRow, seat: int, t: Translator, count: int = 4) -> list[str]:
        """Recent events addressed to this seat only (the cards you drew...)."""
        ui = ui_for(game.title)
        notes: list[str] = []
        for entry in await self.house.store.actions(game.id, newest_first=True, limit=6):
            for ev in entry["events"]:
                if ev.get("to") == [seat]:
                    try:
                        notes.append("• " + ui.narrate(t, ev, text_names(game.names)))
                    except Exception:
                        log.exception("private narration failed")
        return notes[:count]


