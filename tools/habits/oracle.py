"""What a component of a panel would do, and the way to a chosen move through a panel.

A person reads a button's label and knows what it does; the tool reads the same from the title's
panel logic, without applying anything: `Oracle.click` asks the title what a click on a
component (with these select values) would mean now (`Apply` an action, `Ask` with a form,
`Show` a sub-panel, `Refuse`), exactly as the bot's router does before it acts
(cogs/click/panel.py: `PanelClicks.decide`). `search` then walks the components of the panel the
person has in front of them (and the sub-panels and forms they lead to) to the move the person
wants. Every move is then made by real clicks, selects and form submissions (panels.py); the
oracle only plans them.
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import discord

from cogs.kit import codec
from cogs.kit.panel import Apply, Ask, Button, Panel, Select, Show
from cogs.titles.contract import panel_context, ui_for
from locales import Translator
from tests.support.sim import components_of as leaves  # buttons and selects, in reading order

try:  # where a split select's page suffix is removed (cogs/kit/layout.py)
    from cogs.kit.layout import strip_page
except ImportError:  # pragma: no cover - an older or newer layout
    import re

    def strip_page(code: str) -> str:
        return re.sub(r"~[0-9]+$", "", code)

#: Oracle calls one search may make (each builds a reply the way a click would).
BUDGET = 6000
#: Steps deep (a Black Friday sell of all five colours: open the form, add five times, the
#: colour that drops, the sell-table briefcase, confirm).
DEPTH = 9
#: A select with at most this many options is explored whatever its options say.
FEW = 6
#: Form fillings tried per form.
FILLS = 80


def compact(action: dict[str, Any] | None) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class Comp:
    """A component as a person sees it: a button ("br") or a string select ("bs"), its code
    (page suffix removed) and, for a select, its option values and how many may be chosen."""

    kind: str
    code: str
    values: tuple[str, ...] = ()
    lo: int = 1
    hi: int = 1


@dataclass(frozen=True)
class Step:
    """One thing a person does on a panel: click `comp` (choose `values` in a select), then
    submit the form it opens with `fields` (if any)."""

    comp: Comp
    values: tuple[str, ...] | None = None
    fields: tuple[tuple[str, str], ...] | None = None


def comps_of_message(message: Any) -> list[Comp]:
    """The buttons and string selects of a real message that belong to a game."""
    out = []
    for c in leaves(message):
        cid = getattr(c, "custom_id", None)
        parsed = codec.parse(cid or "")
        if parsed is None or getattr(c, "disabled", False):
            continue
        if isinstance(c, discord.Button) and parsed.kind == "br":
            out.append(Comp("br", strip_page(parsed.code)))
        elif isinstance(c, discord.SelectMenu) and parsed.kind == "bs":
            out.append(Comp("bs", strip_page(parsed.code), tuple(o.value for o in c.options), c.min_values or 1,
                            c.max_values or 1))
    return out


def comps_of_panel(panel: Panel) -> list[Comp]:
    """The components a Show reply would put in front of the person."""
    out = []
    for c in list(panel.components) + [s.button for s in getattr(panel, "sections", []) or []]:
        if getattr(c, "disabled", False):
            continue
        if isinstance(c, Button):
            out.append(Comp("br", c.code))
        elif isinstance(c, Select):
            out.append(Comp("bs", c.code, tuple(o.value for o in c.options), c.min_values, c.max_values))
    return out


class Oracle:
    """What clicks on one seat's panel mean now (the game as stored, in English)."""

    def __init__(self, game: Any, seat: int) -> None:
        self.ui = ui_for(game.title)
        self.pc = panel_context(game, seat, Translator("en"))
        self.calls = 0

    @property
    def legal(self) -> list[dict[str, Any]]:
        return self.pc.legal

    def click(self, comp: Comp, values: tuple[str, ...] | None) -> Any:
        self.calls += 1
        code, chosen = comp.code, list(values or ())
        try:
            if codec.is_act_select(code) or codec.is_action_code(code):
                pick = (chosen[0] if len(chosen) == 1 else None) if codec.is_act_select(code) else code
                action = codec.decode_action(pick, self.pc.legal) if pick else None
                return Apply(action) if action else None
            return self.ui.on_component(self.pc, code, chosen)
        except Exception:  # a code the title does not take (a house button): not a way to a move
            return None

    def form(self, code: str, fields: dict[str, str]) -> Any:
        self.calls += 1
        try:
            return self.ui.on_modal(self.pc, code, fields)
        except Exception:
            return None


def tokens(action: dict[str, Any] | None) -> set[str]:
    """The words a component of the way to `action` may carry: its values, keys, and each key
    with its value ("R2" for two red briefcases)."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                out.add(str(k))
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    out.add(f"{k}{v}")
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif node is not None and not isinstance(node, bool):
            out.add(str(node))

    walk(action or {})
    return out


def said(action: dict[str, Any] | None) -> list[str]:
    """The words of `action` that say what it chooses, each as often as it says it: its values
    and each key with its value, not the bare keys."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    out.append(f"{k}{v}")
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif node is not None and not isinstance(node, bool):
            out.append(str(node))

    walk(action or {})
    return out


