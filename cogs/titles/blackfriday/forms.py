"""Black Friday's order forms: the Buy stock, Sell stock and Buy silver sub-panels, whose state
travels in the component codes (`Form`), and the small helpers the panels share. A mixin of the
title's UI (cogs/blackfriday.py), which provides `_image`.

A sub-panel is an order form: the colours and counts chosen so far (added with one select of
colour x count), the follow-up choices (the extra briefcase; the colour that drops and the
sell-table briefcase; the silver table's briefcase), and the keep-my-turn-open flag. A
follow-up with a single possible choice is made for the player; the silver table's briefcase
starts on the colour the market holds most of (issue 15), so Confirm works once the quantity is
chosen. Buys and silver purchases the player's money cannot cover take the subsidy units they
need first (in the same action), as far as the level's subsidy limit allows; Confirm then asks
once more, saying what the subsidy costs (issue 15).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from cogs.kit.panel import Apply, Button, Option, Panel, Refuse, Reply, Select, Show
from cogs.titles.contract import PanelContext
from engine.blackfriday.data import COLOURS, SUBSIDY_UNIT
from engine.blackfriday.legal import extra_choices, take_choices
from locales import tr
from locales.format import join_sentences

EMOJI = {"Y": "🟨", "B": "🟦", "R": "🟥", "G": "🟩", "O": "🟧"}
NC = len(COLOURS)


# -- the order form carried in the codes ------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """A sub-panel's state. kind: "B" buy, "S" sell, "V" silver. counts: bags per colour (for
    silver, counts[0] is the quantity). a: buy extra / sell lowered colour / silver briefcase;
    b: sell-table briefcase ("" = not chosen yet, "-" = none possible)."""

    kind: str
    counts: tuple[int, ...] = (0,) * NC
    keep: bool = False
    a: str = ""
    b: str = ""

    _RE = re.compile(r"([BSV])([0-9]{5})([01])([YBRGO_-])([YBRGO_-])")

    def code(self) -> str:
        return f"{self.kind}{''.join(map(str, self.counts))}{int(self.keep)}{self.a or '_'}{self.b or '_'}"

    @classmethod
    def parse(cls, text: str) -> Form | None:
        m = cls._RE.fullmatch(text)
        if not m:
            return None
        a, b = (x.replace("_", "") for x in (m[4], m[5]))
        return cls(m[1], tuple(int(ch) for ch in m[2]), m[3] == "1", a, b)

    @property
    def total(self) -> int:
        return sum(self.counts)

    def bags(self) -> dict[str, int]:
        return {c: k for c, k in zip(COLOURS, self.counts) if k}


def vec(d: dict[str, int]) -> list[int]:
    return [int(d.get(c, 0)) for c in COLOURS]


def letter(c: int | None) -> str:
    return "-" if c is None else COLOURS[c]


def colour_of(letter: str) -> str | None:
    return None if letter in ("", "-") else letter


def has_special(view: dict[str, Any], option: str) -> bool:
    return any(option in card for card in (view.get("private") or {}).get("cards", []))


def order_size(view: dict[str, Any], option: str) -> int:
    return view["limits"]["action"] + (1 if has_special(view, option) else 0)


def price_list(view: dict[str, Any]) -> list[int]:
    return [view["prices"][c]["price"] for c in COLOURS]


def funds_of(priv: dict[str, Any]) -> int:
    """What the seat can spend this action: money plus every subsidy unit it may still take,
    less the owed interest those units pay first."""
    return priv["money"] + SUBSIDY_UNIT * priv["subsidy_room"] - priv["owed"]


def units_for(priv: dict[str, Any], cost: int) -> int:
    """Subsidy units to take before paying `cost` (owed interest is paid first)."""
    need = cost + priv["owed"] - priv["money"]
    return 0 if need <= 0 else -(-need // SUBSIDY_UNIT)


def dot(lang: str) -> str:
    return tr(lang, "core.punct.dot")


def prices_text(view: dict[str, Any], tk, lang: str) -> str:
    items = dot(lang).join(f"{EMOJI[c]} ${view['prices'][c]['price']}" for c in COLOURS)
    return tk("ui.prices_line", items=items, silver=view["silver"]["price"])


def level_name(tk, level: int) -> str:
    return tk("render.start_level") if level == 0 else str(level)


class OrderForms:
    """The order forms of the Black Friday panel (mixed into `UI`)."""

    def _move_effects(self, pc: PanelContext, table: str, i: int, market: list[int]) -> list[str]:
        """What one more briefcase of colour i on `table` ("buy"/"silver") sets off, given the
        market as it will be before the move."""
        view, tk = pc.view, pc.tk
        c = COLOURS[i]
        counts = vec(view["tables"][table])
        out = []
        if market[i] == 1:
            out.append(tk("ui.effect_rise", colour=c, cause="last_bag"))
        if counts[i] + 1 == 3:
            out.append(tk("ui.effect_rise", colour=c, cause="third_bag"))
        if sum(counts) + 1 >= view["triggers"]["table"]:
            out.append(tk("ui.effect_adjust", table=table))
        return out

    def _resolved(self, pc: PanelContext, form: Form) -> Form:
        """The form with every follow-up that has a single possible choice made, and choices
        no longer possible for this order dropped."""
        view = pc.view
        market = vec(view["market"])
        if form.kind == "B":
            choices = [letter(c) for c in extra_choices(market, form.counts)] if form.total else []
            a = form.a if form.a in choices else (choices[0] if len(choices) == 1 else "")
            return replace(form, a=a, b="")
        if form.kind == "S":
            sold = [c for c, k in zip(COLOURS, form.counts) if k]
            a = form.a if form.a in sold else (sold[0] if len(sold) == 1 else "")
            table = vec(view["tables"]["sell"][view["sell_current"] - 1])
            takes = [letter(c) for c in take_choices(table, form.counts)] if form.total else []
            b = form.b if form.b in takes else (takes[0] if len(takes) == 1 else "")
            return replace(form, a=a, b=b)
        choices = [c for c in COLOURS if market[COLOURS.index(c)]] or ["-"]
        # Pre-filled with the colour the market holds most of (ties: colour order), so Confirm
        # works once the quantity is chosen (issue 15); the player may pick another.
        most = max(choices, key=lambda c: (market[COLOURS.index(c)] if c in COLOURS else 0, -choices.index(c)))
        a = form.a if form.a in choices else most
        return replace(form, a=a, b="")

    def _cost(self, pc: PanelContext, form: Form) -> int:
        if form.kind == "V":
            return form.counts[0] * pc.view["silver"]["price"]
        return sum(k * p for k, p in zip(form.counts, price_list(pc.view)))

    def _ready(self, form: Form) -> bool:
        if form.total == 0:
            return False
        return bool(form.a) and (form.kind != "S" or bool(form.b))

    def _confirm(self, pc: PanelContext, form: Form, asked: bool = False) -> Reply:
        """The order as an action. An order that needs subsidy units first is asked about once
        more (`asked` is the second click): units bear interest, so none is taken silently."""
        if not self._ready(form):
            return Refuse("ui.pick_first")
        priv = pc.view["private"]
        action: dict[str, Any]
        if form.kind == "S":
            action = {"type": "sell", "bags": form.bags(), "lower": form.a, "take": colour_of(form.b)}
        else:
            units = units_for(priv, self._cost(pc, form))
            if units > priv["subsidy_room"]:
                return Refuse("ui.cannot_afford")
            if units and not asked:
                return Show(self._subsidy_ask(pc, form, units))
            if form.kind == "B":
                action = {"type": "buy", "bags": form.bags(), "extra": colour_of(form.a)}
            else:
                action = {"type": "silver", "qty": form.counts[0], "colour": colour_of(form.a)}
            if units:
                action["subsidy"] = units
        if form.keep:
            action["end_turn"] = False
        return Apply(action)

    def _subsidy_ask(self, pc: PanelContext, form: Form, units: int) -> Panel:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        total = priv["units"] + units
        lines = [tk("ui.subsidy_ask", cost=self._cost(pc, form), money=priv["money"], count=units,
                    amount=units * SUBSIDY_UNIT),
                 tk("ui.subsidy_ask_interest", count=total, interest=total)]
        if priv["owed"]:
            lines.append(tk("ui.owed_first", paid=priv["owed"]))
        buttons = [Button(tk("ui.subsidy_yes", count=units), f"{form.code()}:oks", "success", emoji="💵"),
                   Button(tk("ui.back"), form.code(), "secondary")]
        return Panel(title=tk("ui.buy_title" if form.kind == "B" else "ui.silver"), description="\n".join(lines),
                     components=buttons, image=self._image(pc))

    def _form_panel(self, pc: PanelContext, form: Form) -> Panel:
        form = self._resolved(pc, form)
        if form.kind == "V":
            return self._silver_panel(pc, form)
        return self._order_panel(pc, form)

    def _add_selects(self, pc: PanelContext, form: Form, avail: list[int], budget: int | None) -> list[Select]:
        """Colour × count choices that still fit the order (and the money), as one select, or
        two when they pass Discord's 25 options."""
        view, tk = pc.view, pc.tk
        option = "buy" if form.kind == "B" else "sell"
        size, limit = order_size(view, option), view["limits"]["action"]
        prices = price_list(view)
        room = size - form.total
        spent = self._cost(pc, form)
        groups: list[list[Option]] = []
        for i, c in enumerate(COLOURS):
            group = []
            for k in range(1, min(avail[i] - form.counts[i], room) + 1):
                if budget is not None and spent + k * prices[i] > budget:
                    break
                left = avail[i] - form.counts[i]
                desc = tk("ui.add_desc_buy" if form.kind == "B" else "ui.add_desc_sell", price=prices[i], count=left)
                if form.total + k > limit:
                    desc += " · " + tk("ui.plus_one", option=option)
                group.append(Option(tk("ui.add_option", colour=c, count=k, total=k * prices[i]), f"{c}{k}", desc,
                                    emoji=EMOJI[c]))
            if group:
                groups.append(group)
        if not groups:
            return []
        flat = [o for g in groups for o in g]
        placeholder = tk("ui.add", limit=limit)
        if len(flat) <= 25:
            return [Select(f"{form.code()}:a", placeholder, flat)]
        first: list[Option] = []
        while groups and len(first) + len(groups[0]) <= 25:
            first += groups.pop(0)
        rest = [o for g in groups for o in g][:25]
        return [Select(f"{form.code()}:a", placeholder, first), Select(f"{form.code()}:a2", placeholder, rest)]

    def _form_buttons(self, pc: PanelContext, form: Form) -> list[Button]:
        tk = pc.tk
        out = [Button(tk("ui.confirm"), f"{form.code()}:ok", "success", emoji="✅", disabled=not self._ready(form))]
        if form.kind != "V":
            out.append(Button(tk("ui.clear"), f"{form.code()}:c", "secondary", emoji="↩️", disabled=form.total == 0))
        out.append(Button(tk("ui.keep_turn"), f"{form.code()}:k", "success" if form.keep else "secondary",
                          emoji="☑️" if form.keep else "⬜"))
        out.append(Button(tk("ui.back"), f"M{int(form.keep)}", "secondary"))
        return out

    def _order_panel(self, pc: PanelContext, form: Form) -> Panel:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        buying = form.kind == "B"
        option = "buy" if buying else "sell"
        prices = price_list(view)
        market = vec(view["market"])
        avail = market if buying else vec(priv["bags"])
        lines = [tk("ui.choose_bags", limit=view["limits"]["action"])]
        if has_special(view, option):
            lines.append(tk("ui.plus_hint", option=option))
        lines.append("")
        for i, c in enumerate(COLOURS):
            if form.counts[i]:
                lines.append(f"{EMOJI[c]} " + tk("ui.order_line", count=form.counts[i], colour=c, price=prices[i]))
        if not form.total:
            lines.append(tk("ui.order_empty"))
        cost = self._cost(pc, form)
        selects: list[Select] = []
        if form.total < order_size(view, option):
            selects += self._add_selects(pc, form, avail, funds_of(priv) if buying else None)
        if form.total:
            if buying:
                lines.append(tk("ui.total_cost", total=cost) + dot(pc.t.lang) + tk("ui.money_line", money=priv["money"]))
                units = units_for(priv, cost)
                if units:
                    lines.append("💵 " + tk("ui.with_subsidy", count=units))
            else:
                lines.append(tk("ui.total_income", total=cost))
                if priv["owed"]:
                    lines.append(tk("ui.owed_first", paid=min(priv["owed"], cost)))
            if form.total > view["limits"]["action"]:
                lines.append("⭐ " + tk("ui.plus_one", option=option))
            lines.append("")
            if buying:
                selects += self._extra_part(pc, form, lines)
            else:
                selects += self._sell_part(pc, form, lines)
            effects = self._order_effects(pc, form)
            if effects:
                lines.append(tk("ui.effects", items=tr(pc.t.lang, "core.punct.items").join(effects)))
        if form.keep:
            lines.append(tk("ui.keep_note"))
        return Panel(title=tk("ui.buy_title" if buying else "ui.sell_title"), description="\n".join(lines).strip(),
                     components=[*selects, *self._form_buttons(pc, form)], image=self._image(pc))

    def _extra_part(self, pc: PanelContext, form: Form, lines: list[str]) -> list[Select]:
        view, tk = pc.view, pc.tk
        market = vec(view["market"])
        choices = extra_choices(market, form.counts)
        if len(choices) == 1:
            lines.append(tk("ui.extra_line", colour=letter(choices[0]).replace("-", "none")))
            return []
        after = [m - k for m, k in zip(market, form.counts)]
        opts = []
        for c in choices:
            assert c is not None
            effects = self._move_effects(pc, "buy", c, after)
            opts.append(Option(tk(f"colour.{COLOURS[c]}"), COLOURS[c], " · ".join(
                [tk("ui.in_market", count=after[c])] + effects)[:100], emoji=EMOJI[COLOURS[c]],
                default=form.a == COLOURS[c]))
        if form.a:
            lines.append(tk("ui.extra_line", colour=form.a))
        return [Select(f"{form.code()}:x", tk("ui.extra_prompt"), opts)]

    def _sell_part(self, pc: PanelContext, form: Form, lines: list[str]) -> list[Select]:
        view, tk = pc.view, pc.tk
        out: list[Select] = []
        sold = [c for c, k in zip(COLOURS, form.counts) if k]
        prices = price_list(view)
        if len(sold) > 1:
            out.append(Select(f"{form.code()}:l", tk("ui.lower_prompt"), [
                Option(tk(f"colour.{c}"), c, f"${prices[COLOURS.index(c)]}", emoji=EMOJI[c], default=form.a == c)
                for c in sold]))
        if form.a:
            lines.append(tk("ui.lower_line", colour=form.a))
        table_name = f"sell{view['sell_current']}"
        table = vec(view["tables"]["sell"][view["sell_current"] - 1])
        takes = take_choices(table, form.counts)
        if len(takes) > 1:
            out.append(Select(f"{form.code()}:t", tk("ui.take_prompt"), [
                Option(tk(f"colour.{COLOURS[c]}"), COLOURS[c], tk("ui.on_table", count=table[c]),
                       emoji=EMOJI[COLOURS[c]], default=form.b == COLOURS[c]) for c in takes if c is not None]))
        if form.b:
            lines.append(tk("ui.take_line", table=table_name, colour=form.b.replace("-", "none")))
        return out

    def _order_effects(self, pc: PanelContext, form: Form) -> list[str]:
        """What the order sets off once its follow-ups are chosen (before any adjustment)."""
        view, tk = pc.view, pc.tk
        out: list[str] = []
        if form.kind == "B":
            market = vec(view["market"])
            extra = colour_of(form.a)
            after = [m - k for m, k in zip(market, form.counts)]
            if extra is not None:
                after[COLOURS.index(extra)] -= 1
            for i, c in enumerate(COLOURS):
                if market[i] > 0 and after[i] == 0:
                    out.append(tk("ui.effect_rise", colour=c, cause="last_bag"))
            if extra is not None:
                buy = vec(view["tables"]["buy"])
                i = COLOURS.index(extra)
                if buy[i] + 1 == 3:
                    out.append(tk("ui.effect_rise", colour=extra, cause="third_bag"))
                if sum(buy) + 1 >= view["triggers"]["table"]:
                    out.append(tk("ui.effect_adjust", table="buy"))
        elif form.kind == "S":
            if form.a:
                out.append(tk("ui.effect_drop", colour=form.a))
            table = vec(view["tables"]["sell"][view["sell_current"] - 1])
            if colour_of(form.b) is not None and sum(table) - 1 <= view["triggers"]["sell"]:
                out.append(tk("ui.effect_adjust", table=f"sell{view['sell_current']}"))
        return out

    def _silver_panel(self, pc: PanelContext, form: Form) -> Panel:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        price = view["silver"]["price"]
        limit, size = view["limits"]["action"], order_size(view, "silver")
        funds = funds_of(priv)
        qty = form.counts[0]
        lines = [tk("ui.silver_line", price=price, silver=priv["silver"], gold=priv["gold"]),
                 tk("ui.money_line", money=priv["money"])]
        if has_special(view, "silver"):
            lines.append(tk("ui.plus_hint", option="silver"))
        qopts = []
        for q in range(1, size + 1):
            if q * price > funds:
                break
            units = units_for(priv, q * price)
            desc = [tk("ui.with_subsidy", count=units)] if units else []
            if q > limit:
                desc.append(tk("ui.plus_one", option="silver"))
            qopts.append(Option(tk("ui.qty_option", count=q, total=q * price), str(q), " · ".join(desc) or None,
                                emoji="🥈", default=q == qty))
        selects = [Select(f"{form.code()}:q", tk("ui.silver_qty", price=price), qopts)] if qopts else []
        if qty:
            lines.append("")
            lines.append(tk("ui.total_cost", total=qty * price))
            units = units_for(priv, qty * price)
            if units:
                lines.append("💵 " + tk("ui.with_subsidy", count=units))
            if qty > limit:
                lines.append("⭐ " + tk("ui.plus_one", option="silver"))
            gold = (priv["silver"] + qty) // 5
            if gold:
                lines.append(tk("ui.gold_note", count=gold))
        market = vec(view["market"])
        if any(market):
            opts = []
            for i, c in enumerate(COLOURS):
                if market[i]:
                    desc = [tk("ui.in_market", count=market[i])] + self._move_effects(pc, "silver", i, market)
                    opts.append(Option(tk(f"colour.{c}"), c, " · ".join(desc)[:100], emoji=EMOJI[c], default=form.a == c))
            if len(opts) > 1:
                selects.append(Select(f"{form.code()}:x", tk("ui.colour_prompt"), opts))
            if form.a:
                lines.append(join_sentences(tk("ui.silver_bag_line", colour=form.a),
                                            tk("ui.silver_bag_change") if len(opts) > 1 else ""))
                i = COLOURS.index(form.a)
                effects = self._move_effects(pc, "silver", i, market)
                if effects:
                    lines.append(tk("ui.effects", items=tr(pc.t.lang, "core.punct.items").join(effects)))
        else:
            lines.append(tk("ui.nothing_left"))
        if form.keep:
            lines.append(tk("ui.keep_note"))
        return Panel(title=tk("ui.silver"), description="\n".join(lines).strip(),
                     components=[*selects, *self._form_buttons(pc, form)], image=self._image(pc))
