"""Filthy Rich's seat-filler against the luxury rush (issue 26): it reads a rush off the table
(luxuries bought with no business behind them, money in hand) and races or blocks it. Positions
are set up through the engine and judged through `ai_action` on the seat's own view."""

from __future__ import annotations

import random

from engine.filthyrich import GAME, race
from engine.filthyrich.data import BUSINESSES, LUXURIES, kind


def _position(players: int = 2, seed: int = 3) -> tuple[dict, int, int]:
    """Turn start of the active seat (the seat-filler); the next seat is the rival."""
    st = GAME.setup(players, seed)
    me = st["active"]
    rival = (me + 1) % players
    return st, me, rival


def _give_luxuries(st: dict, seat: int, names: list[str]) -> None:
    for x in names:
        st["market"].remove(x)
        st["lux"][seat].append(x)


def _hand(st: dict, seat: int, card_kind: str) -> str:
    """Put a card of that kind first in the seat's hand (from the deck or another hand)."""
    for pile in [st["deck"], *st["hands"]]:
        card = next((c for c in pile if kind(c) == card_kind), None)
        if card is not None:
            pile.remove(card)
            st["hands"][seat].insert(0, card)
            return card
    raise AssertionError(f"no {card_kind} to hand out")


def _open(st: dict, seat: int, card_kind: str) -> str:
    """Open that business through the engine, then start the seat's turn afresh."""
    from engine.filthyrich import resolve
    from engine.filthyrich.data import ACTIONS_PER_TURN

    card = _hand(st, seat, card_kind)
    st["money"][seat] = 100
    play = next(a for a in GAME.legal(st, seat) if a["type"] == "play" and a["card"] == card)
    GAME.apply(st, seat, play)
    st["turn"] = resolve.new_turn_flags(ACTIONS_PER_TURN)
    return card


def _choose(st: dict, seat: int, level: str = "strong") -> dict:
    return GAME.ai_action(GAME.view(st, seat), GAME.legal(st, seat), random.Random(1), level=level)


def test_a_rusher_able_to_finish_next_turn_is_denied_the_luxury_it_needs():
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer", "entourage"])  # no business: a rush
    cheapest = min(st["market"], key=lambda x: LUXURIES[x]["price"])
    st["money"][rival] = LUXURIES[cheapest]["price"]
    st["money"][me] = LUXURIES[cheapest]["price"]
    view = GAME.view(st, me)
    assert race.rushing(view, rival) and race.eta(view, rival) == 0
    assert _choose(st, me) == {"type": "buy_luxury", "luxury": cheapest}
    # The friendly seat-filler does not read the race: it keeps its money for its own plans.
    assert _choose(st, me, "friendly") != {"type": "buy_luxury", "luxury": cheapest}


def test_a_card_that_stops_the_rusher_for_nothing_is_played_instead_of_the_denial():
    """Eighth round: the denial spent the money its taxes needed while a lawsuit or an audit in
    hand left the rusher short for nothing (seed 10039 of the benchmark: $18 of its $19 on the
    denial, then the suit as well; both businesses sold at the next zero, bankrupt four rounds
    later). The card is played instead; against a lawyer, which voids it, the denial stands."""
    for card_kind in ("frivolous_lawsuit", "tax_inspector"):
        st, me, rival = _position()
        _give_luxuries(st, rival, ["personal_trainer", "entourage"])  # $2 a zero: the audit takes $2
        cheapest = min(st["market"], key=lambda x: LUXURIES[x]["price"])
        st["money"][rival] = LUXURIES[cheapest]["price"]
        st["money"][me] = LUXURIES[cheapest]["price"]
        card = _hand(st, me, card_kind)
        assert _choose(st, me) == {"type": "play", "card": card, "target": rival}, card_kind
        lawyer = _hand(st, rival, "lawyer")
        st["hands"][rival].remove(lawyer)
        st["assets"][rival].append({"id": lawyer, "row": None, "turn": 0})
        assert _choose(st, me) == {"type": "buy_luxury", "luxury": cheapest}, card_kind


