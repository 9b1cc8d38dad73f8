"""`python bot.py --local` in-process: the real bot and cogs on SimCord's stand-in for Discord,
its world found again after a restart (the games in the local database, the clock, each member's
language), the `/local` commands, and bot.py's arguments. The page itself is driven in a real
browser by test_browser.py."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

import bot
from config import NO_TOKEN
from local.run import Session, serve
from locales import tr
from tests.support.sim import components_of, text_of


class Running:
    """`serve()` in a task, until `stop()`."""

    def __init__(self, db) -> None:
        self.db = db
        self.ready: asyncio.Future[Session] = asyncio.get_running_loop().create_future()
        self.halt = asyncio.Event()
        self.task = asyncio.create_task(serve(db, port=0, ready=self.ready.set_result, stop=self.halt))

    async def __aenter__(self) -> Session:
        done, _ = await asyncio.wait({self.ready, self.task}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if self.task in done:
            self.task.result()  # raises what stopped it
        assert self.ready.done(), "the local bot did not serve its page within a minute"
        return self.ready.result()

    async def __aexit__(self, *exc) -> None:
        self.halt.set()
        await asyncio.wait_for(self.task, 60)


async def act(session: Session, operation):
    """A SimCord operation as the page does one: under the clock's lock (never during a tick)."""
    async with session.clock.lock:
        return await operation()


def button(message, label: str) -> str:
    for c in components_of(message):
        if getattr(c, "label", None) and c.label.endswith(label) and not c.disabled:
            return c.custom_id
    raise AssertionError(f"no button {label!r} in {[getattr(c, 'label', None) for c in components_of(message)]}")


def latest_with(session: Session, label: str):
    for message in reversed(session.world.channel.history()):
        if any(getattr(c, "label", "") and c.label.endswith(label) for c in components_of(message)):
            return message
    raise AssertionError(f"no message in #games with a {label!r} button")


async def start_game(session: Session, title: str = "filthyrich") -> None:
    you = session.world.members["Alex"]
    channel = session.world.channel
    await act(session, lambda: you.slash(channel, "game new", title=title))
    lobby = latest_with(session, "Add AI seat")
    await act(session, lambda: you.click(lobby, custom_id=button(lobby, "Add AI seat")))
    lobby = latest_with(session, "Start")
    await act(session, lambda: you.click(lobby, custom_id=button(lobby, "Start")))


async def test_a_local_game_survives_a_restart_with_its_table_clock_and_language(tmp_path):
    db = tmp_path / "local.db"
    async with Running(db) as session:
        world = session.world
        assert [m.name for m in world.viewers] == ["Alex", "Ann", "Ken", "Eva"]
        assert session.url.startswith("http://127.0.0.1:")
        key = session.url.split("#", 1)[1]
        ids = (world.guild.id, world.channel.id, [m.id for m in world.viewers])
        await start_game(session)
        game = await session.store.live_in(world.channel.id)
        assert game is not None and game.status == "active"
        you = world.members["Alex"]
        said = await act(session, lambda: you.slash(world.channel, "local language", language="ja"))
        assert text_of(said.response.message) == tr("ja", "local.language.set", language="日本語")
        stopped_at = session.env.now()

    async with Running(db) as session:
        world = session.world
        assert (world.guild.id, world.channel.id, [m.id for m in world.viewers]) == ids
        # An open tab keeps working: the page's key is kept beside the database, for its owner only.
        assert session.url.split("#", 1)[1] == key
        assert (Path(f"{db}.key").stat().st_mode & 0o777) == 0o600
        again = await session.store.live_in(world.channel.id)
        assert again is not None and again.id == game.id
        # The channel is new, so the table of the game that survived is posted in it again.
        table = latest_with(session, "My hand")
        assert table.id == again.table_message_id and table.attachments
        assert session.env.now() >= stopped_at  # the clock never goes back: the game's timers keep their meaning
        assert world.language(world.members["Alex"].id) == "ja"
        hand = await act(session, lambda: world.members["Alex"].click(table, custom_id=button(table, "My hand")))
        panel = hand.followups[-1].message if hand.followups else hand.response.message
        assert tr("ja", "filthyrich.name") in text_of(panel)  # the panel speaks the member's language


