"""I'm the Boss! on Discord: the negotiation panel (the deal in words, the boss's answers to offers,
the offer form, card plays). Mixed into the UI (imtheboss.py)."""

from __future__ import annotations

from typing import Any

from .words import (
    CLAN_EMOJI, MAX_OPTIONS, MAX_SECTIONS, T, clan, compact, ctx_key, name_of, offer_text, price, pseudo_state,
    sep, src_text,
)
from cogs.kit.panel import Button, Modal, Option, Panel, Section, Select, TextInput
from cogs.titles.contract import PanelContext
from engine.imtheboss.table import shared_plan
from locales import Translator
from locales.format import join_sentences


class DealPanel:
    """The deal's part of the panel; the methods use the UI's `_base` and `panel` through self."""

    def deal_lines(self, t: Translator, view: dict[str, Any], names: list[str], full: bool = True) -> list[str]:
        """The deal in a few lines: head, slots, offers and promises, travellers."""
        deal = view["deal"]
        boss = name_of(names, deal["boss"])
        head = t(f"{T}.ui.deal_head", space=deal["space"], card=deal["card"], div=deal["div"], value=deal["value"],
                 proceeds=deal["proceeds"], boss=boss)
        if deal["starter"] != deal["boss"]:
            head = join_sentences(head, t(f"{T}.ui.deal_starter", seat=name_of(names, deal["starter"])))
        lines = [head, t(f"{T}.ui.needs", list=self.slots_text(t, view, names))]
        if view["shared"]:
            lines.append(t(f"{T}.ui.shared_line", share=deal.get("share") or 0))
        else:
            offers = [o for o in deal["offers"]]
            if offers:
                lines.append(t(f"{T}.ui.offers_line", list=t("core.punct.items").join(
                    t(f"{T}.ui.offer_state", offer=offer_text(t, names, o), state=t(f"{T}.render.{o['state']}"))
                    for o in offers)))
            if deal["accepted_total"]:
                lines.append(t(f"{T}.ui.promised", total=deal["accepted_total"], proceeds=deal["proceeds"],
                               room=deal["room"]))
        if full:
            offered = {o["src"] for o in deal["offers"]}
            free = [s for s in deal["sources"] if not s["committed"] and s["src"] not in offered]
            if free:
                lines.append(t(f"{T}.ui.could_join", list=sep(t).join(src_text(t, names, s) for s in free)))
        if deal["away"]:
            lines.append(t(f"{T}.ui.away_line", list=sep(t).join(
                src_text(t, names, {"clan": a["clan"], "kind": "placard", "owner": a["owner"]}) for a in deal["away"])))
        return lines

    def slots_text(self, t: Translator, view: dict[str, Any], names: list[str]) -> str:
        deal = view["deal"]
        owners = {s["src"]: s["owner"] for s in deal["sources"]}
        parts = []
        for slot in deal["slots"]:
            if slot["kind"] == "req":
                c = slot["clans"][0]
                by = [name_of(names, owners.get(src)) for src in slot["by"]]
                if by:
                    parts.append("✅ " + t(f"{T}.ui.slot_by", clan=clan(t, c), by=sep(t).join(dict.fromkeys(by))))
                else:
                    parts.append(f"⬜ {clan(t, c)}")
            else:
                members = "/".join(CLAN_EMOJI[c] for c in slot["clans"])
                got = [clan(t, c) for c in slot["filled"]]
                mark = "✅" if len(slot["filled"]) >= slot["k"] else "⬜"
                text = t(f"{T}.ui.pool", k=slot["k"], clans=members)
                if got:
                    text = t(f"{T}.ui.pool_got", pool=text, got=sep(t).join(got))
                missing = slot["k"] - len(slot["filled"])
                if missing > 0:
                    text = join_sentences(text, t(f"{T}.ui.more_needed", count=missing))
                parts.append(f"{mark} {text}")
        return " · ".join(parts)

    def deal_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        deal = view["deal"]
        win = view.get("window")
        me = pc.seat
        names = pc.names
        key = ctx_key(view)
        lines = self.deal_lines(pc.t, view, names)
        comps: list[Any] = []
        boss = deal["boss"] == me
        if win is not None and win["kind"] == "last_call":
            waiting = sep(pc.t).join(name_of(names, s) for s in win["owing"])
            lines.insert(0, pc.tk("ui.last_call_line", seat=name_of(names, win["by"])))
            if boss:
                lines.append(pc.tk("ui.last_call_boss", seats=waiting))
                if {"type": "cancel_close"} in pc.legal:
                    comps.append(self._x(pc, key, pc.tk("ui.cancel_close"), {"type": "cancel_close"}, "secondary",
                                         emoji="↩️"))
            else:
                if me in win["owing"]:
                    lines.append(pc.tk("ui.last_call_prompt", seat=name_of(names, win["by"])))
                    comps.append(Button(pc.tk("ui.pass"), f"w{win['id']}|p", "success", emoji="👌", any_version=True))
                else:
                    lines.append(pc.tk("ui.last_call_passed", seats=waiting))
                comps += self._card_plays(pc, key)
            return self._base(pc, lines, comps)
        sections: list[Section] = []
        if boss:
            lines.append(pc.tk("ui.shared_you_boss" if view["shared"] else "ui.you_boss"))
            comps += self._boss_components(pc, key, lines, sections)
        else:
            lines.append(pc.tk("ui.shared_not_boss" if view["shared"] else "ui.you_not_boss",
                               boss=name_of(names, deal["boss"]), share=deal.get("share") or 0))
            comps += self._offer_components(pc, key, lines)
            if {"type": "pass"} in pc.legal:  # the boss waits for an offer or a pass (issue 19)
                lines.append(pc.tk("ui.deal_asked", boss=name_of(names, deal["boss"])))
                comps.append(self._x(pc, key, pc.tk("ui.deal_pass"), {"type": "pass"}, "secondary", emoji="👌"))
        comps += self._card_plays(pc, key)
        if not any(not (isinstance(c, Button) and c.code == "rf") for c in comps):
            lines.append(pc.tk("ui.deal_nothing"))
        return self._base(pc, lines, comps, sections=sections)

    def _x(self, pc: PanelContext, key: str, label: str, action: dict[str, Any], style: str = "primary",
           emoji: str | None = None) -> Button:
        """A button for `action` that stays good while the moment `key` lasts."""
        code = f"x{key}|{compact(action)}"
        if len(code) > 80:  # never for this title's actions; the version-bound way as a fallback
            return pc.act(label, action, style, emoji=emoji)
        return Button(label[:80], code, style, emoji=emoji, any_version=True)

    def _x_select(self, pc: PanelContext, key: str, name: str, placeholder: str, options: list[Option]) -> Select:
        """A select of actions for this moment; `name` keeps two such selects on one panel apart
        (Discord refuses a message whose components share a custom_id)."""
        return Select(f"x{key}~{name}", placeholder, options, any_version=True)

    def _x_option(self, label: str, action: dict[str, Any], description: str | None = None,
                  emoji: str | None = None) -> Option:
        return Option(label[:100], compact(action), (description or None) and description[:100], emoji=emoji)

    def _boss_components(self, pc: PanelContext, key: str, lines: list[str], sections: list[Section]) -> list[Any]:
        """The boss's answers: the first offers each as a line with its button beside it (Accept,
        or Decline when it cannot be accepted), and one select with every other answer, never
        cut (the house splits it by 25), so every offer can be answered however many wait."""
        view = pc.view
        deal = view["deal"]
        t, names = pc.t, pc.names
        comps: list[Any] = []
        answers = [a for a in pc.legal if a["type"] in ("accept", "decline")]
        offers = {o["id"]: o for o in deal["offers"]}
        if answers:
            ids = list(dict.fromkeys(a["offer"] for a in answers))
            lines.append(pc.tk("ui.offers_prompt", count=len(ids)))
            shown: list[dict[str, Any]] = []
            for oid in ids[:MAX_SECTIONS]:
                o = offers[oid]
                text = t(f"{T}.ui.offer_state", offer=offer_text(t, names, o), state=t(f"{T}.render.{o['state']}"))
                accept = {"type": "accept", "offer": oid}
                if accept in pc.legal:
                    button = self._x(pc, key, pc.tk("ui.accept_btn", what=name_of(names, o["seat"])), accept, "success")
                    shown.append(accept)
                else:
                    if o.get("refused"):
                        text += " · " + _why_not(pc, o["refused"], deal)
                    decline = {"type": "decline", "offer": oid}
                    button = self._x(pc, key, pc.tk("ui.decline_btn", what=name_of(names, o["seat"])), decline,
                                     "danger")
                    shown.append(decline)
                sections.append(Section(text, button))
            rest = [a for a in answers if a not in shown]
            if rest:
                options = []
                for a in rest:
                    o = offers[a["offer"]]
                    verb = "ui.accept_opt" if a["type"] == "accept" else "ui.decline_opt"
                    why = _why_not(pc, o["refused"], deal) if o.get("refused") else pc.tk(f"render.{o['state']}")
                    options.append(self._x_option(pc.tk(verb, what=offer_text(t, names, o)), a, why,
                                                  emoji="✅" if a["type"] == "accept" else "❌"))
                comps.append(self._x_select(pc, key, "o", pc.tk("ui.offers_select"), options))
        close = {"type": "close"}
        if close in pc.legal:
            lines.append("✅ " + pc.tk("ui.can_close"))
            if view["shared"]:
                comps += self._shared_close(pc, key, lines)
            else:
                comps.append(self._x(pc, key, pc.tk("ui.close"), close, "success"))
        elif not deal["met"]:
            lines.append("⬜ " + pc.tk("ui.cannot_close"))
        if {"type": "fail"} in pc.legal:
            comps.append(self._x(pc, key, pc.tk("ui.fail"), {"type": "fail"}, "secondary", emoji="🏳️"))
        return comps

    def _shared_close(self, pc: PanelContext, key: str, lines: list[str]) -> list[Any]:
        """2-player rules: Close uses the fewest rival investors (shown); a select may name others."""
        view = pc.view
        deal = view["deal"]
        t, names = pc.t, pc.names
        comps: list[Any] = [self._x(pc, key, pc.tk("ui.close"), {"type": "close"}, "success")]
        try:
            _, foreign = shared_plan(pseudo_state(view))
        except (ValueError, KeyError):
            return comps
        share = deal.get("share") or 0
        if foreign:
            lines.append(pc.tk("ui.close_plan", list=sep(t).join(src_text(t, names, s) for s in foreign),
                               share=share, total=share * len(foreign)))
        else:
            lines.append(pc.tk("ui.close_plan_none"))
        have = {s["clan"] for s in deal["sources"] if s["owner"] == deal["boss"]}
        rivals = [s for s in deal["sources"] if s["owner"] != deal["boss"] and s["clan"] not in have]
        if foreign and len(rivals) > len(foreign):
            options = [Option(src_text(t, names, s)[:100], s["src"], emoji=CLAN_EMOJI[s["clan"]]) for s in rivals]
            comps.append(Select(f"cu{key}", pc.tk("ui.close_use", count=len(foreign)), options[:MAX_OPTIONS],
                                min_values=len(foreign), max_values=len(foreign), any_version=True))
        return comps

    def _offer_components(self, pc: PanelContext, key: str, lines: list[str]) -> list[Any]:
        view = pc.view
        deal = view["deal"]
        t, names = pc.t, pc.names
        comps: list[Any] = []
        offers = {o["src"]: o for o in deal["offers"] if o["seat"] == pc.seat}
        srcs = list(dict.fromkeys(a["src"] for a in pc.legal_of("offer")))
        by_src = {s["src"]: s for s in deal["sources"]}
        if srcs:
            options = []
            for src in srcs:
                s = by_src.get(src)
                if s is None:
                    continue
                o = offers.get(src)
                desc = pc.tk("ui.offer_current", price=price(t, o["ask"], o["usd"])) if o else pc.tk("ui.no_offer")
                options.append(Option(src_text(t, names, s, owner=False)[:100], src, desc[:100],
                                      emoji=CLAN_EMOJI[s["clan"]]))
            if options:
                lines.append(pc.tk("ui.offer_hint_line", proceeds=deal["proceeds"], room=deal["room"],
                                   value=deal["value"]))
                comps.append(Select(f"of{key}", pc.tk("ui.offer"), options, any_version=True))
        for a in pc.legal_of("withdraw"):
            o = next((o for o in deal["offers"] if o["id"] == a["offer"]), None)
            if o is not None:
                comps.append(self._x(pc, key, pc.tk("ui.withdraw_btn", what=offer_text(t, names, o, owner=False)), a,
                                     "secondary", emoji="↩️"))
        return comps

    def _card_plays(self, pc: PanelContext, key: str) -> list[Any]:
        """I'm the boss!, clan cards, travels and recruit triples, as the legal list allows."""
        view = pc.view
        deal = view["deal"]
        t, names = pc.t, pc.names
        comps: list[Any] = []
        if {"type": "boss"} in pc.legal:
            comps.append(self._x(pc, key, pc.tk("ui.boss"), {"type": "boss"}, "danger"))
        clans = pc.legal_of("play_clan")
        if clans:
            covered = set(deal["covered"])
            options = []
            for a in clans:
                c = a["clan"]
                desc = pc.tk("ui.clan_covered") if c in covered else pc.tk("ui.clan_needed")
                options.append(self._x_option(pc.tk("ui.clan_option", clan=clan(t, c, emoji=False)), a, desc,
                                              emoji=CLAN_EMOJI[c]))
            comps.append(self._x_select(pc, key, "c", pc.tk("ui.play_clan"), options))
        travels = pc.legal_of("travel")
        if travels:
            by_src = {s["src"]: s for s in deal["sources"]}
            if len(travels) <= MAX_OPTIONS:
                options = []
                for a in travels:
                    s = by_src.get(a["src"])
                    if s is None:
                        continue
                    label = pc.tk("ui.travel_option", what=src_text(t, names, s), card=f"travel-{a['color']}")
                    options.append(self._x_option(label, a, self._src_state(pc, s), emoji="✈️"))
                comps.append(self._x_select(pc, key, "t", pc.tk("ui.travel"), options))
            else:
                targets = list(dict.fromkeys(a["src"] for a in travels))
                options = [Option(src_text(t, names, by_src[s])[:100], s, self._src_state(pc, by_src[s])[:100],
                                  emoji=CLAN_EMOJI[by_src[s]["clan"]]) for s in targets if s in by_src]
                comps.append(Select(f"tv{key}", pc.tk("ui.travel"), options, any_version=True))
        recruits = pc.legal_of("recruit")
        if recruits:
            comps.append(self._recruit_select(pc, recruits, key=key))
        return comps

    def _recruit_select(self, pc: PanelContext, recruits: list[dict[str, Any]], key: str = "",
                        version_bound: bool = False) -> Select:
        view = pc.view
        owners = {c: s["seat"] for s in view["seats"] for c in s["placards"]}
        options = []
        for a in recruits:
            c = a["clan"]
            owner = owners.get(c)
            label = pc.tk("ui.recruit_spare", clan=clan(pc.t, c, emoji=False)) if owner is None else \
                pc.tk("ui.recruit_from", clan=clan(pc.t, c, emoji=False), seat=name_of(pc.names, owner))
            if version_bound:
                options.append(pc.act_option(label, a, emoji=CLAN_EMOJI[c]))
            else:
                options.append(self._x_option(label, a, emoji=CLAN_EMOJI[c]))
        if version_bound:
            return Select("act", pc.tk("ui.recruit"), options[:MAX_OPTIONS])
        return self._x_select(pc, key, "r", pc.tk("ui.recruit"), options)

    def _src_state(self, pc: PanelContext, s: dict[str, Any]) -> str:
        deal = pc.view["deal"]
        if s["auto"]:
            return pc.tk("ui.state_boss")
        o = next((o for o in deal["offers"] if o["src"] == s["src"]), None)
        if o is not None:
            return pc.tk(f"render.{o['state']}") + " · " + price(pc.t, o["ask"], o["usd"])
        return pc.tk("ui.state_free")

    def travel_menu(self, pc: PanelContext, key: str, src: str) -> Panel:
        view = pc.view
        s = next((s for s in view["deal"]["sources"] if s["src"] == src), None)
        plays = [a for a in pc.legal_of("travel") if a["src"] == src]
        if s is None or not plays:
            return self.panel(pc, notice="⏳ " + pc.t("core.panel.stale"))
        lines = [pc.tk("ui.travel_colour"), src_text(pc.t, pc.names, s)]
        comps: list[Any] = [self._x(pc, key, pc.tk(f"card.travel-{a['color']}"), a, "primary", emoji="✈️")
                            for a in plays]
        comps.append(Button(pc.tk("ui.back"), "rf", "secondary", emoji="↩️", any_version=True))
        return self._base(pc, lines, comps, refresh=False, fields=False)

    def offer_modal(self, pc: PanelContext, src: str) -> Modal:
        view = pc.view
        deal = view["deal"]
        s = next(s for s in deal["sources"] if s["src"] == src)
        current = next((o for o in deal["offers"] if o["src"] == src and o["seat"] == pc.seat), None)
        usd = str(current["ask"]["usd"]) if current and "usd" in current["ask"] else ""
        div = str(current["ask"]["div"]) if current and "div" in current["ask"] else ""
        hint = pc.tk("ui.offer_hint", proceeds=deal["proceeds"], room=deal["room"])
        return Modal(pc.tk("ui.offer_modal", clan=s["clan"], src=s["kind"]), f"om|{src}", [
            TextInput("usd", pc.tk("ui.offer_usd"), placeholder=hint, default=usd, max_length=6, required=False),
            TextInput("div", pc.tk("ui.offer_div", value=deal["value"]),
                      placeholder=pc.tk("ui.offer_div_hint", div=deal["div"], value=deal["value"]), default=div,
                      max_length=3, required=False),
        ])


#: The boss's panel's short reason beside an offer it cannot accept, by the rules' refusal key.
_SHORT_REASONS = {"clan_covered": "ui.cannot_accept_covered", "over_proceeds": "ui.cannot_accept_short"}


def _why_not(pc: PanelContext, refused: dict[str, Any], deal: dict[str, Any]) -> str:
    """The reason the rules give (engine view: offers[].refused), short; a reason without a
    short form in the catalogue is said in full."""
    short = _SHORT_REASONS.get(refused["key"])
    if short is None:
        return pc.tk("error." + refused["key"], **refused["params"])
    return pc.tk(short, room=deal["room"], **refused["params"])
