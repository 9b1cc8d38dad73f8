"""The time model (issue 24), played through the bot on virtual time: people are waited for, not
decided for. Each test is one of the defects slow games showed; each failed on the code before.

These games keep the bot's own clock settings (a slow game: a day's least time to look, a time
bank of three days), unlike most tests, which play on the window lengths alone."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.imtheboss import GAME as BOSS
from play.duties import answering
from play.plan import obligations
from play.quiet import parse_quiet, Quiet
from tests.bot.test_imtheboss import click, start as boss_start, state
from tests.bot.test_imtheboss_async import _deal_on_k
from tests.support import toy
from tests.support.sim import TIGHT, channel_text, custom_ids, reply_text, text_of

TOY = toy.TITLE
HOUR, DAY = 3600, 86400


def _utc(sim) -> datetime:
    return sim.env.now().astimezone(timezone.utc)


async def _duty(sim, game_id: int, seat: int):
    return next(t for t in await sim.store.timers(game_id) if t.kind == "duty" and t.ref.endswith(f"#{seat}"))


async def _to_hour(sim, hour: int) -> None:
    """Let virtual time run to the next `hour`:00 UTC."""
    now = _utc(sim)
    wait = ((hour - now.hour) % 24) * HOUR - now.minute * 60 - now.second
    await sim.advance(wait if wait > 0 else wait + DAY)


async def test_a_sleeper_with_time_left_is_never_played_for(sim):
    """Defect 1: the seat-filler decided for people who were asleep. ann sleeps 23:00-07:00 UTC;
    her turn opens at 20:00. Her deadline comes after a day of her own clock and her three-day
    bank, never in her quiet hours; until then nobody moves for her; then the AI answers that
    turn alone, and says so as its own move ("🤖 the AI for ann"), after saying her time ran out."""
    ann, bob = sim.player("ann"), sim.player("bob")
    said = await ann.slash(sim.channel, "game prefs", quiet="23:00-07:00", timezone="UTC")
    assert "Quiet hours: 23:00-07:00 (UTC)" in reply_text(said)
    await _to_hour(sim, 20)
    await sim.start(ann, TOY, others=[bob], clock=None)
    game = await sim.game()
    seat = game.state["active"]
    sleeper = (ann, bob)[seat]
    if sleeper is not ann:  # the game chose bob to begin: he sleeps the same hours
        await bob.slash(sim.channel, "game prefs", quiet="23:00-07:00", timezone="UTC")
        await sim.settle()
    duty = await _duty(sim, game.id, seat)
    end = float(duty.payload["end"])
    quiet = Quiet(parse_quiet("23:00-07:00"), "UTC")
    # A day of her clock (16 awake hours a day) and three more days of bank: over five days.
    assert end - sim.env.now().timestamp() > 5 * DAY and not quiet.quiet_at(end)
    assert "Then your time bank: 3 days." in sim.channel.history()[-2].content + sim.channel.history()[-1].content
    await sim.advance(end - 60 - sim.env.now().timestamp())
    assert (await sim.game()).version == game.version, "the seat-filler moved for a person with time left"
    mark = len(sim.channel.history())
    await sim.advance(120)
    after = await sim.game()
    assert after.version > game.version
    text = channel_text(sim, mark)
    assert f"Deadline passed for {sleeper.name}, time bank included: the AI answers for them." in text
    assert f"▸ 🤖 the AI for {sleeper.name} took" in text  # the move reads as the AI's, not theirs
    assert f"▸ {sleeper.name} took" not in text


async def test_a_daily_player_a_little_late_pays_minutes_from_the_bank(sim):
    """Defect 1 (the once-a-day player): a turn opened right after their evening look ends, with
    the old 24 h, next to their next look. Now a little over a day later they still play their
    own move, and only the minutes beyond the allowance leave their bank."""
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob], clock=None)
    game = await sim.game()
    seat = game.state["active"]
    player = (ann, bob)[seat]
    await sim.advance(DAY + 10 * 60)  # the next evening, ten minutes later than the last look
    panel = await sim.hand(player)
    assert "⏳ Your deadline" in text_of(panel) and "time bank" in text_of(panel)
    await click(sim, player, panel, label="Take 1")
    after = await sim.game()
    actions = await sim.store.actions(game.id)
    assert actions[0]["user_id"] == player.id  # their own move
    bank = after.clock["bank"][str(seat)]
    assert 3 * DAY - 11 * 60 < bank < 3 * DAY - 9 * 60, bank
    other = (ann, bob)[1 - seat]
    await click(sim, other, await sim.hand(other), label="OK")  # the nod; then the other's turn
    await click(sim, other, await sim.hand(other), label="Take 1")
    # The next call says what is left of the bank in its two largest units, not to the second
    # ("2 days, 23 hr, 50 min": a clock that ticks reads to the second).
    pings = [m.content for m in sim.channel.history() if f"<@{player.id}>" in m.content]
    assert pings and pings[-1].endswith("Then your time bank: 2 days, 23 hr."), pings[-1:]


async def test_a_game_with_no_time_bank_never_mentions_one(sim):
    """A host may set no time bank (TIGHT: the window lengths alone). Then the call, the hand's
    deadline line and the deadline's notice say nothing of a bank; before, they said "Your time
    bank is used up", "then your time bank: —" and "time bank included" of a bank never given."""
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.start(ann, TOY, others=[bob], clock=TIGHT)
    game = await sim.game()
    player = (ann, bob)[game.state["active"]]
    panel = text_of(await sim.hand(player))
    assert "⏳ Your deadline <t:" in panel and "time bank" not in panel, panel
    await sim.advance(2 * HOUR)  # past the turn's hour: the deadline acts
    said = channel_text(sim)
    assert f"Deadline passed for {player.name}: " in said, said
    assert "time bank" not in said, said


