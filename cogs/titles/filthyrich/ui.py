"""Filthy Rich on Discord: the private panel (hand, money, the tax window's sell-or-keep,
auction bids), the table's status lines, pings with each seat's one-line to-do, and a public
"Keep everything" button during tax windows. Each card's sub-menu is in
`cogs/filthyrich_menus.py`, the arithmetic from the view in `cogs/filthyrich_calc.py`.

The panel only offers what `pc.legal` holds; multi-step choices (which business, which page,
which slots) are sub-menus whose state travels in the component codes. Custom codes never
start with "!", "#", "L" or "H" (those belong to the house's action, lobby and house codes).

    card            select: a card of the hand was chosen -> its sub-menu
    pb:<card>       select: the business for Ribbon-Cutting / Zoning Variance / Moving Day
    sell            select: a business to sell on your turn -> confirmation
    tx              select: businesses to sell in a tax or audit window -> the same panel, chosen
    ts:<i.j.k>      button: sell those (indexes into your businesses) in the tax window
    bidask          button: the bid form (modal "bid")
    back, ref       buttons: the main panel again (ref is valid at any version)
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .calc import (
    KIND_EMOJI, MAX_OPTIONS, T, at, business_sign, card_name, category, effect_text, name_of, sale_value,
    sentences, sep, sign_kind, tax_due, visibility,
)
from .menus import CardMenus
from cogs.kit import codec
from cogs.kit.panel import Apply, Ask, Button, Modal, Option, Panel, Refuse, Select, Show, TextInput, parse_amount
from cogs.titles.contract import PanelContext, TableContext, TitleUI
from engine.filthyrich.data import ASSETS, BUSINESSES, LUXURIES, LUXURIES_TO_WIN, kind
from locales.format import separator
from locales import Translator

# -- the UI ----------------------------------------------------------------------------------


class UI(CardMenus, TitleUI):
    title = T
    colour = 0x2E9E5B
    #: Replays jump by these moments; the picture story draws one frame per turn.
    replay_marks = {"turn": frozenset({"turn"})}
    story_mark = "turn"
    quiet_events = frozenset({"draw", "reshuffle"})

    # -- the panel ----------------------------------------------------------------------------

    def panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        phase = view["phase"]
        me = pc.seat
        if view["over"]:
            return self._base(pc, pc.tk("ui.over"), hand_image=True)
        if not view["seats"][me]["alive"]:
            return self._base(pc, pc.tk("error.eliminated"), hand_image=False, refresh=False)
        if phase in ("tax", "audit"):
            if me in view["tax"]["pending"]:
                return self.tax_panel(pc)
            return self._waiting(pc)
        if phase == "auction":
            if view["auction"]["seat"] == me and pc.legal:
                return self.auction_panel(pc)
            return self._waiting(pc)
        if phase == "turn" and view["active"] == me and pc.legal:
            return self.turn_panel(pc)
        return self._waiting(pc)

    def _base(self, pc: PanelContext, description: str, *, hand_image: bool = True, refresh: bool = True,
              components: list[Any] | None = None, holdings: bool = True, image: Any = None) -> Panel:
        view = pc.view
        me = pc.seat
        title = f"{pc.tk('name')} · {pc.tk('ui.your_hand')} · {name_of(pc.names, me)}"
        comps = list(components or [])
        if refresh:
            comps.append(Button(pc.tk("ui.refresh"), "ref", "secondary", emoji="🔄", any_version=True))
        if image is None and hand_image:
            names, lang = pc.picture_names, pc.t.lang
            image = partial(self.render.panel_image, view, names, lang)
        return Panel(title=title, description=description, fields=self.holdings(pc) if holdings else [],
                     components=comps, image=image)

    def revealed(self, pc: PanelContext) -> list[str]:
        """A replay's "everything": the hand (which the panel shows as a picture), then the
        holdings the panel lists."""
        hand = [c["kind"] for c in (pc.view.get("private") or {}).get("hand") or []]
        cards = separator(pc.t.lang).join(pc.tk(f"card.{k}") for k in hand) or pc.tk("render.no_cards")
        return [f"{pc.tk('ui.your_hand')}: {cards}"] + [f"{n}: {v}" for n, v, _ in self.holdings(pc)]

    def holdings(self, pc: PanelContext) -> list[tuple[str, str, bool]]:
        """Fields: your businesses (where, visible, sale value), assets and luxuries."""
        view = pc.view
        me = pc.seat
        seat = view["seats"][me]
        t = pc.t
        lines = []
        for card in seat["businesses"]:
            sign = business_sign(card)
            ad = view["ads"].get(sign)
            if ad is None:
                continue
            shown, total = visibility(view, sign)
            vis = "vis_full" if shown == total else "vis_none" if shown == 0 else "vis_part"
            lines.append(pc.tk("ui.biz_line", card=kind(card), page=ad["page"], at=at(ad["slots"]),
                               count=len(ad["slots"]), shown=pc.tk(f"ui.{vis}", shown=shown, total=total),
                               amount=sale_value(view, me, card)))
        assets = []
        for a in seat["assets"]:
            if a.get("row"):
                assets.append(pc.tk("ui.asset_row", card=a["kind"], row=a["row"]))
            else:
                assets.append(card_name(t, a["kind"]))
        lux = [card_name(t, x) for x in seat["luxuries"]]
        none = pc.tk("ui.none")
        return [
            (pc.tk("ui.f_businesses"), "\n".join(lines)[:1024] or none, False),
            (pc.tk("ui.f_assets"), sep(t).join(assets)[:1024] or none, True),
            (pc.tk("ui.f_luxuries", count=len(lux), goal=LUXURIES_TO_WIN), sep(t).join(lux)[:1024] or none, True),
        ]

    def _waiting(self, pc: PanelContext) -> Panel:
        view = pc.view
        me = pc.seat
        names = pc.names
        phase = view["phase"]
        lines = []
        if phase in ("tax", "audit"):
            tx = view["tax"]
            due = tx["due"].get(str(me))
            waiting = sep(pc.t).join(name_of(names, s) for s in tx["pending"])
            if phase == "audit":
                lines.append(pc.tk("ui.audit_other", name=name_of(names, tx["scope"][0])))
            else:
                lines.append(pc.tk("ui.tax_head", count=tx["zeros"]))
            if due is not None:
                key = "ui.tax_done" if me in tx["answered"] else "ui.tax_none"
                lines.append(pc.tk(key, due=due, money=view["seats"][me]["money"]))
            if waiting:
                lines.append(pc.tk("ui.waiting", seats=waiting))
        elif phase == "auction":
            a = view["auction"]
            lines.append(self._auction_status(pc.t, view, names))
            if a["seat"] is not None:
                lines.append(pc.tk("ui.waiting", seats=name_of(names, a["seat"])))
        else:
            lines.append(pc.tk("ui.their_turn", name=name_of(names, view["active"]), round=view["round"],
                               page=view["page"]))
            lines.append(pc.tk("ui.wait_hint"))
        seat = view["seats"][me]
        lines.append(sentences(pc.t, pc.tk("ui.you_have", money=seat["money"]), self._exposure(pc)))
        return self._base(pc, "\n".join(lines))

    # -- your turn ----------------------------------------------------------------------------

    def turn_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        me = pc.seat
        seat = view["seats"][me]
        turn = view["turn"]
        t = pc.t
        lines = [pc.tk("ui.turn_head", round=view["round"], page=view["page"], count=turn["dice"]),
                 sentences(t, pc.tk("ui.you_have", money=seat["money"]), pc.tk("ui.actions_left", count=turn["actions"])),
                 self._exposure(pc)]
        effects = []
        if turn["blitz"]:
            effects.append(pc.tk("ui.fx_blitz", amount=turn["blitz"]))
        if turn["greased"]:
            effects.append(pc.tk("ui.fx_greased"))
        if turn["price_war"]:
            effects.append(pc.tk("ui.fx_war", cards=[sign_kind(s) for s in turn["price_war"]]))
        if effects:
            lines.append(pc.tk("ui.this_turn", list=sep(t).join(effects)))
        if seat["interest"]:
            key = "ui.interest_warn" if seat["money"] < seat["interest"] else "ui.interest_note"
            lines.append(pc.tk(key, amount=seat["interest"]))
        comps: list[Any] = []
        buys = pc.legal_of("buy_luxury")
        if buys:
            lines.append(pc.tk("ui.may_buy"))
            comps.append(Select("act", pc.tk("ui.buy_pick"), [
                pc.act_option(pc.tk("ui.buy_option", luxury=a["luxury"], price=LUXURIES[a["luxury"]]["price"]), a,
                              self._flag_luxury(pc, a["luxury"], LUXURIES[a["luxury"]]["price"])
                              + self.luxury_desc(t, a["luxury"]), emoji="💎")
                for a in buys][:MAX_OPTIONS]))
        hand = view["private"]["hand"]
        can_act = any(a["type"] in ("play", "discard") for a in pc.legal)
        if can_act:
            lines.append(pc.tk("ui.turn_hint"))
            options = []
            for card in hand[:MAX_OPTIONS]:
                k = card["kind"]
                playable = any(a["type"] == "play" and a["card"] == card["id"] for a in pc.legal)
                # "Cannot be played now" goes in the label, so the description keeps the whole
                # effect within Discord's 100 characters.
                label = card_name(t, k) if playable else pc.tk("ui.not_playable", card=k)
                options.append(Option(label, card["id"], self.card_summary(t, k)[:100],
                                      emoji=KIND_EMOJI[category(k)] if playable else "🚫"))
            comps.append(Select("card", pc.tk("ui.card_pick"), options))
        sells = pc.legal_of("sell")
        if sells:
            comps.append(Select("sell", pc.tk("ui.sell_pick"), [
                Option(pc.tk("ui.sell_option", card=kind(a["business"]), amount=sale_value(view, me, a["business"])),
                       a["business"], self._business_desc(pc, a["business"])[:100], emoji="🏷️")
                for a in sells][:MAX_OPTIONS]))
        repays = pc.legal_of("repay")
        if repays:
            comps.append(Select("act", pc.tk("ui.repay_pick"), [
                pc.act_option(pc.tk("ui.repay_option", card=kind(a["asset"]),
                                    amount=ASSETS[kind(a["asset"])]["params"]["repay"]), a,
                              # the warning, else what the loan does (both fit in 100 characters)
                              (self._flag(pc, seat["money"] - ASSETS[kind(a["asset"])]["params"]["repay"],
                                          drop_asset=a["asset"]).removesuffix(" · ")
                               or effect_text(t, kind(a["asset"])))[:100],
                              emoji="💸")
                for a in repays][:MAX_OPTIONS]))
        roll = {"type": "roll"}
        if roll in pc.legal:
            lines.append(pc.tk("ui.roll_hint"))
            comps.append(pc.act(pc.tk("ui.roll_count", count=turn["dice"], page=view["page"]), roll, "success",
                                emoji="🎲"))
        return self._base(pc, "\n".join(lines), components=comps, refresh=False)

    # -- tax and audit windows ----------------------------------------------------------------

    def tax_panel(self, pc: PanelContext, chosen: list[str] | None = None) -> Panel:
        view = pc.view
        me = pc.seat
        tx = view["tax"]
        money = view["seats"][me]["money"]
        due = tx["due"][str(me)]
        mine = list(view["seats"][me]["businesses"])
        chosen = [c for c in (chosen or []) if c in mine]
        if tx["kind"] == "audit":
            lines = [pc.tk("ui.audit_prompt", due=due, money=money)]
        else:
            lines = [pc.tk("ui.tax_prompt", count=tx["zeros"], due=due, money=money)]
        if money < due:
            lines.append(pc.tk("ui.tax_keep_broke"))
        if chosen:
            gain = sum(sale_value(view, me, c) for c in chosen)
            after = tax_due(view, me, tx["zeros"], chosen)
            lines.append(pc.tk("ui.tax_choice", cards=[kind(c) for c in chosen], gain=gain, money=money + gain,
                               due=after))
            if money + gain < after:
                lines.append(pc.tk("ui.tax_still_broke"))
        lines.append(pc.tk("ui.tax_final"))
        others = [s for s in tx["pending"] if s != me]
        if others:
            lines.append(pc.tk("ui.waiting", seats=sep(pc.t).join(name_of(pc.names, s) for s in others)))
        options = []
        for c in mine[:MAX_OPTIONS]:
            k = kind(c)
            options.append(Option(card_name(pc.t, k), c, pc.tk("ui.tax_option_desc", amount=sale_value(view, me, c),
                                                                 count=BUSINESSES[k]["marks"])[:100],
                                  emoji="🏷️", default=c in chosen))
        comps: list[Any] = [Select("tx", pc.tk("ui.tax_pick"), options, min_values=1, max_values=len(options))]
        comps.append(pc.act(pc.tk("ui.tax_keep"), {"type": "tax_decision", "sell": []}, "primary", emoji="✋"))
        index = {c: i for i, c in enumerate(mine)}
        code = "ts:" + ".".join(str(index[c]) for c in chosen)
        comps.append(Button(pc.tk("ui.tax_sell"), code, "danger", emoji="🏷️", disabled=not chosen))
        return self._base(pc, "\n".join(lines), components=comps, refresh=False)

    # -- auctions -----------------------------------------------------------------------------

    def _auction_status(self, t: Translator, view: dict[str, Any], names: list[str]) -> str:
        a = view["auction"]
        head = t(f"{T}.ui.auction_head", luxury=a["luxury"], name=name_of(names, a["from"]),
                 price=LUXURIES[a["luxury"]]["price"])
        if a["high"] is None:
            return sentences(t, head, t(f"{T}.ui.no_bid"))
        return sentences(t, head, t(f"{T}.ui.high_bid", amount=a["high"], name=name_of(names, a["high_seat"])))

    def auction_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        a = view["auction"]
        money = view["seats"][pc.seat]["money"]
        lux = a["luxury"]
        lines = [self._auction_status(pc.t, view, pc.names),
                 pc.tk("ui.auction_prompt", luxury=lux, min=a["min"], money=money),
                 pc.tk("ui.auction_rule")]
        if view["seats"][pc.seat]["luxuries"] and self._wins(pc):
            lines.append(pc.tk("ui.auction_wins"))
        else:
            warning = self._warning(pc, money - a["min"], add_luxury=lux)
            if warning:
                lines.append(warning)
        lots = [x["lux"] for x in view.get("lots") or []]
        if lots:
            lines.append(pc.tk("ui.lots_next", lots=lots))
        comps: list[Any] = []
        bid = {"type": "bid", "amount": a["min"]}
        if bid in pc.legal:
            comps.append(pc.act(pc.tk("ui.bid_min", amount=a["min"]), bid, "success", emoji="💰"))
        if money > a["min"]:
            comps.append(Button(pc.tk("ui.bid_other"), "bidask", "primary", emoji="✍️"))
        comps.append(pc.act(pc.tk("ui.pass"), {"type": "pass"}, "secondary", emoji="🙅"))
        return self._base(pc, "\n".join(lines), components=comps, refresh=False)

    # -- clicks -------------------------------------------------------------------------------

    def on_component(self, pc: PanelContext, code: str, values: list[str]):
        verb, _, arg = code.partition(":")
        view = pc.view
        if verb in ("back", "ref"):
            return Show(self.panel(pc))
        if verb == "card":
            hand = [c["id"] for c in view.get("private", {}).get("hand", [])]
            if not values or values[0] not in hand:
                return Refuse("error.not_in_hand")
            if view["phase"] != "turn" or view["active"] != pc.seat:
                return Refuse("error.not_your_turn")
            return Show(self.card_menu(pc, values[0]))
        if verb == "pb":
            if not values or not any(a.get("card") == arg and a.get("business") == values[0] for a in pc.legal):
                return Refuse("error.bad_business")
            return Show(self.business_menu(pc, arg, values[0]))
        if verb == "sell":
            if not values or {"type": "sell", "business": values[0]} not in pc.legal:
                return Refuse("error.not_yours" if view["phase"] == "turn" else "error.not_now")
            return Show(self.sell_menu(pc, values[0]))
        if verb == "tx":
            if not pc.legal_of("tax_decision"):
                return Refuse("error.not_asked")
            mine = view["seats"][pc.seat]["businesses"]
            if not values or not all(v in mine for v in values):
                return Refuse("error.not_yours")
            return Show(self.tax_panel(pc, values))
        if verb == "ts":
            mine = view["seats"][pc.seat]["businesses"]
            try:
                picks = [mine[int(i)] for i in arg.split(".")] if arg else []
            except (ValueError, IndexError):
                return Refuse("error.not_yours")
            if not picks or len(set(picks)) != len(picks):
                return Refuse("ui.tax_choose_first")
            return Apply({"type": "tax_decision", "sell": picks})
        if verb == "bidask":
            a = view.get("auction")
            if view["phase"] != "auction" or a is None or a["seat"] != pc.seat:
                return Refuse("error.not_your_bid")
            money = view["seats"][pc.seat]["money"]
            return Ask(Modal(pc.tk("ui.bid_modal"), "bid", [
                TextInput("amount", pc.tk("ui.bid_label", min=a["min"]), placeholder=pc.tk(
                    "ui.bid_placeholder", min=a["min"], money=money), max_length=12)]))
        return Refuse("core.error.bad_action")

    def on_modal(self, pc: PanelContext, code: str, fields: dict[str, str]):
        view = pc.view
        if code != "bid":
            return Refuse("core.error.bad_action")
        a = view.get("auction")
        if view["phase"] != "auction" or a is None or a["seat"] != pc.seat:
            return Refuse("error.not_your_bid")
        money = view["seats"][pc.seat]["money"]
        amount = parse_amount(fields.get("amount", ""), a["min"], money)
        if amount is None:
            return Refuse("ui.bid_range", {"min": a["min"], "money": money})
        return Apply({"type": "bid", "amount": amount})

    # -- the table ----------------------------------------------------------------------------

    def narrate(self, t: Translator, event: dict[str, Any], names: list[str]) -> str | None:
        """The catalogue's line, with a `count` for the plural forms (slot/slots, a 0/zeros)."""
        if "count" not in event:
            if isinstance(event.get("slots"), list):
                event = {**event, "count": len(event["slots"])}
            elif isinstance(event.get("zeros"), int):
                event = {**event, "count": event["zeros"]}
        return super().narrate(t, event, names)

    def _dues(self, t: Translator, view: dict[str, Any], names: list[str]) -> str:
        tx = view["tax"]
        return sep(t).join(t(f"{T}.ui.payee", name=name_of(names, int(s)), amount=d) for s, d in tx["due"].items())

    def table_lines(self, tc: TableContext) -> list[str]:
        view = tc.view
        t = tc.t
        names = tc.names
        phase = view["phase"]
        if phase == "over":
            winners = sep(t).join(name_of(names, s) for s in view.get("winners") or [])
            return [tc.tk("ui.tl_over", names=winners, reason=view.get("end") or "luxuries")]
        if phase in ("tax", "audit"):
            tx = view["tax"]
            if phase == "audit":
                line = tc.tk("ui.tl_audit", name=name_of(names, tx["scope"][0]),
                             due=tx["due"].get(str(tx["scope"][0]), 0))
            else:
                line = tc.tk("ui.tl_tax", count=tx["zeros"], dues=self._dues(t, view, names))
            return [line, tc.tk("ui.tl_tax_hint")]
        if phase == "auction":
            return [self._auction_status(t, view, names)]
        turn = view["turn"]
        return [tc.tk("ui.tl_turn", round=view["round"], name=name_of(names, view["active"]), page=view["page"],
                      dice=turn["dice"], count=turn["actions"])]

    def table_buttons(self, tc: TableContext) -> list[Button]:
        view = tc.view
        if view["phase"] in ("tax", "audit") and view["tax"]["pending"]:
            code = codec.action_code({"type": "tax_decision", "sell": []})
            return [Button(tc.tk("ui.tax_keep"), code, "secondary", emoji="✋")]
        return []

    def todo(self, t: Translator, view: dict[str, Any], seat: int) -> str | None:
        """What `seat` can do now, in one line for the ping that names it; from the public view
        only (money, holdings, hand sizes and the dues are public in Filthy Rich)."""
        phase = view["phase"]
        if phase == "turn" and view["active"] == seat:
            turn, me = view["turn"], view["seats"][seat]
            count = min(turn["actions"], me["hand"])
            if count <= 0:
                return t(f"{T}.ui.todo_roll")
            can_buy = turn["may_buy"] and any(LUXURIES[x]["price"] <= me["money"] for x in view["market"])
            return t(f"{T}.ui.todo_buy" if can_buy else f"{T}.ui.todo_play", count=count)
        if phase in ("tax", "audit") and seat in view["tax"]["pending"]:
            due = view["tax"]["due"].get(str(seat), 0)
            return t(f"{T}.ui.todo_{phase}", due=due)
        if phase == "auction" and view["auction"]["seat"] == seat:
            a = view["auction"]
            return t(f"{T}.ui.todo_auction", luxury=a["luxury"], min=a["min"])
        return None
