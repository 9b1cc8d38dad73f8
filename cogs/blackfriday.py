"""Black Friday's private panel and table lines.

The main panel (your turn): Buy stock, Sell stock and Buy silver open sub-panels; Pass, Take
subsidy and the special card's extra pass are selects that act at once (each with its own code,
`PICKS`: two selects on one message may not share a custom_id); "Keep my turn open" makes the
main action leave the turn open, and End turn shows once it is done. The 2-player set-up is one
select. The +1 special options are used by choosing one more than the limit in an order form.

A sub-panel is an order form whose state travels in its codes (see `Form`): the colours and
counts chosen so far (added with one select of colour × count), the follow-up choices (the
extra briefcase; the colour that drops and the sell-table briefcase; the silver table's
briefcase), and the keep-my-turn-open flag. A follow-up with a single possible choice is made
for the player. Buys and silver purchases the player's money cannot cover take the subsidy
units they need first (in the same action), as far as the level's subsidy limit allows.

Privacy: holdings, money, subsidy units, silver and gold appear only in the private panel; the
table lines use the public view only, and the narration only public events.

The table narrates a price adjustment as a short block (see `narrate`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from cogs.shared import codec
from cogs.shared.panel import Apply, Button, Option, Panel, Refuse, Reply, Select, Show
from cogs.shared.titles import PanelContext, TableContext, TitleUI, seat_names
from engine.blackfriday.data import COLOURS, SUBSIDY_UNIT
from engine.blackfriday.legal import extra_choices, take_choices
from locales import tr
from locales.format import join_list, separator

EMOJI = {"Y": "🟨", "B": "🟦", "R": "🟥", "G": "🟩", "O": "🟧"}
NC = len(COLOURS)
#: Codes of the main panel's action selects: each option's value is an action code.
PICK_PASS, PICK_SUBSIDY, PICK_SPECIAL, PICK_SETUP = "Ppass", "Psub", "Pspec", "Psetup"
PICKS = (PICK_PASS, PICK_SUBSIDY, PICK_SPECIAL, PICK_SETUP)


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


def _vec(d: dict[str, int]) -> list[int]:
    return [int(d.get(c, 0)) for c in COLOURS]


def _letter(c: int | None) -> str:
    return "-" if c is None else COLOURS[c]


def _colour_of(letter: str) -> str | None:
    return None if letter in ("", "-") else letter


def _special(view: dict[str, Any], option: str) -> bool:
    return any(option in card for card in (view.get("private") or {}).get("cards", []))


def _size(view: dict[str, Any], option: str) -> int:
    return view["limits"]["action"] + (1 if _special(view, option) else 0)


def _prices(view: dict[str, Any]) -> list[int]:
    return [view["prices"][c]["price"] for c in COLOURS]


def _funds(priv: dict[str, Any]) -> int:
    """What the seat can spend this action: money plus every subsidy unit it may still take,
    less the owed interest those units pay first."""
    return priv["money"] + SUBSIDY_UNIT * priv["subsidy_room"] - priv["owed"]


def _units_for(priv: dict[str, Any], cost: int) -> int:
    """Subsidy units to take before paying `cost` (owed interest is paid first)."""
    need = cost + priv["owed"] - priv["money"]
    return 0 if need <= 0 else -(-need // SUBSIDY_UNIT)


def _sep(lang: str) -> str:
    return tr(lang, "core.punct.dot")


def _prices_text(view: dict[str, Any], tk, lang: str) -> str:
    items = _sep(lang).join(f"{EMOJI[c]} ${view['prices'][c]['price']}" for c in COLOURS)
    return tk("ui.prices_line", items=items, silver=view["silver"]["price"])


def _level_name(tk, level: int) -> str:
    return tk("render.start_level") if level == 0 else str(level)


class UI(TitleUI):
    title = "blackfriday"
    colour = 0x1E1E24
    #: Minor briefcase moves stay on the table's recent lines and the log.
    quiet_events = frozenset({"extra", "silver_bag", "table_bag"})

    def __init__(self) -> None:
        super().__init__()
        self._fold: dict[str, Any] = {}  # adjustment lines waiting to be folded (see narrate)

    # -- the main panel ---------------------------------------------------------------------

    def panel(self, pc: PanelContext) -> Panel:
        return self._main(pc, keep=False)

    def _main(self, pc: PanelContext, keep: bool, notice: str = "") -> Panel:
        view = pc.view
        tk = pc.tk
        priv = view.get("private")
        lines: list[str] = [notice] if notice else []
        comps: list[Any] = []
        mine = view.get("active") == pc.seat and bool(pc.legal)
        if view["phase"] == "setup":
            if mine:
                lines.append(tk("ui.setup_prompt"))
                comps += self._setup_select(pc)
            else:
                lines.append(tk("ui.waiting", name=self._name(pc, view.get("active"))))
        elif not mine:
            lines.append(tk("ui.waiting", name=self._name(pc, view.get("active"))))
        elif view["acted"]:
            lines.append(tk("ui.main_done"))
            comps += [pc.act(tk("ui.end_turn"), {"type": "end_turn"}, "success", emoji="⏭️")]
            comps += self._subsidy_select(pc) + self._special_select(pc)
        else:
            lines.append(tk("ui.your_turn"))
            comps += self._main_buttons(pc, keep)
            comps += self._pass_select(pc, keep) + self._subsidy_select(pc) + self._special_select(pc)
            if keep:
                lines.append(tk("ui.keep_note"))
        if priv is not None:
            if priv["owed"]:
                lines.append("⚠️ " + tk("ui.owe_line", owed=priv["owed"]))
                if not priv["must_settle"]:
                    lines.append(tk("ui.stuck_line"))
            lines.append("")
            lines += self._private_lines(pc)
        lines.append(self._prices_line(pc))
        lines.append(tk("ui.limit_line", limit=view["limits"]["action"], subsidy=view["limits"]["subsidy"]))
        return Panel(title=tk("name"), description="\n".join(lines).strip(), components=comps,
                     image=self._image(pc))

    def _image(self, pc: PanelContext):
        view, names, lang = pc.view, pc.picture_names, pc.t.lang
        if view.get("private") is None:
            return None
        render = self.render
        return lambda: render.panel_image(view, names, lang)

    @staticmethod
    def _name(pc: PanelContext, seat: Any) -> str:
        return pc.names[seat] if isinstance(seat, int) and 0 <= seat < len(pc.names) else "?"

    def _private_lines(self, pc: PanelContext) -> list[str]:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        out = [tk("ui.purse", money=priv["money"], units=priv["units"], limit=view["limits"]["subsidy"],
                  silver=priv["silver"], gold=priv["gold"])]
        prices = _prices(view)
        held = _vec(priv["bags"])
        if any(held):
            items = separator(pc.t.lang).join(tk("ui.stock_item", colour=c, count=held[i], emoji=EMOJI[c])
                                              for i, c in enumerate(COLOURS) if held[i])
            out.append(tk("ui.stocks", items=items, value=sum(h * p for h, p in zip(held, prices))))
        else:
            out.append(tk("ui.no_stocks"))
        if priv["cards"]:
            cards = separator(pc.t.lang).join(" / ".join(tk(f"special.{o}") for o in card) for card in priv["cards"])
            out.append(tk("ui.special_line", cards=cards))
        return out

    def _prices_line(self, pc: PanelContext | TableContext) -> str:
        return _prices_text(pc.view, pc.tk, pc.t.lang)

    def _main_buttons(self, pc: PanelContext, keep: bool) -> list[Button]:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        market = _vec(view["market"])
        prices = _prices(view)
        funds = _funds(priv)
        cheapest = min((prices[i] for i in range(NC) if market[i]), default=None)
        stuck = priv["owed"] > 0 and not priv["must_settle"]
        can_buy = cheapest is not None and funds >= cheapest and not stuck
        can_sell = any(_vec(priv["bags"]))
        can_silver = funds >= view["silver"]["price"] and not stuck
        return [
            Button(tk("ui.buy"), Form("B", keep=keep).code(), "primary", emoji="🛒", disabled=not can_buy),
            Button(tk("ui.sell"), Form("S", keep=keep).code(), "primary", emoji="💼", disabled=not can_sell),
            Button(tk("ui.silver"), Form("V", keep=keep).code(), "primary", emoji="🥈", disabled=not can_silver),
            Button(tk("ui.keep_turn"), f"M{0 if keep else 1}", "success" if keep else "secondary",
                   emoji="☑️" if keep else "⬜"),
        ]

    def _bag_option(self, pc: PanelContext, action: dict[str, Any], table: str) -> Option:
        """A select option moving one market briefcase to `table`, with what it sets off."""
        view, tk = pc.view, pc.tk
        c = action["colour"]
        i = COLOURS.index(c)
        market = _vec(view["market"])
        desc = [tk("ui.in_market", count=market[i])]
        desc += self._move_effects(pc, table, i, market)
        label = tk(f"colour.{c}")
        return pc.act_option(label, action, " · ".join(desc), emoji=EMOJI[c])

    def _move_effects(self, pc: PanelContext, table: str, i: int, market: list[int]) -> list[str]:
        """What one more briefcase of colour i on `table` ("buy"/"silver") sets off, given the
        market as it will be before the move."""
        view, tk = pc.view, pc.tk
        c = COLOURS[i]
        counts = _vec(view["tables"][table])
        out = []
        if market[i] == 1:
            out.append(tk("ui.effect_rise", colour=c, cause="last_bag"))
        if counts[i] + 1 == 3:
            out.append(tk("ui.effect_rise", colour=c, cause="third_bag"))
        if sum(counts) + 1 >= view["triggers"]["table"]:
            out.append(tk("ui.effect_adjust", table=table))
        return out

    def _setup_select(self, pc: PanelContext) -> list[Any]:
        actions = pc.legal_of("setup_bag")
        if actions and actions[0].get("colour") is None:
            return [pc.act(pc.tk("ui.nothing_left"), actions[0], "secondary")]
        return [Select(PICK_SETUP, pc.tk("ui.setup_prompt"), [self._bag_option(pc, a, "buy") for a in actions])]

    def _pass_select(self, pc: PanelContext, keep: bool) -> list[Any]:
        actions = [a for a in pc.legal_of("pass") if ("end_turn" in a) == keep]
        if not actions:
            return []
        if actions[0].get("colour") is None:
            return [pc.act(pc.tk("ui.pass_empty"), actions[0], "secondary")]
        return [Select(PICK_PASS, pc.tk("ui.pass_select"), [self._bag_option(pc, a, "silver") for a in actions])]

    def _special_select(self, pc: PanelContext) -> list[Any]:
        actions = pc.legal_of("special_pass")
        if not actions:
            return []
        return [Select(PICK_SPECIAL, pc.tk("ui.special_select"), [self._bag_option(pc, a, "silver") for a in actions])]

    def _subsidy_select(self, pc: PanelContext) -> list[Any]:
        actions = pc.legal_of("subsidy")
        if not actions:
            return []
        priv = pc.view["private"]
        opts = []
        for a in actions:
            total = priv["units"] + a["units"]
            opts.append(pc.act_option(pc.tk("ui.subsidy_option", count=a["units"], amount=a["units"] * SUBSIDY_UNIT),
                                      a, pc.tk("ui.subsidy_desc", total=total, interest=total), emoji="💵"))
        return [Select(PICK_SUBSIDY, pc.tk("ui.subsidy_units"), opts)]

    # -- clicks -----------------------------------------------------------------------------

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        if pc.view.get("private") is None or not pc.legal:
            return Refuse("ui.not_now")
        if code in PICKS:
            # An action select of the main panel (several on one panel need distinct codes).
            action = codec.decode_action(values[0], pc.legal) if values else None
            return Apply(action) if action else Refuse("core.error.bad_action")
        if code in ("M0", "M1"):
            return Show(self._main(pc, keep=code == "M1"))
        head, _, verb = code.partition(":")
        form = Form.parse(head)
        if form is None:
            return Refuse("core.error.bad_action")
        if pc.view["acted"] or pc.view["phase"] != "turn":
            return Refuse("ui.not_now")
        value = values[0] if values else ""
        if verb == "":
            return Show(self._form_panel(pc, form))
        if verb == "k":
            return Show(self._form_panel(pc, replace(form, keep=not form.keep)))
        if verb == "c":
            return Show(self._form_panel(pc, Form(form.kind, keep=form.keep)))
        if verb.startswith("a") and form.kind in "BS":
            m = re.fullmatch(r"([YBRGO])([1-9])", value)
            if not m:
                return Refuse("core.error.bad_action")
            counts = list(form.counts)
            counts[COLOURS.index(m[1])] += int(m[2])
            grown = replace(form, counts=tuple(counts), a="" if form.kind == "B" else form.a, b="")
            if grown.total > _size(pc.view, "buy" if form.kind == "B" else "sell"):
                return Refuse("core.error.bad_action")
            return Show(self._form_panel(pc, grown))
        if verb == "q" and form.kind == "V" and value.isdigit() and 1 <= int(value) <= _size(pc.view, "silver"):
            counts = (int(value),) + (0,) * (NC - 1)
            return Show(self._form_panel(pc, replace(form, counts=counts)))
        if verb in ("x", "l") and value in COLOURS:
            return Show(self._form_panel(pc, replace(form, a=value)))
        if verb == "t" and value in COLOURS:
            return Show(self._form_panel(pc, replace(form, b=value)))
        if verb == "ok":
            return self._confirm(pc, self._resolved(pc, form))
        return Refuse("core.error.bad_action")

    # -- order forms ------------------------------------------------------------------------

    def _resolved(self, pc: PanelContext, form: Form) -> Form:
        """The form with every follow-up that has a single possible choice made, and choices
        no longer possible for this order dropped."""
        view = pc.view
        market = _vec(view["market"])
        if form.kind == "B":
            choices = [_letter(c) for c in extra_choices(market, form.counts)] if form.total else []
            a = form.a if form.a in choices else (choices[0] if len(choices) == 1 else "")
            return replace(form, a=a, b="")
        if form.kind == "S":
            sold = [c for c, k in zip(COLOURS, form.counts) if k]
            a = form.a if form.a in sold else (sold[0] if len(sold) == 1 else "")
            table = _vec(view["tables"]["sell"][view["sell_current"] - 1])
            takes = [_letter(c) for c in take_choices(table, form.counts)] if form.total else []
            b = form.b if form.b in takes else (takes[0] if len(takes) == 1 else "")
            return replace(form, a=a, b=b)
        choices = [c for c in COLOURS if market[COLOURS.index(c)]] or ["-"]
        a = form.a if form.a in choices else (choices[0] if len(choices) == 1 else "")
        return replace(form, a=a, b="")

    def _cost(self, pc: PanelContext, form: Form) -> int:
        if form.kind == "V":
            return form.counts[0] * pc.view["silver"]["price"]
        return sum(k * p for k, p in zip(form.counts, _prices(pc.view)))

    def _ready(self, form: Form) -> bool:
        if form.total == 0:
            return False
        return bool(form.a) and (form.kind != "S" or bool(form.b))

    def _confirm(self, pc: PanelContext, form: Form) -> Reply:
        if not self._ready(form):
            return Refuse("ui.pick_first")
        priv = pc.view["private"]
        action: dict[str, Any]
        if form.kind == "S":
            action = {"type": "sell", "bags": form.bags(), "lower": form.a, "take": _colour_of(form.b)}
        else:
            units = _units_for(priv, self._cost(pc, form))
            if units > priv["subsidy_room"]:
                return Refuse("ui.cannot_afford")
            if form.kind == "B":
                action = {"type": "buy", "bags": form.bags(), "extra": _colour_of(form.a)}
            else:
                action = {"type": "silver", "qty": form.counts[0], "colour": _colour_of(form.a)}
            if units:
                action["subsidy"] = units
        if form.keep:
            action["end_turn"] = False
        return Apply(action)

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
        size, limit = _size(view, option), view["limits"]["action"]
        prices = _prices(view)
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
        prices = _prices(view)
        market = _vec(view["market"])
        avail = market if buying else _vec(priv["bags"])
        lines = [tk("ui.choose_bags", limit=view["limits"]["action"])]
        if _special(view, option):
            lines.append(tk("ui.plus_hint", option=option))
        lines.append("")
        for i, c in enumerate(COLOURS):
            if form.counts[i]:
                lines.append(f"{EMOJI[c]} " + tk("ui.order_line", count=form.counts[i], colour=c, price=prices[i]))
        if not form.total:
            lines.append(tk("ui.order_empty"))
        cost = self._cost(pc, form)
        selects: list[Select] = []
        if form.total < _size(view, option):
            selects += self._add_selects(pc, form, avail, _funds(priv) if buying else None)
        if form.total:
            if buying:
                lines.append(tk("ui.total_cost", total=cost) + _sep(pc.t.lang) + tk("ui.money_line", money=priv["money"]))
                units = _units_for(priv, cost)
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
                lines.append(tk("ui.effects", items="; ".join(effects)))
        if form.keep:
            lines.append(tk("ui.keep_note"))
        return Panel(title=tk("ui.buy_title" if buying else "ui.sell_title"), description="\n".join(lines).strip(),
                     components=[*selects, *self._form_buttons(pc, form)], image=self._image(pc))

    def _extra_part(self, pc: PanelContext, form: Form, lines: list[str]) -> list[Select]:
        view, tk = pc.view, pc.tk
        market = _vec(view["market"])
        choices = extra_choices(market, form.counts)
        if len(choices) == 1:
            lines.append(tk("ui.extra_line", colour=_letter(choices[0]).replace("-", "none")))
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
        prices = _prices(view)
        if len(sold) > 1:
            out.append(Select(f"{form.code()}:l", tk("ui.lower_prompt"), [
                Option(tk(f"colour.{c}"), c, f"${prices[COLOURS.index(c)]}", emoji=EMOJI[c], default=form.a == c)
                for c in sold]))
        if form.a:
            lines.append(tk("ui.lower_line", colour=form.a))
        table_name = f"sell{view['sell_current']}"
        table = _vec(view["tables"]["sell"][view["sell_current"] - 1])
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
            market = _vec(view["market"])
            extra = _colour_of(form.a)
            after = [m - k for m, k in zip(market, form.counts)]
            if extra is not None:
                after[COLOURS.index(extra)] -= 1
            for i, c in enumerate(COLOURS):
                if market[i] > 0 and after[i] == 0:
                    out.append(tk("ui.effect_rise", colour=c, cause="last_bag"))
            if extra is not None:
                buy = _vec(view["tables"]["buy"])
                i = COLOURS.index(extra)
                if buy[i] + 1 == 3:
                    out.append(tk("ui.effect_rise", colour=extra, cause="third_bag"))
                if sum(buy) + 1 >= view["triggers"]["table"]:
                    out.append(tk("ui.effect_adjust", table="buy"))
        elif form.kind == "S":
            if form.a:
                out.append(tk("ui.effect_drop", colour=form.a))
            table = _vec(view["tables"]["sell"][view["sell_current"] - 1])
            if _colour_of(form.b) is not None and sum(table) - 1 <= view["triggers"]["sell"]:
                out.append(tk("ui.effect_adjust", table=f"sell{view['sell_current']}"))
        return out

    def _silver_panel(self, pc: PanelContext, form: Form) -> Panel:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        price = view["silver"]["price"]
        limit, size = view["limits"]["action"], _size(view, "silver")
        funds = _funds(priv)
        qty = form.counts[0]
        lines = [tk("ui.silver_line", price=price, silver=priv["silver"], gold=priv["gold"]),
                 tk("ui.money_line", money=priv["money"])]
        if _special(view, "silver"):
            lines.append(tk("ui.plus_hint", option="silver"))
        qopts = []
        for q in range(1, size + 1):
            if q * price > funds:
                break
            units = _units_for(priv, q * price)
            desc = [tk("ui.with_subsidy", count=units)] if units else []
            if q > limit:
                desc.append(tk("ui.plus_one", option="silver"))
            qopts.append(Option(tk("ui.qty_option", count=q, total=q * price), str(q), " · ".join(desc) or None,
                                emoji="🥈", default=q == qty))
        selects = [Select(f"{form.code()}:q", tk("ui.silver_qty", price=price), qopts)] if qopts else []
        if qty:
            lines.append("")
            lines.append(tk("ui.total_cost", total=qty * price))
            units = _units_for(priv, qty * price)
            if units:
                lines.append("💵 " + tk("ui.with_subsidy", count=units))
            if qty > limit:
                lines.append("⭐ " + tk("ui.plus_one", option="silver"))
            gold = (priv["silver"] + qty) // 5
            if gold:
                lines.append(tk("ui.gold_note", count=gold))
        market = _vec(view["market"])
        if any(market):
            opts = []
            for i, c in enumerate(COLOURS):
                if market[i]:
                    desc = [tk("ui.in_market", count=market[i])] + self._move_effects(pc, "silver", i, market)
                    opts.append(Option(tk(f"colour.{c}"), c, " · ".join(desc)[:100], emoji=EMOJI[c], default=form.a == c))
            if len(opts) > 1:
                selects.append(Select(f"{form.code()}:x", tk("ui.colour_prompt"), opts))
            if form.a:
                lines.append(tk("ui.silver_bag_line", colour=form.a))
                i = COLOURS.index(form.a)
                effects = self._move_effects(pc, "silver", i, market)
                if effects:
                    lines.append(tk("ui.effects", items="; ".join(effects)))
        else:
            lines.append(tk("ui.nothing_left"))
        if form.keep:
            lines.append(tk("ui.keep_note"))
        return Panel(title=tk("ui.silver"), description="\n".join(lines).strip(),
                     components=[*selects, *self._form_buttons(pc, form)], image=self._image(pc))

    # -- the table --------------------------------------------------------------------------

    def table_lines(self, tc: TableContext) -> list[str]:
        view, tk = tc.view, tc.tk
        if view["phase"] == "over":
            return [tk("ui.table_over", reason=view.get("end") or "silver")]
        lines = []
        if view["phase"] == "setup":
            lines.append(tk("phase.setup") + _sep(tc.t.lang) + tk("ui.setup_left", count=view["setup_left"]))
        lim = view["limits"]
        lines.append(tk("ui.table_level", level=_level_name(tk, view["level"]), limit=lim["action"],
                        subsidy=lim["subsidy"], draw=lim["draw"]))
        lines.append(self._prices_line(tc))
        tables = view["tables"]
        cur = view["sell_current"]
        sell = tables["sell"][cur - 1]
        lines.append(tk("ui.table_next", buy=sum(tables["buy"].values()), silver=sum(tables["silver"].values()),
                        full=view["triggers"]["table"], table=f"sell{cur}",
                        left=sum(v for k, v in sell.items() if k != "black"), at=view["triggers"]["sell"]))
        lines.append(tk("ui.table_silver", count=view["purchases"]))
        debtors = [tc.names[s] for s, info in enumerate(view["seats"]) if info.get("debt") and s < len(tc.names)]
        if debtors:
            lines.append("⚠️ " + tk("ui.table_debt", names=join_list(debtors, tc.t.lang)))
        return lines

    def narrate(self, t, event: dict[str, Any], names: list[str]) -> str | None:
        """Table narration, compact. A price adjustment is a short block: its trigger, who
        could not pay interest, one line for the draw and its black briefcases, one "new
        prices" line for the five Wall Street Journal moves, the sell-table change, rises of
        missing colours, one silver line and the level. Folded lines wait in `_fold` until an
        event that always follows them in the same action (the events of one action are
        narrated in order, in one call sequence)."""
        kind = event.get("type")
        fold = self._fold
        if kind == "adjust":
            fold.clear()
            table = event.get("table", "buy")
            if table.startswith("sell"):
                left = 4 if len(names) == 5 else 5
                return "📉 " + t("blackfriday.ui.adjust_sell", table=table, count=left)
            return "📉 " + t("blackfriday.ui.adjust_full", table=table)
        if kind == "draw":
            bags = " ".join(EMOJI.get(c, "⬛") for c in event.get("bags", []) if c != "none")
            fold["draw"] = t("blackfriday.ui.draw_line", seat=seat_names(event.get("seat"), names, t),
                             bags=bags or t("blackfriday.colour.none"))
            return None
        if kind in ("black_one", "black_crash") and "draw" in fold:
            key = "blackfriday.ui.black_one" if kind == "black_one" else "blackfriday.ui.black_crash"
            return fold.pop("draw") + " · " + t(key, count=event.get("count", 1))
        if kind == "wsj":
            fold.setdefault("moves", []).append(self._move(t, event))
            return fold.pop("draw", None)  # the draw line, when no black was drawn
        if kind == "table_cleared":
            moves = fold.pop("moves", [])
            return t("blackfriday.ui.prices_moved", moves=" · ".join(moves)) if moves else None
        if kind == "silver_price":
            first = fold.setdefault("silver", {"old": event["old"], "causes": []})
            first["new"] = event["new"]
            first["causes"].append(t("blackfriday.ui.silver_cause", cause=event["cause"], count=event["steps"]))
            return None
        if kind == "purchases":
            silver = fold.pop("silver", None)
            if silver is None:
                return None
            return "🥈 " + t("blackfriday.ui.silver_moved", old=silver["old"], new=silver["new"],
                             causes=", ".join(silver["causes"]))
        if kind in ("turn", "interest"):
            return None
        line = super().narrate(t, event, names)
        if line is None:
            return None
        mark = {"level": "⭐ ", "game_end": "🏁 ", "timeout": "⏰ ",
                "special": "🃏 ", "debt": "⚠️ "}.get(kind or "")
        return (mark + line) if mark else line

    @staticmethod
    def _move(t, event: dict[str, Any]) -> str:
        arrow = "▲" if event["new"] > event["old"] else ("▼" if event["new"] < event["old"] else "=")
        return t("blackfriday.ui.price_move", colour=event["colour"], emoji=EMOJI[event["colour"]],
                 old=event["old"], new=event["new"], arrow=arrow)
