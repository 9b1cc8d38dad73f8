"""I'm the Boss! on Discord: the private panel, the table's status lines, pings and a public
Pass button for the pass-or-stop windows and the last call.

The panel follows the phase: the marker select, the turn (deal here / roll / draw), the
discard form, and the negotiation, where everyone may act at any time: offers (a select of
your investors opens a price form), withdrawals, clan cards, travel, recruit triples, the boss
card, and for the boss accept / decline, close and give up. A card that opens a window makes
every other player answer Pass or Stop; the public side of the window (table, ping) is the same
for everyone, and the private panel shows Stop only to a holder of one.

A negotiation moves the game's version on every click, so the deal's components do not go
stale with the version: they carry the moment they were drawn for (the open window's id, or
the deal's deadline id, which changes with the boss), and a click whose moment has passed gets
a fresh panel. The engine judges every action anyway.

Codes (never starting with "L", "H", "!" or "#", which belong to the lobby, the house and the
house's action codes):
    rf                 button: redraw the panel (any version)
    mo                 button: the components that did not fit (any version)
    w<window>|p, |s    button: pass / stop in that window (any version)
    x<key>|<json>      button: that action, while the moment <key> lasts (any version)
    x<key>             select: the chosen option's value is the action's JSON (any version)
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

from cogs.shared.panel import (
    Apply,
    Ask,
    Button,
    Modal,
    Option,
    Panel,
    Refuse,
    Reply,
    Select,
    Show,
    TextInput,
    parse_amount,
)
from cogs.shared.titles import PanelContext, TableContext, TitleUI
from engine.imtheboss.data import CIDX, CLANS, DRAW, DRAW_BY_PLACARDS, KINDS, SPACES, kind
from engine.imtheboss.table import shared_plan
from locales import Translator
from locales.format import separator

T = "imtheboss"
MAX_OPTIONS = 25
ROWS = 5
CLAN_EMOJI = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "magenta": "🟪", "orange": "🟧", "green": "🟩"}
KIND_EMOJI = {"recruit": "👥", "boss": "📢", "stop": "✋", "travel-grey": "✈️"}


# -- small helpers ------------------------------------------------------------------------------


def sep(t: Translator) -> str:
    return separator(t.lang)


def name_of(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "-"
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def clan(t: Translator, c: str, emoji: bool = True) -> str:
    word = t(f"{T}.clan.{c}")
    return f"{CLAN_EMOJI[c]} {word}" if emoji else word


def kind_emoji(k: str) -> str:
    if k.startswith("clan-"):
        return CLAN_EMOJI[k[5:]]
    if k.startswith("travel-"):
        return "✈️"
    return KIND_EMOJI.get(k, "🂠")


def space_letter(t: Translator, space: int | None) -> str:
    return "-" if space is None else t(f"{T}.space.{space}")


def needs_text(t: Translator, space: int, emoji: bool = True) -> str:
    """What a space asks for: "🟥 Red + 🟦 Blue + 2 of 🟪/🟧/🟩"."""
    sp = SPACES[space]
    parts = [clan(t, c, emoji) for c in sp["req"]]
    for pool, k in sp["pools"]:
        members = "/".join(CLAN_EMOJI[c] if emoji else t(f"{T}.clan.{c}") for c in pool)
        parts.append(t(f"{T}.ui.pool", k=k, clans=members))
    return " + ".join(parts)


def price(t: Translator, ask: dict[str, int], usd: int) -> str:
    if "div" in ask:
        return t(f"{T}.ui.price_div", count=ask["div"], usd=usd)
    return t(f"{T}.ui.price_usd", usd=usd)


def src_text(t: Translator, names: list[str], source: dict[str, Any], owner: bool = True) -> str:
    """ "Bob: 🟧 Orange placard" (or without the owner)."""
    what = t(f"{T}.ui.src", clan=clan(t, source["clan"]), src=source["kind"])
    return t(f"{T}.ui.owned", seat=name_of(names, source["owner"]), what=what) if owner else what


def offer_text(t: Translator, names: list[str], o: dict[str, Any], owner: bool = True) -> str:
    what = src_text(t, names, {"clan": o["clan"], "kind": o["kind"], "owner": o["seat"]}, owner)
    return f"{what} · {price(t, o['ask'], o['usd'])}"


def ctx_key(view: dict[str, Any]) -> str:
    """The moment a deal component was drawn for: the open window, else the deal (its deadline
    id changes with each boss), else the turn's timer."""
    win = view.get("window")
    if win:
        return win["id"]
    deal = view.get("deal")
    if deal:
        return deal.get("deadline") or f"deal{deal['space']}"
    timer = view.get("timer")
    return timer["id"] if timer else "-"