def rank(values: tuple[str, ...] | None, toks: set[str], says: Counter[str], path: list[Step]) -> int:
    """How surely choosing `values` after `path` leads to the move: 0, every value is a word
    the move says (`said`) that the way has not used as often as the move says it; 1, another
    word of the move (a bare key, or a word used up: a second "Y1" adds a second yellow
    briefcase to a sell of one); 2, none (a button, another option)."""
    if not values:
        return 2
    used = Counter(v for step in path for v in step.values or ())
    if all(used[v] < says[v] for v in values):
        return 0
    return 1 if set(values) & toks else 2


def numbers(action: dict[str, Any] | None) -> list[str]:
    """The whole numbers in an action, as a person would type them in a form."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, int) and not isinstance(node, bool) and str(node) not in found:
            found.append(str(node))

    walk(action or {})
    return found


def choices(comp: Comp, toks: set[str]) -> list[tuple[str, ...] | None]:
    """What a person may do with a component: click a button; choose one option (those the
    wanted move names first); in a multi-select, the options the move names, else the first."""
    if comp.kind == "br":
        return [None]
    if comp.hi <= 1:
        named = [v for v in comp.values if v in toks]
        return [(v,) for v in named] + [(v,) for v in comp.values if v not in toks]
    named = tuple(v for v in comp.values if v in toks)
    out: list[tuple[str, ...] | None] = []
    if comp.lo <= len(named) <= comp.hi and named:
        out.append(named)
    first = tuple(comp.values[:max(comp.lo, 1)])
    if first not in out and len(first) >= comp.lo:
        out.append(first)
    return out


def fill(oracle: Oracle, modal: Any, want: str, action: dict[str, Any] | None) -> tuple[tuple[str, str], ...] | None:
    """Fields of `modal` that make its form mean the wanted move, or None."""
    nums = numbers(action)
    per_input = []
    for field in modal.inputs:
        cands = list(nums)
        if not field.required:
            cands.append("")
        if field.default and field.default not in cands:
            cands.append(field.default)
        per_input.append([(field.key, v) for v in cands or [""]])
    for combo in itertools.islice(itertools.product(*per_input), FILLS):
        reply = oracle.form(modal.code, dict(combo))
        if isinstance(reply, Apply) and compact(reply.action) == want:
            return tuple(combo)
    return None


def _signature(comps: list[Comp]) -> tuple:
    return tuple(sorted((c.kind, c.code, c.values) for c in comps if c.code[:1] not in ("H", "L")))


def search(oracle: Oracle, root: list[Comp], target: dict[str, Any] | None,
           found: dict[str, tuple[dict[str, Any], list[Step]]] | None = None) -> list[Step] | None:
    """The steps from the panel `root` to `target` (None: not found within the budget).
    `found` collects every move met on the way (action key -> (action, steps)).

    Best first: a sub-panel reached by choosing what the move says and the way has not used
    up yet (its colour, its card: `rank` 0) costs nothing, one reached by a plain button or
    another option costs one; among sub-panels of equal cost the deepest goes first, so an
    order form is filled in the move's own words to its Confirm before anything else is tried.
    Breadth first (and every named option free, "Y1" again after "Y1"), a Black Friday sell of
    all five colours spent the whole budget on the form's orders of adds, colours that drop and
    table briefcases, and the habits audit counted such sells as not on the panel."""
    want = compact(target) if target is not None else ""
    toks, says = tokens(target), Counter(said(target))
    found = {} if found is None else found
    if target is not None and want in found:
        return found[want][1]
    # Each sub-panel's fewest steps from the root: depth first may meet one by a long way
    # first, and the short way must still get past DEPTH.
    seen = {_signature(root): 0}
    queue: list[tuple[int, int, int, int, list[Comp], list[Step]]] = [(0, 0, 0, 0, root, [])]
    order = itertools.count(1)
    while queue:
        cost, minus_depth, _, _, comps, path = heapq.heappop(queue)
        depth = -minus_depth
        for comp in comps:
            if comp.code[:1] in ("H", "L"):
                continue  # the house's and the lobby's own buttons
            shows = 0
            for values in choices(comp, toks):
                if oracle.calls >= BUDGET:
                    return None
                reply = oracle.click(comp, values)
                step = Step(comp, values)
                named = bool(set(values or ()) & toks)
                if isinstance(reply, Apply):
                    key = compact(reply.action)
                    found.setdefault(key, (reply.action, path + [step]))
                    if key == want:
                        return path + [step]
                elif isinstance(reply, Ask) and target is not None:
                    fields = fill(oracle, reply.modal, want, target)
                    if fields is not None:
                        return path + [Step(comp, values, fields)]
                elif isinstance(reply, Show):
                    sub = comps_of_panel(reply.panel)
                    sig = _signature(sub)
                    worth = comp.kind == "br" or len(comp.values) <= FEW or named
                    if depth + 1 < seen.get(sig, DEPTH) and worth:
                        seen[sig] = depth + 1
                        r = rank(values, toks, says, path)
                        heapq.heappush(queue, (cost + (r > 0), -(depth + 1), r, next(order), sub, path + [step]))
                    if not named and comp.kind == "bs" and len(comp.values) > FEW:
                        shows += 1
                        if shows >= 2:
                            break  # a long select of sub-panels: only the options the move names lead on
    return None