def test_two_luxuries_and_businesses_worth_the_third_sell_for_the_win():
    st, me, _ = _position()
    _give_luxuries(st, me, ["personal_trainer", "entourage"])
    cheapest = min(LUXURIES[x]["price"] for x in st["market"])
    business = _open(st, me, "hotel")  # four ad cards: sells for $8
    st["money"][me] = cheapest - 2
    for level in ("strong", "friendly"):
        assert _choose(st, me, level) == {"type": "sell", "business": business}


def test_two_luxuries_sell_for_an_estate_sale_that_wins():
    """The sale for the win counts an Estate Sale in hand ($4 off): the seat-filler held two
    luxuries, the card and $22 with a business worth $4, the cheapest luxury at $29, and
    discarded for three rounds (1 of 600 games of line (a), lost)."""
    for level in ("strong", "friendly"):
        st, me, _ = _position()
        _give_luxuries(st, me, ["personal_trainer", "entourage"])
        cheapest = min(LUXURIES[x]["price"] for x in st["market"])
        _open(st, me, "hotel")  # four ad cards: sells for $8
        _hand(st, me, "estate_sale")
        st["money"][me] = cheapest - 10  # $2 short of the luxury with the sale, $2 over with the card
        for _ in range(4):
            if GAME.outcome(st) is not None:
                break
            GAME.apply(st, me, _choose(st, me, level))
        assert GAME.outcome(st) is not None and GAME.outcome(st).places[me] == 1


def test_a_two_player_race_buys_the_cheapest_luxury_at_once():
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer"])
    st["money"][me] = 10
    action = _choose(st, me)
    assert action["type"] == "buy_luxury"
    assert LUXURIES[action["luxury"]]["price"] == min(LUXURIES[x]["price"] for x in st["market"])


def test_a_race_keeps_the_loan_sharks_money_for_the_luxuries():
    """The shark's $20 was taken to race: repaying it at once (as a rich seat-filler used to)
    throws the race away."""
    st, me, rival = _position()
    _give_luxuries(st, rival, ["personal_trainer", "entourage"])
    _hand(st, me, "loan_shark")
    GAME.apply(st, me, {"type": "play", "card": st["hands"][me][0]})
    st["money"][me] = 32  # past the luxury purchases: the money waits for the next turn
    view = GAME.view(st, me)
    assert race.racing(view) and race.luxuries_cost(view) > 32 - 20
    assert _choose(st, me)["type"] != "repay"


def test_a_five_player_race_buys_a_luxury_without_a_business():
    """Issue 26: at five players the seat-filler raced a rush only with a business behind it,
    and the greedy rushers took the cheap luxuries first (one greedy seat among seat-fillers won
    13 % of games); it buys the cheapest it can while keeping its reserve, business or not."""
    st, me, rival = _position(players=5)
    _give_luxuries(st, rival, ["personal_trainer", "racehorse"])  # no business: a rush
    st["money"][rival] = 6  # $2 short of the Entourage
    st["money"][me] = 10
    view = GAME.view(st, me)
    assert race.racing(view) and not view["seats"][me]["businesses"]
    assert race.eta(view, rival) > race.URGENT  # not an emergency: an ordinary race
    cheapest = min(st["market"], key=lambda x: LUXURIES[x]["price"])
    assert _choose(st, me) == {"type": "buy_luxury", "luxury": cheapest}


def test_a_race_bids_for_a_bankrupt_rushers_luxury_at_its_price():
    """A bankrupt seat's luxuries are auctioned: in a race the lot at its printed price is a
    luxury like the market's, so the seat-filler bids (it used to pass without a business)."""
    st, me, rival = _position(players=5)
    _give_luxuries(st, rival, ["personal_trainer", "racehorse"])
    st["money"][rival] = 6
    st["money"][me] = 30
    lot = min(st["market"], key=lambda x: LUXURIES[x]["price"])
    st["market"].remove(lot)
    price = LUXURIES[lot]["price"]
    st["phase"] = "auction"
    st["auction"] = {"lux": lot, "from": (me + 2) % 5, "order": [me], "idx": 0, "high": None,
                     "high_seat": None, "passes": 0, "seat": me, "min": price}
    assert race.racing(GAME.view(st, me))
    assert _choose(st, me) == {"type": "bid", "amount": price}


