"""I'm the Boss! on Discord: the private panel, the table's status lines, pings and a public
Pass button for the pass-or-stop windows and the last call.

The panel follows the phase: the marker select, the turn (deal here / roll / draw), the
discard form, and the negotiation, where everyone may act at any time: offers (a select of
your investors opens a price form), withdrawals, clan cards, travel, recruit triples, the boss
card, and for the boss accept / decline (the first offers as lines with their button beside
them, every other answer in one select the house splits by 25), close and give up. Every other
player owes the boss an offer or a pass (issue 19), which the ping's to-do line says. A card
that opens a window makes
every other player answer Pass or Stop; the public side of the window (table, ping) is the same
for everyone, and the private panel shows Stop only to a holder of one.

A negotiation moves the game's version on every click, so the deal's components do not go
stale with the version: they carry the moment they were drawn for (the open window's id, or
the deal's deadline id, which changes with the boss), and a click whose moment has passed gets
a fresh panel. The engine judges every action anyway.

Codes (never starting with "L", "H", "!" or "#", which belong to the lobby, the house and the
house's action codes):
    rf                 button: redraw the panel (any version)
    mo                 button: "More" of panels drawn before everything fitted on one: redraws
    w<window>|p, |s    button: pass / stop in that window (any version)
    x<key>|<json>      button: that action, while the moment <key> lasts (any version)
    x<key>~<name>      select: the chosen option's value is the action's JSON (any version);
                       the house's pages of a long select add "~<n>", which the router removes
    of<key>            select: one of your investors -> the price form (modal "om|<src>")
    tv<key>            select: a travel target -> its travel cards (when options overflow)
    cu<key>            select: the rival investors a 2-player close uses
    ds, dk|<i.j>       select / button: the cards to discard, then discard them

Privacy: exact money and hands appear only in the private panel; the table lines, pings and
narration use the public view (money as a bracket, never exact before the end).
"""

from __future__ import annotations

import json
from typing import Any

from .deal import DealPanel
from .words import MAX_OPTIONS, T, clan, ctx_key, draw_count, kind_emoji, money_range, name_of, needs_text, sep
from cogs.kit.panel import Apply, Ask, Button, Option, Panel, Refuse, Reply, Section, Select, Show, parse_amount
from cogs.titles.contract import PanelContext, TableContext, TitleUI
from engine.imtheboss.data import CLANS, KINDS, SPACES, kind
from locales import Translator
from locales.format import join_sentences

# -- small helpers ------------------------------------------------------------------------------


