"""A card's name on a hand card breaks only where a reader expects it (issue 30, item 15: a
Spanish I'm the Boss! panel showed "Reclut" "amiento"): in English and Spanish at a space, after
a hyphen of the name, or at a hyphen put in between syllables; in Japanese with every character
kept, no line opening on a mark that may not start one (ー, a small kana, ・, 、, 。) and no katakana
word split between two of its letters (a compound too wide for a Filthy Rich card at the floor
breaks where its catalogue marks the parts: "トルネード" "クリーニング店", never "トルネードク"
"リーニング店"); and nothing is cut off. Each name is laid out by the very function the hand card
draws it with, at the floor of the panel it is drawn on."""

from __future__ import annotations

import re

import pytest

from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES
from engine.imtheboss.data import KINDS
from render import filthyrich, filthyrich_hand, imtheboss, imtheboss_parts

from render.filthyrich_words import card_name
from render.legible import floor_px, recorded
from render.typeset import WORD_BREAK

#: (title, the hand panel's width, its card kinds, a card's name, its name laid out on the card)
HANDS = [
    ("imtheboss", imtheboss.PANEL_W, list(KINDS), lambda k, lang: imtheboss_parts.tk(lang, f"card.{k}"),
     imtheboss_parts.card_name_lines),
    ("filthyrich", filthyrich_hand.W, [*BUSINESSES, *ASSETS, *ACTIONS], lambda k, lang: card_name(lang, k),
     filthyrich_hand.card_name_lines),
    # A business or an asset laid in the binder: the table picture's cell, narrower than a hand card.
    ("filthyrich-binder", filthyrich.W, [*BUSINESSES, *ASSETS], lambda k, lang: card_name(lang, k),
     filthyrich.cell_name_lines),
]
#: Marks a Japanese line may not open on (kinsoku).
NO_START = re.compile(r"^[ーァィゥェォッャュョヮぁぃぅぇぉっゃゅょ・、。）」]")
#: A katakana letter or the long mark (not the middle dot, after which a line may break).
KATAKANA = re.compile(r"[ァ-ヺー]")


def rebuilds(lines: list[str], name: str) -> bool:
    """Whether `lines` read as `name` with breaks only at a space (dropped), after a hyphen of
    the name, or at a hyphen put in (dropped)."""
    if len(lines) == 1:
        return lines[0] == name
    head, rest = lines[0], lines[1:]
    joins = [head + " "]
    if head.endswith("-"):
        joins += [head, head[:-1]]
    return any(name.startswith(j) and rebuilds(rest, name[len(j):]) for j in joins)


def badly_opened(lines: list[str]) -> bool:
    return any(NO_START.match(line) for line in lines[1:])


def splits_a_word(lines: list[str], name: str) -> bool:
    """Whether a Japanese line break falls between two katakana letters where the catalogue's
    name marks no break (WORD_BREAK)."""
    allowed, at = set(), 0
    for part in name.split(WORD_BREAK)[:-1]:
        at += len(part)
        allowed.add(at)
    at = 0
    for head, tail in zip(lines, lines[1:]):
        at += len(head)
        if KATAKANA.match(head[-1]) and KATAKANA.match(tail[0]) and at not in allowed:
            return True
    return False


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
@pytest.mark.parametrize("title,width,kinds,name_of,lay_out", HANDS, ids=[h[0] for h in HANDS])
def test_every_card_name_breaks_only_where_a_reader_expects(title, width, kinds, name_of, lay_out, lang):
    bad = []
    for k in kinds:
        name = name_of(k, lang)
        (size, lines), _texts, cut = recorded(floor_px(width), lambda k=k: lay_out(k, lang))
        if lang == "ja":
            whole = ("".join(lines) == name.replace(WORD_BREAK, "") and not badly_opened(lines)
                     and not splits_a_word(lines, name))
        else:
            whole = rebuilds(lines, name)
        if not whole or cut or size < floor_px(width):
            bad.append((k, name, lines, size))
    assert not bad, f"{title} {lang}: {bad}"


def test_the_spanish_recruit_card_is_hyphenated_between_syllables():
    # The card of the report: I'm the Boss!'s Recruit card in Spanish, on the private panel.
    (size, lines), _texts, _cut = recorded(floor_px(imtheboss.PANEL_W),
                                           lambda: imtheboss_parts.card_name_lines("recruit", "es"))
    assert lines == ["Recluta-", "miento"] or lines == ["Reclutamiento"], lines


def test_a_split_without_a_hyphen_is_caught():
    assert not rebuilds(["Reclut", "amiento"], "Reclutamiento")
    assert rebuilds(["Recluta-", "miento"], "Reclutamiento")
    assert rebuilds(["Carta de", "clan Rojo"], "Carta de clan Rojo")
    assert badly_opened(["コインランド", "ーリー"]) and not badly_opened(["赤の", "一族カード"])
    assert splits_a_word(["トルネードク", "リーニング店"], "トルネード\u200bクリーニング店")
    assert not splits_a_word(["トルネード", "クリーニング店"], "トルネード\u200bクリーニング店")
    assert not splits_a_word(["アワアワ・", "コインランドリー"], "アワアワ・コインランドリー")
