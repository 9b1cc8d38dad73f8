"""The results message when a game ends: the ranking, the final picture, and a Rematch button
(same seats and options, a new lobby)."""

from __future__ import annotations

from typing import Any

import discord

from locales import Translator
from play.records import Records
from play.replays import Replays
from render.common import picture_names
from render.pool import pictures_of
from store import GameRow

from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_name
from cogs.kit.panel import Button, Panel
from cogs.titles.contract import ui_for
from cogs.kit.views import image_file

from . import standing


def picture_names_marked(game: GameRow, t: Translator) -> list[str]:
    """The names for the results picture: drawable (the font has no 🤖), with the seat-filler's
    mark kept as text it can draw, as the ranking lines keep the 🤖."""
    names = picture_names(game.names)
    tag = t("core.results.ai_tag")
    for seated in game.seats:
        if seated.ai_plays and seated.seat < len(names):
            names[seated.seat] = f"{names[seated.seat]} ({tag})"
    return names


def ranking_lines(game: GameRow, t: Translator, notes: dict[int, str] | None = None) -> list[str]:
    result = game.result or {}
    places = result.get("places") or []
    scores = result.get("scores") or []
    key = f"{game.title}.{result.get('summary_key', 'result')}"
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    order = sorted(range(len(places)), key=lambda s: (places[s] is None, places[s] or 99))
    lines = []
    for seat in order:
        place = places[seat]
        seated = game.seats[seat] if seat < len(game.seats) else None
        name = text_name(seated.name) if seated else str(seat)
        if seated is not None and seated.ai_plays and "🤖" not in name:
            name += " 🤖"
        score = t(key, **scores[seat]) if seat < len(scores) and scores[seat] else ""
        mark = medals.get(place, f"{place}.") if place else "—"
        note = (notes or {}).get(seat)
        lines.append(f"{mark} **{name}** {score}".rstrip() + (f" · {note}" if note else ""))
    return lines


async def post_results(bot: discord.Client, records: Records, game: GameRow, channel: Any,
                       replays: Replays) -> None:
    """The results once (ranking, each rated player's change, the picture), then the story."""
    if not game.result or game.result.get("announced"):
        return
    store = records.store
    notes = await standing.rating_notes(store, game, Translator(game.lang))
    unrated = standing.unrated_note(await store.judged(game.id), Translator(game.lang))
    ui = ui_for(game.title)
    t = Translator(game.lang)
    public = ui.game.view(game.state or {}, None)
    data = await pictures_of(bot).png(ui.render.results_image, public, picture_names_marked(game, t),
                                                   game.lang)
    name = f"results-{game.id}.png"
    panel = Panel(title=t("core.results.title", title=t(f"{game.title}.name")),
                  description="\n".join(ranking_lines(game, t, notes) + ([f"-# {unrated}"] if unrated else [])),
                  components=[Button(t("core.results.rematch"), house(Verb.REMATCH), "primary", emoji="🔁", any_version=True),
                              Button(t("core.table.log"), house(Verb.LOG), "secondary", emoji="📜", any_version=True)],
                  footer=t("core.table.footer_over", id=game.id, version=game.version))
    sent = await channel.send(view=panel_view(game, game.version, panel, image=name, accent=ui.colour),
                              file=image_file(data, name))
    # Where the results are, for a click on the game's buttons afterwards (My hand on the last call).
    game.result = {**game.result, "announced": True, "message": sent.id}
    await records.announced(game, game.result)
    await standing.post_story(bot, store, game, channel, replays)

