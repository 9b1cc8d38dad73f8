-- A game's timers are planned for one version, kept in the game (`planned_at`) instead of in
-- every timer row. Before, each move rewrote every timer row of its game only to stamp the new
-- version on it (the rows' content mostly unchanged): a third to a half of the commit's
-- statement with a few rows (docs/PERFORMANCE.md). Now a timer is current while its game's
-- `planned_at` is the game's version; a commit writes only the rows whose due time or payload
-- changed, and deletes only those the plan dropped. A row's own `version` column is the version
-- it was last written for (kept for the record, read by nobody).
ALTER TABLE games ADD COLUMN planned_at INTEGER;
-- Every row of a game was stamped with the same version (each write rewrote them all).
UPDATE games SET planned_at = (SELECT MAX(t.version) FROM timers t WHERE t.game_id = games.id);

-- The one-statement commit (0011) with `dropped`: NULL when `timers` is the whole plan (every
-- other row of the game goes, as before), else a JSON array of [kind, ref] to delete, `timers`
-- then holding only the rows that changed. The caller knows the rows it changes (House keeps
-- them from its own last commit); a row whose due time and payload are unchanged is not written.
DROP TRIGGER commit_move;
DROP VIEW commits;
CREATE VIEW commits AS SELECT
    NULL AS game_id, NULL AS expected, NULL AS seat, NULL AS user_id, NULL AS action, NULL AS events,
    NULL AS state, NULL AS at, NULL AS finished, NULL AS timers, NULL AS clock, NULL AS dropped;

CREATE TRIGGER commit_move INSTEAD OF INSERT ON commits
BEGIN
    SELECT RAISE(ABORT, 'boardroom:stale') WHERE NOT EXISTS (
        SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected AND status = 'active');
    UPDATE games SET state = NEW.state, version = NEW.expected + 1, updated_at = NEW.at,
        clock = COALESCE(NEW.clock, clock),
        planned_at = CASE WHEN NEW.timers IS NULL THEN planned_at ELSE NEW.expected + 1 END
        WHERE id = NEW.game_id;
    UPDATE games SET status = 'finished', result = NEW.finished, finished_at = NEW.at
        WHERE NEW.finished IS NOT NULL AND id = NEW.game_id;
    INSERT INTO actions (game_id, seq, seat, user_id, action, events, at)
        VALUES (NEW.game_id, NEW.expected + 1, NEW.seat, NEW.user_id, NEW.action, NEW.events, NEW.at);
    DELETE FROM timers WHERE NEW.timers IS NOT NULL AND NEW.dropped IS NULL AND game_id = NEW.game_id
        AND NOT EXISTS (SELECT 1 FROM json_each(NEW.timers) j
                        WHERE j.value ->> 0 = timers.kind AND j.value ->> 1 = timers.ref);
    DELETE FROM timers WHERE NEW.dropped IS NOT NULL AND NEW.dropped <> '[]' AND (game_id, kind, ref) IN (
        SELECT NEW.game_id, j.value ->> 0, j.value ->> 1 FROM json_each(NEW.dropped) j);
    INSERT INTO timers (game_id, kind, ref, due_at, payload, version)
        SELECT NEW.game_id, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value -> 3, NEW.expected + 1
        FROM json_each(NEW.timers) j WHERE NEW.timers IS NOT NULL AND NEW.timers <> '[]'
        ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
            version = excluded.version
            WHERE timers.due_at IS NOT excluded.due_at OR timers.payload IS NOT excluded.payload;
END;