def test_a_five_player_race_takes_the_bank_loan_that_buys_a_luxury():
    """The interest-free loan is $10 now for $12 at the end: in a race at any player count it
    pays for the next luxury (it was taken only at two players)."""
    st, me, rival = _position(players=5)
    _give_luxuries(st, rival, ["personal_trainer", "racehorse"])
    st["market"] = [x for x in st["market"] if LUXURIES[x]["price"] >= 15]
    st["money"][rival] = 13  # $2 short of the Gold Bathtub
    st["money"][me] = 8  # no luxury now; $18 with the loan
    _hand(st, me, "bank_loan")
    loan = st["hands"][me][0]
    assert _choose(st, me) == {"type": "play", "card": loan}


def test_a_slow_race_past_the_usual_length_still_opens_a_good_business():
    """Round 12 of a five-player game whose rivals each need two dear luxuries on $3: nobody can
    finish for many rounds, so an ad still pays back. The horizon used to be the usual length
    less the rounds played (two rounds here), and the seat-filler discarded every business it
    drew from round 9 on, however slow the game (all-AI games ran 13 rounds, games among
    greedy seats 25)."""
    st, me, _ = _position(players=5)
    st["round"] = 12
    for x in ["personal_trainer", "entourage", "diamond_phone", "racehorse", "gold_bathtub", "sports_car"]:
        st["market"].remove(x)
        st["removed"].append(x)
    for seat in range(5):
        if seat != me:
            st["lux"][seat] = ["art_collection"] if seat == (me + 1) % 5 else []
            st["money"][seat] = 3
    st["market"].remove("art_collection")
    _hand(st, me, "laundromat")
    st["money"][me] = 30
    view = GAME.view(st, me)
    assert race.rival(view)[1] > 8  # nobody near three luxuries
    act = _choose(st, me)
    assert act["type"] == "play" and kind(act["card"]) in BUSINESSES, act


def _far_race(st: dict, me: int) -> None:
    """Five players, every luxury under $25 gone and each rival on one luxury and $10: nobody
    is near three luxuries, so there is no race to read."""
    for x in ["personal_trainer", "entourage", "diamond_phone", "racehorse", "gold_bathtub", "sports_car",
              "art_collection"]:
        st["market"].remove(x)
        st["removed"].append(x)
    for seat in range(5):
        if seat != me:
            st["lux"][seat] = []
            st["money"][seat] = 10


def test_a_loan_that_pays_for_every_luxury_still_needed_is_taken():
    """Issue 26: the greedy rusher wins on loans (two in round 1, three luxuries in round 2).
    A loan that puts every luxury the seat still needs within its money at its next turn costs
    nothing if the win comes (the luxuries are bought at step 1, before interest or repayment);
    the seat-filler discarded the bank's loan whenever it had $8 or more and no race was on."""
    st, me, _ = _position(players=5)
    _give_luxuries(st, me, ["personal_trainer"])
    for seat in range(5):
        st["money"][seat] = 5  # the other seats can pay for no luxury before its next turn
    st["money"][me] = 12  # the Entourage and the Phone cost $18: $22 with the loan
    loan = _hand(st, me, "bank_loan")
    view = GAME.view(st, me)
    assert not race.racing(view) and race.luxuries_cost(view) == 18
    assert _choose(st, me) == {"type": "play", "card": loan}
    # Short of the luxuries even with the loan, it is not worth its repayment and its mark.
    st["money"][me] = 5
    assert _choose(st, me) != {"type": "play", "card": loan}
    # The friendly seat-filler does not race for the finish.
    st["money"][me] = 12
    assert _choose(st, me, "friendly") != {"type": "play", "card": loan}


