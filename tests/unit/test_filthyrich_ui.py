"""The Filthy Rich panel, driven directly: from real states (AI games, and arranged hands that
hold every card), every legal action must be reachable by clicking through the panel and its
sub-menus, every click code must stand for a legal action, and every panel must fit Discord's
limits in both languages."""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest

from cogs.titles.filthyrich.ui import UI, effect_text, tax_due
from cogs.kit import codec
from cogs.kit.panel import Apply, Ask, Button, Panel, Refuse, Select, Show
from cogs.titles.contract import PanelContext, TableContext
from cogs.kit.views import rows_needed
from engine.core import copy_json
from engine.filthyrich import GAME
from engine.filthyrich.data import ACTIONS, ASSETS, BUSINESSES, LUXURIES, LUXURY_ORDER
from locales import Translator

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
ui = UI()


def context(state: dict, seat: int, lang: str = "en", version: int = 7) -> PanelContext:
    return PanelContext(game_id=4242, version=version, seat=seat, view=GAME.view(state, seat),
                        legal=GAME.legal(state, seat), t=Translator(lang), names=NAMES[:state["n"]], title="filthyrich")


def check_panel(panel: Panel, pc: PanelContext) -> None:
    assert len(panel.components) <= 25
    assert rows_needed(panel.components) <= 5, [type(c).__name__ for c in panel.components]
    assert len(panel.description) <= 4096
    text = panel.title + panel.description + "".join(f"{n}{v}" for n, v, _ in panel.fields)
    for comp in panel.components:
        # Every custom_id fits with a large game id and version.
        codec.make("bs" if isinstance(comp, Select) else "br", 123456789, 987654, comp.code)
        assert not comp.code.startswith(("L", "H")), comp.code
        if isinstance(comp, Button):
            assert comp.label and len(comp.label) <= 80
            text += comp.label
        else:
            assert 1 <= len(comp.options) <= 25
            assert len(comp.placeholder) <= 150
            assert len({o.value for o in comp.options}) == len(comp.options)
            for o in comp.options:
                assert o.label and len(o.label) <= 100 and len(o.value) <= 100
                assert o.description is None or len(o.description) <= 100
                text += o.label + (o.description or "")
    for _, value, _ in panel.fields:
        assert len(value) <= 1024
    assert "filthyrich." not in text, f"missing catalogue key in: {text[:400]}"
    assert "{" not in text, text[:400]


