"""The turn message: what happened and who must act now, one message per turn.

Edits do not notify, so whenever someone gains an obligation (their turn, a window that opens
for them, a reminder), a NEW message goes out: the moves since the last one, then one line per
person who must act, with what they can do ("offer an investor for deal C, or pass") and the
deadline, and a My hand button. Moves that give nobody a new obligation extend that message by
an edit while it is still the latest in the channel and less than an hour old, so a busy deal is
one message, not fifty, and a move at breakfast never hides in a message stamped the evening
before (issue 30). A call that was answered stays in the message, struck through and without
its mention, so the message still reads in order. Every line still goes to the log.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from locales import Translator
from locales.format import join_sentences
from play import settings as settings_mod, timing
from play.away import Away, mode
from play.plan import Planner, owing
from store import GameRow, Store

from cogs.kit.clock import now
from cogs.kit.codec import Verb, house
from cogs.kit.names import text_name, text_names
from cogs.kit.panel import Button
from cogs.kit.views import build_view
from cogs.titles.contract import TableContext, seat_names, ui_for

from . import bank as bank_words
from .narration import narrate
from .pending import Pending

log = logging.getLogger(__name__)

#: Discord's 2000 characters, with room to spare for one more line.
MESSAGE_LIMIT = 1900
#: Seconds after which a turn message is no longer extended: Discord stamps a message with the
#: time it was posted, so a move made much later belongs in a message of its own.
TURN_AGE = 3600


@dataclass
class TurnMessage:
    """The latest turn message of a game, while it can still be extended."""

    channel_id: int
    message_id: int
    lines: list[str] = field(default_factory=list)
    #: The "must act" lines by seat, kept at the bottom while those seats still owe a move.
    calls: dict[int, str] = field(default_factory=dict)
    latest: bool = True
    #: When it was posted (epoch seconds).
    at: float = 0.0

    def fresh(self, channel_id: int, t: float) -> bool:
        """Still the latest message of the game's channel, and young enough to extend."""
        return self.latest and self.channel_id == channel_id and t - self.at < TURN_AGE

    def settle(self, game: GameRow, owed: set[int]) -> None:
        """Calls whose seat owes nothing any more stay, struck through and without the mention
        (the edit must not read as asking them still)."""
        for seat in [s for s in self.calls if s not in owed]:
            line = self.calls.pop(seat)
            user_id = game.seats[seat].user_id if seat < len(game.seats) else None
            if user_id:
                line = line.replace(f"<@{user_id}>", f"**{text_name(game.seats[seat].name)}**")
            self.lines.append(f"~~{line}~~")

    @property
    def content(self) -> str:
        return "\n".join(self.lines + list(self.calls.values()))