async def test_reminders_are_counted_for_the_windows_whole_life(sim):
    """Defect 3: once a window's two reminders were spent, every re-plan (a move in the window, a
    setting changed, someone away and back) sent the first again at once."""
    ann, bob, cy = (sim.player(n) for n in ("ann", "bob", "cy"))
    await sim.start(ann, TOY, others=[bob, cy])
    game = await sim.game()
    await sim.store.update_game(game.id, 0, settings={**game.settings, **TIGHT, "reminder": 600})
    sim.house.games.forget(game.id)
    await sim.house.planner.replan(await sim.house.games.game(game.id))
    members = {0: ann, 1: bob, 2: cy}
    taker = members[game.state["active"]]
    await click(sim, taker, await sim.hand(taker), label="Take 1")
    nodders = [m for s, m in members.items() if m is not taker]
    await sim.advance(1800 - 60)  # the nod window: 30 minutes; its two reminders are out
    for m in nodders:
        assert channel_text(sim).count(f"Reminder: <@{m.id}>") == 2
    # A move in the window, a setting changed, someone away and back: no reminder again.
    await click(sim, nodders[0], await sim.hand(nodders[0]), label="OK")
    panel = await sim.settings(ann)
    await ann.select(panel, ["3600"], custom_id=next(c for c in custom_ids(panel) if c.endswith(":Hset:reminder")))
    await nodders[1].slash(sim.channel, "game away", until="1h")
    await nodders[1].slash(sim.channel, "game away", until="back")
    await sim.advance(30)
    assert channel_text(sim).count(f"Reminder: <@{nodders[1].id}>") == 2
    assert channel_text(sim).count(f"Reminder: <@{nodders[0].id}>") == 2


