"""Black Friday's private panel and table lines.

The main panel (your turn): Buy stock, Sell stock and Buy silver open sub-panels (the order
forms, cogs/blackfriday_forms.py); Pass, Take subsidy and the special card's extra pass are
selects that act at once (each with its own code, `PICKS`: two selects on one message may not
share a custom_id); "Keep my turn open" makes the main action leave the turn open, and End turn
shows once it is done. The 2-player set-up is one select. The +1 special options are used by
choosing one more than the limit in an order form. When it is not your move, the panel says
whose it is and offers Refresh.

Privacy: holdings, money, subsidy units, silver and gold appear only in the private panel; the
table lines and the ping's to-do line use the public view only, and the narration only public
events (cogs/blackfriday_narrate.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .forms import EMOJI, NC, Form, OrderForms, dot, funds_of, level_name, order_size, price_list, prices_text, vec
from .narrate import Narration
from cogs.kit import codec
from cogs.kit.panel import Apply, Button, Option, Panel, Refuse, Reply, Select, Show
from cogs.titles.contract import PanelContext, TableContext, TitleUI
from engine.blackfriday.data import COLOURS, SUBSIDY_UNIT
from locales.format import join_list, separator

#: Codes of the main panel's action selects: each option's value is an action code.
PICK_PASS, PICK_SUBSIDY, PICK_SPECIAL, PICK_SETUP = "Ppass", "Psub", "Pspec", "Psetup"
PICKS = (PICK_PASS, PICK_SUBSIDY, PICK_SPECIAL, PICK_SETUP)
__all__ = ["PICKS", "UI", "Form"]


class UI(OrderForms, Narration, TitleUI):
    title = "blackfriday"
    colour = 0x1E1E24
    #: Replays jump by these moments; the picture story draws one frame per round.
    replay_marks = {"turn": frozenset({"turn"}), "round": frozenset({"adjust"})}
    story_mark = "round"
    #: Minor briefcase moves stay on the table's recent lines and the log.
    quiet_events = frozenset({"extra", "silver_bag", "table_bag"})

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
                comps.append(self._refresh(pc))
        elif not mine:
            lines.append(tk("ui.waiting", name=self._name(pc, view.get("active"))))
            comps.append(self._refresh(pc))
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

    @staticmethod
    def _refresh(pc: PanelContext) -> Button:
        return Button(pc.tk("ui.refresh"), "f", "secondary", emoji="🔄", any_version=True)

    def _image(self, pc: PanelContext):
        view, names, lang = pc.view, pc.picture_names, pc.t.lang
        if view.get("private") is None:
            return None
        render = self.render
        return lambda: render.panel_image(view, names, lang)

    @staticmethod
    def _name(pc: PanelContext, seat: Any) -> str:
        return pc.names[seat] if isinstance(seat, int) and 0 <= seat < len(pc.names) else "?"

    def revealed(self, pc: PanelContext) -> list[str]:
        """A replay's "everything": the purse, stocks and special cards the panel shows."""
        return self._private_lines(pc)

    def _private_lines(self, pc: PanelContext) -> list[str]:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        out = [tk("ui.purse", money=priv["money"], units=priv["units"], limit=view["limits"]["subsidy"],
                  silver=priv["silver"], gold=priv["gold"])]
        prices = price_list(view)
        held = vec(priv["bags"])
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
        return prices_text(pc.view, pc.tk, pc.t.lang)

    def _main_buttons(self, pc: PanelContext, keep: bool) -> list[Button]:
        view, tk = pc.view, pc.tk
        priv = view["private"]
        market = vec(view["market"])
        prices = price_list(view)
        funds = funds_of(priv)
        cheapest = min((prices[i] for i in range(NC) if market[i]), default=None)
        stuck = priv["owed"] > 0 and not priv["must_settle"]
        can_buy = cheapest is not None and funds >= cheapest and not stuck
        can_sell = any(vec(priv["bags"]))
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
        market = vec(view["market"])
        desc = [tk("ui.in_market", count=market[i])]
        desc += self._move_effects(pc, table, i, market)
        label = tk(f"colour.{c}")
        return pc.act_option(label, action, " · ".join(desc), emoji=EMOJI[c])

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
        if code == "f":  # Refresh, on the waiting panel
            return Show(self.panel(pc))
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
            if grown.total > order_size(pc.view, "buy" if form.kind == "B" else "sell"):
                return Refuse("core.error.bad_action")
            return Show(self._form_panel(pc, grown))
        if verb == "q" and form.kind == "V" and value.isdigit() and 1 <= int(value) <= order_size(pc.view, "silver"):
            counts = (int(value),) + (0,) * (NC - 1)
            return Show(self._form_panel(pc, replace(form, counts=counts)))
        if verb in ("x", "l") and value in COLOURS:
            return Show(self._form_panel(pc, replace(form, a=value)))
        if verb == "t" and value in COLOURS:
            return Show(self._form_panel(pc, replace(form, b=value)))
        if verb in ("ok", "oks"):
            return self._confirm(pc, self._resolved(pc, form), asked=verb == "oks")
        return Refuse("core.error.bad_action")

    def todo(self, t, view: dict[str, Any], seat: int) -> str | None:
        """What `seat` can do now, in one line for the ping that names it. From the public view
        only (the line goes to the channel): the phase, whether the main action is done, and
        the public owed-interest flag."""
        if view.get("over") or view.get("active") != seat:
            return None
        if view["phase"] == "setup":
            return t("blackfriday.todo.setup")
        if view["acted"]:
            return t("blackfriday.todo.acted")
        seats = view.get("seats") or []
        if seat < len(seats) and seats[seat].get("debt"):
            return t("blackfriday.todo.debt")
        return t("blackfriday.todo.turn")

    # -- the table --------------------------------------------------------------------------

    def glance(self, tc: TableContext) -> str | None:
        """The prices: what a reminded player decides on (the level comes first on the table)."""
        return None if tc.view["phase"] == "over" else self._prices_line(tc)

    def table_lines(self, tc: TableContext) -> list[str]:
        view, tk = tc.view, tc.tk
        if view["phase"] == "over":
            return [tk("ui.table_over", reason=view.get("end") or "silver")]
        lines = []
        if view["phase"] == "setup":
            lines.append(tk("phase.setup") + dot(tc.t.lang) + tk("ui.setup_left", count=view["setup_left"]))
        lim = view["limits"]
        lines.append(tk("ui.table_level", level=level_name(tk, view["level"]), limit=lim["action"],
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
