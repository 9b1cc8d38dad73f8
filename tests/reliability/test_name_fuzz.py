"""Names that cannot become links (issue 25, finding 1): nicknames built to combine across seats
(pairs and triples: brackets, `](`, addresses, mentions, @everyone, backticks, spoilers, headings,
subtext, quotes, line breaks), seated side by side in whole games of every title in en, ja and es,
played through the bot (tests/reliability/namefuzz.py). No message, embed or component the bot
sends parses to a link or a mention it did not make itself, and no escape shows in a label."""

from __future__ import annotations

import itertools

import pytest

from cogs.kit.names import text_names
from locales.format import join_list
from tests.reliability.namefuzz import GROUPS, LANGS, cases, named_game, summary
from tests.reliability.privacy import TITLES
from tests.support import markup

CASES = cases(TITLES)


def test_every_group_of_names_sits_together_in_every_title_and_every_language_is_played():
    for title in TITLES:
        tables = [names for t, _, names in CASES if t == title]
        for group in GROUPS:
            assert any(" ".join(group) in " ".join(names) for names in tables), (title, group)
        assert {lang for t, lang, _ in CASES if t == title} == {"en", "ja", "es"}
    assert all(len(name) <= 32 for group in GROUPS for name in group)


@pytest.mark.parametrize("title,lang,names", CASES, ids=[f"{t}-{lang}-{i}" for i, (t, lang, _) in enumerate(CASES)])
async def test_names_built_to_combine_never_make_a_link_or_a_mention(sim, title, lang, names):
    figures = await named_game(sim, title, lang, names, seed=len(names) * 101 + len(title))
    print(f"{title} {lang}: {summary(figures)}")
    assert not figures.problems, "\n".join(figures.problems[:20])
    assert figures.showing_names >= 20 and figures.finished, summary(figures)


# -- every combination, without Discord ----------------------------------------------------------

#: Pieces of names that combine: brackets, the middle of a masked link, addresses, mentions,
#: formatting, line starts, escapes, and the fuzz games' names themselves.
PIECES = sorted({name for group in GROUPS for name in group} | {
    "[", "](", ")", "](https://evil.test)", "[x]", "(https://evil.test)", "<", ">", "<@", "@123>", "<@123>",
    "<@!123>", "<@&123>", "<#123>", "<t:1:R>", "@everyone", "@here", "https://", "https:", "//evil.test",
    "evil.test", "<https://evil.test>", "`", "``", "```", "||", "**", "__", "~~", "*", "_", "#", "-#",
    ">>>", "- ", "1.", "\n", "a\n# b", "\\", "\\[", ":", "!", "![x](https://evil.test/p.png)"})
#: The ways names are joined: the languages' lists, the table's and panels' separators, none.
JOINS = [lambda names, lang=lang: join_list(names, lang) for lang in LANGS] + \
    [lambda names, sep=sep: sep.join(names) for sep in ("", " ", " · ", "\n", "、", " ` ")]
#: What the bot writes around names: bold, a seat number, a line start, a sentence.
FRAMES = ("{}", "**{}**", "`1` {} 👑", "{} places the marker.", "-# {}", "> {}", "🔁 {} → ok")


def _combinations(size: int, pool: list[str]):
    return itertools.product(pool, repeat=size)


def test_every_pair_and_triple_of_name_pieces_is_inert_however_joined():
    known = markup.Known()
    checked = 0
    triples = PIECES[::4]  # every piece in pairs; a spread of them in triples
    for size, pool in ((2, PIECES), (3, triples)):
        for names in _combinations(size, pool):
            escaped = text_names(list(names))
            for join in JOINS:
                text = FRAMES[checked % len(FRAMES)].format(join(escaped))  # the frames in turn
                found = markup.problems(text, known)
                assert not found, (names, text, found)
                checked += 1
    print(f"{len(PIECES)} pieces, {len(triples)} in triples, {checked} joined texts checked")
    assert checked > 40_000


def test_the_check_sees_what_the_issue_saw():
    """Not vacuous: the issue's table line, a bare address, mentions the bot never makes."""
    known = markup.Known(users={42}, channels={7})
    assert markup.problems("`2` [Claim your free Nitro · `3` ](https://evil.test)", known)
    assert markup.problems("Waiting for: https://evil.test", known)
    assert markup.problems("**[x](<https://evil.test>)**", known)
    for text in ("<@123>", "<@!123>", "<@&7>", "<#8>", "@everyone", "x @here"):
        assert markup.problems(text, known), text
    for text in ("<@42> <#7> <t:1:R>", "[table](https://discord.com/channels/1/7/9)", "`https://evil.test`",
                 "\\[x\\]\\(https\\:\\/\\/evil\\.test\\)", "@\u200beveryone"):
        assert not markup.problems(text, known), text
