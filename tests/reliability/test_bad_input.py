"""Bad input gets a short reply in the clicker's language and changes nothing.

Forged and malformed custom_ids (garbage, another prefix, another game's id, numbers too big for
the store, broken JSON in `!` codes, `#` indexes out of range or not as the house writes them),
clicks from people who do not play, clicks drawn for an earlier version, numbers typed into
forms that no rule allows (negative, huge, words, decimals, other scripts' digits), actions not
legal now or in another phase, slash commands in DMs, a second game in a busy channel, a full
lobby: each in English and Japanese, each acknowledged (never "This interaction failed"), each
leaving the game's version and state as they were.

Forged custom_ids arrive on a bot message that carries them (an older table, a copied panel), as
Discord only delivers clicks on components a message has (tests/support/fuzz.py: `press`).
The random mix of all of these runs inside every privacy round (`leak_rounds`).
"""

from __future__ import annotations

import dataclasses

import random
from typing import Any

import pytest

from cogs.kit import codec
from cogs.titles.contract import ui_for
from locales import Translator
from tests.reliability.privacy import user_locales
from tests.support import fuzz
from tests.support.sim import button, custom_ids, first_option, reply_text, text_of

LANGS = [("en-US", "en"), ("ja", "ja")]


def tr(lang: str, key: str, **params: Any) -> str:
    return Translator(lang)(key, **params)


async def _start(sim, title: str, locale: str, *, others: int = 1, ai: int = 0):
    """A game of `title` with people ann (+ bob) and an outsider zed, all speaking `locale`."""
    people = [sim.player(n) for n in ("ann", "bob", "cat")[: 1 + others]]
    zed = sim.player("zed")
    locales = {m.id: locale for m in people + [zed]}
    with user_locales(locales):
        await sim.start(people[0], title, others=people[1:], ai=ai)
    return people, zed, locales


async def _same(sim, game) -> None:
    after = await sim.store.get(game.id)
    assert (after.version, after.state) == (game.version, game.state), "a bad input changed the game"


def _expect(result, lang: str, *texts: str) -> str:
    problem = fuzz.judge(result, lang)
    assert problem is None, problem
    got = reply_text(result)
    assert any(t in got for t in texts), f"expected one of {texts!r}, got {got!r}"
    return got


