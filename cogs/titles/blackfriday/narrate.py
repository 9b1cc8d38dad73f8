"""Black Friday's table narration (a mixin of the title's UI, cogs/blackfriday.py): compact
lines, and a price adjustment folded into a short block."""

from __future__ import annotations

from typing import Any

from .forms import EMOJI
from cogs.titles.contract import seat_names
from engine.blackfriday.data import SILVER
from locales.format import separator


class Narration:
    """`narrate` for the Black Friday UI; `super().narrate` is the house's default line."""

    def __init__(self) -> None:
        super().__init__()
        self._fold: dict[str, Any] = {}  # adjustment lines waiting to be folded (see narrate)

    def narrate(self, t, event: dict[str, Any], names: list[str]) -> str | None:
        """Table narration, compact. A price adjustment is a short block: its trigger, who
        could not pay interest, one line for the draw and its black briefcases, one "new
        prices" line for the five Wall Street Journal moves, the sell-table change, rises of
        missing colours, one silver line and the level. Each folded line is said as soon as
        it is complete (the draw at once, the prices at the fifth move, silver at the purchase
        count or when it reaches $100), so an adjustment cut short by the end of the game
        (silver on $100) still says all that happened. The events of one action are narrated
        in order, in one call sequence; `_fold` holds what is still being gathered."""
        kind = event.get("type")
        fold = self._fold
        if kind == "adjust":
            fold.clear()
            table = event.get("table", "buy")
            if table.startswith("sell"):
                left = 4 if len(names) == 5 else 5
                return "📉 " + t("blackfriday.ui.adjust_sell", table=table, count=left)
            return "📉 " + t("blackfriday.ui.adjust_full", table=table)
        if kind == "draw":
            drawn = event.get("bags", [])
            bags = " ".join(EMOJI.get(c, "⬛") for c in drawn if c != "none")
            line = t("blackfriday.ui.draw_line", seat=seat_names(event.get("seat"), names, t),
                     bags=bags or t("blackfriday.colour.none"))
            blacks = drawn.count("black")
            if blacks == 1:
                line += " · " + t("blackfriday.ui.black_one", count=1)
            elif blacks >= 2:
                line += " · " + t("blackfriday.ui.black_crash", count=blacks)
            return line
        if kind in ("black_one", "black_crash", "table_cleared"):
            return None  # said with the draw / the prices
        if kind == "wsj":
            moves = fold.setdefault("moves", [])
            moves.append(self._move(t, event))
            if len(moves) < len(EMOJI):
                return None
            return t("blackfriday.ui.prices_moved", moves=" · ".join(fold.pop("moves")))
        if kind == "silver_price":
            first = fold.setdefault("silver", {"old": event["old"], "causes": []})
            first["new"] = event["new"]
            first["causes"].append(t("blackfriday.ui.silver_cause", cause=event["cause"], count=event["steps"]))
            return self._silver_line(t) if event["new"] >= SILVER[-1] else None
        if kind == "purchases":
            return self._silver_line(t)
        if kind in ("turn", "interest"):
            return None
        line = super().narrate(t, event, names)
        if line is None:
            return None
        mark = {"level": "⭐ ", "game_end": "🏁 ", "timeout": "⏰ ",
                "special": "🃏 ", "debt": "⚠️ "}.get(kind or "")
        return (mark + line) if mark else line

    def _silver_line(self, t) -> str | None:
        silver = self._fold.pop("silver", None)
        if silver is None:
            return None
        return "🥈 " + t("blackfriday.ui.silver_moved", old=silver["old"], new=silver["new"],
                         causes=separator(t.lang).join(silver["causes"]))

    @staticmethod
    def _move(t, event: dict[str, Any]) -> str:
        arrow = "▲" if event["new"] > event["old"] else ("▼" if event["new"] < event["old"] else "=")
        return t("blackfriday.ui.price_move", colour=event["colour"], emoji=EMOJI[event["colour"]],
                 old=event["old"], new=event["new"], arrow=arrow)
