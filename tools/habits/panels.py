"""A person at their panel: opening it the way their habit says, and making one move on it by
clicks, selects and forms, the move the seat-filler would choose for their seat.

    open_panel   the call's My hand button, the table's My hand, `/game mine` then the table, or
                 the DM panel: the real message the person has in front of them
    move         the seat-filler's choice for the seat (`ai_action(view, legal, rng)`), found on
                 that panel (oracle.py) and made by real interactions; when the panel does not
                 offer it, another choice of the seat-filler that it offers (counted: off_panel)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import engine
from cogs.kit import codec
from tests.support.sim import panel_of, reply_text

from .oracle import Comp, Oracle, Step, comps_of_message, compact, leaves, search
from .people import Person

#: Other choices of the seat-filler tried when its first is not on the panel.
TRIES = 8


@dataclass
class Moved:
    """What came of one attempt to move."""

    kind: str  # "moved" | "nothing" (no legal move) | "waits" (the seat-filler's choice: wait) | "stuck" | "failed"
    action: dict[str, Any] | None = None
    off_panel: dict[str, Any] | None = None  # the seat-filler's choice the panel did not offer
    message: Any = None  # the panel after the move
    note: str = ""
    #: Other legal moves of the moment looked for on the same panel (--audit), and those not found.
    audited: int = 0
    unreachable: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Desk:
    """What every person shares: the simulated Discord, the game and its channel."""

    sim: Any
    game_id: int
    seed: int
    #: Other legal moves looked for on the panel at each move (0: none): is every rule reachable?
    audit: int = 0
    clicks: list[tuple[float, int]] = field(default_factory=list)

    def now(self) -> float:
        return self.sim.env.now().timestamp()


def _calls_for(desk: Desk, person: Person) -> list[Any]:
    tag = f"<@{person.user_id}>"
    return [m for m in desk.sim.channel.history() if tag in (m.content or "")
            and any(":Hhand" in (getattr(c, "custom_id", "") or "") for c in _buttons(m))]


def _buttons(message: Any) -> list[Any]:
    return [c for c in leaves(message) if getattr(c, "custom_id", None)]


async def _click_hand(desk: Desk, person: Person, message: Any) -> Any:
    cid = next(c.custom_id for c in _buttons(message) if c.custom_id.endswith(":Hhand"))
    person.clicks.append(desk.now())
    return panel_of(await person.member.click(message, custom_id=cid))


async def open_panel(desk: Desk, person: Person) -> tuple[Any, Any] | None:
    """(the actor who clicks, the panel message), or None when the person has no way to it."""
    sim = desk.sim
    how = person.opens
    if how == "dm":
        channel = person.member.user.dm_channel
        panels = [m for m in channel.history() if m.components] if channel is not None else []
        return (person.member.user, panels[-1]) if panels else None
    if how == "call":
        calls = _calls_for(desk, person)
        if calls:
            return person.member, await _click_hand(desk, person, calls[-1])
    if how == "mine":
        person.clicks.append(desk.now())
        await person.member.slash(sim.channel, "game mine")
    table = await sim.table_message()
    return person.member, await _click_hand(desk, person, table)


def _locate(message: Any, step: Step) -> str | None:
    """The custom_id of the real component that `step` clicks (a split select: the page that
    holds the values)."""
    for c in _buttons(message):
        comps = comps_of_message(_One(c))
        if not comps:
            continue
        comp = comps[0]
        # Action selects are "act" to the title, "act:2", "act:3"... on a message that has several.
        same = comp.code == step.comp.code or (codec.is_act_select(comp.code) and codec.is_act_select(step.comp.code))
        if comp.kind != step.comp.kind or not same:
            continue
        if step.values is None or set(step.values) <= set(comp.values):
            return c.custom_id
    return None


class _One:
    """A message holding one component (to read a component as `comps_of_message` does)."""

    def __init__(self, component: Any) -> None:
        self.components = [component]


async def _perform(desk: Desk, person: Person, actor: Any, message: Any, steps: list[Step]) -> Any:
    """Make the steps by real interactions; the last result (a string: what was missing)."""
    result = None
    for i, step in enumerate(steps):
        cid = _locate(message, step)
        if cid is None:
            there = [(c.code, c.values[:6]) for c in comps_of_message(message)]
            return f"step {i + 1} of {len(steps)} ({step.comp.code} {step.values}) is not on {there}"
        person.clicks.append(desk.now())
        if step.values is None:
            result = await actor.click(message, custom_id=cid)
        else:
            result = await actor.select(message, list(step.values), custom_id=cid)
        if step.fields is not None:
            if result.modal is None:
                return f"step {i + 1} ({step.comp.code}) opened no form"
            result = await actor.submit_modal(result, dict(step.fields))
        await desk.sim.settle()
        if i < len(steps) - 1:
            message = panel_of(result)
    return result


def audit(game: Any, seat: int, message: Any, legal: list[dict[str, Any]], count: int, rng: random.Random,
          found: dict[str, tuple[dict[str, Any], list[Step]]]) -> tuple[int, list[dict[str, Any]]]:
    """Look for `count` other legal moves (at random) on the same panel: how many were looked
    for, and those the panel does not lead to."""
    root = comps_of_message(message)
    others = [a for a in legal if compact(a) not in found]
    missing = []
    picked = rng.sample(others, min(count, len(others)))
    for action in picked:
        if search(Oracle(game, seat), root, action, found) is None:
            missing.append(action)
    return len(picked), missing


def _plan(game: Any, seat: int, message: Any, target: dict[str, Any], view: dict[str, Any],
          legal: list[dict[str, Any]], rng: random.Random,
          found: dict[str, tuple[dict[str, Any], list[Step]]]) -> tuple[list[Step] | None, dict[str, Any] | None]:
    """The steps to the seat-filler's choice, or to another of its choices the panel offers."""
    root: list[Comp] = comps_of_message(message)
    path = search(Oracle(game, seat), root, target, found)
    if path is not None:
        return path, target
    g = engine.get(game.title)
    rest = [a for a in legal if compact(a) != compact(target)]
    for _ in range(TRIES):
        if not rest:
            break
        try:
            alt = g.ai_action(view, rest, rng)
        except Exception:
            alt = None
        if alt is None:
            break
        path = search(Oracle(game, seat), root, alt, found)
        if path is not None:
            return path, alt
        rest = [a for a in rest if compact(a) != compact(alt)]
    keys = {compact(a) for a in legal}
    for key, (action, steps) in found.items():
        if key in keys:
            return steps, action
    return None, None


