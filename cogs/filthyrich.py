"""Filthy Rich on Discord: the private panel (hand, money, every card's choices, the tax
window's sell-or-keep, auction bids), the table's status lines, pings and a public "Keep
everything" button during tax windows.

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

from cogs.shared import codec
from cogs.shared.panel import Apply, Ask, Button, Modal, Option, Panel, Refuse, Select, Show, TextInput, parse_amount
from cogs.shared.titles import PanelContext, TableContext, TitleUI
from engine.filthyrich import binder as bd
from engine.filthyrich.data import (
    ACTIONS,
    ASSETS,
    BUSINESSES,
    COVER_FEE,
    LUXURIES,
    LUXURIES_TO_WIN,
    SALE_PER_CARD,
    SIGN_KINDS,
    TAX_PER_MARK,
    kind,
)
from locales import Translator
from locales.format import separator

T = "filthyrich"
KIND_EMOJI = {"business": "🏪", "asset": "💼", "action": "⚡"}
MAX_OPTIONS = 25


# -- small helpers ---------------------------------------------------------------------------


def category(k: str) -> str:
    return "business" if k in BUSINESSES else "asset" if k in ASSETS else "action"


def effect_key(k: str) -> str | None:
    if k in ASSETS:
        return ASSETS[k]["effect"]
    if k in ACTIONS:
        return ACTIONS[k]["effect"]
    return None


def effect_text(t: Translator, k: str) -> str:
    """The card's effect in a line (the same words as the card pictures)."""
    if k in BUSINESSES:
        b = BUSINESSES[k]
        text = t(f"{T}.hit.{b['hit']['key']}", **dict(zip("abc", b["hit"]["args"])))
        if b.get("on_zero"):
            text += " · " + t(f"{T}.hit.on_zero", n=b["on_zero"])
        return text
    data = ASSETS.get(k) or ACTIONS[k]
    params = {p: abs(v) if isinstance(v, int) else v for p, v in data["params"].items()}
    return t(f"{T}.effect.{k}", **params)


def card_name(t: Translator, k: str) -> str:
    return t(f"{T}.card.{k}")


def sep(t: Translator) -> str:
    return separator(t.lang)


def at(slots: list[int]) -> str:
    return "+".join(str(s) for s in slots)


def mini_grid(slots: list[int]) -> str:
    """The ad's slots as a 3x3 picture in one line: ■□□ ■□□ □□□."""
    return " ".join("".join("■" if 3 * r + c + 1 in slots else "□" for c in range(3)) for r in range(3))