NOT_OURS = [
    "zz", "hello world", "br", "br:", "br:1", "br::0:Hhand", "bx:1:0:Hhand", "BR:1:0:Hhand", "br :1:0:Hhand",
    "lobby:1:0:Ljoin", "bm:1:0:Hhand",  # a form's id on a button
    "br:-1:*:Hhand", "br:1:-3:#0", "br:1:v2:#0", "br:1:0:#0\n", "br:1:0:\n#0",
    "br:" + "9" * 19 + ":*:Hhand", "br:1:" + "9" * 19 + ":#0", "br:" + "9" * 60 + ":*:Hhand",
    "br:1:*:Hhand\x00", "漢字:1:0:#0", "\\u0062r:1:0:#0",
]


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_custom_ids_that_are_not_ours_are_answered_and_change_nothing(sim, locale, lang):
    (ann, _), zed, locales = await _start(sim, "toy", locale)
    game = await sim.game()
    with user_locales(locales):
        for cid in NOT_OURS:
            result = await fuzz.press(sim, ann, cid)
            assert result.ephemeral, cid
            _expect(result, lang, tr(lang, "core.error.bad_action"), tr(lang, "core.error.outdated"))
        for cid in ["zz", "bm:x:y:z", f"br:{game.id}:*:Hhand", "bm:" + "9" * 30 + ":0:count", "bs:1:0:act"]:
            result = await fuzz.submit(sim, ann, cid, {"n": "2"})
            _expect(result, lang, tr(lang, "core.error.bad_action"))
    await _same(sim, game)


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_malformed_action_codes_are_refused(sim, locale, lang):
    (ann, bob), zed, locales = await _start(sim, "toy", locale)
    game = await sim.game()
    g, v = game, game.version
    mover = [ann, bob][ui_for("toy").game.to_act(game.state)[0]]
    bad = tr(lang, "core.error.bad_action")
    with user_locales(locales):
        codes = ['!{"type":', "!", "![]", '!"take"', "!null", '!{"type":5}', '!{"no_type":1}', "!{'type':'take'}",
                 '!{"type":"take","n":1e999}', '!{"type":"take","n":NaN}', '!{"type":"take","n":Infinity}',
                 "#", "#-1", "#9999", "#1.5", "#x", "# 1", "#01", "#٣", "#²", "#" + "9" * 80]
        for code in codes:
            _expect(await fuzz.press(sim, mover, codec.make("br", g, v, code)), lang, bad)
        # A select whose values are not action codes, or several at once.
        for values in (["#999"], ["x"], ["!{"], ['!{"type":"no_such"}'], ["#0", "#1"], ["#" + "9" * 50]):
            _expect(await fuzz.press(sim, mover, codec.make("bs", g, v, "act"), values=values), lang, bad)
        # An action code on a select, an "act" button without a choice.
        _expect(await fuzz.press(sim, mover, codec.make("bs", g, v, "#0"), values=["#0"]), lang, bad)
        _expect(await fuzz.press(sim, mover, codec.make("br", g, v, "act")), lang, bad)
        # Unknown house and title codes, pages that do not exist.
        for code in ("H", "Hxyz", "Hlen:nope", "zz", "x:y:z", ":", "?"):
            _expect(await fuzz.press(sim, mover, codec.make("br", g, v, code)), lang, bad,
                    tr(lang, "core.error.host_only"))
        for code in ("Hlog:abc", "Hlog:" + "9" * 40, "Hrules:" + "9" * 40):
            result = await fuzz.press(sim, mover, codec.make("br", g, None, code))
            assert fuzz.judge(result, lang) is None and result.ephemeral
        # Another game's id (none with that number; and one that is over).
        other = dataclasses.replace(game, id=game.id + 1000)
        _expect(await fuzz.press(sim, mover, codec.make("br", other, None, "Hhand")), lang,
                tr(lang, "core.error.gone"))
        _expect(await fuzz.press(sim, mover, codec.make("br", other, v, "#0")), lang,
                tr(lang, "core.error.gone"))
    await _same(sim, game)


