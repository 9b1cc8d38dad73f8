"""Lost access noticed without the members intent, failing closed (issue 25, finding 4).

Nobody tells the bot that a member left the server (that event needs the privileged members
intent, which Boardroom does not ask for). So before it sends or gives anything that depends on
membership it asks Discord: a digest line, a DM panel post or edit, a rematch seat, a hand-over.
When that look-up fails (a 503), nothing is sent or given and a click is told to try again; a
ban (whose event comes without the intent) also takes the member out of lobbies and out of the
rematch of finished games.
"""

from __future__ import annotations

import pytest

import cogs.access
from cogs.kit import codec
from tests.support import fuzz, toy
from tests.support.sim import button, custom_ids, panel_of, text_of

pytestmark = pytest.mark.both_backends  # seats marked left, lobbies and rematches: SQLite and PostgreSQL

TOY = toy.TITLE
TRY_AGAIN = "could not tell just now"


def _chatter(sim) -> str:
    return "\n".join(text_of(m) for m in sim.channel.history())


def _lookups_fail(sim, member) -> None:
    """Discord answers 503 to every look-up of this member from now on."""
    sim.env.inject_error("GET", f"/guilds/{sim.guild.id}/members/{member.id}", status=503, times=None)


def _dm_requests(sim, member, since: int) -> list[str]:
    """The requests since `since` that post or edit something in the member's DMs."""
    dm = sim.env.backend.dm_channels.get(member.id)
    return [f"{e.method} {e.path}" for e in sim.env.http_requests[since:]
            if dm is not None and e.method in ("POST", "PATCH") and f"/channels/{dm}/" in e.path]


@pytest.fixture
def no_memory(monkeypatch):
    """Every look-up asks Discord (a member found a minute ago is otherwise remembered)."""
    monkeypatch.setattr(cogs.access, "MEMBER_TTL", 0.0)


async def _toy(sim, *names):
    members = [sim.player(n) for n in ("ann", "bob", *names)]
    await sim.start(members[0], TOY, others=members[1:])
    return members, await sim.game()


async def _ann_moves(sim, ann) -> None:
    """Ann takes a coin on her turn (the others then owe her a nod)."""
    game = await sim.game()
    await sim.arrange(lambda st: st.update(active=game.seat_of(ann.id), owed=[]))
    panel = await sim.hand(ann)
    await ann.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()


async def test_a_member_who_left_gets_no_digest(sim):
    (ann, bob), game = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", digest=True)
    await sim.arrange(lambda st: st.update(active=game.seat_of(bob.id), owed=[]))  # bob's move: a digest is due
    sim.guild.remove_member(bob)  # no event comes without the members intent
    await sim.settle()
    since = len(sim.env.http_requests)
    assert await sim.bot.digest.round() == 0
    assert _dm_requests(sim, bob, since) == []
    assert (await sim.game()).seats[1].ai_plays  # and the seat-filler has the seat
    await sim.settle()  # the table keeper tells the channel after the round (CI: read too early under load)
    assert "bob can no longer reach this game" in _chatter(sim)


async def test_no_digest_while_discord_cannot_say_and_the_seat_stays(sim, no_memory):
    (ann, bob), game = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", digest=True)
    await sim.arrange(lambda st: st.update(active=game.seat_of(bob.id), owed=[]))
    await sim.settle()
    _lookups_fail(sim, bob)
    since = len(sim.env.http_requests)
    assert await sim.bot.digest.round() == 0
    assert _dm_requests(sim, bob, since) == []
    assert not (await sim.game()).seats[1].ai_plays  # nobody loses a seat to a server error
    sim.env.backend.faults.clear()  # once Discord answers, the digest goes out
    assert await sim.bot.digest.round() == 1


async def test_a_member_who_left_gets_no_dm_panel_and_loses_the_seat(sim):
    (ann, bob), game = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    sim.guild.remove_member(bob)
    await sim.settle()
    since = len(sim.env.http_requests)
    await _ann_moves(sim, ann)  # bob owes a nod: his DM panel would be posted again
    assert _dm_requests(sim, bob, since) == []
    assert (await sim.game()).seats[1].ai_plays
    assert "bob can no longer reach this game" in _chatter(sim)


async def test_no_dm_panel_while_discord_cannot_say_and_the_seat_stays(sim, no_memory):
    (ann, bob), game = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    _lookups_fail(sim, bob)
    since = len(sim.env.http_requests)
    await _ann_moves(sim, ann)
    assert _dm_requests(sim, bob, since) == []
    assert not (await sim.game()).seats[1].ai_plays  # nobody loses a seat to a server error


async def test_a_dm_click_while_lookups_fail_is_refused_and_changes_nothing(sim, no_memory):
    (ann, bob), game = await _toy(sim)
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.arrange(lambda st: st.update(active=game.seat_of(bob.id), owed=[]))
    take = button(await sim.hand(bob), label="Take 1")
    sim.guild.remove_member(bob)
    _lookups_fail(sim, bob)
    before = await sim.game()
    result = await fuzz.press(sim, bob, take, dm=True)
    assert TRY_AGAIN in fuzz.reply_text(result)
    after = await sim.game()
    assert after.version == before.version and not after.seats[1].ai_plays


