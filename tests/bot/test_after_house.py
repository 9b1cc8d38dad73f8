"""After the game, the house's side (issue 29), through SimCord: ratings move after a finished
game and not after one the host ended or its players abandoned; the leaderboard pages, shows
the reader's own line off the page and switches to all servers; `/game stats` shows the rating
and its chart; a server may turn the picture story off; a pruned game's replay and export say
they are unavailable."""

from __future__ import annotations

import pytest

from store import Seat
from store.prune import prune
from store.ratings import GLOBAL, Player
from tests.support.playout import people, play_out
from tests.support.sim import button, panel_of, picture_urls, text_of

pytestmark = pytest.mark.both_backends


async def finish_one(sim, ann, bob):
    await sim.start(ann, "imtheboss", others=[bob])
    return await play_out(sim, people(sim, await sim.game()), seed=3)


async def test_ratings_move_after_a_finished_game_not_after_an_ended_or_abandoned_one(sim, backend):
    ann, bob = sim.player("ann"), sim.player("bob")
    game = await finish_one(sim, ann, bob)
    scope = sim.guild.id
    after_one = {p: await sim.store.standing(scope, "imtheboss", Player(p.id)) for p in (ann, bob)}
    assert all(s is not None and s.games == 1 for s in after_one.values())
    assert {s.rank for s in after_one.values()} == {1, 2}
    assert await sim.store.standing(GLOBAL, "imtheboss", Player(ann.id)) is not None
    # The host ends the next game: nothing is rated.
    await sim.start(ann, "imtheboss", others=[bob])
    ended = await sim.game()
    await ann.click(panel_of(await sim.menu_click(ann, "Hendask")), label="End the game")
    await sim.settle()
    # Both players leave the one after: abandoned, nothing rated.
    await sim.start(ann, "imtheboss", others=[bob])
    abandoned = await sim.game()
    await sim.leave(bob)
    await sim.leave(ann)
    await sim.settle()
    for gone in (ended, abandoned):
        assert (await sim.store.get(gone.id)).status == "cancelled"
        assert await sim.store.judged(gone.id) is None
    for p in (ann, bob):
        assert await sim.store.standing(scope, "imtheboss", Player(p.id)) == after_one[p]
    # A restart rates nothing twice.
    await sim.restart()
    assert await sim.store.rate_game(await sim.store.get(game.id), 0.0) is None
    assert (await sim.store.standing(scope, "imtheboss", Player(ann.id))).games == 1


async def rated_crowd(sim, people_ids: list[int]) -> None:
    """Finished, rated games among these people (written as the house writes them)."""
    store = sim.store
    for n in range(0, len(people_ids) - 1, 2):
        a, b = people_ids[n], people_ids[n + 1]
        lobby = await store.create_lobby(guild_id=sim.guild.id, channel_id=10_000 + n, title="imtheboss", host_id=a,
                                         host_name=f"p{n}", lang="en", seed=1, settings={}, now=1.0)
        await store.set_seats(lobby.id, [Seat(0, a, f"p{n}"), Seat(1, b, f"p{n + 1}")], 1.0)
        await store.start(lobby.id, {}, {}, 1.0)
        await store.commit_action(lobby.id, expected_version=0, seat=0, user_id=a, action={"type": "x"}, events=[],
                                  state={}, now=2.0 + n, finished={"places": [1, 2]})
        await store.rate_game(await store.get(lobby.id), 2.0 + n)


async def test_the_leaderboard_pages_and_shows_your_own_line(sim):
    ann, bob = sim.player("ann"), sim.player("bob")
    await finish_one(sim, ann, bob)
    await rated_crowd(sim, list(range(900_001, 900_021)))  # twenty more: three pages of ten
    first = panel_of(await ann.slash(sim.channel, "game leaderboard", title="imtheboss"))
    text = text_of(first)
    ranks = [line.split(".")[0] for line in text.splitlines() if line[:1].isdigit()]
    assert "Page 1 of 3" in text and ranks == [str(n) for n in range(1, 11)]
    mine = await sim.store.standing(sim.guild.id, "imtheboss", Player(ann.id))
    assert mine.rank > 10  # not on the first page: the reader's own line under it
    assert f"**You:** {mine.rank}. **ann**" in text
    last = panel_of(await ann.click(first, custom_id=button(first, label="⏭")))
    assert "Page 3 of 3" in text_of(last) and "22. **" in text_of(last)
    everywhere = panel_of(await ann.click(last, custom_id=button(last, label="All servers")))
    assert "All servers" in text_of(everywhere) and "Page 1 of 3" in text_of(everywhere)
    # /game stats: the rating, its place, and the history chart.
    stats = panel_of(await ann.slash(sim.channel, "game stats"))
    assert "of 22 in this server" in text_of(stats) and "I'm the Boss! rating" in text_of(stats)
    assert picture_urls(stats) and stats.attachments[0].filename == "rating-imtheboss.png"


async def test_no_story_when_the_server_turns_it_off_and_pruned_games_cannot_be_replayed(sim, tmp_path, backend):
    ann, bob = sim.player("ann"), sim.player("bob")
    await sim.store.set_guild_settings(sim.guild.id, {"story": False})  # what /game-admin defaults story:False writes
    game = await finish_one(sim, ann, bob)
    names = [a.filename for m in sim.channel.history() for a in m.attachments]
    assert f"results-{game.id}.png" in names and not any(n.startswith("story-") for n in names)
    await prune(sim.store, game.finished_at + 1, tmp_path)
    sim.bot.keeper.replays._open.clear()  # nobody has it open
    for verb in ("game replay", "game export"):
        result = await ann.slash(sim.channel, verb, game=game.id)
        assert "its replay is unavailable" in text_of(panel_of(result)), verb
    other = sim.guild.create_text_channel("elsewhere")
    result = await ann.slash(other, "game replay")
    assert "No game has finished in this channel" in text_of(panel_of(result))
    result = await ann.slash(other, "game replay", game=game.id + 100)
    assert f"no finished game #{game.id + 100}" in text_of(panel_of(result))