async def test_the_locale_stand_in_ends_with_the_local_bot(tmp_path):
    """Members' locales are stamped on SimCord's interactions only while the local bot runs:
    the same process's other SimCord worlds (the rest of the tests) get SimCord's own back."""
    import simcord.interactions as interactions

    simcords = interactions.base_payload
    async with Running(tmp_path / "local.db") as session:
        assert interactions.base_payload is not simcords
        you = session.world.members["Alex"]
        await act(session, lambda: you.slash(session.world.channel, "local language", language="es"))
        assert session.world.locales[you.id] == "es-ES"
    assert interactions.base_payload is simcords


async def test_the_clock_follows_the_wall_clock_and_fast_forwards(tmp_path):
    async with Running(tmp_path / "local.db") as session:
        env, world = session.env, session.world
        start = env.now()
        await asyncio.sleep(2.5)
        assert env.now() - start >= timedelta(seconds=1.5)  # ticking, not frozen
        await start_game(session)
        game = await session.store.live_in(world.channel.id)
        before = env.now()
        said = await act(session, lambda: world.members["Alex"].slash(world.channel, "local clock", forward="1w"))
        assert text_of(said.response.message).startswith("⏩")
        for _ in range(120):
            if env.now() - before >= timedelta(days=7):
                break
            await asyncio.sleep(0.5)
        assert env.now() - before >= timedelta(days=7)
        # A week passed: the turn's day and the three-day time bank ran out, the channel was told,
        # and the game moved on without Alex.
        told = "\n".join(text_of(m) for m in world.channel.history())
        assert "Deadline passed for" in told and "Alex" in told.split("Deadline passed for", 1)[1].split("\n")[0]
        moved = await session.store.get(game.id)
        assert moved.version > game.version


async def test_shared_sentences_name_the_local_members(tmp_path):
    """Issue 28 #5: the first local member was called "you", and every sentence about them read
    wrong for everyone ("you's turn", "Waiting for you" on another member's panel, "faltan: you
    y ann", "まだ振っていない人：you"). A member's name is a name in every language: the table
    and another member's panel name them."""
    pronouns = {"you", "tú", "tu", "usted", "あなた", "君", "me", "yo", "私"}
    async with Running(tmp_path / "local.db") as session:
        world = session.world
        assert not {m.name.lower() for m in world.viewers} & pronouns
        host, other = world.viewers[:2]
        channel = world.channel
        await act(session, lambda: host.slash(channel, "game new", title="filthyrich"))
        lobby = latest_with(session, "Join")
        await act(session, lambda: other.click(lobby, custom_id=button(lobby, "Join")))
        lobby = latest_with(session, "Start")
        await act(session, lambda: host.click(lobby, custom_id=button(lobby, "Start")))
        game = await session.store.live_in(channel.id)
        assert game is not None and sorted(game.names) == sorted([host.name, other.name])
        table = next(m for m in channel.history() if m.id == game.table_message_id)
        hand = await act(session, lambda: other.click(table, custom_id=button(table, "My hand")))
        panel = hand.followups[-1].message if hand.followups else hand.response.message
        shown = text_of(table) + "\n" + text_of(panel)
        assert any(f"Waiting for: {name}" in text_of(table) for name in game.names), shown
        assert all(f"` {name} " in text_of(table) for name in game.names), shown  # the players' list
        assert other.name in text_of(panel), shown
        for word in ("you's", "for you", "you rolls", "you y "):
            assert word not in shown.lower(), shown


def test_no_token_offers_the_local_version(monkeypatch, capsys):
    assert "python bot.py --local" in NO_TOKEN
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert bot.main([]) == 2
    assert "python bot.py --local" in capsys.readouterr().err


def test_db_and_port_go_with_local(capsys):
    with pytest.raises(SystemExit) as stopped:
        bot.main(["--db", "x.db"])
    assert stopped.value.code == 2
    assert "--db and --port go with --local" in capsys.readouterr().err


def test_local_refuses_a_db_in_a_missing_folder(tmp_path, capsys):
    assert bot.main(["--local", "--db", str(tmp_path / "nowhere" / "x.db")]) == 2
    assert "must name a file in a folder that exists" in capsys.readouterr().err
