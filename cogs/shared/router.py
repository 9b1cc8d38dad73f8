"""Every click, select and form of ours lands here. The guard runs once, first, for all of them
(`Access.admit`: the game named must be the one that drew the component, and the click must come
from where that game lives); then lobby codes go to the lobby, house codes (`H...`) to the house,
and the rest to the title's panel, whose actions are applied with the version compare-and-swap.
Never lets an interaction go unanswered.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from locales import Translator
from service.stop import track
from store import GameRow, StoreUnavailable

from . import codec, pages
from .handover import VERBS as HANDOVER
from .house import error_key
from .panel import Apply, Ask, Panel, Refuse, Show
from .layout import panel_view, strip_page
from .replies import reply, say, tr_for, with_file
from .titles import ui_for, uis
from .views import DYNAMIC_ITEMS, FormModal, modal_values

if TYPE_CHECKING:
    from .house import House

log = logging.getLogger(__name__)


class Router:
    def __init__(self, house: "House", lobby: Any, admin: Any) -> None:
        self.house = house
        self.lobby = lobby
        self.admin = admin

    # -- entry points -----------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms go to the router. A click or form whose custom_id is not one of ours (garbage,
        another prefix, numbers out of range: only a stale or tampered client sends those) gets
        a short reply instead of Discord's "This interaction failed"."""
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
        try:
            if parsed.game_id == 0:
                await self.gameless(interaction, parsed)
                return
            game = await self.house.access.admit(interaction, parsed)
            if game is None:
                return
            code = parsed.code
            if code.startswith("L"):
                await self.lobby.click(interaction, game, parsed.version, code[1:], values)
            elif code.startswith("H"):
                await self.house_click(interaction, game, code[1:], values)
            else:
                await self.panel_click(interaction, game, parsed, values)
        except Exception as exc:
            refused = isinstance(exc, StoreUnavailable)  # the database said no; the store logged it once
            if not refused:
                log.exception("click %s failed", parsed)
            # "Nothing was changed" only while it is true: once the click's move is committed, a
            # failure (Discord refusing the reply) leaves the move made.
            if interaction.extras.get("applied"):
                key = "core.error.applied_unshown"
            else:
                key = "core.error.store_unavailable" if refused else "core.error.internal"
            try:
                await say(interaction, key)
            except discord.HTTPException:
                pass

    async def gameless(self, interaction: discord.Interaction, parsed: codec.Parsed) -> None:
        """Components that belong to no game: rules pages, and "start it in a thread"."""
        verb, _, arg = parsed.code.partition(":")
        t = tr_for(interaction)
        if verb == "Hrules":
            title = arg.partition(":")[2]
            if title not in uis():
                await say(interaction, "core.error.bad_action")
                return
            await self.page_reply(interaction, pages.rules_page(title, pages.page_number(arg), t))
        elif verb == "Hthread" and interaction.guild_id is not None:
            await self.lobby.thread(interaction, arg)
        else:
            await say(interaction, "core.error.bad_action")

    # -- house buttons ----------------------------------------------------------------------

    async def house_click(self, interaction: discord.Interaction, game: GameRow, code: str, values: list[str]) -> None:
        t = tr_for(interaction)
        verb, _, arg = code.partition(":")
        if verb == "hand":
            await self.open_panel(interaction, game)
        elif verb == "rules":
            await self.page_reply(interaction, pages.rules_page(game.title, pages.page_number(arg), t))
        elif verb == "log":
            await self.page_reply(interaction, await pages.log_page(self.house, game,
                                                                    pages.page_number(arg) if arg else None, t))
        elif verb == "menu":
            await self.admin.menu(interaction, game, t)
        elif verb == "pref":
            await self.admin.toggle_pref(interaction, game, arg, t)
        elif verb == "leave" and not arg:
            await self.admin.ask_leave(interaction, game, t)
        elif verb == "leave":
            await self.admin.leave_click(interaction, game, arg, t)
        elif verb == "undo":
            await self.house.table.undo.click(interaction, game, arg, t)
        elif verb == "rematch":
            await self.lobby.rematch(interaction, game)
        elif verb == "settings":
            await self.admin.open_settings(interaction, game, t)
        elif verb == "endask":
            await self.admin.ask_end(interaction, game, t)
        elif verb == "end":
            await self.admin.end_click(interaction, game, arg, t)
        elif verb in ("set", "kind", "len"):
            await self.admin.settings_click(interaction, game, verb, arg, values, t)
        elif verb == "away":
            await self.admin.away_click(interaction, game, values, t)
        elif verb in HANDOVER:
            await self.admin.handover.click(interaction, game, verb, arg, values, t)
        else:
            await say(interaction, "core.error.bad_action")

    async def page_reply(self, interaction: discord.Interaction, view: discord.ui.LayoutView) -> None:
        """Paging buttons edit their own (ephemeral) message; the table's buttons open a new one."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(view=view)
        else:
            await interaction.response.send_message(view=view, ephemeral=True)

    # -- the private panel ------------------------------------------------------------------

    async def open_panel(self, interaction: discord.Interaction, game: GameRow) -> None:
        """A fresh ephemeral private panel for the clicking player."""
        t = tr_for(interaction)
        game = await self.house.game(game.id) or game
        if game.status != "active":
            await reply(interaction, t("core.error.no_game"))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        view, file = await self.house.table.panel_message(game, seat, t)
        await interaction.followup.send(**with_file(file, view=view, ephemeral=True))

    @staticmethod
    def _is_panel_message(interaction: discord.Interaction) -> bool:
        message = interaction.message
        if message is None:
            return False
        return bool(message.flags.ephemeral) or interaction.guild is None

    async def panel_click(self, interaction: discord.Interaction, game: GameRow, parsed: codec.Parsed,
                          values: list[str]) -> None:
        t = tr_for(interaction)
        game = await self.house.game(game.id) or game
        if game.status != "active":
            gone = (game.result or {}).get("reason") == "channel_deleted"
            await reply(interaction, t("core.error.channel_gone" if gone else "core.error.game_over"))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        on_panel = self._is_panel_message(interaction)
        if parsed.version is not None and parsed.version != game.version:
            await self._stale(interaction, game, seat, t, on_panel)
            return
        ui = ui_for(game.title)
        pc = self.house.panel_context(game, seat, t)
        code = strip_page(parsed.code)

        def decide(pc: Any) -> Any:
            try:
                if parsed.kind == "bm":
                    return ui.on_modal(pc, code, modal_values(interaction))
                if codec.is_act_select(code) or codec.is_action_code(code):
                    # An action code on a button, or one chosen in an "act" select; nothing else.
                    chosen = (values[0] if len(values) == 1 else None) if codec.is_act_select(code) \
                        else (None if values else code)
                    action = codec.decode_action(chosen, pc.legal) if chosen else None
                    return Apply(action) if action else Refuse("core.error.bad_action")
                return ui.on_component(pc, code, values)
            except Exception:
                # A title's panel that trips over a code or form it never made (a tampered or very
                # old client): refuse politely, change nothing, and leave the trace for its authors.
                log.exception("%s panel failed on %s %r %r", game.title, parsed.kind, code, values)
                return Refuse("core.error.bad_action")

        reply_ = decide(pc)
        if isinstance(reply_, Ask):
            await interaction.response.send_modal(FormModal(game, game.version, reply_.modal))
            return
        if on_panel and parsed.kind != "bm":
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=not on_panel)
        for attempt in range(3):
            if isinstance(reply_, Show):
                await self._show_panel(interaction, game, seat, t, on_panel, panel=reply_.panel)
                return
            if isinstance(reply_, Refuse):
                await interaction.followup.send(t(reply_.key if reply_.key.startswith("core.")
                                                  else f"{game.title}.{reply_.key}", **reply_.params), ephemeral=True)
                return
            assert isinstance(reply_, Apply)
            # A click valid at any version was decided on the game as the click found it: it
            # applies only to that moment. If another move landed first (clicks at the same
            # moment), decide again on the game as it is now; never apply a decision made for
            # another moment (a second press of a bell that ended dice time must not start the
            # next one).
            result = await self.house.act(game.id, seat, reply_.action, user_id=interaction.user.id,
                                          version=parsed.version if parsed.version is not None else pc.version)
            if result.applied:
                interaction.extras["applied"] = True
                self.house.table.undo.remember(game.id, seat, interaction.user.id, result)
            if result.kind != "stale" or parsed.version is not None or attempt == 2:
                break
            fresh = await self.house.game(game.id)
            if fresh is None or fresh.status != "active":
                break
            game, pc = fresh, self.house.panel_context(fresh, seat, t)
            reply_ = decide(pc)
            if isinstance(reply_, Ask):  # a form cannot open once the click is acknowledged
                reply_ = Show(ui.panel(pc))
        if result.kind == "refused" and result.error is not None:
            notice = "⛔ " + t(error_key(game.title, result.error), **result.error.params)
            if on_panel:  # redraw the panel under the reason, so no refused button lingers on it
                await self._show_panel(interaction, await self.house.game(game.id) or game, seat, t, True,
                                       notice=notice)
            else:
                await interaction.followup.send(notice, ephemeral=True)
            return
        if result.kind == "stale":
            await self._stale(interaction, game, seat, t, on_panel)
            return
        if result.kind == "paused":
            await interaction.followup.send("⏸️ " + self.house.pauser.reason(game, t), ephemeral=True)
            return
        if result.kind in ("over", "missing"):
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        fresh = await self.house.game(game.id) or result.game
        if fresh is None or fresh.status != "active":
            if on_panel:
                over = Panel(title=t(f"{game.title}.name"), description=t("core.panel.game_over"))
                await interaction.edit_original_response(view=panel_view(game, game.version, over,
                                                                         accent=ui.colour), attachments=[])
            return
        await self._show_panel(interaction, fresh, seat, t, on_panel)

    async def _show_panel(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                          on_panel: bool, panel: Panel | None = None, notice: str | None = None) -> None:
        view, file = await self.house.table.panel_message(game, seat, t, notice=notice, panel=panel)
        if on_panel:
            await interaction.edit_original_response(view=view, attachments=[file] if file else [])
        else:
            await interaction.followup.send(**with_file(file, view=view, ephemeral=True))

    async def _stale(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                     on_panel: bool) -> None:
        """A click drawn for an earlier moment: never a wrong move; a fresh panel instead."""
        if not interaction.response.is_done():
            if on_panel:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        fresh = await self.house.game(game.id)
        if fresh is None or fresh.status != "active":
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        await self._show_panel(interaction, fresh, seat, t, on_panel, notice="⏳ " + t("core.panel.stale"))