def test_at_a_deadline_the_seat_filler_never_answers_another_window():
    """Defect 4: when one window's time ran out, the seat-filler picked from every legal move and
    answered a reaction window open for minutes. In I'm the Boss! games played at random, every
    state where a seat owes two windows is checked: what the seat-filler may choose for one never
    answers the other (though the seat's legal moves do)."""
    from store import GameRow, Seat

    found = 0
    for seed in range(1, 40):
        state = BOSS.setup(4, seed, {})
        rng = __import__("random").Random(seed)
        for _ in range(300):
            if BOSS.outcome(state) is not None:
                break
            game = GameRow(1, 1, 1, "imtheboss", "active", 1, "en", {}, {}, seed, state, 0, None, None, None, 0, 0,
                           None, seats=[Seat(s, 100 + s, f"p{s}") for s in range(4)])
            owed = obligations(game, state)
            for seat in range(4):
                windows = sorted(w for w, s in owed if s == seat and w != "act")
                if len(windows) < 2:
                    continue
                for expired in windows:
                    others = [w for w in windows if w != expired]
                    chosen = answering(game, seat, expired)
                    for action in chosen:
                        trial = dict(state)
                        BOSS.apply(trial, seat, action)
                        left = {w for w, s in obligations(game, trial) if s == seat}
                        assert set(others) <= left, (expired, others, action)
                    found += 1
            movers = [s for s in range(4) if BOSS.legal(state, s)]
            windows = BOSS.windows(state)
            if windows and (not movers or rng.random() < 0.05):
                BOSS.apply(state, None, {"type": "timeout", "id": rng.choice(windows).id})
            elif movers:
                seat = rng.choice(movers)
                BOSS.apply(state, seat, rng.choice(BOSS.legal(state, seat)))
        if found >= 20:
            break
    assert found >= 5, f"only {found} states where a seat owed two windows"


async def test_the_boss_is_called_when_an_offer_arrives(sim):
    """Defect 2: an offer only edited the turn message, and Discord does not notify edits: the
    boss waited until the deal's reminder. Now the boss is called (a new message naming them)
    when an offer arrives, at most once an hour, and at once when every answer is in."""
    ann, bob, cal, dot = members = await boss_start(sim, 4)
    await sim.arrange(lambda s: _deal_on_k(s, 0))
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    st = await state(sim)
    assert sorted(st["deal"]["asked"]) == [1, 2, 3]

    async def offer(seat: int) -> None:
        game = await sim.game()
        action = next(a for a in BOSS.legal(game.state, seat) if a["type"] == "offer")
        result = await sim.house.act(game.id, seat, action, user_id=members[seat].id, version=game.version)
        assert result.applied, result
        await sim.settle()

    mark = len(sim.channel.history())
    await offer(1)
    called = [m for m in sim.channel.history()[mark:] if f"<@{ann.id}>: new answers are in" in m.content]
    assert len(called) == 1, [m.content for m in sim.channel.history()[mark:]]
    mark = len(sim.channel.history())
    await click(sim, cal, await sim.hand(cal), label="Pass: no offer")
    assert not any(f"<@{ann.id}>" in m.content for m in sim.channel.history()[mark:])  # batched: not again yet
    await click(sim, dot, await sim.hand(dot), label="Pass: no offer")  # the last answer: the boss hears at once
    assert (await state(sim))["deal"]["asked"] == []  # every answer is in
    assert any(f"<@{ann.id}>: new answers are in" in m.content for m in sim.channel.history()[mark:])


async def test_a_silent_player_cannot_lock_the_e_wars_bell(sim):
    """Defect 5: with "only remind", one person who never rolled locked the slow bell for ever.
    Their own time runs out (here on the window lengths alone: 12 hours), they miss this dice
    time, and the seat-filler may ring: nobody rolled for them."""
    from tests.support.ewars_bot import click as ewars_click, moves, start as ewars_start

    ann, bob = sim.player("ann"), sim.player("bob")
    game = await ewars_start(sim, ann, [bob], ai=1, seed=3, settings={"on_deadline": "remind"})
    parent = game.state["parent"]
    if parent in (0, 1):
        await ewars_click(sim, (ann, bob)[parent], await sim.table_message(), ':!{"type":"ring_bell"}')
    else:
        await sim.advance(10)
    await sim.advance(60)
    await ewars_click(sim, ann, await sim.table_message(), ":r:1")  # ann rolls; bob never does
    await sim.advance(13 * HOUR)
    made = await moves(sim)
    assert not any(s == 1 for s, a in made if a["type"] in ("roll", "claim")), "someone rolled for bob"
    assert any(a["type"] == "timeout" and a.get("seats") == [1] for _, a in made)
    await sim.advance(2 * HOUR)
    st = (await sim.game()).state
    assert st["phase"] != "dice" or st["round"] > 1, "the bell stayed locked"