async def test_actions_not_legal_now_get_the_rules_reason(sim):
    """The engine judges what a forged code asks for: not your turn, too many, not now."""
    (ann, bob), zed, locales = await _start(sim, "toy", "en-US")
    game = await sim.game()
    active = ui_for("toy").game.to_act(game.state)[0]
    mover, waiting = [ann, bob][active], [ann, bob][1 - active]
    g, v = game, game.version
    _expect(await fuzz.press(sim, waiting, codec.make("br", g, v, '!{"n":1,"type":"take"}')), "en",
            "It is not your turn.")
    _expect(await fuzz.press(sim, mover, codec.make("br", g, v, '!{"n":4,"type":"take"}')), "en", "Take 1 to 3 coins.")
    _expect(await fuzz.press(sim, mover, codec.make("br", g, v, '!{"n":"2","type":"take"}')), "en",
            "Take 1 to 3 coins.")
    _expect(await fuzz.press(sim, mover, codec.make("br", g, v, '!{"type":"ok"}')), "en", "Not now.")
    _expect(await fuzz.press(sim, mover, codec.make("br", g, v, '!{"id":"turn:0","type":"timeout"}')), "en",
            tr("en", "core.error.not_allowed"))
    await _same(sim, game)


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_moves_of_another_phase_are_refused_in_the_players_language(sim, locale, lang):
    """I'm the Boss! starts with the dollar marker: rolling, drawing, dealing or offering now is
    refused by the rules, in the clicker's language."""
    (ann, bob), zed, locales = await _start(sim, "imtheboss", locale)
    game = await sim.game()
    g = ui_for("imtheboss").game
    errors = {tr(lang, f"imtheboss.error.{k}") for k in ("not_now", "not_your_turn", "wrong_phase", "no_deal")}
    with user_locales(locales):
        for member, seat in ((ann, 0), (bob, 1)):
            for action in ('{"type":"roll"}', '{"type":"draw"}', '{"type":"close"}', '{"type":"boss"}',
                           '{"ask":{"usd":3},"src":"placard:red","type":"offer"}', '{"type":"deal_here"}'):
                assert codec.decode_action("!" + action, []) not in g.legal(game.state, seat)
                result = await fuzz.press(sim, member, codec.make("br", game, game.version, "!" + action))
                problem = fuzz.judge(result, lang)
                assert problem is None, (action, problem)
                assert "⛔" in reply_text(result) or any(e in reply_text(result) for e in errors)
    await _same(sim, game)


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_people_who_do_not_play_can_look_but_not_act(sim, locale, lang):
    (ann, bob), zed, locales = await _start(sim, "toy", locale)
    game = await sim.game()
    table = await sim.table_message()
    not_seated = tr(lang, "core.error.not_seated")
    with user_locales(locales):
        _expect(await zed.click(table, custom_id=button(table, code_suffix=":Hhand")), lang, not_seated)
        for code in ("#0", '!{"n":1,"type":"take"}', "ask", "act"):
            _expect(await fuzz.press(sim, zed, codec.make("br", game, game.version, code)), lang, not_seated)
        _expect(await fuzz.press(sim, zed, codec.make("bs", game, game.version, "act"), values=["#0"]), lang,
                not_seated)
        _expect(await fuzz.submit(sim, zed, codec.make("bm", game, game.version, "count"), {"n": "1"}), lang,
                not_seated)
        # Lobby buttons once the game runs, the rules and the log: answered, nothing changes.
        for verb in ("join", "start", "addai", "leave", "cancel"):
            _expect(await fuzz.press(sim, zed, codec.make("br", game, None, f"L{verb}")), lang,
                    tr(lang, "core.lobby.closed"))
        assert fuzz.judge(await zed.click(table, custom_id=button(table, code_suffix=":Hlog")), lang) is None
    await _same(sim, game)


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_a_click_drawn_for_an_earlier_moment_changes_nothing(sim, locale, lang):
    (ann, bob), zed, locales = await _start(sim, "toy", locale)
    members = [ann, bob]
    with user_locales(locales):
        game = await sim.game()
        mover = members[ui_for("toy").game.to_act(game.state)[0]]
        old_panel = await sim.hand(mover)  # kept open while the same player moves from another one
        other = await sim.hand(mover)
        await mover.click(other, custom_id=button(other, label="Take 1"))
        await sim.settle()
        game = await sim.game()
        assert game.version == 1
        old = [c for c in custom_ids(old_panel) if codec.parse(c).version is not None]
        option = first_option(old_panel)
        # On the old panel itself (it is redrawn in place), then every other button of it as a
        # client that kept it would send them.
        result = await mover.click(old_panel, custom_id=old[0])
        assert "Pennies" in _expect(result, lang, tr(lang, "core.panel.stale"))  # and a fresh panel with it
        for cid in old[1:]:
            result = await fuzz.press(sim, mover, cid, values=[option] if cid.startswith("bs:") else None)
            assert "Pennies" in _expect(result, lang, tr(lang, "core.panel.stale"))
        # A remembered index code and a form of an earlier version.
        _expect(await fuzz.press(sim, mover, codec.make("br", game, 0, "#0")), lang, tr(lang, "core.panel.stale"))
        _expect(await fuzz.submit(sim, mover, codec.make("bm", game, 0, "count"), {"n": "1"}), lang,
                tr(lang, "core.panel.stale"))
    await _same(sim, game)


