"""Names are cleaned the same way before either backend sees them (issue 25, finding 7).

A NUL byte in a nickname broke joining a game on PostgreSQL only (`CharacterNotInRepertoireError`,
the internal-error reply; SQLite stored it), and a 10,000-character nickname made the table
update fail ("Cannot send an empty message"). Every way a name enters the store is tried: opening
a lobby (the host), joining, a rematch (its presser hosts) and a hand-over, on both backends,
with names far beyond Discord's 32 characters.
"""

from __future__ import annotations

import pytest

from play.names import MAX_NAME, clean_name
from tests.support import fuzz, toy
from tests.support.sim import button, custom_ids, panel_of, reply_text, text_of

pytestmark = pytest.mark.both_backends

TOY = toy.TITLE
#: Nicknames as a hostile client could send them: NUL and other controls, line breaks,
#: bidirectional overrides, and far beyond 32 characters.
HOST = "Host\x00" + "H" * 10_000
NUL = "Nul\x00By\x07te\r\nnext \u202eline\u202c"
LONG = "L" * 10_000
HEIR = "\u2066Heir\x00\x1b[31m" + "é" * 5_000


def _member(sim, name: str, nick: str):
    member = sim.guild.add_member(sim.env.create_user(name), nick=nick)
    sim.players[name] = member
    return member


def _answered_politely(result) -> None:
    text = reply_text(result)
    assert not any(apology in text for apology in fuzz.INTERNAL), text


async def _finish(sim, members) -> None:
    """The player to move takes the last coin."""
    await sim.arrange(lambda st: st.update(pile=1))
    game = await sim.game()
    mover = next(m for m in members if m.id == game.seats[game.state["active"]].user_id)
    panel = await sim.hand(mover)
    await mover.click(panel, custom_id=button(panel, label="Take 1"))
    await sim.settle()


async def test_hostile_names_are_cleaned_and_capped_on_every_way_into_the_store(sim):
    host, nul, long = _member(sim, "host", HOST), _member(sim, "nul", NUL), _member(sim, "long", LONG)
    _answered_politely(await sim.new_game(host, TOY))
    for member in (nul, long):
        _answered_politely(await sim.lobby(member, "join"))
    lobby = await sim.game()
    expected = [clean_name(n) for n in (HOST, NUL, LONG)]
    assert [s.name for s in lobby.seats] == expected
    assert expected[1] == "NulByte next line" and all(len(n) == MAX_NAME for n in (expected[0], expected[2]))
    _answered_politely(await sim.lobby(host, "start"))
    await sim.settle()
    game = await sim.game()
    assert game.status == "active"
    table = await sim.table_message()
    assert all(name in text_of(table) for name in ("NulByte next line", "L" * (MAX_NAME - 1) + "…"))

    # A hand-over to a member with such a name.
    heir = _member(sim, "heir", HEIR)
    opened = panel_of(await sim.menu_click(host, "Hhandover"))
    chosen = panel_of(await host.select(opened, ["2"], custom_id=button(opened, ":Hhseat")))
    picker = next(c for c in custom_ids(chosen) if c.startswith("bu:") and c.endswith(":Hhto:2"))
    handed = await host.select(chosen, [heir], custom_id=picker)
    _answered_politely(handed)
    await sim.settle()
    game = await sim.game()
    assert game.seats[2].user_id == heir.id and game.seats[2].name == clean_name(HEIR)
    assert game.seats[2].name.startswith("Heir[31m") and len(game.seats[2].name) == MAX_NAME

    # A rematch, pressed by the member with the NUL: they host the new lobby.
    await _finish(sim, [host, nul, heir])
    assert (await sim.store.latest_in(sim.channel.id)).status == "finished"
    results = next(m for m in reversed(sim.channel.history()) if "final results" in text_of(m))
    _answered_politely(await nul.click(results, custom_id=button(results, code_suffix=":Hrematch")))
    await sim.settle()
    rematch = await sim.game()
    assert rematch.status == "lobby" and rematch.host_id == nul.id
    assert sorted(s.name for s in rematch.seats) == sorted([clean_name(NUL), clean_name(HOST), clean_name(HEIR)])
    assert "NulByte next line" in text_of(sim.lobby_message())
