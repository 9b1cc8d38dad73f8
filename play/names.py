"""A person's name as the house keeps it: cleaned and capped once, before either backend sees it
(issue 25, finding 7), so both store the same text and every message built from it fits.

Why each rule:
- NUL and the other control characters: PostgreSQL's text cannot hold NUL
  (`CharacterNotInRepertoireError`) while SQLite stores it, so the same join worked on one
  backend and failed on the other. Line breaks and tabs become spaces (a name is one line).
- Bidirectional overrides, embeddings and isolates (U+202A-E, U+2066-9) and the direction
  marks: a name is joined with others on one line, and an unclosed override reverses
  everything after it, other players' names and the bot's own words included.
- Lone surrogates cannot be encoded (neither backend nor Discord's JSON takes them).
- At most 32 characters, Discord's own limit for a nickname: a 10,000-character name made
  every message that lists the seats too long, and the table update failed.
Letters of any script, emoji and their joiners (U+200D) are kept as they are.
"""

from __future__ import annotations

import unicodedata

#: Discord's longest nickname or display name.
MAX_NAME = 32
#: What a name that was nothing but cleaned-away characters becomes.
NO_NAME = "?"
ELLIPSIS = "…"
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def clean_name(name: str | None) -> str:
    """`name` with control characters, bidirectional controls and lone surrogates removed,
    line breaks and runs of spaces as one space, and cut to MAX_NAME characters (the last one
    an ellipsis when cut)."""
    kept = []
    for ch in name or "":
        category = unicodedata.category(ch)
        if ch in _BIDI or category == "Cs":
            continue
        if ch.isspace() or category in ("Zl", "Zp"):
            kept.append(" ")
        elif category != "Cc":  # NUL, escape, delete, the C1 controls
            kept.append(ch)
    flat = " ".join("".join(kept).split())
    if len(flat) > MAX_NAME:
        flat = flat[:MAX_NAME - 1].rstrip() + ELLIPSIS
    return flat or NO_NAME