BAD_NUMBERS = ["-5", "-0", "99999999999999999999", "9" * 13, "1e9", "abc", "1.5", "", "   ", "0x10", "½", "²", "Ⅻ",
               "3 4", "NaN", "∞", "$-3", "12 dollars", "１２３４５６７８９０１２３", "-١٢"]


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_impossible_numbers_in_a_form_are_refused_in_every_script(sim, locale, lang):
    """I'm the Boss!'s offer form (what an investor asks): negative, huge, words, decimals and
    mixed text are refused with the rule's reason; digits of other scripts are digits."""
    (ann, bob), zed, locales = await _start(sim, "imtheboss", locale)
    game = await sim.game()
    cid = codec.make("bm", game, game.version, "om|placard:red")
    with user_locales(locales):
        for text in BAD_NUMBERS:
            result = await fuzz.submit(sim, ann, cid, {"usd": text, "div": ""})
            if not text.strip():
                _expect(result, lang, tr(lang, "imtheboss.ui.offer_empty"))
            else:
                _expect(result, lang, tr(lang, "imtheboss.error.bad_ask"))
        _expect(await fuzz.submit(sim, ann, cid, {"usd": "3", "div": "2"}), lang, tr(lang, "imtheboss.ui.offer_both"))
        # Full-width, Arabic-Indic, Devanagari digits are read as numbers: the rules then judge the
        # offer (no deal is running), as for "3".
        plain = reply_text(await fuzz.submit(sim, ann, cid, {"usd": "3", "div": ""}))
        for digits in ("３", "٣", "३"):
            result = await fuzz.submit(sim, ann, cid, {"usd": digits, "div": ""})
            assert fuzz.judge(result, lang) is None
            assert reply_text(result) == plain
    await _same(sim, game)


async def test_a_form_with_impossible_bids_in_an_auction(sim):
    """Filthy Rich's bid form: out of the auction, every bid is refused as not yours to make."""
    (ann, bob), zed, locales = await _start(sim, "filthyrich", "ja")
    game = await sim.game()
    cid = codec.make("bm", game, game.version, "bid")
    with user_locales(locales):
        for text in ["-1", "0", "9" * 12, "abc", "１０"]:
            _expect(await fuzz.submit(sim, ann, cid, {"amount": text}), "ja",
                    tr("ja", "filthyrich.error.not_your_bid"))
    await _same(sim, game)


@pytest.mark.parametrize("locale,lang", LANGS)
async def test_slash_commands_are_not_offered_in_dms(sim, locale, lang):
    """Games live in servers: /game and /game-admin are guild-only, so a DM does not offer them
    (Discord refuses to run them there), and a command registered before that answers politely."""
    ann = sim.player("ann")
    with user_locales({ann.id: locale}):
        offered = ann.user.available_commands()
        assert not any(c.startswith(("game ", "game-admin ")) for c in offered), offered
        assert "game new" in ann.available_commands(sim.channel)


async def test_a_second_game_in_a_busy_channel_and_a_full_lobby_in_japanese(sim):
    ann, bob, cat, dan, eve = (sim.player(n) for n in ("ann", "bob", "cat", "dan", "eve"))
    locales = {m.id: "ja" for m in (ann, bob, cat, dan, eve)}
    with user_locales(locales):
        await sim.new_game(ann, "toy")
        busy = await sim.new_game(bob, "imtheboss")
        _expect(busy, "ja", tr("ja", "core.error.channel_busy", title="Pennies"))
        assert (await sim.game()).title == "toy"
        for member in (bob, cat, dan):
            await sim.lobby(member, "join")
        full = await sim.lobby(eve, "join")
        _expect(full, "ja", tr("ja", "core.lobby.full", hi=4))
        # And once it runs, a new game is still refused.
        await sim.lobby(ann, "start")
        await sim.settle()
        busy = await sim.new_game(eve, "toy")
        _expect(busy, "ja", tr("ja", "core.error.channel_busy", title="Pennies"))
    game = await sim.game()
    assert game.status == "active" and len(game.seats) == 4


async def test_random_bad_input_during_a_game_is_always_answered_and_changes_nothing(sim):
    """The fuzzer of the privacy rounds, on its own: a hundred bad inputs in a running game."""
    (ann, bob), zed, locales = await _start(sim, "filthyrich", "ja")
    rng = random.Random(3)
    tried = 0
    with user_locales(locales):
        for _ in range(100):
            game = await sim.game()
            outcome = await fuzz.try_bad_input(sim, game, {0: ann, 1: bob}, zed, rng, locales)
            assert outcome.problem is None, outcome
            tried += 1
    assert tried == 100
    text = text_of(sim.channel.last_message)
    assert "Traceback" not in text
