"""Filthy Rich's card sub-menus: what a card of the hand can do (placements with their cover
fees, targets, pages, rows), why it cannot be played, selling a business, and the newcomer's
guard that warns before a move leaves less than the taxes to expect (issue 15). A mixin of
the title's UI (cogs/filthyrich.py), which provides `_base` and `panel`."""

from __future__ import annotations

from typing import Any

from .calc import (
    MAX_OPTIONS, T, at, business_sign, card_name, category, cover_fees, effect_key, effect_text, mini_grid,
    name_of, sale_value, sentences, sep,
)
from cogs.kit.panel import Button, Option, Panel, Select
from cogs.titles.contract import PanelContext
from engine.filthyrich import risk
from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES, LUXURIES, LUXURIES_TO_WIN, kind
from locales import Translator


class CardMenus:
    """The sub-menus of the Filthy Rich panel (mixed into `UI`)."""

    # -- the newcomer's guard (issue 15): warn before a move leaves less than the taxes ---------

    def _exposure(self, pc: PanelContext) -> str:
        """What each 0 costs, and the taxes to expect before your next turn."""
        seat = pc.view["seats"][pc.seat]
        line = pc.tk("ui.tax_exposure", amount=seat["tax_per_zero"])
        ahead = risk.taxes_ahead(pc.view, pc.seat)
        return sentences(pc.t, line, pc.tk("ui.taxes_ahead", amount=ahead) if ahead else "")

    def _shortfall(self, pc: PanelContext, after: int, **bought: str) -> int | None:
        """The taxes to expect before your next turn, if a move leaving `after` dollars (and
        adding what it buys) would leave less than them; else None."""
        taxes = risk.taxes_ahead(pc.view, pc.seat, **bought)
        return taxes if after < taxes else None

    def _warning(self, pc: PanelContext, after: int, **bought: str) -> str | None:
        """The sentence for a sub-panel, before the move is made."""
        taxes = self._shortfall(pc, after, **bought)
        return None if taxes is None else pc.tk("ui.warn_taxes", money=max(0, after), taxes=taxes)

    def _flag(self, pc: PanelContext, after: int, **bought: str) -> str:
        """The same as a prefix for a select option's description (first, so never cut)."""
        taxes = self._shortfall(pc, after, **bought)
        return "" if taxes is None else pc.tk("ui.warn_short", money=max(0, after), taxes=taxes) + " · "

    def _wins(self, pc: PanelContext) -> bool:
        """Whether one more luxury wins the game (then no tax comes after it)."""
        return len(pc.view["seats"][pc.seat]["luxuries"]) + 1 >= LUXURIES_TO_WIN

    def _flag_luxury(self, pc: PanelContext, x: str, price: int) -> str:
        if self._wins(pc):
            return ""
        return self._flag(pc, pc.view["seats"][pc.seat]["money"] - price, add_luxury=x)

    def luxury_desc(self, t: Translator, x: str) -> str:
        lux = LUXURIES[x]
        desc = t(f"{T}.ui.marks_part", count=lux["marks"])
        if lux.get("special"):
            desc += " · " + t(f"{T}.special.{lux['special']}")
        return desc[:100]

    def card_summary(self, t: Translator, k: str) -> str:
        """Kind, cost, $ marks and effect in one line (select descriptions)."""
        cat = category(k)
        bits = [t(f"{T}.kind.{cat}")]
        if cat == "business":
            bits.append(f"${BUSINESSES[k]['cost']}")
            if BUSINESSES[k]["marks"]:
                bits.append("$" * BUSINESSES[k]["marks"])
        elif cat == "asset":
            bits.append(f"${ASSETS[k]['cost']}")
            if ASSETS[k]["marks"]:
                bits.append("$" * ASSETS[k]["marks"])
        bits.append(effect_text(t, k))
        return " · ".join(bits)

    def _business_desc(self, pc: PanelContext, card: str) -> str:
        view = pc.view
        ad = view["ads"].get(business_sign(card))
        if ad is None:
            return effect_text(pc.t, kind(card))
        return pc.tk("ui.where", page=ad["page"], at=at(ad["slots"]), count=len(ad["slots"])) + " · " + \
            effect_text(pc.t, kind(card))

    # -- a card's sub-menu --------------------------------------------------------------------

    def card_menu(self, pc: PanelContext, card: str) -> Panel:
        view = pc.view
        t = pc.t
        k = kind(card)
        cat = category(k)
        plays = [a for a in pc.legal if a["type"] == "play" and a.get("card") == card]
        lines = [f"**{card_name(t, k)}** · " + self.card_summary(t, k)]
        comps: list[Any] = []
        image = None
        eff = effect_key(k)
        if not plays:
            lines.append("🚫 " + self.why_not(pc, card))
        elif cat == "business":
            lines.append(pc.tk("ui.slots_pick", card=k, page=view["page"]))
            self._warn_cheapest(pc, lines, k, view["page"], plays, BUSINESSES[k]["cost"])
            comps.append(self._slots_select(pc, k, view["page"], plays, cost=BUSINESSES[k]["cost"], bought=k))
            image = self._binder_image(pc, k, plays)
        elif eff == "muscle":
            lines.append(pc.tk("ui.row_pick"))
            comps += [pc.act(pc.tk(f"row.{a['row']}"), a, "primary") for a in plays]
        elif eff in ("open_discount", "open_any_page", "move_ad"):
            businesses = list(dict.fromkeys(a["business"] for a in plays))
            if len(businesses) == 1:
                return self.business_menu(pc, card, businesses[0])
            lines.append(pc.tk("ui.business_pick"))
            comps.append(Select(f"pb:{card}", pc.tk("ui.business_pick"), [
                Option(card_name(t, kind(b)), b, self.card_summary(t, kind(b))[:100], emoji="🏪")
                for b in businesses][:MAX_OPTIONS]))
            image = self._binder_image(pc) if eff == "move_ad" else None
        elif eff == "set_page":
            lines.append(pc.tk("ui.page_pick"))
            comps += [pc.act(pc.tk("ui.page_open" if a["page"] == view["page"] else "ui.page_option", page=a["page"]),
                             a, "primary" if a["page"] != view["page"] else "secondary") for a in plays]
            image = self._binder_image(pc)
        elif eff in ("destroy", "takeover", "price_war"):
            lines.append(pc.tk("ui.business_pick"))
            comps.append(Select("act", pc.tk("ui.business_pick"), [
                pc.act_option(pc.tk("ui.business_option", card=kind(a["business"]),
                                    owner=name_of(pc.names, self._owner(view, a["business"]))), a,
                              self._rival_desc(pc, eff, a["business"])[:100], emoji="🏪")
                for a in plays][:MAX_OPTIONS]))
            image = self._binder_image(pc)
        elif eff in ("audit", "lawsuit", "headhunt"):
            lines.append(pc.tk("ui.target_pick"))
            for a in plays:
                s = view["seats"][a["target"]]
                comps.append(pc.act(pc.tk("ui.target_option", name=name_of(pc.names, a["target"]), money=s["money"],
                                          count=s["hand"]), a, "primary"))
        elif eff == "research":
            lines.append(pc.tk("ui.research_pick"))
            comps.append(Select("act", pc.tk("ui.research_pick"), [
                pc.act_option(card_name(t, a["business"]), a, self.card_summary(t, a["business"])[:100], emoji="🔎")
                for a in plays][:MAX_OPTIONS]))
        elif eff == "estate_sale":
            lines.append(pc.tk("ui.luxury_pick"))
            disc = ACTIONS[k]["params"]["discount"]
            comps.append(Select("act", pc.tk("ui.luxury_pick"), [
                pc.act_option(pc.tk("ui.estate_option", luxury=a["luxury"],
                                    price=max(0, LUXURIES[a["luxury"]]["price"] - disc),
                                    list=LUXURIES[a["luxury"]]["price"]), a,
                              self._flag_luxury(pc, a["luxury"], max(0, LUXURIES[a["luxury"]]["price"] - disc))
                              + self.luxury_desc(t, a["luxury"]), emoji="💎")
                for a in plays][:MAX_OPTIONS]))
        else:
            a = plays[0]
            cost = ASSETS[k]["cost"] if cat == "asset" else 0
            label = pc.tk("ui.play_cost", card=k, cost=cost) if cost else pc.tk("ui.play_card", card=k)
            comps.append(pc.act(label, a, "primary", emoji="▶️"))
        if cat == "asset" and plays:
            gain = ASSETS[k]["params"].get("gain", 0) if ASSETS[k]["effect"] == "loan" else 0
            warning = self._warning(pc, view["seats"][pc.seat]["money"] - ASSETS[k]["cost"] + gain, add_asset=k)
            if warning:
                lines.append(warning)
        return self._sub_panel(pc, card, lines, comps, image)

    def _warn_cheapest(self, pc: PanelContext, lines: list[str], k: str, page: int, plays: list[dict[str, Any]],
                       cost: int, ignore: str | None = None) -> None:
        """The warning line when even the cheapest placement leaves less than the taxes to
        expect (each placement's option says so too). A play may name its page (Zoning Variance)."""
        if not plays:
            return
        fee = min(sum(f[1] for f in cover_fees(pc.view, pc.seat, a.get("page", page), a["slots"], ignore))
                  for a in plays)
        bought = {} if ignore else {"add_business": k}
        warning = self._warning(pc, pc.view["seats"][pc.seat]["money"] - cost - fee, **bought)
        if warning:
            lines.append(warning)

    def _sub_panel(self, pc: PanelContext, card: str, lines: list[str], comps: list[Any], image: Any) -> Panel:
        discard = {"type": "discard", "card": card}
        buttons = []
        if discard in pc.legal:
            buttons.append(pc.act(pc.tk("ui.discard"), discard, "secondary", emoji="🗑️"))
        buttons.append(Button(pc.tk("ui.back"), "back", "secondary", emoji="↩️"))
        return self._base(pc, "\n".join(lines), components=comps + buttons, refresh=False, holdings=False,
                          image=image)

    def _binder_image(self, pc: PanelContext, k: str | None = None, plays: list[dict[str, Any]] | None = None):
        """The table's picture; with a business and its placements on the open page, the page
        with the slots its ad may take outlined."""
        view, names, lang = pc.view, pc.picture_names, pc.t.lang
        if k is not None and plays:
            placements = [a["slots"] for a in plays if a.get("page", view["page"]) == view["page"]]
            if placements:
                return lambda: self.render.placement_image(view, names, lang, k, placements)
        return lambda: self.render.table_image(view, names, lang)

    @staticmethod
    def _owner(view: dict[str, Any], card: str) -> int | None:
        ad = view["ads"].get(business_sign(card))
        return None if ad is None else ad["owner"]

    def _rival_desc(self, pc: PanelContext, eff: str, card: str) -> str:
        view = pc.view
        k = kind(card)
        ad = view["ads"].get(business_sign(card))
        where = pc.tk("ui.where", page=ad["page"], at=at(ad["slots"]), count=len(ad["slots"])) if ad else ""
        if eff == "takeover":
            flag = self._flag(pc, view["seats"][pc.seat]["money"] - BUSINESSES[k]["cost"], add_business=k)
            return flag + pc.tk("ui.takeover_desc", amount=BUSINESSES[k]["cost"],
                                name=name_of(pc.names, self._owner(view, card))) + " · " + where
        return where + " · " + effect_text(pc.t, k)

    def _slots_select(self, pc: PanelContext, k: str, page: int, plays: list[dict[str, Any]], cost: int,
                      ignore: str | None = None, placeholder: str | None = None, bought: str | None = None) -> Select:
        """The placements of one business's ad on one page, with their cover fees (and a warning
        on those that leave less than the taxes to expect; `bought`: the business opened)."""
        view = pc.view
        money = view["seats"][pc.seat]["money"]
        options = []
        for a in plays[:MAX_OPTIONS]:
            fees = cover_fees(view, pc.seat, page, a["slots"], ignore)
            fee = sum(f[1] for f in fees)
            label = pc.tk("ui.slots_option_fee", at=at(a["slots"]), fee=fee) if fee else \
                pc.tk("ui.slots_option", at=at(a["slots"]))
            if fees:
                per: dict[int, int] = {}
                for owner, amount in fees:
                    per[owner] = per.get(owner, 0) + amount
                payees = sep(pc.t).join(pc.tk("ui.payee", name=name_of(pc.names, o), amount=m) for o, m in per.items())
                desc = pc.tk("ui.slots_desc_fee", total=cost + fee, payees=payees)
            else:
                desc = pc.tk("ui.slots_desc", total=cost + fee)
            flag = self._flag(pc, money - cost - fee, **({"add_business": bought} if bought else {}))
            options.append(pc.act_option(label, a, (flag + mini_grid(a["slots"]) + " · " + desc)[:100]))
        return Select("act", placeholder or pc.tk("ui.slots_pick", card=k, page=page), options)

    def business_menu(self, pc: PanelContext, card: str, business: str) -> Panel:
        """Ribbon-Cutting, Zoning Variance or Moving Day once the business is chosen."""
        view = pc.view
        t = pc.t
        k = kind(card)
        bk = kind(business)
        eff = effect_key(k)
        plays = [a for a in pc.legal if a["type"] == "play" and a.get("card") == card and a.get("business") == business]
        lines = [f"**{card_name(t, k)}** · " + effect_text(t, k),
                 f"🏪 **{card_name(t, bk)}** · " + self.card_summary(t, bk)]
        comps: list[Any] = []
        if not plays:
            lines.append("🚫 " + self.why_not(pc, card))
        elif eff == "open_any_page":
            lines.append(pc.tk("ui.zoning_pick", card=bk, page=view["page"]))
            pages = sorted({a["page"] for a in plays})
            for page in pages:
                on_page = [a for a in plays if a["page"] == page]
                placeholder = pc.tk("ui.zoning_page_open" if page == view["page"] else "ui.zoning_page", page=page)
                comps.append(self._slots_select(pc, bk, page, on_page, cost=BUSINESSES[bk]["cost"],
                                                placeholder=placeholder, bought=bk))
            self._warn_cheapest(pc, lines, bk, view["page"], plays, BUSINESSES[bk]["cost"])
        elif eff == "move_ad":
            lines.append(pc.tk("ui.move_pick", card=bk, page=view["page"]))
            self._warn_cheapest(pc, lines, bk, view["page"], plays, 0, ignore=business_sign(business))
            comps.append(self._slots_select(pc, bk, view["page"], plays, cost=0, ignore=business_sign(business)))
        else:
            cost = max(0, BUSINESSES[bk]["cost"] - ACTIONS[k]["params"].get("discount", 0))
            lines.append(pc.tk("ui.ribbon_cost", cost=cost))
            lines.append(pc.tk("ui.slots_pick", card=bk, page=view["page"]))
            self._warn_cheapest(pc, lines, bk, view["page"], plays, cost)
            comps.append(self._slots_select(pc, bk, view["page"], plays, cost=cost, bought=bk))
        return self._sub_panel(pc, card, lines, comps, self._binder_image(pc, bk, plays))

    def why_not(self, pc: PanelContext, card: str) -> str:
        """Why a card in hand cannot be played now, as precisely as the view allows."""
        view = pc.view
        me = pc.seat
        money = view["seats"][me]["money"]
        k = kind(card)
        if view["turn"]["actions"] <= 0:
            return pc.tk("error.no_actions")
        if k in BUSINESSES:
            if BUSINESSES[k]["sign"] in view["ads"]:
                return pc.tk("error.sign_in_binder", card=k)
            if BUSINESSES[k]["cost"] > money:
                return pc.tk("error.cant_afford", need=BUSINESSES[k]["cost"], money=money)
            return pc.tk("ui.why_room", page=view["page"])
        if k in ASSETS:
            return pc.tk("error.cant_afford", need=ASSETS[k]["cost"], money=money)
        eff = ACTIONS[k]["effect"]
        key = {
            "open_discount": "why_open", "open_any_page": "why_open", "move_ad": "why_move",
            "destroy": "why_destroy", "takeover": "why_takeover", "price_war": "why_rival",
            "headhunt": "why_headhunt", "estate_sale": "why_estate", "research": "why_research",
        }.get(eff)
        return pc.tk(f"ui.{key}") if key else pc.tk("error.cannot_play", card=k)

    def sell_menu(self, pc: PanelContext, card: str) -> Panel:
        view = pc.view
        action = {"type": "sell", "business": card}
        ad = view["ads"].get(business_sign(card))
        amount = sale_value(view, pc.seat, card)
        lines = [pc.tk("ui.sell_confirm", card=kind(card), amount=amount, page=ad["page"] if ad else "-",
                       at=at(ad["slots"]) if ad else "-", count=len(ad["slots"]) if ad else 1)]
        comps = [pc.act(pc.tk("ui.sell_do", amount=amount), action, "danger", emoji="🏷️"),
                 Button(pc.tk("ui.back"), "back", "secondary", emoji="↩️")]
        return self._base(pc, "\n".join(lines), components=comps, refresh=False, holdings=False,
                          image=self._binder_image(pc))
