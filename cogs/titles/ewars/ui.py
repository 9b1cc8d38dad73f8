"""E-Wars on Discord: the private panel, the live table buttons and the narration.

The panel follows the round:
  - waiting for the bell: the parent gets "Ring to start dice time" (version-bound, so a
    double click can never start dice time and then end it); everyone else sees who rings;
  - dice time: Roll, Ring the bell and one Claim button per card the seat's dice can take now,
    rebuilt after every click; the same Roll and Bell sit on the table message for one-click
    play. These codes carry the round and are valid at any version (the state moves with every
    roll of every player): the panel checks the round and the phase, then the engine judges
    the action, so a claim that lost the race gets "someone already claimed B3" and a fresh
    panel. In a slow game the bell is shown locked until it may ring;
  - dispatch: one select per claimed card still to cover, listing the ranks the seat can send
    there, each with the rival claims it reaches from that card and its reach (the current
    choice preselected, and "take back"); choices stay
    tentative and secret until the Confirm button, which names the choices it confirms, so a
    panel drawn before a change made elsewhere cannot confirm something its player never saw.

Codes (short, < 30 characters):
  f                  refresh the panel
  r:<round>          roll            (dice time)
  b:<round>          ring the bell   (dice time)
  c:<round>:<pos>    claim a card    (dice time)
  d:<round>:<pos>    dispatch select, the value is a rank or "-" (take back)
  k:<round>:<picks>  confirm these picks (e.g. "A10.B35": position + rank index, strongest 0)
The bell that starts dice time is a plain action button bound to the panel's version.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cogs.kit.panel import Apply, Button, Option, Panel, Refuse, Reply, Select, Show, short
from cogs.titles.contract import PanelContext, TableContext, TitleUI, seat_names
from engine.ewars.data import HIGH_TO_LOW, REACH
from engine.ewars.grid import parse, pos_name, reach
from locales.format import join_sentences, separator

#: Dice faces as keycap emoji: legible at any size, unlike the ⚀-⚅ glyphs.
KEYCAPS = {f: f"{f}\ufe0f\u20e3" for f in range(1, 10)}
#: Claim buttons: at most 4 rows of 5 below the Roll/Bell row.
MAX_CLAIM_BUTTONS = 20
#: The select value that takes a choice back.
TAKE_BACK = "-"


def dice_text(dice: list[int]) -> str:
    """Dice in order of face, so pairs are easy to spot: 3️⃣ 3️⃣ 4️⃣ 6️⃣."""
    return " ".join(KEYCAPS.get(d, str(d)) for d in sorted(dice))


def picks_code(picks: list[dict[str, str]]) -> str:
    """The seat's choices in a few characters, for the Confirm button: "A10.B35"."""
    return ".".join(f"{p['pos']}{HIGH_TO_LOW.index(p['rank'])}" for p in sorted(picks, key=lambda p: p["pos"]))


def rival_claims_in_reach(view: dict[str, Any], pos: str, rank: str) -> list[str]:
    """The rival claims (where rival employees will stand) that `rank` sent to `pos` would
    reach, in reading order: what choosing it here can remove, before anyone's order of play."""
    rows, cols, me = view["rows"], view["cols"], view["me"]
    index = parse(pos, rows, cols)
    if index is None or REACH[rank] == "none":
        return []
    grid = view["grid"]
    return [pos_name(j, cols) for j in reach(REACH[rank], index, rows, cols)
            if grid[j] is not None and grid[j].get("claim") not in (None, me)]


def _sep(t) -> str:
    return separator(t.lang)


