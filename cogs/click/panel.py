"""A click on a title's panel (a button, a select, a form): the title decides what it means
(`Apply` an action, `Ask` with a form, `Show` a sub-menu, `Refuse`), the house applies an action
(`House.act`: the rules, the commit, the undo memory), and the clicker sees their panel as the
game now stands, in place when the click came from a panel."""

from __future__ import annotations

import logging

import discord

from locales import Translator
from play.house import House
from play.result import Kind, Result, error_key
from store import GameRow

from cogs.kit import codec
from cogs.kit.layout import panel_view, strip_page
from cogs.kit.panel import Apply, Ask, Panel, Refuse, Reply, Show
from cogs.kit.replies import reply, tr_for, with_file
from cogs.kit.views import FormModal, modal_values
from cogs.table.pause import reason
from cogs.table.private_panel import PrivatePanels
from cogs.titles.contract import PanelContext, panel_context, ui_for

log = logging.getLogger(__name__)

#: How often a click valid at any version is decided again when another move landed first.
ATTEMPTS = 3


def is_panel_message(interaction: discord.Interaction) -> bool:
    """The click came from a private panel (ephemeral, or in a DM): answered in place."""
    message = interaction.message
    if message is None:
        return False
    return bool(message.flags.ephemeral) or interaction.guild is None


class PanelClicks:
    def __init__(self, house: House, panels: PrivatePanels) -> None:
        self.house = house
        self.panels = panels

    def still_own(self, game: GameRow, seat: int, parsed: codec.Parsed, values: list[str]) -> bool:
        """A click drawn for an earlier moment that still applies (issue 30): it names its
        action itself (inline JSON, never an index into a list of that moment nor a title's own
        code), its player has not moved since, and every question they owe now was already
        open then: others answered meanwhile, the decision is still theirs. The rules judge it."""
        code = strip_page(parsed.code)
        chosen = values if codec.is_act_select(code) else [code]
        described = parsed.kind != "bm" and bool(chosen) and all(c.startswith("!") for c in chosen)
        return described and parsed.version is not None and self.house.moments.still_own(game, seat, parsed.version)

    def decide(self, interaction: discord.Interaction, game: GameRow, parsed: codec.Parsed, pc: PanelContext,
               values: list[str]) -> Reply:
        """What the click means to the title, on the game as `pc` shows it."""
        ui = ui_for(game.title)
        code = strip_page(parsed.code)
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

    async def click(self, interaction: discord.Interaction, game: GameRow, parsed: codec.Parsed,
                    values: list[str]) -> None:
        t = tr_for(interaction)
        game = await self.house.games.game(game.id) or game
        if game.status != "active":
            gone = (game.result or {}).get("reason") == "channel_deleted"
            await reply(interaction, t("core.error.channel_gone" if gone else "core.error.game_over"))
            return
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("core.error.not_seated"))
            return
        on_panel = is_panel_message(interaction)
        if parsed.version is not None and parsed.version != game.version and not self.still_own(game, seat, parsed,
                                                                                                   values):
            await self.stale(interaction, game, seat, t, on_panel)
            return
        pc = panel_context(game, seat, t)
        decided = self.decide(interaction, game, parsed, pc, values)
        if isinstance(decided, Ask):
            await interaction.response.send_modal(FormModal(game, game.version, decided.modal))
            return
        if on_panel and parsed.kind != "bm":
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=not on_panel)
        await self.carry_out(interaction, game, seat, parsed, pc, decided, values, t, on_panel)

    async def carry_out(self, interaction: discord.Interaction, game: GameRow, seat: int, parsed: codec.Parsed,
                        pc: PanelContext, decided: Reply, values: list[str], t: Translator, on_panel: bool) -> None:
        """Apply what the click decided, and answer it."""
        result: Result | None = None
        for attempt in range(ATTEMPTS):
            if isinstance(decided, Show):
                await self.show(interaction, game, seat, t, on_panel, panel=decided.panel)
                return
            if isinstance(decided, Refuse):
                key = decided.key if decided.key.startswith("core.") else f"{game.title}.{decided.key}"
                await interaction.followup.send(t(key, **decided.params), ephemeral=True)
                return
            assert isinstance(decided, Apply)
            # A click was decided on the game as the click found it: it applies only to that
            # moment. If another move landed first (clicks at the same moment), decide again on
            # the game as it is now when the click means the same there (valid at any version,
            # or still its player's own question); never apply a decision made for another
            # moment (a second press of a bell that ended dice time must not start the next one).
            result = await self.house.act(game.id, seat, decided.action, user_id=interaction.user.id,
                                          version=pc.version)
            if result.applied:
                interaction.extras["applied"] = True
            if result.kind is not Kind.STALE or attempt == ATTEMPTS - 1:
                break
            fresh = await self.house.games.game(game.id)
            if fresh is None or fresh.status != "active":
                break
            if parsed.version is not None and not self.still_own(fresh, seat, parsed, values):
                break
            game, pc = fresh, panel_context(fresh, seat, t)
            decided = self.decide(interaction, game, parsed, pc, values)
            if isinstance(decided, Ask):  # a form cannot open once the click is acknowledged
                decided = Show(ui_for(game.title).panel(pc))
        assert result is not None
        await self.answer(interaction, game, seat, result, t, on_panel)

    async def answer(self, interaction: discord.Interaction, game: GameRow, seat: int, result: Result,
                     t: Translator, on_panel: bool) -> None:
        """The clicker's panel after the move (or the reason it was not made)."""
        if result.kind is Kind.REFUSED and result.error is not None:
            notice = "⛔ " + t(error_key(game.title, result.error), **result.error.params)
            if on_panel:  # redraw the panel under the reason, so no refused button lingers on it
                await self.show(interaction, await self.house.games.game(game.id) or game, seat, t, True,
                                notice=notice)
            else:
                await interaction.followup.send(notice, ephemeral=True)
            return
        if result.kind is Kind.STALE:
            await self.stale(interaction, game, seat, t, on_panel)
            return
        if result.kind is Kind.PAUSED:
            await interaction.followup.send("⏸️ " + reason(game, t), ephemeral=True)
            return
        if result.kind in (Kind.OVER, Kind.MISSING):
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        fresh = await self.house.games.game(game.id) or result.game
        if fresh is None or fresh.status != "active":
            if on_panel:
                over = Panel(title=t(f"{game.title}.name"), description=t("core.panel.game_over"))
                await interaction.edit_original_response(view=panel_view(game, game.version, over,
                                                                         accent=ui_for(game.title).colour),
                                                         attachments=[])
            return
        await self.show(interaction, fresh, seat, t, on_panel)

    async def show(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                   on_panel: bool, panel: Panel | None = None, notice: str | None = None) -> None:
        view, file = await self.panels.panel_message(game, seat, t, notice=notice, panel=panel)
        if on_panel:
            await interaction.edit_original_response(view=view, attachments=[file] if file else [])
        else:
            await interaction.followup.send(**with_file(file, view=view, ephemeral=True))

    async def stale(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                    on_panel: bool) -> None:
        """A click drawn for an earlier moment: never a wrong move; a fresh panel instead."""
        if not interaction.response.is_done():
            if on_panel:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        fresh = await self.house.games.game(game.id)
        if fresh is None or fresh.status != "active":
            await interaction.followup.send(t("core.error.game_over"), ephemeral=True)
            return
        await self.show(interaction, fresh, seat, t, on_panel, notice="⏳ " + t("core.panel.stale"))

