"""A tiny title that exists only in the tests: it exercises every part of the house (private
data, a turn window with a timeout, a reaction window every seat must answer, a modal, a
select, AI seats) without depending on any real title's rules.

Pennies: a public pile of coins. On your turn take 1-3 coins (buttons, or type the number in
a form). Each take opens a "nod" window in which every other seat answers ok. Whoever takes
the last coin wins. Each seat holds a secret lucky token only they may see.
"""

from __future__ import annotations

import random
from typing import Any

from PIL import Image

from cogs.kit.panel import Apply, Ask, Button, Modal, Panel, Refuse, Select, TextInput, parse_amount
from cogs.titles.contract import PanelContext, TitleUI
from engine.core import Chance, Game, Outcome, RuleError, TimerKind, Window
from render.common import canvas, draw_text

TITLE = "toy"


class Pennies(Game):
    title = TITLE
    min_players = 2
    max_players = 4
    timers = (TimerKind("turn", 60, 3600), TimerKind("nod", 30, 1800))

    def _setup(self, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        chance = Chance.new(seed)
        ch = Chance(chance)
        luck = [f"luck-{s}-{ch.randint(100000, 999999)}" for s in range(seats)]
        return {"seats": seats, "pile": options.get("pile", 7) if isinstance(options.get("pile"), int) else 7,
                "active": ch.randint(0, seats - 1), "luck": luck, "owed": [], "window": 0, "taken": [0] * seats,
                "winner": None, "chance": chance, "turn_no": 1}

    def _legal(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["owed"]:
            return [{"type": "ok"}] if seat in state["owed"] else []
        if seat != state["active"]:
            return []
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= state["pile"]]

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        kind = action["type"]
        if kind == "ok":
            if seat not in state["owed"]:
                raise RuleError("not_now")
            state["owed"].remove(seat)
            nodded = [{"type": "nodded", "seat": seat}]
            return nodded + (self._after_nod(state) if not state["owed"] else [])
        if kind != "take":
            raise RuleError("core.error.bad_action")
        if state["owed"]:
            raise RuleError("wait_nods")
        if seat != state["active"]:
            raise RuleError("not_your_turn")
        n = action.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 3:
            raise RuleError("bad_count")
        if n > state["pile"]:
            raise RuleError("too_many", pile=state["pile"])
        state["pile"] -= n
        state["taken"][seat] += n
        events = [{"type": "took", "seat": seat, "n": n, "left": state["pile"]},
                  {"type": "lucky", "token": state["luck"][seat], "to": [seat]}]
        if state["pile"] == 0:
            state["winner"] = seat
            events.append({"type": "won", "seat": seat})
            return events
        state["window"] += 1
        state["owed"] = [s for s in range(state["seats"]) if s != seat]
        return events

    def _after_nod(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        state["active"] = (state["active"] + 1) % state["seats"]
        state["window"] += 1
        state["turn_no"] += 1
        return [{"type": "turn", "seat": state["active"]}]

    def _timeout(self, state: dict[str, Any], window_id: str) -> list[dict[str, Any]]:
        if state["owed"]:
            state["owed"] = []
            return [{"type": "nods_timed_out"}] + self._after_nod(state)
        return self._apply(state, state["active"], {"type": "take", "n": 1})

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        view = {"title": TITLE, "phase": "nod" if state["owed"] else "turn", "me": seat,
                "over": state["winner"] is not None, "to_act": self.to_act(state), "pile": state["pile"],
                "active": state["active"], "winner": state["winner"],
                "seats": [{"taken": state["taken"][s]} for s in range(state["seats"])]}
        if seat is not None:
            view["private"] = {"luck": state["luck"][seat]}
        if state["winner"] is not None:
            view["luck"] = state["luck"]
        return view

    def windows(self, state: dict[str, Any]) -> list[Window]:
        if state["winner"] is not None:
            return []
        if state["owed"]:
            return [Window(f"nod:{state['window']}", "nod", tuple(state["owed"]))]
        return [Window(f"turn:{state['window']}", "turn", (state["active"],))]

    def to_act(self, state: dict[str, Any]) -> list[int]:
        if state["winner"] is not None:
            return []
        return list(state["owed"]) if state["owed"] else [state["active"]]

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["winner"] is None:
            return None
        places = [1 if s == state["winner"] else 2 for s in range(state["seats"])]
        return Outcome(places, [{"coins": c} for c in state["taken"]], "result")

    def ai_action(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
                  level: str = "strong") -> dict[str, Any] | None:
        takes = [a for a in legal if a["type"] == "take"]
        for a in takes:  # leave a multiple of 4
            if (view["pile"] - a["n"]) % 4 == 0:
                return a
        return legal[0] if legal else None

    def secrets(self, state: dict[str, Any]) -> dict[str, list[str]]:
        if state["winner"] is not None:
            return {"hidden": []}
        return {str(s): [state["luck"][s]] for s in range(state["seats"])} | {"hidden": []}


def _picture(lines: list[str]) -> Image.Image:
    img, draw = canvas(600, 60 + 40 * len(lines))
    for i, line in enumerate(lines):
        draw_text(draw, (20, 20 + 40 * i), line, 28)
    return img


class ToyRender:
    """The toy's render module (the house imports `render.<title>` for real titles)."""

    @staticmethod
    def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
        return _picture([f"pile {view['pile']}"] + [f"{n}: {s['taken']}" for n, s in zip(names, view["seats"])])

    @staticmethod
    def panel_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
        return _picture([f"you are {names[view['me']]}", view["private"]["luck"]])

    @staticmethod
    def results_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
        return _picture([f"winner {names[view['winner']]}"])


class ToyUI(TitleUI):
    title = TITLE

    @property
    def render(self):  # type: ignore[override]
        return ToyRender

    def panel(self, pc: PanelContext) -> Panel:
        comps: list[Any] = []
        for action in pc.legal:
            if action["type"] == "take":
                comps.append(pc.act(f"Take {action['n']}", action))
            elif action["type"] == "ok":
                comps.append(pc.act("OK", action, "success"))
        if pc.legal_of("take"):
            comps.append(Button("Type a number", "ask", "secondary"))
            comps.append(Select("act", "Or choose", [pc.act_option(f"{a['n']} coin(s)", a) for a in pc.legal_of("take")]))
        view = pc.view
        return Panel(title="Pennies", description=f"Pile: {view['pile']}. Your token: {view['private']['luck']}",
                     components=comps, image=lambda: ToyRender.panel_image(view, pc.names, pc.t.lang))

    def todo(self, t, view: dict[str, Any], seat: int) -> str | None:
        if seat not in view["to_act"]:
            return None
        return "nod (OK)." if view["phase"] == "nod" else f"take 1 to {min(3, view['pile'])} coins."

    def on_component(self, pc: PanelContext, code: str, values: list[str]):
        if code == "ask":
            return Ask(Modal("How many coins?", "count", [TextInput("n", "Coins (1-3)", max_length=6)]))
        return Refuse("core.error.bad_action")

    def on_modal(self, pc: PanelContext, code: str, fields: dict[str, str]):
        n = parse_amount(fields.get("n", ""), 1, 3)
        if code != "count" or n is None:
            return Refuse("error.bad_count")
        return Apply({"type": "take", "n": n})


TOY_MESSAGES = {
    "toy.name": "Pennies",
    "toy.tagline": "Take the last coin.",
    "toy.result": "{coins} coins",
    "toy.phase.turn": "Taking coins",
    "toy.phase.nod": "Everyone nods",
    "toy.timer.turn": "Turn",
    "toy.timer.nod": "Nod",
    "toy.error.not_now": "Not now.",
    "toy.error.wait_nods": "Wait for the nods.",
    "toy.error.not_your_turn": "It is not your turn.",
    "toy.error.bad_count": "Take 1 to 3 coins.",
    "toy.error.too_many": "Only {pile} coins are left.",
    "toy.event.took": "{seat} took {n}; {left} left.",
    "toy.event.lucky": "Your lucky token: {token}",
    "toy.event.won": "{seat} took the last coin!",
    "toy.event.turn": "{seat}'s turn.",
    "toy.event.nodded": "{seat} nods.",
    "toy.event.nods_timed_out": "Nods timed out.",
}


def install() -> None:
    """Register the toy title with the engine registry, the UIs and the English catalogue."""
    import engine
    from cogs.titles.contract import uis
    from locales import catalogue

    engine.titles()[TITLE] = Pennies()
    uis()[TITLE] = ToyUI()
    catalogue("en").update(TOY_MESSAGES)