def test_a_finishing_loan_counts_the_luxuries_the_other_seats_take_first():
    """Eighth round: the other seats play before the seat-filler's next turn, and a seat with
    no business behind it buys the cheapest luxury it can pay for. Seed 10070 of the benchmark:
    in round 1 it bought the $8 luxury and took the shark for the $10 and $12 ones while the
    four seats after it held $10 each; they were gone at its next turn, and it paid $3 a turn
    until it went bankrupt. A loan is taken for the finish only when the luxuries the others
    leave it are within the money."""
    st, me, _ = _position(players=5)
    _give_luxuries(st, me, ["personal_trainer"])
    for seat in range(5):
        st["money"][seat] = 5
    st["money"][me] = 12  # the Entourage and the Phone cost $18: $22 with the loan
    loan = _hand(st, me, "bank_loan")
    assert race.loan_finishes(GAME.view(st, me), 10)
    assert _choose(st, me) == {"type": "play", "card": loan}
    # The seat after it can pay for the Entourage: the Phone and the Racehorse are left, $22.
    after = (me + 1) % 5
    st["money"][after] = 10
    assert _choose(st, me) != {"type": "play", "card": loan}
    view = GAME.view(st, me)
    assert race.market_at_next_turn(view)[:2] == ["diamond_phone", "racehorse"]
    assert not race.loan_finishes(view, 10)
    # A seat with a business behind it builds: it is not counted as buying.
    st["active"] = after
    _open(st, after, "tea_house")
    st["money"][after] = 10
    st["active"] = me
    assert race.loan_finishes(GAME.view(st, me), 10)


def test_money_for_every_luxury_still_needed_buys_them_at_once():
    """The finishing loan's next turn: with one luxury, no business and no race on the table,
    the seat-filler's money paid for the two cheapest luxuries, yet it bought neither (a luxury
    that does not win needs a business behind it), repaid the loan and later went bankrupt
    (2 of 600 games of line (a), both lost; bought, both won). Both levels buy the win."""
    for level in ("strong", "friendly"):
        st, me, _ = _position(players=5)
        _give_luxuries(st, me, ["personal_trainer"])
        st["money"][me] = 18  # the Entourage and the Phone
        view = GAME.view(st, me)
        assert not race.racing(view) and not view["seats"][me]["businesses"]
        for luxury in ("entourage", "diamond_phone"):
            act = _choose(st, me, level)
            assert act == {"type": "buy_luxury", "luxury": luxury}
            GAME.apply(st, me, act)
        assert GAME.outcome(st).places[me] == 1
    # A dollar short, no purchase: the first luxury alone would not win.
    st, me, _ = _position(players=5)
    _give_luxuries(st, me, ["personal_trainer"])
    st["money"][me] = 17
    assert _choose(st, me)["type"] != "buy_luxury"


def test_a_lot_at_its_price_is_bought_outside_a_race_business_or_not():
    """A bankrupt seat's luxury goes to the highest bidder, and a rusher bids all it has: the
    seat-filler passed on a lot at its printed price unless it had a business or a race was on
    (it passed on cheap lots with $13-38 in hand, and the greedy seats took them)."""
    st, me, _ = _position(players=5)
    _far_race(st, me)
    st["money"][me] = 40
    lot = "mega_yacht"
    st["market"].remove(lot)
    price = LUXURIES[lot]["price"]
    st["phase"] = "auction"
    st["auction"] = {"lux": lot, "from": (me + 2) % 5, "order": [me], "idx": 0, "high": None,
                     "high_seat": None, "passes": 0, "seat": me, "min": price}
    view = GAME.view(st, me)
    assert not race.racing(view) and not view["seats"][me]["businesses"]
    assert _choose(st, me) == {"type": "bid", "amount": price}
    # Not below the reserve, nor above the market's cheapest (a luxury to be had for less).
    st["money"][me] = price
    assert _choose(st, me) == {"type": "pass"}
    st["money"][me] = 40
    st["auction"]["min"] = min(LUXURIES[x]["price"] for x in st["market"]) + 1
    assert _choose(st, me) == {"type": "pass"}