class UI(TitleUI):
    title = "ewars"
    colour = 0xD4A537
    #: Replays jump by these moments; the picture story draws one frame per round.
    replay_marks = {"round": frozenset({"dice_time"}), "turn": frozenset({"dispatch_start"})}
    story_mark = "round"
    #: Dice time is chatty: rolls and claims show on the table (picture, recent lines) but never
    #: as channel messages of their own ("placed" is from games saved before Confirm existed).
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

    def _refresh(self, pc: PanelContext, row: int | None = None) -> Button:
        return Button(pc.tk("ui.refresh"), "f", "secondary", any_version=True, row=row)

    def _card(self, pc: PanelContext, pos: str) -> str:
        cell = self._grid(pc.view).get(pos)
        return pc.tk("ui.card", pos=pos, a=cell["faces"][0], b=cell["faces"][1]) if cell else pos

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
            lines.append(pc.tk("ui.start_help_slow" if view.get("pace") == "slow" else "ui.start_help"))
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

    def _bell_lines(self, tk, view: dict[str, Any], names: list[str], t) -> list[str]:
        """How the bell stands in a slow game (nothing to say in a live one: it races)."""
        if view.get("pace") != "slow" or view.get("phase") != "dice":
            return []
        if not view.get("bell_free"):
            return [tk("ui.bell_locked", seats=seat_names(view.get("waiting") or [], names, t))]
        return []  # free for everyone alike once every person has rolled or run out of time

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
            # The cards are named here, not only on the buttons: the buttons sit below the hand,
            # the discards and the picture, and a claim line would otherwise follow the colon.
            lines.append(pc.tk("ui.claim_prompt", cards=self._cards_text(pc, claimable)))
        elif dice:
            lines.append(pc.tk("ui.no_claim_now"))
        else:
            lines.append(pc.tk("ui.all_dice_down"))
        if me.get("claims"):
            lines.append(pc.tk("ui.your_claims", cards=self._cards_text(pc, me["claims"])))
        lines.append("")
        lines += self._bell_lines(pc.tk, view, pc.names, pc.t)
        lines.append(pc.tk("ui.ring_help"))
        comps: list[Any] = []
        if pc.legal_of("roll"):
            comps.append(Button(pc.tk("ui.roll"), f"r:{rnd}", "primary", any_version=True, row=0))
        locked = not pc.legal_of("ring_bell")
        comps.append(Button(pc.tk("ui.ring_locked" if locked else "ui.ring"), f"b:{rnd}", "danger", any_version=True,
                            row=0, disabled=locked))
        comps.append(self._refresh(pc, row=0))
        for k, pos in enumerate(claimable[:MAX_CLAIM_BUTTONS]):
            a, b = grid[pos]["faces"]
            comps.append(Button(pc.tk("ui.claim_card", pos=pos, a=a, b=b), f"c:{rnd}:{pos}", "success",
                                any_version=True, row=1 + k // 5))
        return Panel(title=self._title(pc), description="\n".join(lines), fields=self._fields(pc), components=comps)

    def _cards_text(self, pc: PanelContext, cards: list[str]) -> str:
        return _sep(pc.t).join(self._card(pc, pos) for pos in cards)

    def _dispatch_panel(self, pc: PanelContext) -> Panel:
        view, rnd = pc.view, pc.view["round"]
        priv = view.get("private") or {}
        grid = self._grid(view)
        owed = [p for p in priv.get("owed", []) if p in grid]
        picks = {p["pos"]: p["rank"] for p in priv.get("picks", [])}
        lines: list[str] = []
        comps: list[Any] = []
        if owed:
            lines.append(pc.tk("ui.dispatch_prompt"))
            for pos in owed:
                card = self._card(pc, pos)
                lines.append(pc.tk("ui.pick_line", card=card, rank=picks[pos]) if pos in picks
                             else pc.tk("ui.pick_none", card=card))
            if priv.get("comes_back"):
                lines.append(pc.tk("ui.comes_back", count=priv["comes_back"]))
            lines.append(pc.tk("ui.dispatch_help"))
            ranks = {pos: {a["rank"] for a in pc.legal_of("dispatch") if a["pos"] == pos} for pos in owed}
            for pos in owed[:3]:
                a, b = grid[pos]["faces"]
                options = [Option(pc.tk(f"rank.{r}"), r, description=self._reach_here(pc, pos, r),
                                  default=picks.get(pos) == r)
                           for r in HIGH_TO_LOW if r in ranks[pos] or picks.get(pos) == r]
                if pos in picks:
                    options.append(Option(pc.tk("ui.take_back"), TAKE_BACK, description=pc.tk("ui.take_back_help")))
                comps.append(Select(f"d:{rnd}:{pos}", pc.tk("ui.dispatch_select", pos=pos, a=a, b=b), options,
                                    any_version=True))
            ready = pc.is_legal({"type": "confirm"})
            comps.append(Button(pc.tk("ui.confirm"), f"k:{rnd}:{picks_code(priv.get('picks', []))}", "success",
                                any_version=True, disabled=not ready))
            comps.append(self._refresh(pc))
        else:
            lines.append(pc.tk("ui.waiting_dispatch"))
            comps.append(self._refresh(pc))
        placed = priv.get("placed", [])
        if placed:
            lines.append("")
            lines += [pc.tk("ui.sent", rank=p["rank"], pos=p["pos"]) for p in placed]
        return Panel(title=self._title(pc), description="\n".join(lines), fields=self._fields(pc), components=comps)

    @staticmethod
    def _reach_here(pc: PanelContext, pos: str, rank: str) -> str:
        """What the rank reaches from this card (the rival claims in its reach), then its reach
        in general: within Discord's 100 characters, a cut falls on the general part, which the
        hand's list says in full."""
        if REACH[rank] == "none":
            return pc.tk(f"reach.{rank}")
        cells = rival_claims_in_reach(pc.view, pos, rank)
        here = pc.tk("ui.reach_rivals", cells=" ".join(cells)) if cells else pc.tk("ui.reach_no_rival")
        return short(join_sentences(here, pc.tk(f"reach.{rank}"))) or ""

    # -- clicks -------------------------------------------------------------------------------

    def _again(self, pc: PanelContext, notice: str) -> Show:
        """A fresh panel with a notice on top: what a click that cannot apply gets."""
        panel = self.panel(pc)
        panel.description = f"{notice}\n\n{panel.description}".strip()
        return Show(panel)

    def _not_now(self, pc: PanelContext, rnd: int, phase: str) -> Show | None:
        """None when it is still `phase` of round `rnd`; else the fresh panel saying why not."""
        view = pc.view
        if view.get("round") != rnd:
            return self._again(pc, "⏳ " + pc.t("core.panel.stale"))
        now = view.get("phase")
        if now == phase:
            return None
        if phase == "dice":
            key = "error.dice_not_started" if now == "await_start" else "error.dice_time_over"
        else:
            key = "error.not_dispatch"
        return self._again(pc, "⛔ " + pc.tk(key))

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        verb, _, rest = code.partition(":")
        if verb == "f":
            return Show(self.panel(pc))
        rnd_text, _, pos = rest.partition(":")
        if not rnd_text.isdigit():
            return Refuse("core.error.bad_action")
        rnd = int(rnd_text)
        if verb in ("r", "b", "c"):
            return self._dice_click(pc, rnd, verb, pos)
        if verb in ("d", "k"):
            return self._not_now(pc, rnd, "dispatch") or self._dispatch_click(pc, verb, pos, values)
        return Refuse("core.error.bad_action")

    def _dice_click(self, pc: PanelContext, rnd: int, verb: str, pos: str) -> Reply:
        refused = self._not_now(pc, rnd, "dice")
        if refused is not None:
            return refused
        if verb == "r":
            if not pc.is_legal({"type": "roll"}):
                return self._again(pc, "⛔ " + pc.tk("error.no_dice"))
            return Apply({"type": "roll"})
        if verb == "b":
            if not pc.is_legal({"type": "ring_bell"}):
                return self._again(pc, "🔒 " + pc.tk("error.bell_locked", count=len(pc.view.get("waiting") or [])))
            return Apply({"type": "ring_bell"})
        action = {"type": "claim", "pos": pos}
        if pc.is_legal(action):
            return Apply(action)
        return self._again(pc, "⛔ " + self._claim_refusal(pc, pos))

    def _dispatch_click(self, pc: PanelContext, verb: str, rest: str, values: list[str]) -> Reply:
        picks = (pc.view.get("private") or {}).get("picks", [])
        if verb == "k":
            if not pc.legal:
                return self._again(pc, "⛔ " + pc.tk("error.nothing_to_place"))
            if rest != picks_code(picks):
                # Changed elsewhere (another panel, the DM) since this one was drawn.
                return self._again(pc, "⏳ " + pc.tk("ui.picks_changed"))
            if not pc.is_legal({"type": "confirm"}):
                return self._again(pc, "⛔ " + self._dispatch_refusal(pc, "", ""))
            return Apply({"type": "confirm"})
        pos, value = rest, (values[0] if values else "")
        current = {p["pos"]: p["rank"] for p in picks}
        if value == TAKE_BACK:
            action: dict[str, Any] = {"type": "withdraw", "pos": pos}
        elif current.get(pos) == value and value:
            return Show(self.panel(pc))  # the choice it already has: nothing to change
        else:
            action = {"type": "dispatch", "pos": pos, "rank": value}
        if pc.is_legal(action):
            return Apply(action)
        # Not legal now (already covered, rank gone, dispatch over): say why on a fresh panel.
        return self._again(pc, "⛔ " + self._dispatch_refusal(pc, pos, value))

    def _claim_refusal(self, pc: PanelContext, pos: str) -> str:
        cell = self._grid(pc.view).get(pos)
        if cell is None:
            return pc.tk("error.no_card", pos=pos)
        if cell.get("claim") is not None:
            return pc.tk("error.taken", pos=pos)
        a, b = cell["faces"]
        return pc.tk("error.no_match", pos=pos, a=a, b=b)

    def _dispatch_refusal(self, pc: PanelContext, pos: str, rank: str) -> str:
        priv = pc.view.get("private") or {}
        owed = priv.get("owed", [])
        if not owed:
            return pc.tk("error.nothing_to_place")
        if not pos:
            picked = {p["pos"] for p in priv.get("picks", [])}
            return pc.tk("error.picks_missing", count=sum(1 for p in owed if p not in picked))
        if pos not in owed:
            if any(p["pos"] == pos for p in priv.get("placed", [])):
                return pc.tk("error.covered", pos=pos)
            return pc.tk("error.not_your_claim", pos=pos)
        if rank == TAKE_BACK:
            return pc.tk("error.nothing_picked", pos=pos)
        if rank not in HIGH_TO_LOW:
            return pc.tk("error.bad_rank")
        return pc.tk("error.not_in_hand", rank=rank)

    # -- the table ----------------------------------------------------------------------------

    def table_buttons(self, tc: TableContext) -> list[Button]:
        view = tc.view
        phase, rnd = view.get("phase"), view.get("round")
        if phase == "dice":
            locked = not view.get("bell_free")
            return [Button(tc.tk("ui.table_roll"), f"r:{rnd}", "primary", any_version=True),
                    Button(tc.tk("ui.table_ring_locked" if locked else "ui.table_ring"), f"b:{rnd}", "danger",
                           any_version=True, disabled=locked)]
        if phase == "await_start":
            # Bound to the table's version: a second click cannot end the dice time it started.
            from cogs.kit.codec import action_code

            return [Button(tc.tk("ui.ring_start"), action_code({"type": "ring_bell"}), "success")]
        return []

    def glance(self, tc: TableContext) -> str | None:
        """The phase, the round and the parent, then the cards won: the table's first and last lines."""
        lines = self.table_lines(tc)
        return " · ".join(dict.fromkeys([lines[0], lines[-1]])) if lines else None

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
                                   claims=separator(t.lang).join(info.get("claims") or []) or tc.tk("ui.none")))
            lines += self._bell_lines(tc.tk, view, names, t)
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

    def todo(self, t, view: dict[str, Any], seat: int) -> str | None:
        """What `seat` can do now, from the public view (the line is posted in the channel)."""
        phase = view.get("phase")
        if phase == "await_start":
            return t("ewars.todo.start") if seat == view.get("parent") else None
        if phase == "dice":
            if view.get("pace") != "slow":
                return t("ewars.todo.dice")
            return t("ewars.todo.dice_slow" if not view.get("bell_free") else "ewars.todo.dice_free")
        if phase == "dispatch":
            info = (view.get("seats") or [])[seat] if seat < len(view.get("seats") or []) else {}
            if not info.get("owed"):
                return None
            return t("ewars.todo.dispatch", count=info["owed"], cards=_sep(t).join(info.get("claims") or []))
        return None

    # -- narration ----------------------------------------------------------------------------

    ICONS: ClassVar[dict[str, str]] = {"ability": "💥 ", "acquired": "🏢 ", "game_over": "🏁 ", "dispatch_start": "📨 ",
                                       "nothing_acquired": "🤷 ", "hand_refilled": "♻️ ", "table_refilled": "🃏 ",
                                       "compacted": "🧩 ", "confirmed": "📨 ", "picked": "📝 ", "withdrawn": "↩️ "}

    def narrate(self, t, event: dict[str, Any], names: list[str]) -> str | None:
        kind = event.get("type")
        if kind == "rolled":
            return None  # dice are on the table picture and the seat lines; a roll is noise
        if kind == "revealed":
            return self._revealed(t, event, names)
        line = super().narrate(t, event, names)
        if line and kind in ("dice_time", "dice_time_auto") and event.get("slow"):
            line = join_sentences(line, t("ewars.ui.slow_bell_note"))
        return f"{self.ICONS.get(kind, '')}{line}" if line else line

    def _revealed(self, t, event: dict[str, Any], names: list[str]) -> str:
        by_seat: dict[int, list[str]] = {}
        for emp in event.get("employees") or []:
            by_seat.setdefault(emp["seat"], []).append(
                t("ewars.ui.revealed_item", rank=emp["rank"], pos=emp["pos"]))
        parts = [t("ewars.ui.revealed_seat", seat=seat_names(s, names, t), items=_sep(t).join(items))
                 for s, items in sorted(by_seat.items())]
        return "📜 " + t("ewars.ui.revealed", count=event.get("count", 0), list=" · ".join(parts))