def crawl(pc: PanelContext, state: dict) -> list[dict]:
    """Every action a player can reach from the seat's panel, checking each panel on the way."""
    reached: list[dict] = []
    seen: set[str] = set()

    def action_of(code: str) -> dict:
        action = codec.decode_action(code, pc.legal)
        assert action is not None, code
        assert action in pc.legal, (action, code)
        return action

    def reply(r: Any, where: str) -> None:
        if isinstance(r, Show):
            visit(r.panel, where)
        elif isinstance(r, Apply):
            GAME.apply(copy_json(state), pc.seat, r.action)  # the engine accepts it
            reached.append(r.action)
        elif isinstance(r, Ask):
            assert r.modal.code == "bid"
            a = pc.view["auction"]
            money = pc.view["seats"][pc.seat]["money"]
            for amount in {a["min"], money, (a["min"] + money) // 2}:
                out = ui.on_modal(pc, "bid", {"amount": f" ${amount:,} "})
                assert isinstance(out, Apply), out
                reply(out, where + ":modal")
            assert isinstance(ui.on_modal(pc, "bid", {"amount": str(money + 1)}), Refuse)
            assert isinstance(ui.on_modal(pc, "bid", {"amount": "ten"}), Refuse)
            if a["min"] > 0:
                assert isinstance(ui.on_modal(pc, "bid", {"amount": str(a["min"] - 1)}), Refuse)
        else:
            assert isinstance(r, Refuse), r

    def visit(panel: Panel, where: str) -> None:
        check_panel(panel, pc)
        for comp in panel.components:
            if isinstance(comp, Button):
                if comp.disabled:
                    continue
                if codec.is_action_code(comp.code):
                    reached.append(action_of(comp.code))
                elif comp.code not in ("back", "ref") and comp.code not in seen:
                    seen.add(comp.code)
                    reply(ui.on_component(pc, comp.code, []), where + ">" + comp.code)
            elif comp.code == "act":
                for o in comp.options:
                    reached.append(action_of(o.value))
            else:
                values = [o.value for o in comp.options]
                picks = [[v] for v in values]
                if comp.max_values > 1:
                    picks += [list(c) for r in range(2, len(values) + 1) for c in combinations(values, r)][:40]
                for pick in picks:
                    key = comp.code + "=" + json.dumps(pick)
                    if key in seen:
                        continue
                    seen.add(key)
                    reply(ui.on_component(pc, comp.code, pick), where + ">" + key)

    visit(ui.panel(pc), "panel")
    return reached


def check_state(state: dict, langs=("en",)) -> None:
    for seat in range(state["n"]):
        for lang in langs:
            pc = context(state, seat, lang)
            reached = crawl(pc, state)
            want = pc.legal
            if state["phase"] == "auction":
                a = state["auction"]
                want = [x for x in want if x["type"] == "pass" or x["amount"] == a["min"]]
                if seat == a["seat"] and state["money"][seat] > a["min"]:
                    assert any(x["type"] == "bid" and x["amount"] > a["min"] for x in reached)
            missing = [x for x in want if x not in reached]
            assert not missing, (state["phase"], seat, missing[:5])
            view = pc.view
            if view.get("tax") and str(seat) in view["tax"]["due"]:
                assert tax_due(view, seat, view["tax"]["zeros"]) == view["tax"]["due"][str(seat)]
    tc = TableContext(4242, 7, GAME.view(state, None), Translator(langs[0]), NAMES[:state["n"]], "filthyrich")
    lines = ui.table_lines(tc)
    assert lines and all("filthyrich." not in x for x in lines)
    for b in ui.table_buttons(tc):
        codec.make("br", 123456789, 987654, b.code)
    for seat in range(state["n"]):
        text = ui.todo(Translator(langs[0]), GAME.view(state, None), seat)
        assert text is None or "filthyrich." not in text


def ai_game(players: int, seed: int, steps: int, every: int = 1, langs=("en",)) -> set[str]:
    rng = random.Random(seed)
    state = GAME.setup(players, seed, {})
    phases = set()
    for step in range(steps):
        if GAME.outcome(state) is not None:
            break
        phases.add(state["phase"])
        if step % every == 0 or state["phase"] != "turn":
            check_state(state, langs)
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        if rng.random() < 0.3:
            action = rng.choice(legal)
        else:
            action = GAME.ai_action(GAME.view(state, seat), legal, rng)
        GAME.apply(state, seat, action)
    check_state(state, langs)
    return phases


# Seeds whose games (AI with 30% random moves) pass through tax windows, audits and auctions
# (chosen again for issue 26's seat-filler, which races a rush: 3-5 and 4-3 no longer auctioned;
# and again when it learnt to hold audits and bid at auctions: 3-9 and 5-2 no longer did both;
# and when it learnt to keep loans out of the discards: 4-4 no longer auctioned; and when it
# learnt to buy every luxury it still needs once its money pays for them: 3-5 no longer did).
@pytest.mark.parametrize("players,seed", [(3, 6), (4, 5), (5, 4), (2, 3)])
def test_every_legal_action_is_reachable_in_ai_games(players, seed):
    phases = ai_game(players, seed, steps=320, every=3, langs=("en", "ja") if players == 3 else ("en",))
    if players > 2:
        assert {"tax", "audit", "auction"} <= phases


def arranged(card_kind: str, seed: int = 5) -> dict:
    """A 3-player mid-game state where seat 0 holds `card_kind`, two businesses and money,
    with rival ads on pages 1-2 (some covered), assets in play and page 2 open."""
    st = GAME.setup(3, seed, {})
    deck = st["deck"] + st["discard"] + [c for h in st["hands"] for c in h]

    def take(k: str, instead: str = "neon_sign") -> str:
        cid = next((c for c in deck if c.split("#")[0] == k), None)
        if cid is None:  # a one-copy card already in the hand under test
            cid = next(c for c in deck if c.split("#")[0] == instead)
        deck.remove(cid)
        return cid

    hand = [take(card_kind)] + [take(k) for k in ("tornado_cleaners", "donut_shop") if k != card_kind]
    st["hands"] = [hand, [take("angel_investor")], [take("rush_hour")]]
    st["active"], st["page"], st["money"] = 0, 2, [60, 20, 15]
    ads = {"tattoo_parlour": (1, 1, [6]), "laundromat": (2, 1, [1, 2]), "cinema": (1, 0, [7, 8]),
           "pawn_shop": (1, 2, [3])}
    binder = [[None] * 9 for _ in range(4)]
    st["ads"], st["biz"] = {}, [[], [], []]
    for sign, (page, owner, slots) in ads.items():
        cid = take(sign)
        for s in slots:
            binder[page - 1][s - 1] = sign
        st["ads"][sign] = {"card": cid, "owner": owner, "page": page, "slots": slots}
        st["biz"][owner].append(cid)
    st["binder"] = binder
    st["assets"] = [[{"id": take("loan_shark"), "row": None, "turn": 0}],
                    [{"id": take("ironclad_lease"), "row": None, "turn": 0}],
                    [{"id": take("neighbourhood_muscle"), "row": 2, "turn": 0}]]
    st["lux"] = [["personal_trainer"], [], ["entourage"]]
    st["market"] = [x for x in LUXURY_ORDER if x not in ("personal_trainer", "entourage")]
    st["deck"], st["discard"] = deck, []
    st["turn_no"] = 3
    return st


@pytest.mark.parametrize("card_kind", sorted(set(ASSETS) | set(ACTIONS) | {"hotel", "gym", "tornado_cleaners"}))
def test_every_card_sub_menu_reaches_every_play(card_kind):
    st = arranged(card_kind)
    pc = context(st, 0)
    reached = crawl(pc, st)
    assert all(a in reached for a in pc.legal), [a for a in pc.legal if a not in reached][:5]
    # The Japanese panel is complete too.
    crawl(context(st, 0, "ja"), st)


def test_cover_fee_labels_match_the_rules():
    st = arranged("tornado_cleaners")
    pc = context(st, 0)
    card = next(c for c in st["hands"][0] if c.startswith("tornado_cleaners"))
    menu = ui.on_component(pc, "card", [card])
    assert isinstance(menu, Show)
    select = next(c for c in menu.panel.components if isinstance(c, Select))
    labels = {codec.decode_action(o.value, pc.legal)["slots"] == [3, 6] and o.label for o in select.options} - {False}
    # Slot 6 covers Bob's Tattoo on page 1 (Bob's Ironclad Lease: $4), slot 3 Cy's Pawn ($2).
    assert labels == {"Slots 3+6 (cover fees $6)"}
    option = next(o for o in select.options if o.label.startswith("Slots 3+6"))
    assert "total $18" in option.description and "Bob $4" in option.description and "Cy $2" in option.description
    for o in select.options:
        action = codec.decode_action(o.value, pc.legal)
        before = copy_json(st)
        events = GAME.apply(before, 0, action)
        paid = sum(e["amount"] for e in events if e["type"] == "fee")
        shown = int(o.label.split("$")[1].rstrip(")")) if "$" in o.label else 0
        assert paid == shown, (o.label, events)


def test_tax_window_panel_and_choice():
    st = arranged("angel_investor")
    # Force a tax step: seat 0 rolls a 0 (search the chance seed).
    for seed in range(500):
        trial = copy_json(st)
        trial["chance"] = {"seed": seed, "n": 0}
        trial["turn"]["actions"] = 0
        GAME.apply(trial, 0, {"type": "roll"})
        if trial["phase"] == "tax" and 1 in trial["tax"]["pending"]:
            break
    else:  # pragma: no cover
        pytest.fail("no seed rolls a zero")
    pc = context(trial, 1)
    panel = ui.panel(pc)
    assert "You owe" in panel.description
    keep = next(c for c in panel.components if isinstance(c, Button) and c.label == "Keep everything")
    assert codec.decode_action(keep.code, pc.legal) == {"type": "tax_decision", "sell": []}
    sell = next(c for c in panel.components if isinstance(c, Button) and c.label == "Sell the chosen businesses")
    assert sell.disabled
    mine = trial["biz"][1]
    shown = ui.on_component(pc, "tx", [mine[0]])
    assert isinstance(shown, Show)
    sell = next(c for c in shown.panel.components if isinstance(c, Button) and c.label == "Sell the chosen businesses")
    assert not sell.disabled
    assert ui.on_component(pc, sell.code, []) == Apply({"type": "tax_decision", "sell": [mine[0]]})
    assert "Selling" in shown.panel.description
    tc = TableContext(1, 1, GAME.view(trial, None), Translator("en"), NAMES[:3], "filthyrich")
    assert any("Tax day" in line for line in ui.table_lines(tc))
    assert [b.label for b in ui.table_buttons(tc)] == ["Keep everything"]
    assert any("tax day" in (ui.todo(Translator("en"), GAME.view(trial, None), s) or "") for s in range(3))


# -- the newcomer's guard and the ping's line (issues 15 and 19) --------------------------------


def _poor_five() -> dict:
    """Ann (seat 0) to play on page 1 in a five-player game with $16: Tornado Cleaners and the
    Diamond-Studded Phone give her 4 $ marks, so the taxes to expect before her next turn (her
    own die and four other rolls of about 2.5 dice) are ceil(4 x 1.1) = $5."""
    st = GAME.setup(5, 21)
    deck = st["deck"] + st["discard"] + [c for h in st["hands"] for c in h]

    def take(k: str) -> str:
        cid = next(c for c in deck if c.split("#")[0] == k)
        deck.remove(cid)
        return cid

    st["hands"] = [[take("donut_shop"), take("gym"), take("neighbourhood_muscle"), take("estate_sale")]] + [
        [take(k)] for k in ("detour", "overtime", "rush_hour", "angel_investor")]
    tornado = take("tornado_cleaners")
    st["binder"] = [[None] * 9 for _ in range(4)]
    st["binder"][0][0] = st["binder"][0][3] = "tornado_cleaners"
    st["ads"] = {"tornado_cleaners": {"card": tornado, "owner": 0, "page": 1, "slots": [1, 4]}}
    st["biz"] = [[tornado], [], [], [], []]
    st["lux"] = [["diamond_phone"], [], [], [], []]
    st["market"] = [x for x in LUXURY_ORDER if x != "diamond_phone"]
    st["active"], st["page"], st["money"] = 0, 1, [16, 10, 10, 10, 10]
    st["deck"], st["discard"] = deck, []
    return st


def _card_menu(pc: PanelContext, st: dict, k: str) -> Panel:
    card = next(c for c in st["hands"][0] if c.startswith(k))
    shown = ui.on_component(pc, "card", [card])
    assert isinstance(shown, Show)
    return shown.panel


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_a_move_that_leaves_less_than_the_expected_taxes_is_warned_before_it_is_made(lang):
    """A newcomer could spend everything and go bankrupt on the next tax roll with no warning."""
    st = _poor_five()
    pc = context(st, 0, lang)
    t = Translator(lang)
    panel = ui.panel(pc)
    assert t("filthyrich.ui.taxes_ahead", amount=5) in panel.description
    # Buying: the Racehorse ($12) would leave $4 < $5; the Personal Trainer ($6) leaves $10.
    buy = next(c for c in panel.components if isinstance(c, Select) and c.code == "act")
    flags = {codec.decode_action(o.value, pc.legal)["luxury"]: o.description for o in buy.options}
    short = t("filthyrich.ui.warn_short", money=4, taxes=6)  # with the Racehorse's mark: ceil(5 x 1.1)
    assert flags["racehorse"].startswith(short)
    assert not flags["personal_trainer"].startswith("⚠")
    # Opening: the Gym ($11) leaves $5, less than ceil(5 x 1.1) = $6 with its mark; the Donuts ($6) do not.
    gym = _card_menu(pc, st, "gym")
    assert t("filthyrich.ui.warn_taxes", money=5, taxes=6) in gym.description
    slots = next(c for c in gym.components if isinstance(c, Select))
    assert all(o.description.startswith(t("filthyrich.ui.warn_short", money=5, taxes=6)) for o in slots.options)
    donut = _card_menu(pc, st, "donut_shop")
    assert "⚠" not in donut.description
    assert not any("⚠" in (o.description or "") for c in donut.components if isinstance(c, Select) for o in c.options)
    check_panel(gym, pc)


def test_an_asset_and_a_bid_are_warned_too():
    st = _poor_five()
    st["money"][0] = 8
    pc = context(st, 0)
    muscle = _card_menu(pc, st, "neighbourhood_muscle")  # $5: leaves $3 < $5
    assert "⚠ This leaves you **$3**" in muscle.description
    # An auction prompt: bidding the minimum would leave less than the taxes to expect.
    st = _poor_five()
    st["phase"] = "auction"
    st["auction"] = {"lux": "racehorse", "from": 4, "order": [0, 1, 2, 3], "idx": 0, "high": None,
                     "high_seat": None, "passes": 0, "seat": 0, "min": 12}
    st["market"].remove("racehorse")
    st["alive"][4] = False
    st["money"][0] = 14  # three other rolls of 2.5 dice: ceil(5 marks x 0.75) = $4 ahead
    pc = context(st, 0)
    panel = ui.panel(pc)
    assert "⚠ This leaves you **$2**" in panel.description


def _todo(st: dict, seat: int, lang: str = "en") -> str | None:
    return ui.todo(Translator(lang), GAME.view(st, None), seat)


def test_todo_names_what_each_seat_can_do_from_the_public_view():
    st = _poor_five()
    assert _todo(st, 0) == "buy a luxury if you like, then play or discard 2 cards and roll"
    assert _todo(st, 1) is None
    st["money"][0] = 5  # nothing in the market is affordable
    assert _todo(st, 0) == "play or discard 2 cards, then roll"
    st["turn"]["actions"] = 0
    assert _todo(st, 0) == "roll the dice"
    assert _todo(st, 0, "ja") == "ダイスを振る"
    st = _poor_five()
    st["phase"] = "tax"
    st["tax"] = {"kind": "tax", "zeros": 1, "scope": [0, 1, 2, 3, 4], "pending": [0], "answered": []}
    assert _todo(st, 0) == "tax day: sell businesses or keep everything (you owe $4)"
    assert _todo(st, 1) is None
    st["phase"], st["tax"]["kind"] = "audit", "audit"
    assert _todo(st, 0, "es") == "auditoría: vende negocios o consérvalo todo (debes $4)"
    st = _poor_five()
    st["phase"] = "auction"
    st["auction"] = {"lux": "racehorse", "from": 4, "order": [0, 1, 2, 3], "idx": 0, "high": None,
                     "high_seat": None, "passes": 0, "seat": 1, "min": 12}
    assert _todo(st, 1) == "bid at least $12 for Champion Racehorse, or pass"
    assert _todo(st, 0) is None


def test_todo_says_nothing_private():
    """The line goes to the channel: it is built from the public view, so two states that
    differ only in a seat's hand give the same line."""
    st = _poor_five()
    other = copy_json(st)
    other["hands"][0] = list(reversed(other["hands"][0]))
    for seat in range(5):
        for lang in ("en", "ja", "es"):
            assert _todo(st, seat, lang) == _todo(other, seat, lang)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_option_texts_fit_discord_s_100_characters_uncut(lang):
    """Select option labels and descriptions are at most 100 characters: every card's summary,
    a card that cannot be played, a luxury with the largest warning, fit whole (not cut)."""
    t = Translator(lang)
    for k in list(BUSINESSES) + list(ASSETS) + list(ACTIONS):
        assert len(ui.card_summary(t, k)) <= 100, (k, ui.card_summary(t, k))
        assert len(t("filthyrich.ui.not_playable", card=k)) <= 100
    worst = t("filthyrich.ui.warn_short", money=999, taxes=999) + " · "
    for x in LUXURIES:
        assert len(worst + ui.luxury_desc(t, x)) <= 100, x
    for k in ASSETS:
        if ASSETS[k]["effect"] == "loan":
            assert len(effect_text(t, k)) <= 100
