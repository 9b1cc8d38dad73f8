"""The Discord side of a title: `cogs/titles/<title>/ui.py` defines `UI`, a subclass of `TitleUI`, that
builds the seat's private panel from its view and legal actions and maps clicks to actions.

Everything else (lobby, table message, pings, timers, DMs, stale clicks, permissions) is the
house's. A title UI is pure and quick: it must answer a click in well under a second, since a
modal can only be opened as the click's first reply.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import engine
from engine.core import Game
from locales import Translator
from locales.format import join_list
from render.common import picture_names
from store import GameRow

from cogs.kit import codec
from cogs.kit.names import text_names
from cogs.kit.panel import Apply, Ask, Button, Option, Panel, Refuse, Reply, Select, short

log = logging.getLogger(__name__)

#: Event params that hold seat numbers: narration shows player names instead.
SEAT_PARAMS = ("seat", "seats", "by", "to_seat", "from_seat", "winner", "winners", "target", "boss", "parent")


@dataclass
class PanelContext:
    """What a title UI knows when it draws a panel or answers a click."""

    game_id: int
    version: int
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    t: Translator  # the clicking user's language
    #: Player names by seat, escaped for markdown (names are text, never markup); buttons and
    #: select labels show them plain (the house removes the escapes where markdown does not apply).
    names: list[str]
    title: str
    #: The names as the players chose them, for pictures (None: `names` are already plain).
    raw_names: list[str] | None = None

    def tk(self, key: str, /, **params: Any) -> str:
        """A message of this title: `tk("ui.pass")` is `<title>.ui.pass`."""
        return self.t(f"{self.title}.{key}", **params)

    @property
    def picture_names(self) -> list[str]:
        """The names to give a renderer: without characters the font cannot draw (emoji)."""
        return picture_names(self.raw_names if self.raw_names is not None else self.names)

    def act(self, label: str, action: dict[str, Any], style: str = "primary", *, emoji: str | None = None,
            any_version: bool = False, row: int | None = None, disabled: bool = False) -> Button:
        """A button that applies `action`."""
        code = codec.action_code(action, self.legal, room=min(80, codec.room(self.game_id, self.version)))
        return Button(label=label[:80], code=code, style=style, emoji=emoji,
                      any_version=any_version and not codec.needs_version(code), row=row, disabled=disabled)

    def act_option(self, label: str, action: dict[str, Any], description: str | None = None,
                   emoji: str | None = None) -> Option:
        """A select option that applies `action` (use in a Select with code "act")."""
        return Option(label=label[:100], value=codec.action_code(action, self.legal, room=100),
                      description=short(description or None), emoji=emoji)

    def is_legal(self, action: dict[str, Any]) -> bool:
        return action in self.legal

    def legal_of(self, *types: str) -> list[dict[str, Any]]:
        return [a for a in self.legal if a.get("type") in types]


class _ViewWhenRead(PanelContext):
    """A context whose view is asked of the rules when first read. The click router decides
    most clicks (an action code) from `legal` alone, and the view was a tenth of the CPU of
    a click in the many-games benchmark. The state it is drawn from is a row's, never changed
    in place (play/house.py), so a view drawn later is the one drawn now."""

    def __init__(self, state: dict[str, Any], game_rules: Game, **fields: Any) -> None:
        self._state, self._rules, self._view = state, game_rules, None
        super().__init__(view=None, **fields)  # type: ignore[arg-type]

    @property  # type: ignore[override]
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._rules.view(self._state, self.seat)
        return self._view

    @view.setter
    def view(self, value: dict[str, Any] | None) -> None:
        if value is not None:  # the dataclass's __init__ sets None: nothing drawn yet
            self._view = value


def panel_context(game: GameRow, seat: int, t: Translator) -> PanelContext:
    """What a title UI knows of `seat` in `game` now: its view (drawn when first read) and legal
    actions."""
    game_rules = engine.get(game.title)
    state = game.state or {}
    return _ViewWhenRead(state, game_rules, game_id=game.id, version=game.version, seat=seat,
                         legal=game_rules.legal(state, seat), t=t, names=text_names(game.names), title=game.title,
                         raw_names=game.names)


def panel_context_of(game: GameRow, state: dict[str, Any], seat: int, t: Translator) -> PanelContext:
    """What `seat` saw in a past state (a replay): its view, and nothing it could do any more."""
    return PanelContext(game_id=game.id, version=0, seat=seat, view=engine.get(game.title).view(state, seat), legal=[],
                        t=t, names=text_names(game.names), title=game.title, raw_names=game.names)


@dataclass
class TableContext:
    """What a title UI knows when it adds to the public table message."""

    game_id: int
    version: int
    view: dict[str, Any]  # the public view
    t: Translator  # the game's language
    names: list[str]  # escaped for markdown, as in PanelContext
    title: str

    def tk(self, key: str, /, **params: Any) -> str:
        return self.t(f"{self.title}.{key}", **params)


class TitleUI:
    title: str = ""
    #: Public buttons on the table message change with the version (e.g. a live bell), so the
    #: house redraws them on every refresh.
    colour: int = 0xE0B84C
    #: Event types narrated on the table (recent lines, /game log) but never posted as a
    #: message on their own: chatty live events (a die roll in E-Wars dice time).
    quiet_events: frozenset[str] = frozenset()
    #: Where a replay can jump to (issue 29): per kind of moment ("turn", "round", "deal"), the
    #: event types that start one. Titles say which they have.
    replay_marks: dict[str, frozenset[str]] = {"turn": frozenset({"turn"})}
    #: The kind of moment the picture story draws a frame at (a few seconds in all).
    story_mark: str = "turn"

    @property
    def story_marks(self) -> frozenset[str]:
        return self.replay_marks.get(self.story_mark, frozenset())

    def __init__(self) -> None:
        self.game: Game = engine.get(self.title)

    @property
    def render(self) -> ModuleType:
        return importlib.import_module(f"render.{self.title}")

    # -- the private panel --------------------------------------------------------------------

    def panel(self, pc: PanelContext) -> Panel:
        """The seat's panel. The default lists legal actions as buttons (up to 20) with labels
        from `<title>.action.<type>`; titles override it with a proper panel."""
        buttons: list[Any] = []
        for action in pc.legal[:20]:
            params = {k: v for k, v in action.items() if k != "type"}
            label = pc.t(f"{self.title}.action.{action['type']}", **params)
            buttons.append(pc.act(label, action, "secondary"))
        return Panel(title=pc.t(f"{self.title}.name"), description=pc.t("core.panel.your_move") if pc.legal
                     else pc.t("core.panel.nothing_to_do"), components=buttons)

    def revealed(self, pc: PanelContext) -> list[str]:
        """The seat's hidden part in words, for a replay that shows everything (the game is
        over): by default the facts its own panel lists (the hand, money, holdings)."""
        try:
            panel = self.panel(pc)
        except Exception:  # a panel drawn for a past moment with nothing to do: say nothing
            log.exception("%s: the panel of seat %s could not be drawn for a replay", self.title, pc.seat)
            return []
        return [f"{name}: {value}" if name else value for name, value, _ in panel.fields]

    def on_component(self, pc: PanelContext, code: str, values: list[str]) -> Reply:
        """A click on one of the title's own codes (action codes are handled by the house)."""
        return Refuse("core.error.bad_action")

    def on_modal(self, pc: PanelContext, code: str, fields: dict[str, str]) -> Reply:
        return Refuse("core.error.bad_action")

    # -- the public table ---------------------------------------------------------------------

    def table_buttons(self, tc: TableContext) -> list[Button]:
        """Extra public buttons beside "My hand" (each clicker acts for their own seat)."""
        return []

    def table_lines(self, tc: TableContext) -> list[str]:
        """Short status lines for the table embed (phase, whose move)."""
        view = tc.view
        lines = []
        phase = view.get("phase")
        if phase:
            lines.append(tc.t(f"{self.title}.phase.{phase}"))
        return lines

    def glance(self, tc: TableContext) -> str | None:
        """The table's key figures in one line, carried by a reminder (the table may be far up
        the channel, issue 30): by default its first status line. Titles whose first line is
        not the one a player needs pick another of their table lines."""
        lines = self.table_lines(tc)
        return lines[0] if lines else None

    def narrate(self, t: Translator, event: dict[str, Any], names: list[str]) -> str | None:
        """One narration line for a public event (None: not narrated)."""
        params = {k: v for k, v in event.items() if k not in ("type", "to")}
        for key in SEAT_PARAMS:
            if key in params:
                params[key] = seat_names(params[key], names, t)
        return t(f"{self.title}.event.{event['type']}", **params)

    def todo(self, t: Translator, view: dict[str, Any], seat: int) -> str | None:
        """One short line telling `seat` what it can do now ("offer an investor for deal C, or
        pass"), for the ping that names it. `view` is the PUBLIC view: the line goes to the
        channel, so it must say nothing only that seat may know. None: the house's "your move"."""
        return None

    def todo_of(self, t: Translator, view: dict[str, Any], seat: int, kind: str) -> str | None:
        """The line for one window `seat` owes (`kind`: the window's kind), for a reminder of that
        window: a seat owing two at once is reminded of each, and the older one's reminder must
        not read as the newer's task. By default `todo` (a title whose seats owe one at a time)."""
        return self.todo(t, view, seat)


def seat_names(value: Any, names: list[str], t: Translator) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return names[value] if 0 <= value < len(names) else str(value)
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return join_list((names[v] if 0 <= v < len(names) else str(v) for v in value), t.lang)
    return value


@cache
def uis() -> dict[str, TitleUI]:
    """Every title with an engine gets a UI: its `cogs/titles/<title>/ui.py`, or the default one."""
    found: dict[str, TitleUI] = {}
    for title in engine.titles():
        try:
            module = importlib.import_module(f"cogs.titles.{title}.ui")
            found[title] = module.UI()
        except ModuleNotFoundError as exc:
            if exc.name not in (f"cogs.titles.{title}", f"cogs.titles.{title}.ui"):
                raise
            ui = TitleUI.__new__(TitleUI)
            ui.title = title
            TitleUI.__init__(ui)
            found[title] = ui
    return found


def ui_for(title: str) -> TitleUI:
    return uis()[title]


__all__ = ["PanelContext", "TableContext", "TitleUI", "Apply", "Ask", "Refuse", "Panel", "Button", "Select",
           "Option", "uis", "ui_for"]
