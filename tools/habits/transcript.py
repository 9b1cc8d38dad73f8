"""Everything the bot said in one game, as text, and what reads wrong in it (issue 30's Done when:
the slow games' transcripts of one game per title and language read without the rough edges it
lists).

`lines(log)` turns the bot's requests (watch.TimedLog: every message posted or edited, every
answer to a click, in the channel and in DMs) into "time  where  text" lines: message text,
text displays, embeds, and the labels of buttons and selects. `problems(text)` finds what a
reader would trip over, by rule: a count of one with a plural noun ("1 luxuries", "1 lujos") or a
plural verb ("te quedan 1 más"), "(s)" plurals, a half-width space after a Japanese full stop or
comma where sentences were joined, Latin punctuation straight after Japanese ("）; "), "$-marks 5"
that reads as a price, placeholders or catalogue keys left in the text, a member named by a
pronoun ("you's turn").
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

#: Nouns that end in "s" in the singular (so "1 bonus" is right).
_SINGULAR_S = {"bonus", "plus", "status", "class", "pass", "boss", "loss", "gas", "is", "was", "has", "this", "its",
               "us", "yes", "minus", "focus", "campus", "chorus", "series", "news", "process", "business", "access",
               "address", "success", "mess", "press", "less", "cross", "glass", "kiss", "dress", "miss"}
_SINGULAR_S_ES = {"más", "mes", "país", "dios", "autobús", "lunes", "martes", "miércoles", "jueves", "viernes", "tos",
                  "crisis", "análisis", "tesis", "virus", "bonus", "plus", "gas", "es", "has", "mas", "pues", "tras"}
_PATTERNS_ALL: list[tuple[str, re.Pattern[str]]] = [
    ("plural in brackets", re.compile(r"\w\((?:s|es)\)")),
    ("placeholder left in the text", re.compile(r"\{[a-z_][a-z0-9_]*(?::[^{}]*)?\}")),
    ("catalogue key left in the text",
     re.compile(r"\b(?:core|imtheboss|filthyrich|blackfriday|ewars|toy)\.[a-z_]+\.[a-z_.]+\b")),
    ("a member called by a pronoun", re.compile(r"\byou's\b|\bWaiting for you\b|faltan: you\b|：you\b")),
    ("a plural verb with a count of one",
     re.compile(r"\b(?:quedan|faltan|son|están|tienen|are|remain|were)\s+(?:\*\*)?1\b(?![\d.,])")),
]
_ONE = re.compile(r"(?<![\d.,$/])\b1 ([a-záéíóúñ]+s)\b")
#: (a list's separator after a bracket, " · " or " / ", is a separator, not a joined sentence)
_JA_SPACE = re.compile(r"[。、）」] (?![·/|—])(?=\S)|[一-龯ぁ-んァ-ヶ] [（「]")
_PRICE_LOOK = re.compile(r"marcas de \$ \d|\$-marks \d")
#: Latin punctuation straight after Japanese ("（返事待ち）; p0…"): Japanese writes "；", "、", "：".
_JA_LATIN_MARK = re.compile(r"[一-龯ぁ-んァ-ヶ）」][;,:!?]")


def problems(text: str) -> list[tuple[str, str]]:
    """(what is wrong, the words around it) for each rough edge found in `text`: every rule is
    applied whatever the game's language, since what goes to one person follows theirs."""
    found: list[tuple[str, str]] = []

    def around(m: re.Match[str]) -> str:
        return text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ⏎ ")

    for name, pattern in _PATTERNS_ALL:
        found += [(name, around(m)) for m in pattern.finditer(text)]
    found += [("one with a plural noun", around(m)) for m in _ONE.finditer(text)
              if m[1] not in _SINGULAR_S | _SINGULAR_S_ES and not m[1].endswith("ss")]
    found += [("half-width space after a Japanese mark", around(m)) for m in _JA_SPACE.finditer(text)]
    found += [("a count that reads as a price", around(m)) for m in _PRICE_LOOK.finditer(text)]
    found += [("Latin punctuation in Japanese", around(m)) for m in _JA_LATIN_MARK.finditer(text)]
    return found


def _body(entry: Any) -> dict[str, Any]:
    body = entry.json
    if isinstance(body, dict) and "payload_json" in body:
        body = json.loads(body["payload_json"])
    if isinstance(body, dict) and isinstance(body.get("data"), dict):  # an answer to a click
        body = body["data"]
    return body if isinstance(body, dict) else {}


def texts(body: dict[str, Any]) -> list[str]:
    """The words a message body shows: its content, embeds, text displays, and the labels,
    placeholders and options of its buttons and selects."""
    out: list[str] = [str(body["content"])] if body.get("content") else []
    for embed in body.get("embeds") or []:
        out += [str(embed.get(k)) for k in ("title", "description") if embed.get(k)]
        out += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
        if (embed.get("footer") or {}).get("text"):
            out.append(str(embed["footer"]["text"]))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == 10 and node.get("content"):
                out.append(str(node["content"]))
            for key in ("label", "placeholder", "description"):
                if isinstance(node.get(key), str) and node.get(key):
                    out.append(node[key])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(body.get("components") or [])
    return out


def lines(log: Any, since: int = 0) -> Iterable[tuple[float, str, str]]:
    """(virtual time, where, text) of everything the bot sent from request `since` on."""
    for i in range(since, len(log)):
        entry = log[i]
        if entry.method not in ("POST", "PATCH"):
            continue
        if not re.search(r"/messages|/callback|/webhooks/", entry.path):
            continue
        for text in texts(_body(entry)):
            yield log.times[i], entry.path, text


def write(path: Any, log: Any) -> int:
    """The transcript of a game to `path`, each rough edge marked under its line (prefixed
    "!! "); how many were found."""
    count = 0
    with open(path, "w", encoding="utf-8") as fh:
        for at, where, text in lines(log):
            fh.write(f"[{at:.0f}] {where}\n{text}\n")
            for name, words in problems(text):
                fh.write(f"!! {name}: …{words}…\n")
                count += 1
            fh.write("\n")
    return count