def test_an_audit_is_held_for_the_rival_it_would_bankrupt():
    """An audit bankrupts a seat whose one-zero tax is more than its money and its sales (a
    rusher on luxuries and a few dollars, often several times a game). The seat-filler played
    it at once for the dollar or two it takes (or discarded it in a race) and had none when
    that moment came; it keeps it now, and plays it for the kill."""
    st, me, rival = _position(players=5)
    _far_race(st, me)
    st["lux"][rival] = ["racehorse"]  # one $ mark: a $1 audit
    st["removed"].remove("racehorse")
    st["deck"] += st["hands"][me]
    st["hands"][me] = []
    audit = _hand(st, me, "tax_inspector")
    for k in ("public_holiday", "moving_day"):
        _hand(st, me, k)
    st["money"][me] = 10
    act = _choose(st, me)
    assert act.get("card") != audit, act
    st["money"][rival] = 0  # one zero's tax now bankrupts it
    assert _choose(st, me) == {"type": "play", "card": audit, "target": rival}


def test_an_audit_is_not_played_when_the_bankrupt_seats_lots_finish_a_rival():
    """A bankrupt seat's luxuries are auctioned at once, and a greedy bidder bids up to all it
    has: the seat-filler's fatal audit on a seat holding two luxuries, with a rival on one
    luxury and $34 at the table, handed that rival both lots and the game (seed 111056). It
    holds the audit when the lots, each to the richest seat able to pay, would finish a rival
    (25 of 3,600 judged games changed, all won); it still kills when nobody can buy them."""
    st, me, _ = _position(players=5)
    rich, victim = (me + 1) % 5, (me + 2) % 5
    _give_luxuries(st, victim, ["personal_trainer", "diamond_phone"])  # three $ marks
    _give_luxuries(st, rich, ["racehorse"])
    st["money"][victim] = 0
    st["money"][rich] = 34
    st["money"][me] = 3  # nothing to buy at step 1
    audit = _hand(st, me, "tax_inspector")
    kill = {"type": "play", "card": audit, "target": victim}
    assert _choose(st, me) != kill
    view = GAME.view(st, me)
    assert race.exposed(view, victim) and race.lots_finish_a_rival(view, victim)
    # Nobody able to pay for the lots: they leave the game, and the kill is played.
    st["money"][rich] = 3
    assert not race.lots_finish_a_rival(GAME.view(st, me), victim)
    assert _choose(st, me) == kill


def test_a_denial_a_seat_before_the_rusher_makes_anyway_is_not_bought():
    """A rusher that could finish at its next turn is denied the luxury it needs only when the
    buy changes that: here the seat between it and the seat-filler, with no business and the
    money for the cheapest luxury, takes that one first and leaves the rusher short. The
    seat-filler bought it anyway with all its money (a round-1 habit: 14 of its 59 denial
    purchases in 300 games came in games it ended bankrupt)."""
    st, me, between = _position(players=5)
    rusher = (me + 2) % 5
    _give_luxuries(st, rusher, ["personal_trainer", "entourage"])  # no business: a rush
    cheapest = min(st["market"], key=lambda x: LUXURIES[x]["price"])
    price = LUXURIES[cheapest]["price"]
    st["money"][rusher] = price  # short of the next cheapest
    st["money"][me] = price
    st["money"][between] = price
    view = GAME.view(st, me)
    assert race.rushing(view, rusher) and race.eta(view, rusher) == 0
    assert race.denial(view) is None
    assert _choose(st, me) != {"type": "buy_luxury", "luxury": cheapest}
    # With the seat between penniless, the rusher finishes unless the seat-filler buys it.
    st["money"][between] = 0
    assert _choose(st, me) == {"type": "buy_luxury", "luxury": cheapest}


