"""After a game (issue 29): leaderboards, replays, exports and the rating in `/game stats`.
A wing below `manage/` and above the table: it reads finished games, never changes one."""
