"""A player's standing orders (play/orders.py, engine/orders.py): the page that lists them and
sets or cancels them, opened from the private panel or the table's ⚙️ menu. Only the player sees
it; setting an order tells the table nothing. An order that takes an amount asks for it in a
form."""

from __future__ import annotations

from typing import Any

import discord

from engine.core import OrderSpec, RuleError
from engine.orders import MAX_AMOUNT
from locales import Translator
from play.house import House
from play.orders import orders_of
from play.plan import rules
from store import GameRow

from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.panel import Button, Modal, Option, Panel, Select, TextInput, parse_amount, short
from cogs.kit.replies import reply
from cogs.kit.views import FormModal, modal_values
from cogs.titles.contract import ui_for

#: The code of the "set" select; its values are `<key>:<scope>`.
SET = "set"
#: The code of the "cancel" select; its values are an order's key, or ALL.
CANCEL = "cancel"
ALL = "*"


def button(t: Translator) -> Button:
    """The entry to the page (on the private panel and in the ⚙️ menu)."""
    return Button(t("core.order.button"), house(Verb.ORDERS), emoji="📋", any_version=True)


def offered(game: GameRow) -> bool:
    return game.status == "active" and bool(rules(game).order_specs)


def order_text(game: GameRow, order: dict[str, Any], t: Translator) -> str:
    """One order as its player reads it: what it answers, and for how long."""
    what = t(f"{game.title}.order.{order['key']}.label", amount=order.get("amount", "…"))
    return t("core.order.in_force", order=what, scope=t(f"core.order.scope.{order.get('scope', 'game')}"))


def page(game: GameRow, seat: int, t: Translator, notice: str | None = None) -> Panel:
    game_rules = rules(game)
    state = game.state or {}
    mine = game_rules.live_orders(state, orders_of(game, seat))
    lines = [notice] if notice else []
    lines.append(t("core.order.intro"))
    held = "\n".join(f"• {order_text(game, o, t)}" for o in mine) or t("core.order.none")
    options = []
    for spec in game_rules.order_specs:
        for scope in spec.scopes:
            if game_rules.order_scope(state, scope) is None:
                continue  # "for this deal" with no deal on the table
            label = t(f"{game.title}.order.{spec.key}.label", amount="…")
            options.append(Option(short(label) or label, f"{spec.key}:{scope}", emoji="📋",
                                  description=short(t(f"core.order.scope.{scope}")
                                                    + (" · " + t("core.order.asks_amount") if spec.amount else ""))))
    components: list[Any] = [Select(house(Verb.ORDER, SET), t("core.order.choose"), options, any_version=True)]
    if mine:
        cancel = [Option(short(order_text(game, o, t)) or o["key"], o["key"], emoji="✖️") for o in mine]
        if len(mine) > 1:
            cancel.append(Option(t("core.order.cancel_all"), ALL, emoji="🧹"))
        components.append(Select(house(Verb.ORDER, CANCEL), t("core.order.cancel"), cancel, any_version=True))
    components.append(Button(t("core.table.hand"), house(Verb.HAND), emoji="🂠", any_version=True))
    fields = [(t("core.order.yours"), held, False)]
    helps = []
    for spec in game_rules.order_specs:
        label = t(f"{game.title}.order.{spec.key}.label", amount="X")
        helps.append(f"**{label}**: {t(f'{game.title}.order.{spec.key}.help')}")
    fields.append((t("core.order.what"), "\n".join(helps), False))
    return Panel(title=t("core.order.title"), description="\n".join(lines), fields=fields, components=components,
                 footer=t("core.order.private"))


class OrdersMenu:
    def __init__(self, house_: House) -> None:
        self.house = house_

    def seat(self, game: GameRow, interaction: discord.Interaction) -> int | None:
        return game.seat_of(interaction.user.id) if game.status == "active" else None

    async def open(self, interaction: discord.Interaction, game: GameRow, t: Translator) -> None:
        game = await self.house.games.game(game.id) or game
        seat = self.seat(game, interaction)
        if seat is None or not offered(game):
            await reply(interaction, t("core.error.not_seated" if seat is None else "core.order.none_here"))
            return
        await self.show(interaction, game, seat, t, edit=False)  # beside the panel it came from

    async def show(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                   edit: bool, notice: str | None = None) -> None:
        view = panel_view(game, 0, page(game, seat, t, notice), accent=ui_for(game.title).colour)
        if edit and interaction.message is not None and not interaction.response.is_done():
            await interaction.response.edit_message(view=view)
        else:
            await reply(interaction, view=view)

    async def click(self, interaction: discord.Interaction, game: GameRow, arg: str, values: list[str],
                    t: Translator) -> None:
        """A choice in the page's selects, or a form's amount (`arg`: `set`, `cancel`, or the
        `<key>:<scope>` a form was opened for)."""
        game = await self.house.games.game(game.id) or game
        seat = self.seat(game, interaction)
        if seat is None or not offered(game):
            await reply(interaction, t("core.error.not_seated" if seat is None else "core.order.none_here"))
            return
        if arg == CANCEL:
            value = values[0] if len(values) == 1 else ""
            refused = await self.house.set_order(game.id, seat, cancel=value, cancel_all=value == ALL)
            await self.done(interaction, game, seat, t, refused, t("core.order.cancelled"))
            return
        chosen = values[0] if arg == SET and len(values) == 1 else arg
        key, _, scope = chosen.partition(":")
        spec = next((s for s in rules(game).order_specs if s.key == key), None)
        if spec is None:
            await reply(interaction, t("core.error.bad_action"))
            return
        order: dict[str, Any] = {"key": key, "scope": scope}
        if spec.amount:
            if interaction.type is not discord.InteractionType.modal_submit:
                await interaction.response.send_modal(FormModal(game, 0, self.form(game, spec, scope, t)))
                return
            amount = parse_amount(modal_values(interaction).get("amount", ""), 0, MAX_AMOUNT)
            if amount is None:
                await self.show(interaction, game, seat, t, edit=True,
                                notice="⚠️ " + t("core.order.bad_amount", hi=MAX_AMOUNT))
                return
            order["amount"] = amount
        refused = await self.house.set_order(game.id, seat, order)
        await self.done(interaction, game, seat, t, refused, t("core.order.set"))

    def form(self, game: GameRow, spec: OrderSpec, scope: str, t: Translator) -> Modal:
        return Modal(t("core.order.title"), house(Verb.ORDER, f"{spec.key}:{scope}"), [
            TextInput("amount", t("core.order.amount"), placeholder="12", max_length=9,
                      help=t(f"{game.title}.order.{spec.key}.label", amount="X"))])

    async def done(self, interaction: discord.Interaction, game: GameRow, seat: int, t: Translator,
                   refused: RuleError | None, said: str) -> None:
        fresh = await self.house.games.game(game.id, fresh=True) or game
        notice = "⚠️ " + t(refused.key, **refused.params) if refused is not None else "✅ " + said
        await self.show(interaction, fresh, seat, t, edit=True, notice=notice)  # the page, redrawn