def test_a_card_a_rusher_turns_into_money_is_not_discarded():
    """A discard goes back into the deck at the next reshuffle, and the greedy seat that draws
    the loan shark plays it at once ($20: two luxuries at the next turn). The seat-filler
    discarded a loan it would not take before a business it could not yet afford; it keeps the
    loan out of play now (the friendly level does not)."""
    st, me, _ = _position(players=5)
    _far_race(st, me)
    st["deck"] += st["hands"][me]
    st["hands"][me] = []
    business = _hand(st, me, "hotel")
    loan = _hand(st, me, "loan_shark")
    st["money"][me] = 3
    assert not race.racing(GAME.view(st, me))
    assert _choose(st, me) == {"type": "discard", "card": business}
    assert _choose(st, me, "friendly")["type"] == "discard"
    # In a race, where every card is worth the dollar a discard brings, it still keeps the loan.
    rival = (me + 1) % 5
    st["lux"][rival] = ["racehorse", "gold_bathtub"]
    st["removed"] = [x for x in st["removed"] if x not in st["lux"][rival]]
    st["money"][rival] = 22  # $3 short of the Mega-Yacht
    assert race.racing(GAME.view(st, me))
    assert _choose(st, me) != {"type": "discard", "card": loan}


def test_a_lot_that_would_win_a_rival_the_game_is_bid_for():
    """Let go, a bankrupt seat's luxury goes to the high bidder, and a seat one luxury short
    of three wins with it. The seat-filler passed at $12 with $18 in hand while the high bid,
    $11, was all the money of a seat holding two luxuries (seed 300211 of line (a)); it bids
    now, reserve or not (outbid, it pays nothing). Not the friendly level, which does not race."""
    st, me, rival = _position(players=5)
    _far_race(st, me)
    st["lux"][rival] = ["mega_yacht", "private_jet"]
    st["market"] = [x for x in st["market"] if x not in st["lux"][rival]]
    st["money"][rival] = 11
    st["money"][me] = 12  # the bid leaves nothing: below the reserve
    lot = "diamond_phone"
    st["removed"].remove(lot)
    st["phase"] = "auction"
    st["auction"] = {"lux": lot, "from": (me + 2) % 5, "order": [rival, me], "idx": 1, "high": 11,
                     "high_seat": rival, "passes": 0, "seat": me, "min": 12}
    view = GAME.view(st, me)
    assert not race.racing(view) and race.lot_to_a_finisher(view)
    assert _choose(st, me) == {"type": "bid", "amount": 12}
    assert _choose(st, me, "friendly") == {"type": "pass"}
    # A high bidder one luxury further off: the lot is no win, and the reserve decides.
    st["lux"][rival] = ["mega_yacht"]
    assert not race.lot_to_a_finisher(GAME.view(st, me))
    assert _choose(st, me) == {"type": "pass"}


def test_a_lawsuit_that_leaves_a_rivals_lots_to_a_finisher_is_not_played():
    """A lawsuit that leaves its target unable to pay one zero sets up its bankruptcy, and a
    bankrupt seat's luxuries go at auction to the richest bidder: here a seat holding two
    luxuries and $20, which wins with the lot. The seat-filler sued (the seventh round's
    `drainrisk`); it discards the card instead."""
    st, me, target = _position(players=3)
    rival = (me + 2) % 3
    st["deck"] += st["hands"][me]
    st["hands"][me] = []
    suit = _hand(st, me, "frivolous_lawsuit")
    _give_luxuries(st, target, ["diamond_phone"])  # a zero costs it $2
    _give_luxuries(st, rival, ["personal_trainer", "racehorse"])
    lawyer = _hand(st, rival, "lawyer")
    st["hands"][rival].remove(lawyer)
    st["assets"][rival].append({"id": lawyer, "row": 0})  # suing the rival does nothing
    st["money"][me], st["money"][target], st["money"][rival] = 5, 5, 20
    sue = {"type": "play", "card": suit, "target": target}
    assert sue in GAME.legal(st, me)
    assert _choose(st, me) != sue
    # The rival short of the lot's price: the suit is worth its $4 again.
    st["money"][rival] = 8
    assert _choose(st, me) == sue