class Turns:
    def __init__(self, store: Store, away: Away, planner: Planner) -> None:
        self.store = store
        self.away = away
        self.planner = planner
        self.current: dict[int, TurnMessage] = {}

    def seen(self, channel_id: int, message_id: int) -> None:
        """A message appeared in a channel: a turn message there is no longer the latest."""
        for turn in self.current.values():
            if turn.channel_id == channel_id and turn.message_id != message_id:
                turn.latest = False

    def forget(self, game_id: int) -> None:
        self.current.pop(game_id, None)

    # -- what to say -------------------------------------------------------------------------

    def story(self, game: GameRow, p: Pending, t: Translator) -> list[str]:
        """The narration lines: public events and the house's notes."""
        quiet = ui_for(game.title).quiet_events
        names = text_names(game.names)
        # A time running out comes first: the seat-filler's moves below it read as what they are.
        lines = [self.deadline_line(game, params, names, t) for kind, params in p.notes if kind == "deadline"]
        lines += [f"▸ {line}" for line in narrate(game, t, [e for e in p.events if e.get("type") not in quiet])]
        for kind, params in p.notes:
            if kind in ("left", "lost_access"):
                lines.append("🚪 " + t(f"core.leave.{'announce' if kind == 'left' else 'lost_access'}",
                                      name=seat_names(params["seat"], names, t)))
            elif kind == "abandoned":
                lines.append("🛑 " + t("core.leave.abandoned"))
            elif kind == "resumed":
                lines.append("▶️ " + t("core.pause.resumed"))
            elif kind == "undone":
                lines.append("↩️ " + t("core.undo.done", name=seat_names(params["seat"], names, t)))
            elif kind == "handed":
                lines.append("🔁 " + t("seat.handover.announce", old=text_name(params["old"]),
                                      new=text_name(params["new"]), seat=params["seat"] + 1))
            elif kind == "away":
                lines.append("💤 " + t(f"seat.away.note_{mode(game)}", name=seat_names(params["seat"], names, t),
                                      when=f"<t:{int(params['until'])}:f>", days=params["cap_days"]))
            elif kind == "back":
                lines.append("👋 " + t("seat.away.back_note", name=seat_names(params["seat"], names, t)))
        return lines

    @staticmethod
    def call_kind(p: Pending, seat: int) -> str:
        """What the call says first: a new obligation, news for a waiting decision, a reminder."""
        if p.overdue and seat in p.remind:
            return "overdue"
        if seat in p.ping:
            return "act"
        return "news" if seat in p.news else "reminder"

    @staticmethod
    def deadline_line(game: GameRow, params: dict[str, Any], names: list[str], t: Translator) -> str:
        seats = list(params.get("seats") or params["window"].seats)
        what = t(f"{game.title}.timer.{params['window'].kind}")
        said = "deadline" if timing.has_bank(settings_mod.merged(game.settings)) else "deadline_no_bank"
        return "⏰ " + (t(f"core.{said}.{params['mode']}", seats=seat_names(seats, names, t), kind=what)
                       if seats else t("core.deadline.window", kind=what))

    async def calls(self, game: GameRow, p: Pending, t: Translator) -> tuple[dict[int, str], list[discord.Object]]:
        """One line per person who must act now (a new obligation or a reminder), mentioning
        those who want pings, with what they can do and their deadline."""
        if game.status != "active" or game.state is None:
            return {}, []
        humans = {s.seat for s in game.seats if not s.ai_plays}
        who = sorted((p.ping | p.remind | p.news) & humans)
        ui = ui_for(game.title)
        public = ui.game.view(game.state, None)
        mentions: list[discord.Object] = []
        lines: dict[int, str] = {}
        away = await self.away.of(game) if who else {}
        figures = self.figures(game, public, t) if p.remind & set(who) else None
        for seat in who:
            user_id = game.seats[seat].user_id
            prefs = await self.store.prefs(user_id) if user_id else {"pings": False}
            if user_id and prefs["pings"]:
                name = f"<@{user_id}>"
                mentions.append(discord.Object(id=user_id))
            else:
                name = f"**{text_name(game.seats[seat].name)}**"
            key = self.call_kind(p, seat)
            # A reminder is of one window: what that window asks, not what the seat's newest does.
            window = p.reminded_of.get(seat) if key in ("reminder", "overdue") else None
            try:
                todo = ui.todo(t, public, seat) if window is None else ui.todo_of(t, public, seat, window)
            except Exception:
                log.exception("%s: the to-do line for seat %s failed", game.title, seat)
                todo = None
            todo = todo or t("core.ping.your_move_plain")
            if todo[-1] not in ".!?。！？…":
                todo += t("core.ping.stop")
            line = t(f"core.ping.{key}", who=name, todo=todo)
            # join_sentences: no half-width space after a Japanese "。" (issue 30, item 14).
            line = join_sentences(line, await self.time_left(game, seat, t))
            if seat in away:  # pinged all the same: they may look in while away
                line = join_sentences(line, t("seat.away.tag", when=f"<t:{int(away[seat])}:f>"))
            if figures and key in ("reminder", "overdue"):  # hours later: what the table says now
                line = join_sentences(line, f"📋 {figures}")
            lines[seat] = ("🔔 " if key in ("act", "news") else "⏰ ") + line
        return lines, mentions

    @staticmethod
    def figures(game: GameRow, public: dict[str, Any], t: Translator) -> str | None:
        """The table's key figures in one line (the title's glance), or None if it fails."""
        ui = ui_for(game.title)
        try:
            return ui.glance(TableContext(game.id, game.version, public, t, text_names(game.names), game.title))
        except Exception:
            log.exception("%s: the glance at the table failed", game.title)
            return None

    async def time_left(self, game: GameRow, seat: int, t: Translator) -> str:
        """The seat's true deadline and the time bank that follows it (or nothing)."""
        deadline = await self.planner.deadline(game, [seat])
        if not deadline:
            return ""
        bank = bank_words.call_sentence(game, seat, settings_mod.merged(game.settings), t)
        return join_sentences(t("core.ping.deadline", when=f"<t:{int(deadline)}:R>"), bank)

    # -- saying it ---------------------------------------------------------------------------

    async def tell(self, game: GameRow, channel: Any, p: Pending) -> None:
        """Send or extend the game's turn message. Raises what Discord refuses (the caller
        pauses the game or retries)."""
        t = Translator(game.lang)
        story = self.story(game, p, t)
        calls, mentions = await self.calls(game, p, t)
        if not story and not calls:
            return
        turn = self.current.get(game.id)
        # A turn that passes to a seat-filler is a turn too: its moves get a message of their
        # own (with no call), rather than growing the humans' message for ever.
        extend = (not calls and not p.ping and turn is not None and turn.fresh(game.channel_id, now())
                  and len(turn.content) + sum(len(s) + 4 for s in [*story, *turn.calls.values()]) <= MESSAGE_LIMIT)
        if extend:
            assert turn is not None
            # A call stays asked only while its seat still owes something: a move or a deadline
            # may have settled it.
            turn.settle(game, set(owing(game)) if game.status == "active" else set())
            turn.lines.extend(story)
            try:
                await channel.get_partial_message(turn.message_id).edit(
                    content=turn.content, allowed_mentions=discord.AllowedMentions.none())
                return
            except discord.NotFound:
                self.current.pop(game.id, None)
        lines = list(story)
        while lines and len("\n".join(lines + list(calls.values()))) > MESSAGE_LIMIT:
            lines.pop(0)
        content = "\n".join(lines + list(calls.values()))[:2000]
        view = build_view(game, game.version, [Button(t("core.table.hand"), house(Verb.HAND), "primary", emoji="🂠",
                                                      any_version=True)]) if calls else None
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(
            users=mentions, everyone=False, roles=False, replied_user=False)}
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(content, **kwargs)
        self.current[game.id] = TurnMessage(game.channel_id, sent.id, lines, calls, at=now())
