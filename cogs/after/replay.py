"""`/game replay [game]`: any finished game of this server, move by move. The table picture at
the move shown is drawn from the state the log replays to (play/replays.py), never from a
stored picture; below it, the narration of that move. First / back / forward / last, jumps to
the previous or next turn, round or deal (whichever the title has), and a toggle between the
public view and everything (the game is over: every hand may be shown).

Its buttons belong to no game's channel (`Hreplay:<game>.<nonce>:<move>:<p|a>`): they work
anywhere in the game's server, for anyone in it, as `/game history` does.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from engine.core import State
from locales import Translator
from play.replays import Replay, Replays
from render.common import picture_names
from render.pool import pictures_of
from store import GameRow, Store

from cogs.kit import codec
from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_names
from cogs.kit.panel import Button, Panel
from cogs.kit.views import image_file
from cogs.table.narration import narrate
from cogs.titles.contract import panel_context_of, ui_for

_ARG = re.compile(r"(?P<gid>[0-9]{1,18})\.(?P<nonce>[0-9a-z]{1,8}):(?P<n>[0-9]{1,7}):(?P<view>[pa])[a-z]?")


def code(game: GameRow, n: int, everything: bool, tag: str = "") -> str:
    """A replay button's code. `tag` (a letter) tells apart buttons that lead to the same move
    (⏮ and ◀ one move in): a message's custom_ids must all differ."""
    return house(Verb.REPLAY, f"{game.id}.{codec.nonce(game)}:{max(0, n)}:{'a' if everything else 'p'}{tag}")


def parse(arg: str) -> tuple[int, str, int, bool] | None:
    m = _ARG.fullmatch(arg)
    if m is None:
        return None
    return int(m["gid"]), m["nonce"], int(m["n"]), m["view"] == "a"


async def finished_game(store: Store, guild_id: int | None, game_id: int, nonce: str | None = None) -> GameRow | None:
    """A finished game of this server (and, from a button, the very game that drew it)."""
    game = await store.get(game_id)
    if game is None or game.status != "finished" or game.guild_id != guild_id or not guild_id:
        return None
    if nonce is not None and nonce != codec.nonce(game):
        return None
    return game


def jumps(replay: Replay, game: GameRow, n: int, everything: bool, t: Translator) -> list[Button]:
    """The previous and next moment of each kind the title has (a turn, a round, a deal)."""
    out = []
    for i, (kind, types) in enumerate(ui_for(game.title).replay_marks.items()):
        marks = replay.marks(types)
        back = [m for m in marks if m < n]
        on = [m for m in marks if m > n]
        label = t(f"core.replay.kind.{kind}")
        if back:
            out.append(Button(t("core.replay.back_to", kind=label), code(game, back[-1], everything, "jkl"[i]),
                              any_version=True, row=1 if not out else None))
        if on:
            out.append(Button(t("core.replay.on_to", kind=label), code(game, on[0], everything, "xyz"[i]),
                              any_version=True, row=1 if not out else None))
    return out


def revealed(game: GameRow, state: State, t: Translator) -> list[str]:
    """Every seat's hidden part in words (the "everything" view): the title's own panel text."""
    ui = ui_for(game.title)
    names = text_names(game.names)
    lines = []
    for seat in range(len(game.seats)):
        words = ui.revealed(panel_context_of(game, state, seat, t))
        if words:
            lines.append(f"**{names[seat]}** · " + " · ".join(words))
    return lines


async def step(bot: Any, replays: Replays, game: GameRow, n: int, everything: bool,
               t: Translator) -> tuple[discord.ui.LayoutView, discord.File] | None:
    """The replay at move `n`; None when the game's log was archived."""
    replay = await replays.open(game)
    if replay is None:
        return None
    n = max(0, min(n, replay.moves))
    ui = ui_for(game.title)
    state = replay.state_at(n)
    public = ui.game.view(state, None)
    # The names as the table message draws them: a replay's last move is the final table.
    data = await pictures_of(bot).png(ui.render.table_image, public, picture_names(game.names), game.lang)
    if n == 0:
        lines = [t("core.replay.start", moves=replay.moves)]
    else:
        told = narrate(game, t, replay.entries[n - 1]["events"])
        lines = [t("core.replay.at", n=n, moves=replay.moves), *(told or [t("core.replay.nothing")])]
    fields = [(t("core.replay.hidden"), "\n".join(revealed(game, state, t))[:1024], False)] if everything else []
    nav = [Button("⏮", code(game, 0, everything, "f"), disabled=n == 0, any_version=True),
           Button("◀", code(game, n - 1, everything, "b"), disabled=n == 0, any_version=True),
           Button("▶", code(game, n + 1, everything, "n"), disabled=n >= replay.moves, any_version=True),
           Button("⏭", code(game, replay.moves, everything, "e"), disabled=n >= replay.moves, any_version=True),
           Button(t("core.replay.public" if everything else "core.replay.everything"),
                  code(game, n, not everything, "v"), "primary", emoji="👁️", any_version=True)]
    name = f"replay-{game.id}-{n}.png"
    panel = Panel(title=t("core.replay.title", title=t(f"{game.title}.name"), id=game.id), description="\n".join(lines),
                  fields=fields, components=nav + jumps(replay, game, n, everything, t),
                  footer=t("core.replay.footer", id=game.id))
    return panel_view(0, 0, panel, image=name, accent=ui.colour), image_file(data, name)
