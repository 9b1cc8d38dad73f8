"""E-Wars on Discord: the private panel, the live table buttons and the narration.

The panel follows the round:
  - waiting for the bell: the parent gets "Ring to start dice time" (version-bound, so a
    double click can never start dice time and then end it); everyone else sees who rings;
  - dice time: Roll, Ring the bell and one Claim button per card the seat's dice can take now,
    rebuilt after every click; the same Roll and Bell sit on the table message for one-click
    play. These codes carry the round and are valid at any version (the state moves with every
    roll of every player): the panel checks the round and the phase, then the engine judges
    the action, so a claim that lost the race gets "someone already claimed B3" and a fresh
    panel;
  - dispatch: one select per claimed card still without an employee, listing the ranks in
    hand with their reach; picking one sends it (one click per card).

Codes (short, < 20 characters):
  f                 refresh the panel
  r:<round>         roll            (dice time)
  b:<round>         ring the bell   (dice time)
  c:<round>:<pos>   claim a card    (dice time)
  d:<round>:<pos>   dispatch select, the value is the rank
The bell that starts dice time is a plain action button bound to the panel's version.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cogs.shared.panel import Apply, Button, Option, Panel, Refuse, Reply, Select, Show
from cogs.shared.titles import PanelContext, TableContext, TitleUI, seat_names
from engine.ewars.data import HIGH_TO_LOW
from locales.format import separator

#: Dice faces as keycap emoji: legible at any size, unlike the ⚀-⚅ glyphs.
KEYCAPS = {f: f"{f}\ufe0f\u20e3" for f in range(1, 10)}
#: Claim buttons: at most 4 rows of 5 below the Roll/Bell row.
MAX_CLAIM_BUTTONS = 20


def dice_text(dice: list[int]) -> str:
    """Dice in order of face, so pairs are easy to spot: 3️⃣ 3️⃣ 4️⃣ 6️⃣."""
    return " ".join(KEYCAPS.get(d, str(d)) for d in sorted(dice))


def _sep(t) -> str:
    return separator(t.lang)


class UI(TitleUI):
    title = "ewars"
    colour = 0xD4A537
    #: Dice time is chatty: rolls and claims (and face-down placements) show on the table
    #: (picture, recent lines) but never as channel messages of their own.
    quiet_events = frozenset({"rolled", "claimed", "placed"})

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _grid(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {c["pos"]: c for c in view.get("grid") or [] if c is not None}

    def _title(self, pc: PanelContext) -> str:
        return f"{pc.tk('name')} · {pc.tk('ui.round', round=pc.view.get('round', 1))}"

    def _hand_text(self, pc: PanelContext, ranks: list[str]) -> str:
        if not ranks:
            return pc.tk("ui.none")
        counts: dict[str, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        return _sep(pc.t).join(pc.tk("ui.rank_option", rank=r, count=counts[r]) for r in HIGH_TO_LOW if r in counts)

    def _fields(self, pc: PanelContext) -> list[tuple[str, str, bool]]:
        priv = pc.view.get("private") or {}
        me = pc.view["seats"][pc.seat]
        return [
            (pc.tk("ui.hand"), self._hand_text(pc, priv.get("hand", [])), True),
            (pc.tk("ui.discards"), self._hand_text(pc, priv.get("discards", [])), True),
            (pc.tk("ui.your_score"), str(me.get("score", 0)), True),
        ]

    def _image(self, pc: PanelContext):
        view, names, lang = pc.view, list(pc.picture_names), pc.t.lang
        if view.get("over") or view.get("private") is None:
            return None
        render = self.render
        return lambda: render.panel_image(view, names, lang)

    def _refresh(self, pc: PanelContext) -> Button:
        return Button(pc.tk("ui.refresh"), "f", "secondary", any_version=True)

    # -- the panel ----------------------------------------------------------------------------

    def panel(self, pc: PanelContext) -> Panel:
        phase = pc.view.get("phase")
        if phase == "dice":
            panel = self._dice_panel(pc)
        elif phase == "dispatch":
            panel = self._dispatch_panel(pc)
        elif phase == "await_start":
            panel = self._start_panel(pc)
        else:
            panel = Panel(title=self._title(pc), description=pc.t("core.panel.game_over"))
        panel.image = self._image(pc)
        return panel

    def _start_panel(self, pc: PanelContext) -> Panel:
        view = pc.view
        lines: list[str] = []
        lines += self._last_contract_lines(pc)
        comps: list[Any] = []
        if pc.legal_of("ring_bell"):
            lines.append(pc.tk("ui.you_start"))
            lines.append(pc.tk("ui.start_help"))
            comps.append(pc.act(pc.tk("ui.ring_start"), {"type": "ring_bell"}, "success"))
        else:
            lines.append(pc.tk("ui.wait_start", seat=seat_names(view["parent"], pc.names, pc.t)))
            comps.append(self._refresh(pc))
        return Panel(title=self._title(pc), description="\n".join(lines), fields=self._fields(pc), components=comps)

    def _last_contract_lines(self, pc: PanelContext) -> list[str]:
        last = pc.view.get("last")
        if not last or last.get("round") != pc.view.get("round", 0) - 1:
            return []
        won = (last.get("won") or [])
        mine = won[pc.seat] if pc.seat < len(won) else 0
        return [pc.tk("ui.you_won", count=mine, round=last["round"])]

    def _dice_panel(self, pc: PanelContext) -> Panel:
        view, rnd = pc.view, pc.view["round"]
        me = view["seats"][pc.seat]
        priv = view.get("private") or {}
        grid = self._grid(view)
        dice = me.get("dice") or []
        lines = []
        if dice:
            lines.append(pc.tk("ui.your_dice", dice=dice_text(dice)))
        claimable = [p for p in priv.get("claimable", []) if p in grid]
        if claimable:
            lines.append(pc.tk("ui.claim_prompt"))
        elif dice:
            lines.append(pc.tk("ui.no_claim_now"))
        else:
            lines.append(pc.tk("ui.all_dice_down"))
        if me.get("claims"):
            lines.append(pc.tk("ui.your_claims", cards=self._cards_text(pc, me["claims"], grid)))
        lines.append("")
        lines.append(pc.tk("ui.ring_help"))
        comps: list[Any] = []
        if pc.legal_of("roll"):
            comps.append(Button(pc.tk("ui.roll"), f"r:{rnd}", "primary", any_version=True, row=0))
        comps.append(Button(pc.tk("ui.ring"), f"b:{rnd}", "danger", any_version=True, row=0))
        comps.append(Button(pc.tk("ui.refresh"), "f", "secondary", any_version=True, row=0))
        for k, pos in enumerate(claimable[:MAX_CLAIM_BUTTONS]):
            a, b = grid[pos]["faces"]
            comps.append(Button(pc.tk("ui.claim_card", pos=pos, a=a, b=b), f"c:{rnd}:{pos}", "success",
                                any_version=True, row=1 + k // 5))
        return Panel(title=self._title(pc), description="\n".join(lines), fields=self._fields(pc), components=comps)

    def _cards_text(self, pc: PanelContext, cards: list[str], grid: dict[str, dict[str, Any]]) -> str:
        out = []
        for pos in cards:
            c = grid.get(pos)
            out.append(f"{pos} ({c['faces'][0]}-{c['faces'][1]})" if c else pos)
        return _sep(pc.t).join(out)

    def _dispatch_panel(self, pc: PanelContext) -> Panel:
        view, rnd = pc.view, pc.view["round"]
        priv = view.get("private") or {}
        grid = self._grid(view)
        owed = [p for p in priv.get("owed", []) if p in grid]
        placed = priv.get("placed", [])
        lines = []
        comps: list[Any] = []
        if owed:
            lines.append(pc.tk("ui.dispatch_prompt"))
            lines.append(pc.tk("ui.owed", count=len(owed)))
            lines.append(pc.tk("ui.dispatch_help"))
            hand = priv.get("hand", [])
            counts: dict[str, int] = {}
            for r in hand:
                counts[r] = counts.get(r, 0) + 1
            legal = {(a["pos"], a["rank"]) for a in pc.legal_of("dispatch")}
            for pos in owed[:4]:
                a, b = grid[pos]["faces"]
                options = [Option(pc.tk("ui.rank_option", rank=r, count=counts[r]), r,
                                  description=pc.tk(f"reach.{r}")[:100])
                           for r in HIGH_TO_LOW if r in counts and (pos, r) in legal]
                if options:
                    comps.append(Select(f"d:{rnd}:{pos}", pc.tk("ui.dispatch_select", pos=pos, a=a, b=b), options,
                                        any_version=True))
        else:
            lines.append(pc.tk("ui.waiting_dispatch"))
        if placed:
            lines.append("")
            lines += [pc.tk("ui.sent", rank=p["rank"], pos=p["pos"]) for p in placed]
        comps.append(self._refresh(pc))
        return Panel(title=self._title(pc), description="\n".join(lines), fields=self._fields(pc), components=comps)

    # -- clicks -------------------------------------------------------------------------------

    def _again(self, pc: PanelContext, notice: str) -> Show:
        """A fresh panel with a notice on top: what a click that cannot apply gets."""
        panel = self.panel(pc)
        panel.description = f"{notice}\n\n{panel.description}".strip()
        return Show(panel)

    def _not_dice(self, pc: PanelContext, rnd: int) -> Show | None:
        """None when it is still dice time of round `rnd`; else the fresh panel saying why not."""
        view = pc.view
        if view.get("round") != rnd:
            return self._again(pc, "⏳ " + pc.t("core.panel.stale"))
        phase = view.get("phase")
        if phase == "await_start":
            return self._again(pc, "⛔ " + pc.tk("error.dice_not_started"))
        if phase != "dice":
            return self._again(pc, "⛔ " + pc.tk("error.dice_time_over"))
        return None

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        verb, _, rest = code.partition(":")
        if verb == "f":
            return Show(self.panel(pc))
        rnd_text, _, pos = rest.partition(":")
        if not rnd_text.isdigit():
            return Refuse("core.error.bad_action")
        rnd = int(rnd_text)
        if verb in ("r", "b", "c"):
            refused = self._not_dice(pc, rnd)
            if refused is not None:
                return refused
            if verb == "r":
                if not pc.is_legal({"type": "roll"}):
                    return self._again(pc, "⛔ " + pc.tk("error.no_dice"))
                return Apply({"type": "roll"})
            if verb == "b":
                return Apply({"type": "ring_bell"})
            action = {"type": "claim", "pos": pos}
            if pc.is_legal(action):
                return Apply(action)
            return self._again(pc, "⛔ " + self._claim_refusal(pc, pos))
        if verb == "d":
            if pc.view.get("round") != rnd:
                return self._again(pc, "⏳ " + pc.t("core.panel.stale"))
            rank = values[0] if values else ""
            action = {"type": "dispatch", "pos": pos, "rank": rank}
            if pc.is_legal(action):
                return Apply(action)
            # Not legal now (already covered, rank gone, dispatch over): let the engine say why
            # on a fresh panel rather than guessing.
            return self._again(pc, "⛔ " + self._dispatch_refusal(pc, pos, rank))
        return Refuse("core.error.bad_action")

    def _claim_refusal(self, pc: PanelContext, pos: str) -> str:
        cell = self._grid(pc.view).get(pos)
        if cell is None:
            return pc.tk("error.no_card", pos=pos)
        if cell.get("claim") is not None:
            return pc.tk("error.taken", pos=pos)
        a, b = cell["faces"]
        return pc.tk("error.no_match", pos=pos, a=a, b=b)

    def _dispatch_refusal(self, pc: PanelContext, pos: str, rank: str) -> str:
        view = pc.view
        if view.get("phase") != "dispatch":
            return pc.tk("error.not_dispatch")
        priv = view.get("private") or {}
        if not priv.get("owed"):
            return pc.tk("error.nothing_to_place")
        if pos not in priv.get("owed", []):
            if any(p["pos"] == pos for p in priv.get("placed", [])):
                return pc.tk("error.covered", pos=pos)
            return pc.tk("error.not_your_claim", pos=pos)
        if rank not in HIGH_TO_LOW:
            return pc.tk("error.bad_rank")
        return pc.tk("error.not_in_hand", rank=rank)

    # -- the table ----------------------------------------------------------------------------

    def table_buttons(self, tc: TableContext) -> list[Button]:
        view = tc.view
        phase, rnd = view.get("phase"), view.get("round")
        if phase == "dice":
            return [Button(tc.tk("ui.table_roll"), f"r:{rnd}", "primary", any_version=True),
                    Button(tc.tk("ui.table_ring"), f"b:{rnd}", "danger", any_version=True)]
        if phase == "await_start":
            # Bound to the table's version: a second click cannot end the dice time it started.
            from cogs.shared.codec import action_code

            return [Button(tc.tk("ui.ring_start"), action_code({"type": "ring_bell"}), "success")]
        return []

    def table_lines(self, tc: TableContext) -> list[str]:
        view, t = tc.view, tc.t
        phase = view.get("phase")
        names = tc.names
        head = f"**{tc.tk(f'phase.{phase}')}** · {tc.tk('ui.round', round=view.get('round', 1))}"
        if phase != "over":
            head += " · " + tc.tk("ui.parent_is", seat=seat_names(view.get("parent", 0), names, t))
        lines = [head]
        seats = view.get("seats") or []
        if phase == "dice":
            for s, info in enumerate(seats):
                dice = info.get("dice") or []
                lines.append(tc.tk("ui.table_seat", seat=seat_names(s, names, t),
                                   dice=dice_text(dice) if dice else tc.tk("ui.no_dice_left"),
                                   claims=", ".join(info.get("claims") or []) or tc.tk("ui.none")))
            lines.append(tc.tk("ui.table_dice_help"))
        elif phase == "dispatch":
            lines.append(tc.tk("ui.table_dispatch_help"))
        elif phase == "await_start":
            last = view.get("last")
            if last and last.get("round") == view.get("round", 0) - 1:
                won = last.get("won") or []
                lines.append(tc.tk("ui.table_last", round=last["round"], list=self._per_seat(tc, won, "+")))
            lines.append(tc.tk("ui.table_start_help", seat=seat_names(view.get("parent", 0), names, t)))
        lines.append(tc.tk("ui.table_scores", list=self._per_seat(tc, [s.get("score", 0) for s in seats], ""),
                           deck=view.get("deck", 0)))
        return lines

    def _per_seat(self, tc: TableContext, counts: list[int], sign: str) -> str:
        return " · ".join(tc.tk("ui.seat_count", seat=seat_names(s, tc.names, tc.t), count=f"{sign}{c}")
                          for s, c in enumerate(counts))

    def ping_text(self, t, view: dict[str, Any]) -> str | None:
        phase = view.get("phase")
        if phase in ("await_start", "dice", "dispatch"):
            return t(f"ewars.ui.ping_{phase}")
        return None

    # -- narration ----------------------------------------------------------------------------

    ICONS: ClassVar[dict[str, str]] = {"ability": "💥 ", "acquired": "🏢 ", "game_over": "🏁 ", "dispatch_start": "📨 ",
                                       "nothing_acquired": "🤷 ", "hand_refilled": "♻️ ", "table_refilled": "🃏 ",
                                       "compacted": "🧩 "}

    def narrate(self, t, event: dict[str, Any], names: list[str]) -> str | None:
        kind = event.get("type")
        if kind == "rolled":
            return None  # dice are on the table picture and the seat lines; a roll is noise
        if kind == "revealed":
            return self._revealed(t, event, names)
        line = super().narrate(t, event, names)
        if line and kind == "dispatch_start":
            # The seats that claimed acted in dice time too, so the house pings nobody anew.
            line += " " + t("ewars.ui.ping_dispatch")
        return f"{self.ICONS.get(kind, '')}{line}" if line else line

    def _revealed(self, t, event: dict[str, Any], names: list[str]) -> str:
        by_seat: dict[int, list[str]] = {}
        for emp in event.get("employees") or []:
            by_seat.setdefault(emp["seat"], []).append(
                t("ewars.ui.revealed_item", rank=emp["rank"], pos=emp["pos"]))
        parts = [t("ewars.ui.revealed_seat", seat=seat_names(s, names, t), items=_sep(t).join(items))
                 for s, items in sorted(by_seat.items())]
        return "📜 " + t("ewars.ui.revealed", count=event.get("count", 0), list=" · ".join(parts))
