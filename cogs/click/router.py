"""Every click, select and form of ours lands here. The guard runs once, first, for all of them
(`Access.admit`: the game named must be the one that drew the component, and the click must come
from where that game lives); then lobby codes go to the lobby, house codes (`H<verb>`) to their
handler (one table, `house_verbs`), and the rest to the title's panel (panel.py), whose actions
are applied with the version compare-and-swap. Never lets an interaction go unanswered.

Components reach the router through the client (`interaction.client.router`, kit/views.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from locales import Translator, language_of
from play.games import GameCache
from service.stop import track
from store import GameRow, Store, StoreUnavailable

from cogs.access import Access, MembershipUnknown
from cogs.after.looks import After
from cogs.kit import codec
from cogs.kit.codec import Verb
from cogs.kit.replies import reply, say, tr_for, with_file
from cogs.kit.views import DYNAMIC_ITEMS
from cogs.lobby.flow import LobbyFlow
from cogs.manage.settings_menu import Admin
from cogs.table import pages
from cogs.table.dm import jump
from cogs.table.keeper import TableKeeper
from cogs.titles.contract import uis

from .panel import PanelClicks
from .undo import UndoButton

log = logging.getLogger(__name__)

#: A house verb's handler: (interaction, game, arg, values, translator).
VerbHandler = Callable[[discord.Interaction, GameRow, str, list[str], Translator], Awaitable[None]]


class Router:
    def __init__(self, store: Store, games: GameCache, keeper: TableKeeper, access: Access, lobby: LobbyFlow,
                 admin: Admin, panel: PanelClicks, undo: UndoButton, after: After) -> None:
        self.store = store
        self.games = games
        self.keeper = keeper
        self.access = access
        self.lobby = lobby
        self.admin = admin
        self.panel = panel
        self.undo = undo
        self.after = after
        self.house_verbs = self._house_verbs()

    def _house_verbs(self) -> dict[str, VerbHandler]:
        admin, handover = self.admin, self.admin.handover
        return {
            Verb.HAND: lambda i, g, a, v, t: self.open_panel(i, g),
            Verb.RULES: self._rules,
            Verb.LOG: self._log,
            Verb.MENU: lambda i, g, a, v, t: admin.menu(i, g, t),
            Verb.PREF: lambda i, g, a, v, t: admin.toggle_pref(i, g, a, t),
            Verb.LEAVE: lambda i, g, a, v, t: admin.leave_click(i, g, a, t) if a else admin.ask_leave(i, g, t),
            Verb.UNDO: lambda i, g, a, v, t: self.undo.click(i, g, a, t),
            Verb.REMATCH: lambda i, g, a, v, t: self.lobby.rematch(i, g),
            Verb.SETTINGS: lambda i, g, a, v, t: admin.open_settings(i, g, t),
            Verb.END_ASK: lambda i, g, a, v, t: admin.ask_end(i, g, t),
            Verb.END: lambda i, g, a, v, t: admin.end_click(i, g, a, t),
            Verb.SET: lambda i, g, a, v, t: admin.settings_click(i, g, Verb.SET, a, v, t),
            Verb.KIND: lambda i, g, a, v, t: admin.settings_click(i, g, Verb.KIND, a, v, t),
            Verb.LENGTH: lambda i, g, a, v, t: admin.settings_click(i, g, Verb.LENGTH, a, v, t),
            Verb.AWAY: lambda i, g, a, v, t: admin.away_click(i, g, v, t),
            Verb.ORDERS: lambda i, g, a, v, t: admin.orders.open(i, g, t),
            Verb.ORDER: lambda i, g, a, v, t: admin.orders.click(i, g, a, v, t),
            Verb.HANDOVER: lambda i, g, a, v, t: handover.click(i, g, Verb.HANDOVER, a, v, t),
            Verb.HAND_SEAT: lambda i, g, a, v, t: handover.click(i, g, Verb.HAND_SEAT, a, v, t),
            Verb.HAND_TO: lambda i, g, a, v, t: handover.click(i, g, Verb.HAND_TO, a, v, t),
        }

    # -- entry points -----------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms go to the router. A click or form whose custom_id is not one of ours (garbage,
        another prefix, numbers out of range: only a stale or tampered client sends those) gets
        a short reply instead of Discord's "This interaction failed"."""
        # Every interaction shows the person's language: what is addressed to them alone (their
        # DM panel) follows it.
        try:
            await self.keeper.people.saw(interaction.user.id, language_of(interaction.locale))
        except Exception as exc:  # never in the way of the click itself (a store that is down)
            log.warning("could not keep the language of user %s (%s)", interaction.user.id, exc)
        custom_id = str((interaction.data or {}).get("custom_id", ""))  # type: ignore[union-attr]
        if interaction.type is discord.InteractionType.modal_submit:
            parsed = codec.parse(custom_id)
            if parsed is not None and parsed.kind == "bm":
                await self.route(interaction, parsed, [])
                return
        elif interaction.type is not discord.InteractionType.component or any(
                item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS):
            return
        try:
            await say(interaction, "core.error.bad_action")
        except discord.HTTPException:
            pass

    async def route(self, interaction: discord.Interaction, parsed: codec.Parsed, values: list[str]) -> None:
        track(interaction, "form" if parsed.kind == "bm" else "click")  # the stop waits for it; its time is measured
        message = interaction.message
        if interaction.guild_id is None and message is not None:
            # A click on a DM panel: that message is not deleted until the click is answered.
            async with self.keeper.dms.holding(message.id):
                await self._route(interaction, parsed, values)
        else:
            await self._route(interaction, parsed, values)

    async def _route(self, interaction: discord.Interaction, parsed: codec.Parsed, values: list[str]) -> None:
        try:
            if parsed.game_id == 0:
                await self.gameless(interaction, parsed)
                return
            game = await self.access.admit(interaction, parsed)
            if game is None:
                return
            code = parsed.code
            if code.startswith("L"):
                await self.lobby.click(interaction, game, parsed.version, code[1:], values)
            elif code.startswith("H"):
                await self.house_click(interaction, game, code[1:], values)
            else:
                await self.panel.click(interaction, game, parsed, values)
        except Exception as exc:
            refused = isinstance(exc, StoreUnavailable)  # the database said no; the store logged it once
            unknown = isinstance(exc, MembershipUnknown)  # Discord could not say who is a member: fails closed
            if not (refused or unknown):
                log.exception("click %s failed", parsed)
            # "Nothing was changed" only while it is true: once the click's move is committed, a
            # failure (Discord refusing the reply) leaves the move made.
            if interaction.extras.get("applied"):
                key = "core.error.applied_unshown"
            elif unknown:
                key = "core.error.membership_unknown"
            else:
                key = "core.error.store_unavailable" if refused else "core.error.internal"
            try:
                await say(interaction, key)
            except discord.HTTPException:
                pass

    async def gameless(self, interaction: discord.Interaction, parsed: codec.Parsed) -> None:
        """Components that belong to no game: rules pages, "start it in a thread", leaderboard
        pages and replay steps (which check the game they name themselves: a finished game of
        the click's server)."""
        verb, _, arg = parsed.code.partition(":")
        t = tr_for(interaction)
        if verb == codec.house(Verb.RULES):
            title = arg.partition(":")[2]
            if title not in uis():
                await say(interaction, "core.error.bad_action")
                return
            await self.page_reply(interaction, pages.rules_page(title, pages.page_number(arg), t))
        elif verb == codec.house(Verb.THREAD) and interaction.guild_id is not None:
            await self.lobby.thread(interaction, arg)
        elif verb == codec.house(Verb.BOARD) and interaction.guild_id is not None:
            await self.after.board_click(interaction, arg)
        elif verb == codec.house(Verb.REPLAY) and interaction.guild_id is not None:
            await self.after.replay_click(interaction, arg)
        else:
            await say(interaction, "core.error.bad_action")

    # -- house buttons ----------------------------------------------------------------------

    async def house_click(self, interaction: discord.Interaction, game: GameRow, code: str, values: list[str]) -> None:
        verb, _, arg = code.partition(":")
        handler = self.house_verbs.get(verb)
        if handler is None:
            await say(interaction, "core.error.bad_action")
            return
        await handler(interaction, game, arg, values, tr_for(interaction))

    async def _rules(self, interaction: discord.Interaction, game: GameRow, arg: str, values: list[str],
                     t: Translator) -> None:
        view = pages.rules_page(game.title, pages.page_number(arg), t, game)
        if arg.endswith(f":{pages.APART}"):  # from a panel (a learner's rule note): the panel stays
            await interaction.response.send_message(view=view, ephemeral=True)
        else:
            await self.page_reply(interaction, view)

    async def _log(self, interaction: discord.Interaction, game: GameRow, arg: str, values: list[str],
                   t: Translator) -> None:
        await self.page_reply(interaction, await pages.log_page(self.store, game,
                                                                pages.page_number(arg) if arg else None, t))

    async def page_reply(self, interaction: discord.Interaction, view: discord.ui.LayoutView) -> None:
        """Paging buttons edit their own (ephemeral) message; the table's buttons open a new one."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(view=view)
        else:
            await interaction.response.send_message(view=view, ephemeral=True)

    async def open_panel(self, interaction: discord.Interaction, game: GameRow) -> None:
        """A fresh ephemeral private panel for the clicking player."""
        t = tr_for(interaction)
        game = await self.games.game(game.id) or game
        if game.status != "active":
            await reply(interaction, over_text(game, t))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        view, file = await self.keeper.panels.panel_message(game, seat, t)
        await interaction.followup.send(**with_file(file, view=view, ephemeral=True))
        self.keeper.check_in(game)  # a check-in: the table comes down when it is far up (issue 30)


def over_text(game: GameRow, t: Translator) -> str:
    """What a click on a game that is no longer running says: that it is over, with the way to
    its results (or, ended before its finish, to its channel); never "there is no game here"."""
    result = game.result or {}
    if game.status == "finished":
        return t("core.panel.over_results", link=jump(game, result.get("message") or game.table_message_id))
    if game.status == "lobby":
        return t("core.error.no_game")
    return t("core.panel.ended", link=jump(game))