async def move(desk: Desk, person: Person, actor: Any, message: Any) -> Moved:
    """One move of the person on the panel `message`."""
    sim = desk.sim
    game = await sim.store.get(desk.game_id)
    if game is None or game.status != "active":
        return Moved("nothing")
    g = engine.get(game.title)
    seat = person.seat
    legal = g.legal(game.state, seat)
    if not legal:
        return Moved("nothing")
    view = g.view(game.state, seat)
    rng = random.Random(f"{desk.seed}/{seat}/{game.version}")
    target = g.ai_action(view, legal, rng)
    if target is None:
        return Moved("waits")
    found: dict[str, tuple[dict[str, Any], list[Step]]] = {}
    steps, chosen = _plan(game, seat, message, target, view, legal, rng, found)
    off = None if chosen is not None and compact(chosen) == compact(target) else target
    audited, missing = 0, []
    if desk.audit:
        audited, missing = audit(game, seat, message, legal, desk.audit,
                                 random.Random(f"{desk.seed}/audit/{seat}/{game.version}"), found)
    if steps is None:
        return Moved("stuck", off_panel=off, note=f"nothing of {len(legal)} legal moves found on the panel",
                     audited=audited, unreachable=missing)
    result = await _perform(desk, person, actor, message, steps)
    after = await sim.store.get(desk.game_id)
    if isinstance(result, str) or after is None or after.version == game.version:
        said = result if isinstance(result, str) else reply_text(result)[:160].replace("\n", " ")
        return Moved("failed", chosen, off, note=f"the clicks did not move the game: {said!r}",
                     audited=audited, unreachable=missing)
    desk.clicks.append((desk.now(), person.user_id))
    try:
        panel = panel_of(result)
    except AssertionError:
        panel = None
    return Moved("moved", chosen, off, panel, audited=audited, unreachable=missing)