def name_of(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def asset_effects(view: dict[str, Any], seat: int, effect: str) -> list[dict[str, Any]]:
    return [ASSETS[a["kind"]] for a in view["seats"][seat]["assets"] if ASSETS[a["kind"]]["effect"] == effect]


def cover_fees(view: dict[str, Any], seat: int, page: int, slots: list[int],
               ignore: str | None = None) -> list[tuple[int, int]]:
    """(owner, amount) per directly covered rival card, as the rules charge them (the Cousin
    beats the Ironclad Lease)."""
    if asset_effects(view, seat, "no_cover_fees"):
        return []
    out = []
    for s in slots:
        below = bd.covered(view["binder"], page, s, ignore)
        if below is None:
            continue
        ad = view["ads"].get(below[1])
        if ad is None or ad["owner"] == seat:
            continue
        leases = asset_effects(view, ad["owner"], "cover_fee_to_me")
        out.append((ad["owner"], max(a["params"]["per_card"] for a in leases) if leases else COVER_FEE))
    return out


def sale_value(view: dict[str, Any], seat: int, card: str) -> int:
    brokers = asset_effects(view, seat, "sale_per_card")
    per = max(a["params"]["per_card"] for a in brokers) if brokers else SALE_PER_CARD
    return per * BUSINESSES[kind(card)]["cards"]


def tax_due(view: dict[str, Any], seat: int, zeros: int, sold: list[str] = ()) -> int:
    """What the seat would pay for `zeros` zeros after selling `sold` (the rules' formula)."""
    if zeros <= 0:
        return 0
    tx = view.get("tax")
    if tx and tx["kind"] == "tax" and view["turn"]["greased"] and seat == view["active"]:
        return 0
    marks = view["seats"][seat]["marks"] - sum(BUSINESSES[kind(c)]["marks"] for c in sold)
    shelter = sum(a["params"]["marks"] for a in asset_effects(view, seat, "tax_shelter"))
    times = 1 if zeros >= 2 and asset_effects(view, seat, "one_zero_only") else zeros
    doublings = sum(1 for x in view["seats"][seat]["luxuries"] if LUXURIES[x].get("special") == "double_taxes")
    return max(0, marks - shelter) * TAX_PER_MARK * times * 2 ** doublings


def sign_kind(sign: str) -> str:
    return SIGN_KINDS[sign][0]


def visibility(view: dict[str, Any], sign: str) -> tuple[int, int]:
    """(cards of the ad showing on the open page, cards of the ad)."""
    ad = view["ads"].get(sign)
    if ad is None:
        return 0, 0
    shown = sum(1 for cell in view["grid"] if cell is not None and cell["sign"] == sign)
    return shown, len(ad["slots"])


def business_sign(card: str) -> str:
    return BUSINESSES[kind(card)]["sign"]


# -- the UI ----------------------------------------------------------------------------------


class UI(TitleUI):
    title = T
    colour = 0x2E9E5B
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
        lines.append(pc.tk("ui.you_have", money=seat["money"]) + " " + pc.tk("ui.tax_exposure", amount=seat["tax_per_zero"]))
        return self._base(pc, "\n".join(lines))

    # -- your turn ----------------------------------------------------------------------------

    def turn_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        me = pc.seat
        seat = view["seats"][me]
        turn = view["turn"]
        t = pc.t
        lines = [pc.tk("ui.turn_head", round=view["round"], page=view["page"], count=turn["dice"]),
                 pc.tk("ui.you_have", money=seat["money"]) + " " + pc.tk("ui.actions_left", count=turn["actions"])
                 + " " + pc.tk("ui.tax_exposure", amount=seat["tax_per_zero"])]
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
                              self._luxury_desc(t, a["luxury"]), emoji="💎")
                for a in buys][:MAX_OPTIONS]))
        hand = view["private"]["hand"]
        can_act = any(a["type"] in ("play", "discard") for a in pc.legal)
        if can_act:
            lines.append(pc.tk("ui.turn_hint"))
            options = []
            for card in hand[:MAX_OPTIONS]:
                k = card["kind"]
                playable = any(a["type"] == "play" and a["card"] == card["id"] for a in pc.legal)
                desc = self._card_summary(t, k)
                if not playable:
                    desc = pc.tk("ui.not_playable") + " · " + desc
                options.append(Option(card_name(t, k), card["id"], desc[:100], emoji=KIND_EMOJI[category(k)]))
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
                              effect_text(t, kind(a["asset"]))[:100], emoji="💸")
                for a in repays][:MAX_OPTIONS]))
        roll = {"type": "roll"}
        if roll in pc.legal:
            lines.append(pc.tk("ui.roll_hint"))
            comps.append(pc.act(pc.tk("ui.roll_count", count=turn["dice"], page=view["page"]), roll, "success",
                                emoji="🎲"))
        return self._base(pc, "\n".join(lines), components=comps, refresh=False)

    def _luxury_desc(self, t: Translator, x: str) -> str:
        lux = LUXURIES[x]
        desc = t(f"{T}.ui.marks_part", count=lux["marks"])
        if lux.get("special"):
            desc += " · " + t(f"{T}.special.{lux['special']}")
        return desc[:100]

    def _card_summary(self, t: Translator, k: str) -> str:
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
        lines = [f"**{card_name(t, k)}** · " + self._card_summary(t, k)]
        comps: list[Any] = []
        image = None
        eff = effect_key(k)
        if not plays:
            lines.append("🚫 " + self.why_not(pc, card))
        elif cat == "business":
            lines.append(pc.tk("ui.slots_pick", card=k, page=view["page"]))
            comps.append(self._slots_select(pc, k, view["page"], plays, cost=BUSINESSES[k]["cost"]))
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
                Option(card_name(t, kind(b)), b, self._card_summary(t, kind(b))[:100], emoji="🏪")
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
                pc.act_option(card_name(t, a["business"]), a, self._card_summary(t, a["business"])[:100], emoji="🔎")
                for a in plays][:MAX_OPTIONS]))
        elif eff == "estate_sale":
            lines.append(pc.tk("ui.luxury_pick"))
            disc = ACTIONS[k]["params"]["discount"]
            comps.append(Select("act", pc.tk("ui.luxury_pick"), [
                pc.act_option(pc.tk("ui.estate_option", luxury=a["luxury"],
                                    price=max(0, LUXURIES[a["luxury"]]["price"] - disc),
                                    list=LUXURIES[a["luxury"]]["price"]), a, self._luxury_desc(t, a["luxury"]),
                              emoji="💎")
                for a in plays][:MAX_OPTIONS]))
        else:
            a = plays[0]
            cost = ASSETS[k]["cost"] if cat == "asset" else 0
            label = pc.tk("ui.play_cost", card=k, cost=cost) if cost else pc.tk("ui.play_card", card=k)
            comps.append(pc.act(label, a, "primary", emoji="▶️"))
        return self._sub_panel(pc, card, lines, comps, image)

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
            return pc.tk("ui.takeover_desc", amount=BUSINESSES[k]["cost"],
                         name=name_of(pc.names, self._owner(view, card))) + " · " + where
        return where + " · " + effect_text(pc.t, k)

    def _slots_select(self, pc: PanelContext, k: str, page: int, plays: list[dict[str, Any]], cost: int,
                      ignore: str | None = None, placeholder: str | None = None) -> Select:
        """The placements of one business's ad on one page, with their cover fees."""
        view = pc.view
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
            options.append(pc.act_option(label, a, (mini_grid(a["slots"]) + " · " + desc)[:100]))
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
                 f"🏪 **{card_name(t, bk)}** · " + self._card_summary(t, bk)]
        comps: list[Any] = []
        if not plays:
            lines.append("🚫 " + self.why_not(pc, card))
        elif eff == "open_any_page":
            lines.append(pc.tk("ui.zoning_pick", card=bk, page=view["page"]))
            for page in sorted({a["page"] for a in plays}):
                on_page = [a for a in plays if a["page"] == page]
                placeholder = pc.tk("ui.zoning_page_open" if page == view["page"] else "ui.zoning_page", page=page)
                comps.append(self._slots_select(pc, bk, page, on_page, cost=BUSINESSES[bk]["cost"],
                                                placeholder=placeholder))
        elif eff == "move_ad":
            lines.append(pc.tk("ui.move_pick", card=bk, page=view["page"]))
            comps.append(self._slots_select(pc, bk, view["page"], plays, cost=0, ignore=business_sign(business)))
        else:
            cost = max(0, BUSINESSES[bk]["cost"] - ACTIONS[k]["params"].get("discount", 0))
            lines.append(pc.tk("ui.ribbon_cost", cost=cost))
            lines.append(pc.tk("ui.slots_pick", card=bk, page=view["page"]))
            comps.append(self._slots_select(pc, bk, view["page"], plays, cost=cost))
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
            return head + " " + t(f"{T}.ui.no_bid")
        return head + " " + t(f"{T}.ui.high_bid", amount=a["high"], name=name_of(names, a["high_seat"]))

    def auction_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        a = view["auction"]
        money = view["seats"][pc.seat]["money"]
        lux = a["luxury"]
        lines = [self._auction_status(pc.t, view, pc.names),
                 pc.tk("ui.auction_prompt", luxury=lux, min=a["min"], money=money),
                 pc.tk("ui.auction_rule")]
        if view["seats"][pc.seat]["luxuries"] and len(view["seats"][pc.seat]["luxuries"]) + 1 >= LUXURIES_TO_WIN:
            lines.append(pc.tk("ui.auction_wins"))
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

    def ping_text(self, t: Translator, view: dict[str, Any]) -> str | None:
        phase = view["phase"]
        if phase == "turn":
            return t(f"{T}.ui.ping_turn")
        if phase == "tax":
            return t(f"{T}.ui.ping_tax", count=view["tax"]["zeros"])
        if phase == "audit":
            tx = view["tax"]
            return t(f"{T}.ui.ping_audit", due=tx["due"].get(str(tx["scope"][0]), 0))
        if phase == "auction":
            a = view["auction"]
            return t(f"{T}.ui.ping_auction", luxury=a["luxury"], min=a["min"])
        return None