async def _finished(sim, members):
    await sim.arrange(lambda st: st.update(pile=1, owed=[]))
    game = await sim.game()
    mover = next(m for m in members if m.id == game.seats[game.state["active"]].user_id)
    panel = await sim.hand(mover)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()
    assert (await sim.store.latest_in(sim.channel.id)).status == "finished"
    return next(m for m in reversed(sim.channel.history()) if any(c.endswith(":Hrematch") for c in custom_ids(m)))


async def test_a_rematch_seats_nobody_who_was_banned_or_left(sim):
    (ann, bob, cy), game = await _toy(sim, "cy")
    results = await _finished(sim, [ann, bob, cy])
    sim.env.backend.apply_ban(sim.guild.id, bob.id, "spam")  # banned after the end: the event comes
    sim.guild.remove_member(cy)  # left: no event
    await sim.settle()
    await ann.click(results, custom_id=button(results, code_suffix=":Hrematch"))
    await sim.settle()
    lobby = await sim.game()
    assert lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [ann.id]
    assert "bob" not in text_of(sim.lobby_message()) and "cy" not in text_of(sim.lobby_message())


async def test_a_rematch_while_lookups_fail_is_refused(sim, no_memory):
    (ann, bob), game = await _toy(sim)
    results = await _finished(sim, [ann, bob])
    _lookups_fail(sim, bob)
    result = await ann.click(results, custom_id=button(results, code_suffix=":Hrematch"))
    assert TRY_AGAIN in fuzz.reply_text(result)
    assert (await sim.game()).status == "finished"  # no lobby was opened


async def test_a_hand_over_while_lookups_fail_is_refused_and_the_seat_kept(sim, no_memory):
    (ann, bob), game = await _toy(sim)
    dee = sim.player("dee")
    opened = panel_of(await sim.menu_click(ann, "Hhandover"))
    chosen = panel_of(await ann.select(opened, ["1"], custom_id=button(opened, ":Hhseat")))
    picker = next(c for c in custom_ids(chosen) if c.startswith("bu:"))
    _lookups_fail(sim, dee)
    result = await ann.select(chosen, [dee], custom_id=picker)
    assert TRY_AGAIN in fuzz.reply_text(result)
    assert (await sim.game()).seats[1].user_id == bob.id


async def test_a_member_of_another_server_is_never_handed_a_seat(sim):
    (ann, bob), game = await _toy(sim)
    elsewhere = sim.env.create_guild("Elsewhere")
    mallory = elsewhere.add_member(sim.env.create_user("mallory"))
    _lookups_fail(sim, mallory)
    for _ in range(2):  # while Discord cannot say, then when it says "not a member"
        result = await fuzz.press(sim, ann, codec.make("bs", game, None, "Hhto:1"), values=[str(mallory.id)])
        assert TRY_AGAIN in fuzz.reply_text(result) or "cannot see this game's channel" in fuzz.reply_text(result)
        assert (await sim.game()).seats[1].user_id == bob.id
        sim.env.backend.faults.clear()


async def test_a_ban_takes_the_member_out_of_a_lobby_and_a_hosts_lobby_passes_on(sim):
    ann, bob, cy = sim.player("ann"), sim.player("bob"), sim.player("cy")
    await sim.open_lobby(ann, TOY, [bob, cy])
    sim.env.backend.apply_ban(sim.guild.id, bob.id, "spam")
    await sim.settle()
    lobby = await sim.game()
    assert [s.user_id for s in lobby.seats] == [ann.id, cy.id]
    assert "bob" not in text_of(sim.lobby_message())
    sim.env.backend.apply_ban(sim.guild.id, ann.id, "spam")  # the host: cy hosts now
    await sim.settle()
    lobby = await sim.game()
    assert lobby.status == "lobby" and lobby.host_id == cy.id and [s.user_id for s in lobby.seats] == [cy.id]
    sim.env.backend.apply_ban(sim.guild.id, cy.id, "spam")  # nobody left: the lobby is cancelled
    await sim.settle()
    assert (await sim.store.latest_in(sim.channel.id)).status == "cancelled"


async def test_a_seat_handed_over_after_its_player_left_tells_them_nothing(sim):
    (ann, bob), game = await _toy(sim)
    dee = sim.player("dee")
    await bob.slash(sim.channel, "game prefs", dm_panel=True)
    await sim.settle()
    sim.guild.remove_member(bob)  # no event: bob's seat is still his
    since = len(sim.env.http_requests)
    opened = panel_of(await sim.menu_click(ann, "Hhandover"))
    chosen = panel_of(await ann.select(opened, ["1"], custom_id=button(opened, ":Hhseat")))
    picker = next(c for c in custom_ids(chosen) if c.startswith("bu:"))
    await ann.select(chosen, [dee], custom_id=picker)
    await sim.settle()
    assert (await sim.game()).seats[1].user_id == dee.id
    assert _dm_requests(sim, bob, since) == []  # his old DM panel is not edited to name the game
