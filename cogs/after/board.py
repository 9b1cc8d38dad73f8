"""`/game leaderboard [title]`: a title's ratings in this server or across servers, ten a page,
with the reader's own line even when it is not on the page. Its buttons belong to no game
(`Hboard:<page>:<s|g>:<title>`), so they work in any channel of the server."""

from __future__ import annotations

import discord

from locales import Translator
from store import Store
from store.ratings import GLOBAL, Player, Standing

from cogs.kit.codec import Verb, house
from cogs.kit.layout import panel_view
from cogs.kit.names import text_name
from cogs.kit.panel import Button, Panel
from cogs.table.pages import nav_buttons
from cogs.titles.contract import ui_for, uis

PER_PAGE = 10
SCOPES = ("s", "g")  # this server, all servers


def name_of(line: Standing, t: Translator) -> str:
    if line.player.ai:
        return t("core.rating.ai", level=line.player.level)
    return text_name(line.name) or str(line.player.user_id)


def line_text(line: Standing, t: Translator) -> str:
    return t("core.board.line", rank=line.rank, name=name_of(line, t), points=line.skill.points, count=line.games)


async def page(store: Store, t: Translator, *, title: str, scope: str, number: int, guild_id: int | None,
               user_id: int) -> discord.ui.LayoutView:
    where = GLOBAL if scope == "g" or not guild_id else int(guild_id)
    _, total = await store.leaderboard(where, title, limit=1)
    pages = max(1, (total + PER_PAGE - 1) // PER_PAGE)
    number = max(0, min(number, pages - 1))
    lines, _ = await store.leaderboard(where, title, offset=number * PER_PAGE, limit=PER_PAGE)
    text = [line_text(s, t) for s in lines] or [t("core.board.empty")]
    mine = await store.standing(where, title, Player(user_id))
    if mine is None:
        text += ["", t("core.board.you_none")]
    elif not any(s.player == mine.player for s in lines):
        text += ["", t("core.board.you", line=line_text(mine, t))]
    other = "g" if scope == "s" else "s"
    buttons = nav_buttons(house(Verb.BOARD), number, pages, f":{scope}:{title}")
    buttons.append(Button(t(f"core.board.{'global' if other == 'g' else 'server'}"),
                          house(Verb.BOARD, f"0:{other}:{title}"), "primary", emoji="🌐" if other == "g" else "🏠",
                          any_version=True))
    buttons += [Button(t(f"{x}.name"), house(Verb.BOARD, f"0:{scope}:{x}"), any_version=True, row=2)
                for x in uis() if x != title]
    panel = Panel(title=t("core.board.title", title=t(f"{title}.name")), description="\n".join(text),
                  footer=f"{t('core.board.server' if scope == 's' else 'core.board.global')} · "
                         f"{t('core.page', page=number + 1, pages=pages)} · {t('core.board.note')}",
                  components=buttons)
    return panel_view(0, 0, panel, accent=ui_for(title).colour)


def parse(arg: str) -> tuple[int, str, str] | None:
    """(page, scope, title) of a board code's argument, or None if it is not one of ours."""
    head, _, rest = arg.partition(":")
    scope, _, title = rest.partition(":")
    if not head.isdigit() or len(head) > 5 or scope not in SCOPES or title not in uis():
        return None
    return int(head), scope, title
