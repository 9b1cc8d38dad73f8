-- A game's timers are planned for one version, kept in the game (`planned_at`) instead of in
-- every timer row: a commit no longer rewrites the rows whose due time and payload stay the
-- same only to stamp the new version on them (the SQLite migration 0012 says why). A timer is
-- current while its game's `planned_at` is the game's version; a row's own `version` is the
-- version it was last written for (kept for the record, read by nobody).
ALTER TABLE games ADD COLUMN planned_at INTEGER;
-- Every row of a game was stamped with the same version (each write rewrote them all).
UPDATE games SET planned_at = t.v FROM (SELECT game_id, MAX(version) AS v FROM timers GROUP BY game_id) t
    WHERE t.game_id = games.id;