async def test_a_call_shows_the_true_deadline_of_an_offer_that_dies_with_its_deal(sim):
    """Defect 6: re-asked investors were told "Deadline in 24 h" when the deal died sooner. An
    offer lives within its deal: the call names the earlier of the two ends."""
    ann, bob, cal, dot = await boss_start(sim, 4, {"deadlines": {"deal": HOUR, "offers": DAY}})
    await sim.arrange(lambda s: _deal_on_k(s, 0))
    mark = len(sim.channel.history())
    began = sim.env.now().timestamp()
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    said = channel_text(sim, mark)
    calls = [line for line in said.splitlines() if f"<@{bob.id}>" in line and "offer" in line]
    assert calls, said
    when = int(calls[0].split("Deadline <t:")[1].split(":")[0])
    assert began + HOUR - 60 <= when <= began + HOUR + 60, (when - began, calls[0])  # the deal's end, not a day


async def test_the_boss_is_called_when_a_reaction_window_gives_the_deal_back(sim):
    """Defect 2, the same for any decision that waits on others: during a travel's reaction
    window the boss can do nothing; when the window ends their deal obligation is not new, so
    nothing called them. In a slow game (tools/habits, seed 1, day 9) the boss's two reminders
    were spent, a daily player's Stop ended the window at 19:46, and the boss (who answers within
    minutes of a call) heard nothing for three and a half days until the seat-filler failed the
    deal. Now the seats a closed window held up are called at once."""
    from tests.bot.test_imtheboss import choose, find, offer, option, set_hands

    ann, bob, cal, dot = await boss_start(sim, 4)

    def arranged(s):
        _deal_on_k(s, 0)
        set_hands(s, {0: ["clan-green", "recruit"], 1: ["stop", "clan-magenta"],
                      2: ["clan-yellow"], 3: ["travel-grey", "clan-yellow"]})

    await sim.arrange(arranged)
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    await offer(sim, bob, "placard:orange", div="1")
    await click(sim, ann, await sim.hand(ann), prefix="✅ Accept bob")
    dot_panel = await sim.hand(dot)
    travel = option(find(dot_panel, prefix="✈️"), contains="Grey travel")
    await choose(sim, dot, dot_panel, [travel], prefix="✈️")
    st = await state(sim)
    assert st["window"]["card"] == "travel" and 0 in st["window"]["owing"]
    await click(sim, ann, await sim.table_message(), label="Pass")  # the boss answers the window first
    game = await sim.game()
    assert not BOSS.legal(game.state, 0), "the boss can do nothing while the window is open"
    await click(sim, cal, await sim.hand(cal), label="Pass")
    mark = len(sim.channel.history())
    await click(sim, bob, await sim.hand(bob), label="✋ Stop!")
    game = await sim.game()
    assert game.state["window"] is None and BOSS.legal(game.state, 0), "the deal is the boss's again"
    said = channel_text(sim, mark)
    # Called as for her deal again: no answer came in for her, the wait ended.
    assert f"🔔 <@{ann.id}>: you are the boss of deal K" in said, said
    assert "new answers are in" not in said, said


async def _travel_in_deal(sim, offers: float, reaction: float):
    """Four players; ann deals on K, every other seat is asked for an offer, and dot sends a
    placard travelling: everyone else owes the travel's reaction window (pass or stop) too."""
    from tests.bot.test_imtheboss import choose, find, option, set_hands

    members = await boss_start(sim, 4, {"reminder": 60, "deadlines": {
        "offers": offers, "deal": DAY, "reaction": reaction}})
    ann, dot = members[0], members[3]

    def arranged(s):
        _deal_on_k(s, 0)
        set_hands(s, {0: ["clan-green"], 1: ["clan-magenta"], 2: ["clan-yellow"], 3: ["travel-grey", "clan-yellow"]})

    await sim.arrange(arranged)
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")
    dot_panel = await sim.hand(dot)
    await choose(sim, dot, dot_panel, [option(find(dot_panel, prefix="✈️"), contains="Grey travel")], prefix="✈️")
    return members


