"""Player names are text, not markup: a nickname like `[FREE NITRO](https://example.test)`, one
with `**`, `||`, backticks, a mention or a line break must read literally wherever the bot puts
it in a message, an embed or a panel. Pictures draw names as they are (`render.common`).

Every ASCII punctuation character of a name is escaped, always (issue 25, finding 1). Escaping
"as needed" judges one name alone, but names are joined after: `[Claim your free Nitro` and
`](https://evil.test)` are harmless apart and a masked link side by side in a list of seats.
Discord shows a backslash before any punctuation as the character itself (CommonMark does the
same), so escaping all of it costs nothing on screen and leaves no markdown to combine: no
bracket, parenthesis or angle bracket (masked links, autolinks, mentions, timestamps), no colon
(a bare `https://` autolink needs its colon unescaped), no emphasis, spoiler, code, heading,
subtext, quote or list marker. `@everyone` and `@here` also get a zero-width space, as discord.py
escapes mentions. Where Discord renders no markdown (labels, placeholders, form titles),
`views.plain` takes the escapes away again (`unescape`).
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

import discord

from play.names import clean_name

#: The characters escaped in a name: all of ASCII's punctuation (the backslash first).
ESCAPED = "\\" + "".join(c for c in string.punctuation if c != "\\")
_ESCAPE = re.compile("([" + re.escape(ESCAPED) + "])")
_UNESCAPE = re.compile(r"\\([" + re.escape(ESCAPED) + "])")


@lru_cache(maxsize=4096)
def text_name(name: str) -> str:
    """`name` cleaned (play/names.py: no control characters, one line, 32 characters at most)
    and escaped for Discord's markdown: nothing in it, alone or next to another name, can
    format, link or mention. Kept per name: every click's panel asks for every seat's name
    (issue 23: about 3% of an action's CPU), and the answer depends on the name alone."""
    return discord.utils.escape_mentions(_ESCAPE.sub(r"\\\1", clean_name(name)))


def text_names(names: list[str]) -> list[str]:
    return [text_name(n) for n in names]


def unescape(text: str) -> str:
    """Text for a place where Discord shows no markdown: the escapes `text_name` made removed
    (and the zero-width space it put after an `@`)."""
    return _UNESCAPE.sub(r"\1", text).replace("@\u200b", "@")