def compact(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def draw_count(view: dict[str, Any], seat: int) -> int:
    if view["options"].get("draw_by_placards"):
        held = len(view["seats"][seat]["placards"])
        return DRAW_BY_PLACARDS[min(held, len(DRAW_BY_PLACARDS) - 1)]
    return DRAW


def pseudo_state(view: dict[str, Any]) -> dict[str, Any]:
    """Enough of an engine state, rebuilt from a view, for the deal's pure functions."""
    deal = view["deal"]
    placards: list[int | None] = [None] * len(CLANS)
    for s in view["seats"]:
        for c in s["placards"]:
            placards[CIDX[c]] = s["seat"]
    return {
        "placards": placards,
        "deal": {"space": deal["space"], "boss": deal["boss"], "away": {a["clan"]: None for a in deal["away"]},
                 "table": [dict(x) for x in deal["table"]], "offers": []},
    }


def money_range(t: Translator, est: list[int]) -> str:
    lo, hi = est
    if hi <= 0:
        return t(f"{T}.render.money_zero")
    return t(f"{T}.render.money_range", lo=lo, hi=hi)


# -- the UI -------------------------------------------------------------------------------------


class UI(TitleUI):
    title = T
    colour = 0xD4A017
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
              fields: bool = True) -> Panel:
        view = pc.view
        names, lang = list(pc.picture_names), pc.t.lang
        buttons = [c for c in comps if isinstance(c, Button)]
        selects = [c for c in comps if isinstance(c, Select)]
        if refresh:
            buttons.append(Button(pc.tk("ui.refresh"), "rf", "secondary", emoji="🔄", any_version=True))
        keep, extra = self._layout(len(buttons), len(selects))
        main: list[Any] = list(buttons)
        if extra:
            main.append(Button(pc.tk("ui.more"), "mo", "secondary", emoji="➕", any_version=True))
        main += selects[:keep]
        panel = Panel(
            title=f"{pc.tk('name')} · {name_of(pc.names, pc.seat)}",
            description="\n".join(x for x in lines if x)[:4000],
            fields=self.holdings(pc) if fields else [],
            components=main,
            image=lambda: self.render.panel_image(view, names, lang),
        )
        panel._extra = selects[keep:]  # type: ignore[attr-defined]  # for the "More" sub-panel
        return panel

    @staticmethod
    def _layout(buttons: int, selects: int, rows: int = ROWS) -> tuple[int, bool]:
        """Buttons take rows of five, each select a row of its own. Returns how many selects fit
        and whether some do not (they go to a "More" sub-panel, whose button may need a row)."""
        room = rows - (buttons + 4) // 5
        if selects <= room:
            return selects, False
        if buttons % 5 == 0:  # the More button starts a new row
            room -= 1
        return max(0, room), True

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

    def deal_lines(self, t: Translator, view: dict[str, Any], names: list[str], full: bool = True) -> list[str]:
        """The deal in a few lines: head, slots, offers and promises, travellers."""
        deal = view["deal"]
        boss = name_of(names, deal["boss"])
        head = t(f"{T}.ui.deal_head", space=deal["space"], card=deal["card"], div=deal["div"], value=deal["value"],
                 proceeds=deal["proceeds"], boss=boss)
        if deal["starter"] != deal["boss"]:
            head += " " + t(f"{T}.ui.deal_starter", seat=name_of(names, deal["starter"]))
        lines = [head, t(f"{T}.ui.needs", list=self.slots_text(t, view, names))]
        if view["shared"]:
            lines.append(t(f"{T}.ui.shared_line", share=deal.get("share") or 0))
        else:
            offers = [o for o in deal["offers"]]
            if offers:
                lines.append(t(f"{T}.ui.offers_line", list="; ".join(
                    f"{offer_text(t, names, o)} ({t(f'{T}.render.' + o['state'])})" for o in offers)))
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
                    parts.append(f"✅ {clan(t, c)} ({sep(t).join(dict.fromkeys(by))})")
                else:
                    parts.append(f"⬜ {clan(t, c)}")
            else:
                members = "/".join(CLAN_EMOJI[c] for c in slot["clans"])
                got = [clan(t, c) for c in slot["filled"]]
                mark = "✅" if len(slot["filled"]) >= slot["k"] else "⬜"
                text = t(f"{T}.ui.pool", k=slot["k"], clans=members)
                if got:
                    text += ": " + sep(t).join(got)
                missing = slot["k"] - len(slot["filled"])
                if missing > 0:
                    text += " " + t(f"{T}.ui.more_needed", count=missing)
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
        if boss:
            lines.append(pc.tk("ui.shared_you_boss" if view["shared"] else "ui.you_boss"))
            comps += self._boss_components(pc, key, lines)
        else:
            lines.append(pc.tk("ui.shared_not_boss" if view["shared"] else "ui.you_not_boss",
                               boss=name_of(names, deal["boss"]), share=deal.get("share") or 0))
            comps += self._offer_components(pc, key, lines)
        comps += self._card_plays(pc, key)
        if not any(not (isinstance(c, Button) and c.code == "rf") for c in comps):
            lines.append(pc.tk("ui.deal_nothing"))
        return self._base(pc, lines, comps)

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
        return Select(f"x{key}~{name}", placeholder, options[:MAX_OPTIONS], any_version=True)

    def _x_option(self, label: str, action: dict[str, Any], description: str | None = None,
                  emoji: str | None = None) -> Option:
        return Option(label[:100], compact(action), (description or None) and description[:100], emoji=emoji)

    def _boss_components(self, pc: PanelContext, key: str, lines: list[str]) -> list[Any]:
        view = pc.view
        deal = view["deal"]
        t, names = pc.t, pc.names
        comps: list[Any] = []
        answers = [a for a in pc.legal if a["type"] in ("accept", "decline")]
        offers = {o["id"]: o for o in deal["offers"]}
        if answers:
            ids = list(dict.fromkeys(a["offer"] for a in answers))
            lines.append(pc.tk("ui.offers_prompt", count=len(ids)))
            if len(answers) <= 4:
                for oid in ids:
                    o = offers[oid]
                    if {"type": "accept", "offer": oid} in pc.legal:
                        comps.append(self._x(pc, key, pc.tk("ui.accept_btn", what=offer_text(t, names, o)),
                                             {"type": "accept", "offer": oid}, "success"))
                    elif o["state"] == "pending":
                        lines.append(pc.tk("ui.cannot_accept", what=offer_text(t, names, o), room=deal["room"]))
                    comps.append(self._x(pc, key, pc.tk("ui.decline_btn", what=offer_text(t, names, o)),
                                         {"type": "decline", "offer": oid}, "danger"))
            else:
                options = []
                for a in answers:
                    o = offers[a["offer"]]
                    verb = "ui.accept_opt" if a["type"] == "accept" else "ui.decline_opt"
                    options.append(self._x_option(pc.tk(verb, what=offer_text(t, names, o)), a,
                                                  pc.tk(f"render.{o['state']}"),
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
                comps.append(Select(f"of{key}", pc.tk("ui.offer"), options[:MAX_OPTIONS], any_version=True))
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
                comps.append(Select(f"tv{key}", pc.tk("ui.travel"), options[:MAX_OPTIONS], any_version=True))
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

    # == clicks ==================================================================================

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        view = pc.view
        if code in ("rf", "bk"):
            return Show(self.panel(pc))
        if code == "mo":
            return Show(self._overflow(pc))
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

    def _overflow(self, pc: PanelContext) -> Panel:
        """The selects that did not fit on the panel, with a way back."""
        panel = self.panel(pc)
        extra = list(getattr(panel, "_extra", []))[:ROWS - 1]
        comps: list[Any] = extra + [Button(pc.tk("ui.back"), "rf", "secondary", emoji="↩️", any_version=True)]
        return Panel(title=panel.title, description=panel.description, components=comps, image=panel.image)

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
            lines.append(self.window_line(t, view, names) + " " + tc.tk("ui.react_ask"))
        return [x for x in lines if x]

    def table_buttons(self, tc: TableContext) -> list[Button]:
        win = tc.view.get("window")
        if win is not None and win["owing"]:
            return [Button(tc.tk("ui.pass"), f"w{win['id']}|p", "secondary", emoji="👌", any_version=True)]
        return []

    def ping_text(self, t: Translator, view: dict[str, Any]) -> str | None:
        if view.get("over"):
            return None
        win = view.get("window")
        if win is not None and win["kind"] == "reaction":
            return t(f"{T}.ui.ping_reaction", card=win["card"])
        if win is not None and win["kind"] == "last_call":
            return t(f"{T}.ui.ping_last_call")
        phase = view["phase"]
        if phase == "marker":
            return t(f"{T}.ui.ping_marker")
        if phase == "turn_start":
            return t(f"{T}.ui.ping_turn", space=view["marker"])
        if phase == "moved":
            return t(f"{T}.ui.ping_moved", space=view["marker"])
        if phase == "discard":
            return t(f"{T}.ui.ping_discard", limit=view["hand_limit"])
        if phase == "deal":
            return t(f"{T}.ui.ping_deal", space=view["deal"]["space"], proceeds=view["deal"]["proceeds"])
        return None