async def test_a_reminder_names_the_window_it_reminds_of(sim):
    """A person owing two windows at once is reminded of each (tools/habits, imtheboss seed 1:
    the once-a-day player owing an offer for deal C and a reaction to a travel card, reminded in
    pairs); the reminder of the offer read "a travel card was played: pass or stop" (the newer
    window's task; a boss's deal reminder during a reaction he did not owe read only "your
    move"). Each reminder now says what its own window asks, and comes when it can be done: the
    reaction's while it is open, the offer's once it closed (no offer is made during it)."""
    ann, bob, cal, dot = await _travel_in_deal(sim, offers=4 * HOUR, reaction=HOUR)
    game = await sim.game()
    owed = {w for w, s in obligations(game, game.state) if s == 1}
    assert {w.split(":")[0] for w in owed} == {"offers", "reaction"}, owed
    mark = len(sim.channel.history())
    await sim.advance(31 * 60)  # the reaction's first reminder (half its hour)
    said = channel_text(sim, mark)
    assert f"Reminder: <@{bob.id}>, a travel card was played" in said, said
    assert "offer an investor" not in said, said
    for m in (ann, bob, cal):
        await click(sim, m, await sim.table_message(), label="Pass")
    assert (await sim.game()).state["window"] is None
    mark = len(sim.channel.history())
    # The offer's own first reminder: half its 4 h, on a clock that stood still while the
    # reaction held the offer (`Window.held`).
    await sim.advance(2 * HOUR + 60)
    said = channel_text(sim, mark)
    assert f"Reminder: <@{bob.id}>, offer an investor for deal K, or pass." in said, said
    assert "a travel card was played" not in said, said


async def test_nobody_is_reminded_of_an_offer_they_cannot_make_yet(sim):
    """tools/habits, imtheboss seed 13: a recruit triple's reaction window waited a day for the
    once-a-day player; the others had passed it and owed the boss an offer, which nobody may make
    while the reaction is open. They were reminded "offer an investor for deal I, or pass", twice,
    and found nothing to do on their panel (73 such calls in one game). The reminder now waits
    until the offer can be made; the news call at the reaction's close tells them at once."""
    ann, bob, cal, dot = await _travel_in_deal(sim, offers=2 * HOUR, reaction=DAY)
    for m in (bob, cal):  # they pass the travel at once; it waits for ann
        await click(sim, m, await sim.table_message(), label="Pass")
    game = await sim.game()
    assert game.state["window"]["owing"] == [0]
    assert not BOSS.legal(game.state, 1) and not BOSS.legal(game.state, 2)  # no offer now
    mark = len(sim.channel.history())
    await sim.advance(61 * 60)  # the offer's first reminder was due (half its two hours)
    said = channel_text(sim, mark)
    for m in (bob, cal):
        assert f"Reminder: <@{m.id}>, offer an investor" not in said, said
    await click(sim, ann, await sim.table_message(), label="Pass")  # the travel acts; offers reopen
    assert BOSS.legal((await sim.game()).state, 1)
    said = channel_text(sim, mark)
    for m in (bob, cal):  # the reaction's close calls them at once, with their deadline, as for
        # a new question: "new answers are in" told them of answers none had sent them
        assert f"🔔 <@{m.id}>: offer an investor for deal K, or pass. Deadline" in said, said
        assert f"<@{m.id}>: new answers are in" not in said, said
    await sim.advance(30 * 60)
    said = channel_text(sim, mark)
    for m in (bob, cal):  # no reminder on the heels of that call (before: in the same minute)
        assert f"Reminder: <@{m.id}>" not in said, said


