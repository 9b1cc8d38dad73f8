"""What Discord would make of the text the bot sends: the links and mentions in it, found with a
real markdown parser (markdown-it-py, CommonMark) plus Discord's own syntax on top, so a test can
say "the bot made every link and mention in this request itself" (issue 25, finding 1).

Where Discord parses markdown: message content, a Components V2 text display (`content`), an
embed's title, description and fields. Elsewhere (labels, placeholders, option descriptions,
form titles, footers, file names) it shows plain text: nothing there links or mentions, but an
escape meant for markdown would show, so plain strings are returned for that check.

In the markdown, a request must not hold:
- a link (masked `[text](url)`, or `<https://...>`) whose address is not one the bot makes (the
  links to its own tables, `https://discord.com/channels/<server>/...`);
- a bare address (`https://...`): Discord links it, CommonMark does not (linkify is off), so it is
  looked for in the parsed text, outside code and escapes;
- a masked link in Discord's looser reading (`[text](url)` with what CommonMark refuses in it);
- a mention (`<@id>`, `<@!id>`, `<@&role>`, `<#channel>`) of a user or channel the test does not
  know, any role mention, or `@everyone` / `@here`. Timestamps (`<t:...>`) are the bot's.
Text inside code spans and escaped characters are never links or mentions (in Discord either).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt

#: CommonMark without HTML (Discord has none); escapes kept as tokens of their own.
MD = MarkdownIt("commonmark", {"html": False}).disable("text_join")
#: Stands for anything that cannot take part in a link or mention: an escaped character, code.
INERT = "\x00"
BARE_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.\-]*://[^\s<" + INERT + r"]+")
LOOSE_MASKED = re.compile(r"\[[^\]" + INERT + r"]*\]\(\s*<?\s*([a-z][a-z0-9+.\-]*:[^)\s" + INERT + r"]*)", re.I)
#: The links the bot makes: to a game's channel or table (cogs/table/dm.py: jump).
OWN_LINK = re.compile(r"https://discord\.com/channels/(\d+|@me)/\d+(/\d+)?")
MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
EVERYONE = re.compile(r"@(everyone|here)\b")
MARKDOWN_EMBED_KEYS = {"title", "description"}
PLAIN_KEYS = {"label", "placeholder", "title", "description", "text", "name", "value"}


@dataclass
class Known:
    """What the bot may link and mention: its tables' addresses, the users and channels of the test."""

    users: set[int] = field(default_factory=set)
    channels: set[int] = field(default_factory=set)

    def link(self, href: str) -> bool:
        return bool(OWN_LINK.fullmatch(href))


def request_body(entry: Any) -> Any:
    body = entry.json
    if isinstance(body, dict) and "payload_json" in body:
        body = json.loads(body["payload_json"])
    return body


def shown(body: Any) -> Iterator[tuple[str, str, bool]]:
    """(where, text, parsed as markdown) for every string a request shows."""
    yield from _walk(body, "", False)


def _walk(value: Any, where: str, in_embed: bool) -> Iterator[tuple[str, str, bool]]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{where}[{i}]", in_embed)
        return
    if not isinstance(value, dict):
        return
    for key, item in value.items():
        path = f"{where}.{key}"
        if isinstance(item, str):
            if key == "content" or (in_embed and (key in MARKDOWN_EMBED_KEYS or path.endswith(("].name", "].value"))
                                                  and ".fields[" in path)):
                yield path, item, True
            elif key in PLAIN_KEYS and not (key == "value" and "options" in path):
                yield path, item, False
        else:
            yield from _walk(item, path, in_embed or key == "embeds")


def _runs(children: list[Any]) -> tuple[str, list[str]]:
    """The inline text as Discord would scan it for bare links and mentions (escapes, code and
    links already parsed stand as INERT) and the addresses of the links parsed."""
    text, hrefs = [], []
    for tok in children:
        if tok.type == "text":
            text.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            text.append("\n")
        else:  # text_special (an escape), code_inline, link and emphasis markers, images
            text.append(INERT)
            if tok.type == "link_open":
                hrefs.append(str(tok.attrs.get("href", "")))
            elif tok.type == "image":
                hrefs.append(str(tok.attrs.get("src", "")))
    return "".join(text), hrefs


def problems(text: str, known: Known) -> list[str]:
    """Every link and mention in `text` (markdown) the bot did not make itself."""
    found = []
    for block in MD.parse(text):
        if block.type != "inline":
            continue
        scanned, hrefs = _runs(block.children or [])
        found += [f"link to {href!r}" for href in hrefs if not known.link(href)]
        found += [f"bare link {m.group(0)!r}" for m in BARE_URL.finditer(scanned) if not known.link(m.group(0))]
        found += [f"masked link to {m.group(1)!r}" for m in LOOSE_MASKED.finditer(scanned) if not known.link(m.group(1))]
        for m in MENTION.finditer(scanned):
            kind, ident = m.group(1), int(m.group(2))
            ok = ident in known.users if kind.startswith("@") and kind != "@&" else \
                ident in known.channels if kind == "#" else False
            if not ok:
                found.append(f"mention {m.group(0)!r}")
        found += [f"mention {m.group(0)!r}" for m in EVERYONE.finditer(scanned)]
    return found
