"""`python -m bench.commitsql` (the commit's statement alone, replayed): the recording holds
every commit the click benchmark made, the replay runs each of them again (none refused as stale:
the replayed database follows the recorded one), and the store is left as it was."""

from __future__ import annotations

import asyncio

from bench import click, commitsql
from store.sqlite import conn as sqlite_conn


def test_the_click_benchmarks_commits_replay_on_a_copy(tmp_path):
    plain = (sqlite_conn._Statements.fetch, sqlite_conn._Statements.execute, vars(click.Rig)["open"])
    statements = asyncio.run(commitsql.record("ewars", 4, tmp_path))
    assert (sqlite_conn._Statements.fetch, sqlite_conn._Statements.execute, vars(click.Rig)["open"]) == plain
    commits = [params for sql, params in statements if sql.startswith(commitsql.COMMIT)]
    assert len(commits) >= 4  # the clicks, and any deadline that passed while every seat waited
    times = commitsql.replay(tmp_path / "ewars.db", statements, cold_mb=1)
    assert set(times) <= {"--", "I-", "-D", "ID"}
    assert sum(len(v) for v in times.values()) == len(commits)
    assert all(t > 0 for v in times.values() for t in v)