async def test_news_told_at_once_leaves_no_early_reminder(sim):
    """tools/habits, imtheboss seed 1, day 15: the once-a-day boss of deal G was called at 21:38
    (news), an offer at 21:47 completed the answers and called him at once, and at 22:38, the end
    of the news hour that call had made needless, he got his deal's second reminder, 1 h 40 after
    the first (due at 48 h). The row kept the batched news's due time after the news was told."""
    ann, bob, cal, dot = members = await boss_start(sim, 4, {"reminder": 60, "deadlines": {
        "deal": DAY, "offers": DAY}})
    await sim.arrange(lambda s: _deal_on_k(s, 0))
    await click(sim, ann, await sim.hand(ann), label="💼 Deal here")

    async def offer(seat: int) -> None:
        game = await sim.game()
        action = next(a for a in BOSS.legal(game.state, seat) if a["type"] == "offer")
        assert (await sim.house.act(game.id, seat, action, user_id=members[seat].id, version=game.version)).applied
        await sim.settle()

    await offer(1)  # the boss is called at once
    await sim.advance(60)
    await offer(2)  # within the hour: batched, told at its end
    await sim.advance(60)
    await click(sim, dot, await sim.hand(dot), label="Pass: no offer")  # every answer is in: called at once
    mark = len(sim.channel.history())
    await sim.advance(2 * HOUR)  # past the hour the batched news would have waited for
    said = channel_text(sim, mark)
    assert f"Reminder: <@{ann.id}>" not in said, said  # the deal's first reminder is due at 12 h
    await sim.advance(10 * HOUR + 60)
    assert channel_text(sim, mark).count(f"Reminder: <@{ann.id}>") == 1


async def test_an_offer_keeps_its_time_while_a_reaction_blocks_it(sim):
    """tools/habits, imtheboss seed 13: a reaction window waited for the once-a-day player while
    the others owed the boss an offer they could not make; their allowance ran all the while, and
    once it was used up the seat-filler answered for a daily player who never had the chance. Now
    the deal and its offers wait on the reaction (`Window.held`): their clocks stand still, so
    when it closes the offers have the time they had, and nobody is decided for."""
    ann, bob, cal, dot = await _travel_in_deal(sim, offers=2 * HOUR, reaction=DAY)
    game = await sim.game()
    began = sim.env.now().timestamp()
    offers = next(w for w in BOSS.windows(game.state) if w.kind == "offers")
    assert offers.held and {1, 2} <= set(offers.seats)
    for m in (bob, cal):  # they pass the travel at once; it waits for ann
        await click(sim, m, await sim.table_message(), label="Pass")
    version = (await sim.game()).version
    panel = text_of(await sim.hand(bob))  # no deadline now, and it says why
    assert "⏸️ Your clock stands still: this waits on another answer first." in panel, panel
    assert "Your deadline" not in panel, panel
    await sim.advance(3 * HOUR)  # well past the offers' two hours
    game = await sim.game()
    assert game.version == version, "someone answered an offer that could not be made"
    assert {1, 2} <= set(game.state["deal"]["asked"])
    await click(sim, ann, await sim.table_message(), label="Pass")  # the travel acts; offers reopen
    game = await sim.game()
    assert BOSS.legal(game.state, 1) and not any(w.held for w in BOSS.windows(game.state))
    duty = next(t for t in await sim.store.timers(game.id) if t.ref == f"{offers.id}#1")
    left = float(duty.payload["end"]) - sim.env.now().timestamp()
    waited = sim.env.now().timestamp() - began
    assert 2 * HOUR - 10 * 60 < left <= 2 * HOUR, (left, waited)  # the two hours, less the minute before the travel
    await sim.advance(HOUR + 45 * 60)
    game = await sim.game()
    assert 1 in game.state["deal"]["asked"], "bob's offer was answered for him with time left"
    panel = await sim.hand(bob)
    assert "⏳ Your deadline" in text_of(panel) and "stands still" not in text_of(panel)
    await click(sim, bob, panel, label="Pass: no offer")
    last = (await sim.store.actions(game.id, newest_first=True, limit=1))[0]
    assert last["seat"] == 1 and last["user_id"] == bob.id  # his own answer
