"""Black Friday's table narration (a mixin of the title's UI, cogs/blackfriday.py): compact
lines, and a price adjustment folded into a short block."""

from __future__ import annotations

from typing import Any

from cogs.blackfriday_forms import EMOJI
from cogs.shared.titles import seat_names


class Narration:
    """`narrate` for the Black Friday UI; `super().narrate` is the house's default line."""

    def __init__(self) -> None:
        super().__init__()
        self._fold: dict[str, Any] = {}  # adjustment lines waiting to be folded (see narrate)

    def narrate(self, t, event: dict[str, Any], names: list[str]) -> str | None:
        """Table narration, compact. A price adjustment is a short block: its trigger, who
        could not pay interest, one line for the draw and its black briefcases, one "new
        prices" line for the five Wall Street Journal moves, the sell-table change, rises of
        missing colours, one silver line and the level. Folded lines wait in `_fold` until an
        event that always follows them in the same action (the events of one action are
        narrated in order, in one call sequence)."""
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
            bags = " ".join(EMOJI.get(c, "⬛") for c in event.get("bags", []) if c != "none")
            fold["draw"] = t("blackfriday.ui.draw_line", seat=seat_names(event.get("seat"), names, t),
                             bags=bags or t("blackfriday.colour.none"))
            # Two or more blacks: the crash follows the five moves, and the draw line waits
            # for it (one black comes before the moves).
            fold["crash"] = event.get("bags", []).count("black") >= 2
            return None
        if kind in ("black_one", "black_crash") and "draw" in fold:
            fold.pop("crash", None)
            key = "blackfriday.ui.black_one" if kind == "black_one" else "blackfriday.ui.black_crash"
            return fold.pop("draw") + " · " + t(key, count=event.get("count", 1))
        if kind == "wsj":
            fold.setdefault("moves", []).append(self._move(t, event))
            return None if fold.get("crash") else fold.pop("draw", None)  # the draw line, no crash
        if kind == "table_cleared":
            moves = fold.pop("moves", [])
            return t("blackfriday.ui.prices_moved", moves=" · ".join(moves)) if moves else None
        if kind == "silver_price":
            first = fold.setdefault("silver", {"old": event["old"], "causes": []})
            first["new"] = event["new"]
            first["causes"].append(t("blackfriday.ui.silver_cause", cause=event["cause"], count=event["steps"]))
            return None
        if kind == "purchases":
            silver = fold.pop("silver", None)
            if silver is None:
                return None
            return "🥈 " + t("blackfriday.ui.silver_moved", old=silver["old"], new=silver["new"],
                             causes=", ".join(silver["causes"]))
        if kind in ("turn", "interest"):
            return None
        if kind == "game_end":
            # Silver on 100 ends the game in the middle of an adjustment: what is folded so
            # far is said before the end.
            return "\n".join(self._flush(t) + ["🏁 " + (super().narrate(t, event, names) or "")]).strip()
        line = super().narrate(t, event, names)
        if line is None:
            return None
        mark = {"level": "⭐ ", "timeout": "⏰ ",
                "special": "🃏 ", "debt": "⚠️ "}.get(kind or "")
        return (mark + line) if mark else line

    def _flush(self, t) -> list[str]:
        fold, out = self._fold, []
        if "draw" in fold:
            out.append(fold.pop("draw"))
        moves = fold.pop("moves", [])
        if moves:
            out.append(t("blackfriday.ui.prices_moved", moves=" · ".join(moves)))
        silver = fold.pop("silver", None)
        if silver is not None:
            out.append("🥈 " + t("blackfriday.ui.silver_moved", old=silver["old"], new=silver["new"],
                                 causes=", ".join(silver["causes"])))
        fold.clear()
        return out

    @staticmethod
    def _move(t, event: dict[str, Any]) -> str:
        arrow = "▲" if event["new"] > event["old"] else ("▼" if event["new"] < event["old"] else "=")
        return t("blackfriday.ui.price_move", colour=event["colour"], emoji=EMOJI[event["colour"]],
                 old=event["old"], new=event["new"], arrow=arrow)
