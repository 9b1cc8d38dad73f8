"""What the results add after a game (issue 29): each rated player's change ("+18, now 1,243,
4th in this server"), and the picture story of the game, drawn in the picture workers and
posted under the results unless the server turned stories off (`/game-admin defaults story`)."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from locales import Translator
from locales.format import number
from play.replays import Replays
from render.common import picture_names
from render.pool import pictures_of
from render.story import story
from store import GameRow, Store
from store.ratings import Change, Judged, Player
from store.ratings.rule import holder, level_of

from cogs.titles.contract import ui_for

log = logging.getLogger(__name__)


async def judged(store: Store, game: GameRow) -> Judged | None:
    """The game's rating: rated now if the ending move's rating did not happen (a crash, a
    failure), else what it did."""
    try:
        return await store.rate_game(game, game.finished_at or 0.0) or await store.judged(game.id)
    except Exception:
        log.exception("rating game %s failed", game.id)
        return None


async def rating_notes(store: Store, game: GameRow, t: Translator) -> dict[int, str]:
    """Per seat, the rating line the results show beside it (rated seats in this server)."""
    done = await judged(store, game)
    if done is None or not done.rated:
        return {}
    scope = int(game.guild_id or 0)
    mine: dict[Player, Change] = {c.player: c for c in done.changes if c.scope == scope}
    out = {}
    level = level_of(game)
    for seat in game.seats:
        player = holder(seat, level)
        change = mine.get(player)
        if change is None:
            continue
        place = await store.standing(scope, game.title, player)
        out[seat.seat] = t("core.rating.change", delta=signed(change.delta, t.lang),
                           now=change.after.points, rank=place.rank if place else 0)
    return out


def unrated_note(done: Judged | None, t: Translator) -> str | None:
    if done is None or done.rated or not done.why:
        return None
    return t(f"core.rating.why.{done.why}")


def signed(delta: int, lang: str) -> str:
    return ("+" if delta > 0 else "±" if delta == 0 else "−") + number(abs(delta), lang)


async def story_on(store: Store, game: GameRow) -> bool:
    return bool((await store.guild_settings(game.guild_id)).get("story", True))


async def post_story(bot: discord.Client, store: Store, game: GameRow, channel: Any, replays: Replays) -> bool:
    """Draw the game's picture story in a picture worker and post it (True once posted). A
    failure is logged and costs nothing else: the results are already out."""
    if not await story_on(store, game):
        return False
    try:
        replay = await replays.open(game)
        if replay is None:  # the log was pruned: nothing to replay
            return False
        ui = ui_for(game.title)
        moves = [(e["seat"], e["action"]) for e in replay.entries]
        marks = replay.marks(ui.story_marks)
        told = await pictures_of(bot).job(story, game.title, len(game.seats), game.seed, game.options, moves, marks,
                                           picture_names(game.names), game.lang)
    except Exception:
        log.exception("the picture story of game %s could not be drawn", game.id)
        return False
    t = Translator(game.lang)
    file = discord.File(io.BytesIO(told.data), filename=f"story-{game.id}.{told.kind}",
                        description=t("core.story.alt", title=t(f"{game.title}.name")))
    await channel.send(content=t("core.story.caption", count=len(told.moves)), file=file, silent=True)
    return True