class UI(DealPanel, TitleUI):
    title = T
    colour = 0xD4A017
    #: Replays jump by these moments; the picture story draws one frame per turn.
    replay_marks = {"turn": frozenset({"turn"}), "deal": frozenset({"deal_started"})}
    story_mark = "turn"
    #: Every answer in a window is a line on the table and in the log, not a message of its own.
    quiet_events = frozenset({"passed"})

    # == the panel ==============================================================================

    def panel(self, pc: PanelContext, notice: str = "") -> Panel:
        view = pc.view
        me = pc.seat
        if view["over"]:
            return self._base(pc, [pc.tk("ui.over")], [])
        if view["seats"][me]["resigned"]:
            return self._base(pc, [pc.tk("error.resigned")], [], refresh=False)
        phase = view["phase"]
        win = view.get("window")
        if win is not None and win["kind"] == "reaction":
            panel = self.reaction_panel(pc)
        elif phase == "marker":
            panel = self.marker_panel(pc)
        elif phase in ("turn_start", "moved"):
            panel = self.turn_panel(pc)
        elif phase == "discard":
            panel = self.discard_panel(pc)
        elif phase == "deal":
            panel = self.deal_panel(pc)
        else:
            panel = self._base(pc, [pc.tk("ui.nothing")], [])
        if notice:
            panel.description = f"{notice}\n\n{panel.description}".strip()
        return panel

    def _base(self, pc: PanelContext, lines: list[str], comps: list[Any], *, refresh: bool = True,
              fields: bool = True, sections: list[Section] | None = None) -> Panel:
        """The panel: text, the things acted on each with its button beside it (Sections), then
        every button and select. Components V2 has room for all of them (the house splits a select
        of more than 25 options), so nothing is put away in a sub-panel."""
        view = pc.view
        names, lang = list(pc.picture_names), pc.t.lang
        buttons = [c for c in comps if isinstance(c, Button)]
        selects = [c for c in comps if isinstance(c, Select)]
        if refresh:
            buttons.append(Button(pc.tk("ui.refresh"), "rf", "secondary", emoji="🔄", any_version=True))
        return Panel(
            title=f"{pc.tk('name')} · {name_of(pc.names, pc.seat)}",
            description="\n".join(x for x in lines if x)[:4000],
            fields=self.holdings(pc) if fields else [],
            components=[*buttons, *selects],
            image=lambda: self.render.panel_image(view, names, lang),
            sections=list(sections or []),
        )

    def holdings(self, pc: PanelContext) -> list[tuple[str, str, bool]]:
        """Your hand in words (the picture shows the cards), money and placards."""
        view = pc.view
        t = pc.t
        priv = view.get("private") or {}
        kinds = priv.get("kinds") or {}
        cards = []
        for k in KINDS:
            n = kinds.get(k, 0)
            if n:
                label = f"{kind_emoji(k)} {t(f'{T}.card.{k}')}"
                cards.append(f"{label} ×{n}" if n > 1 else label)
        me = view["seats"][pc.seat]
        placards = sep(t).join(clan(t, c) for c in me["placards"]) or pc.tk("render.no_placards")
        total = sum(kinds.values())
        return [
            (pc.tk("ui.hand_field", count=total, limit=view["hand_limit"]),
             (" · ".join(cards) or pc.tk("render.empty_hand"))[:1024], False),
            (pc.tk("ui.money", money=priv.get("money", 0)),
             pc.tk("ui.money_seen", range=money_range(t, me["money_est"])), True),
            (pc.tk("render.placards"), placards[:1024], True),
        ]

    # -- marker and turn ------------------------------------------------------------------------

    def marker_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        marks = pc.legal_of("marker")
        if not marks:
            return self._base(pc, [pc.tk("ui.wait_marker", seat=name_of(pc.names, view["marker_seat"]))], [])
        mine = set(view["seats"][pc.seat]["placards"])
        options = []
        for a in marks[:MAX_OPTIONS]:
            sp = a["space"]
            desc = needs_text(pc.t, sp, emoji=False)
            held = [c for c in CLANS if c in mine and self._named(sp, c)]
            if held:
                desc += " · " + pc.tk("ui.yours", clans=sep(pc.t).join(pc.tk(f"clan.{c}") for c in held))
            options.append(pc.act_option(pc.tk("ui.space_option", space=sp, div=SPACES[sp]["div"]), a, desc[:100]))
        lines = [pc.tk("ui.marker_intro", seat=name_of(pc.names, view["start"]))]
        return self._base(pc, lines, [Select("act", pc.tk("ui.marker_prompt"), options)])

    @staticmethod
    def _named(space: int, c: str) -> bool:
        sp = SPACES[space]
        return c in sp["req"] or any(c in pool for pool, _ in sp["pools"])

    def space_info(self, t: Translator, view: dict[str, Any], space: int | None) -> str:
        if space is None:
            return ""
        top = view.get("top")
        div = SPACES[space]["div"]
        if top is None:
            return t(f"{T}.ui.space_info_nocard", space=space, needs=needs_text(t, space), div=div)
        return t(f"{T}.ui.space_info", space=space, needs=needs_text(t, space), div=div, value=top["value"],
                 proceeds=div * top["value"], card=top["no"])

    def cover_line(self, pc: PanelContext, space: int | None) -> str:
        """Which clans of the space you could bring yourself (placards, clan cards in hand)."""
        if space is None:
            return ""
        view = pc.view
        mine = set(view["seats"][pc.seat]["placards"])
        kinds = (view.get("private") or {}).get("kinds") or {}
        bits = []
        for c in CLANS:
            if not self._named(space, c):
                continue
            if c in mine:
                bits.append(pc.tk("ui.cover_placard", clan=clan(pc.t, c)))
            elif kinds.get(f"clan-{c}"):
                bits.append(pc.tk("ui.cover_card", clan=clan(pc.t, c)))
        if not bits:
            return pc.tk("ui.cover_none")
        return pc.tk("ui.cover_yours", list=sep(pc.t).join(bits))

    def turn_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        phase = view["phase"]
        if view["active"] != pc.seat or not pc.legal:
            lines = [pc.tk("ui.wait_turn", seat=name_of(pc.names, view["active"])),
                     self.space_info(pc.t, view, view["marker"])]
            return self._base(pc, lines, [])
        space = view["marker"]
        if phase == "turn_start":
            lines = [pc.tk("ui.your_turn", space=space)]
        else:
            roll = view.get("last_roll") or {}
            lines = [pc.tk("ui.rolled", roll=roll.get("roll", "?"), space=space), pc.tk("ui.moved", space=space)]
        lines += [self.space_info(pc.t, view, space), self.cover_line(pc, space)]
        if view["must_deal"]:
            lines.append("⚠️ " + pc.tk("ui.must_deal"))
        comps: list[Any] = []
        deal = {"type": "deal_here"}
        if deal in pc.legal:
            comps.append(pc.act(pc.tk("ui.deal_here"), deal, "success"))
        elif view["options"].get("no_deal_at_3"):
            lines.append(pc.tk("ui.no_deal_few"))
        if {"type": "roll"} in pc.legal:
            comps.append(pc.act(pc.tk("ui.roll"), {"type": "roll"}, "primary"))
        if {"type": "draw"} in pc.legal:
            comps.append(pc.act(pc.tk("ui.draw", count=draw_count(view, pc.seat)), {"type": "draw"}, "primary"))
        return self._base(pc, lines, comps)

    # -- discarding -----------------------------------------------------------------------------

    def discard_panel(self, pc: PanelContext, chosen: list[str] | None = None) -> Panel:
        view = pc.view
        if view["active"] != pc.seat or not pc.legal:
            return self._base(pc, [pc.tk("ui.wait_discard", seat=name_of(pc.names, view["active"]),
                                         limit=view["hand_limit"])], [])
        hand = list(view["private"]["hand"])
        excess = len(hand) - view["hand_limit"]
        chosen = [c for c in (chosen or []) if c in hand][:max(excess, 0)]
        lines = [pc.tk("ui.discard_prompt", count=excess, limit=view["hand_limit"])]
        comps: list[Any] = []
        seen: dict[str, int] = {}
        options = []
        for c in hand[:MAX_OPTIONS]:
            k = kind(c)
            seen[k] = seen.get(k, 0) + 1
            label = pc.tk(f"card.{k}") + (f" ({seen[k]})" if seen[k] > 1 else "")
            options.append(Option(label, c, self._card_help(pc, k), emoji=kind_emoji(k), default=c in chosen))
        comps.append(Select("ds", pc.tk("ui.discard_select", count=excess), options, min_values=1,
                            max_values=max(1, excess)))
        if chosen:
            lines.append(pc.tk("ui.discard_chosen", cards=[kind(c) for c in chosen]))
            index = {c: i for i, c in enumerate(hand)}
            comps.append(Button(pc.tk("ui.discard_do", count=len(chosen)), "dk|" + ".".join(str(index[c]) for c in chosen),
                                "danger", emoji="🗑️"))
        recruits = pc.legal_of("recruit")
        if recruits:
            lines.append(pc.tk("ui.discard_recruit"))
            comps.append(self._recruit_select(pc, recruits, version_bound=True))
        return self._base(pc, lines, comps)

    def _card_help(self, pc: PanelContext, k: str) -> str:
        family = "clan" if k.startswith("clan-") else "travel" if k.startswith("travel-") else k
        return pc.tk(f"card_help.{family}")[:100]

    # -- windows -----------------------------------------------------------------------------------

    def window_line(self, t: Translator, view: dict[str, Any], names: list[str]) -> str:
        """What the open pass-or-stop window is about (the same words for everyone)."""
        win = view["window"]
        by = name_of(names, win["by"])
        owner = win.get("target_owner")
        if win["card"] == "travel":
            parts = (win.get("target") or "").split(":")
            return t(f"{T}.ui.react_travel", by=by, card=f"travel-{win['color']}", seat=name_of(names, owner),
                     what=t(f"{T}.ui.src", clan=clan(t, parts[1]), src=parts[0]) if len(parts) > 1 else "?")
        if win["card"] == "boss":
            return t(f"{T}.ui.react_boss", by=by, seat=name_of(names, owner))
        target = clan(t, win.get("target") or "red")
        if owner is None:
            return t(f"{T}.ui.react_recruit_spare", by=by, clan=target)
        return t(f"{T}.ui.react_recruit", by=by, clan=target, seat=name_of(names, owner))

    def reaction_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        win = view["window"]
        names = pc.names
        lines = [self.window_line(pc.t, view, names)]
        waiting = sep(pc.t).join(name_of(names, s) for s in win["owing"])
        comps: list[Any] = []
        if pc.seat in win["owing"]:
            lines.append(pc.tk("ui.react_ask"))
            comps.append(Button(pc.tk("ui.pass"), f"w{win['id']}|p", "secondary", emoji="👌", any_version=True))
            if {"type": "stop"} in pc.legal:
                comps.append(Button(pc.tk("ui.stop"), f"w{win['id']}|s", "danger", any_version=True))
        elif win["by"] == pc.seat:
            lines.append(pc.tk("ui.react_yours", seats=waiting))
        else:
            lines.append(pc.tk("ui.react_answered", seats=waiting))
        if view.get("deal"):
            lines.append("")
            lines += self.deal_lines(pc.t, view, names)
        return self._base(pc, lines, comps)

    # -- the negotiation --------------------------------------------------------------------------














    # == clicks ==================================================================================

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        view = pc.view
        if code in ("rf", "bk"):
            return Show(self.panel(pc))
        if code == "mo":  # the "More" button of panels drawn before everything fitted on one
            return Show(self.panel(pc))
        if code.startswith("w"):
            wid, _, verb = code[1:].partition("|")
            win = view.get("window")
            if win is None or win["id"] != wid:
                return Show(self.panel(pc, notice="⏳ " + pc.tk("ui.window_gone")))
            action = {"type": "stop" if verb == "s" else "pass"}
            if action not in pc.legal:
                return Refuse("error.not_owing" if pc.seat not in win["owing"] else "error.no_card",
                              {"card": "stop"})
            return Apply(action)
        if code.startswith("x"):
            key, _, payload = code[1:].partition("|")
            key = key.partition("~")[0]  # a select's name (see _x_select)
            if key != ctx_key(view):
                return Show(self.panel(pc, notice="⏳ " + pc.t("core.panel.stale")))
            text = payload or (values[0] if values else "")
            try:
                action = json.loads(text)
            except ValueError:
                return Refuse("core.error.bad_action")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                return Refuse("core.error.bad_action")
            return Apply(action)
        if code.startswith("of"):
            if code[2:] != ctx_key(view) or not values:
                return Show(self.panel(pc, notice="⏳ " + pc.t("core.panel.stale")))
            src = values[0]
            if not any(a["src"] == src for a in pc.legal_of("offer")):
                return Refuse("error.not_your_source")
            return Ask(self.offer_modal(pc, src))
        if code.startswith("tv"):
            if code[2:] != ctx_key(view) or not values:
                return Show(self.panel(pc, notice="⏳ " + pc.t("core.panel.stale")))
            return Show(self.travel_menu(pc, code[2:], values[0]))
        if code.startswith("cu"):
            if code[2:] != ctx_key(view) or not values:
                return Show(self.panel(pc, notice="⏳ " + pc.t("core.panel.stale")))
            return Apply({"type": "close", "use": list(values)})
        if code == "ds":
            if view["phase"] != "discard" or view["active"] != pc.seat:
                return Refuse("error.wrong_phase")
            return Show(self.discard_panel(pc, list(values)))
        if code.startswith("dk|"):
            hand = (view.get("private") or {}).get("hand") or []
            try:
                picks = [hand[int(i)] for i in code[3:].split(".") if i != ""]
            except (ValueError, IndexError):
                return Refuse("error.not_in_hand")
            if not picks:
                return Refuse("ui.discard_choose")
            return Apply({"type": "discard", "cards": picks})
        return Refuse("core.error.bad_action")

    def on_modal(self, pc: PanelContext, code: str, fields: dict[str, str]) -> Reply:
        if not code.startswith("om|"):
            return Refuse("core.error.bad_action")
        src = code[3:]
        usd_text = (fields.get("usd") or "").strip()
        div_text = (fields.get("div") or "").strip()
        if usd_text and div_text:
            return Refuse("ui.offer_both")
        if not usd_text and not div_text:
            return Refuse("ui.offer_empty")
        amount = parse_amount(usd_text or div_text, 0)
        if amount is None:
            return Refuse("error.bad_ask")
        ask = {"usd": amount} if usd_text else {"div": amount}
        return Apply({"type": "offer", "src": src, "ask": ask})

    # == narration =================================================================================

    def narrate(self, t: Translator, event: dict[str, Any], names: list[str]) -> str | None:
        if event.get("type", "").endswith("_div") and "div" in event and "count" not in event:
            event = {**event, "count": event["div"]}  # "1 dividend", "2 dividends"
        return super().narrate(t, event, names)

    # == the table ===============================================================================

    def table_lines(self, tc: TableContext) -> list[str]:
        view = tc.view
        t, names = tc.t, tc.names
        phase = view["phase"]
        if view["over"]:
            res = view.get("results") or {}
            places = res.get("places") or []
            winners = [s for s, p in enumerate(places) if p == 1]
            return [tc.tk("ui.tl_over", reason=view.get("end_reason") or "last_deal",
                          winner=sep(t).join(name_of(names, s) for s in winners) or "-")]
        lines: list[str] = []
        win = view.get("window")
        if phase == "marker":
            lines.append(tc.tk("ui.tl_marker", seat=name_of(names, view["marker_seat"])))
        elif phase in ("turn_start", "moved"):
            key = "ui.tl_turn" if phase == "turn_start" else "ui.tl_moved"
            roll = (view.get("last_roll") or {}).get("roll", "?")
            lines.append(tc.tk(key, seat=name_of(names, view["active"]), space=view["marker"], roll=roll,
                               count=draw_count(view, view["active"])))
            lines.append(self.space_info(t, view, view["marker"]))
        elif phase == "discard":
            lines.append(tc.tk("ui.tl_discard", seat=name_of(names, view["active"]), limit=view["hand_limit"]))
        elif phase == "deal":
            lines += self.deal_lines(t, view, names, full=False)
            if win is not None and win["kind"] == "last_call":
                lines.append(tc.tk("ui.last_call_line", seat=name_of(names, win["by"])))
        if win is not None and win["kind"] == "reaction":
            lines.append(join_sentences(self.window_line(t, view, names), tc.tk("ui.react_ask")))
        return [x for x in lines if x]

    def table_buttons(self, tc: TableContext) -> list[Button]:
        win = tc.view.get("window")
        if win is not None and win["owing"]:
            return [Button(tc.tk("ui.pass"), f"w{win['id']}|p", "secondary", emoji="👌", any_version=True)]
        return []

    def todo(self, t: Translator, view: dict[str, Any], seat: int) -> str | None:
        """What `seat` can do now, for the ping that names it (the public view: it goes to the
        channel). In a deal the boss decides and every other player owes an offer or a pass."""
        return self.todo_of(t, view, seat, None)

    def todo_of(self, t: Translator, view: dict[str, Any], seat: int, kind: str | None) -> str | None:
        """The same for one window (`kind`; None: the open reaction or last call first). A deal's
        boss and the players asked for offers still owe the deal while a card's reaction window is
        open: their reminder of it names the deal, not the card (or nothing, to a boss who does
        not owe the reaction)."""
        if view.get("over"):
            return None
        win = None if kind in ("deal", "offers") else view.get("window")
        deal = view.get("deal")
        if win is not None and win["kind"] == "reaction":
            return t(f"{T}.todo.reaction", card=win["card"]) if seat in win["owing"] else None
        if win is not None and win["kind"] == "last_call":
            return t(f"{T}.todo.last_call", space=deal["space"]) if seat in win["owing"] and deal else None
        phase = view["phase"]
        if phase == "marker":
            return t(f"{T}.todo.marker")
        if phase in ("turn_start", "moved"):
            return t(f"{T}.todo.{'turn' if phase == 'turn_start' else 'moved'}", space=view["marker"])
        if phase == "discard":
            return t(f"{T}.todo.discard", limit=view["hand_limit"])
        if phase == "deal" and deal is not None:
            if seat == deal["boss"]:
                return t(f"{T}.todo.deal_boss", space=deal["space"], proceeds=deal["proceeds"])
            if seat in deal.get("asked", ()):
                return t(f"{T}.todo.deal_offer", space=deal["space"])
        return None
