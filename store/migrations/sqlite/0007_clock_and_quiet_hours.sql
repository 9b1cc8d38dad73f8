-- The time model (issue 24): each game keeps its players' clocks (`clock`: their time banks and
-- the absences granted to them, JSON), written with the move that changes them; each person may
-- keep quiet hours in their time zone, in which their clock stops.
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT '{}';
ALTER TABLE user_prefs ADD COLUMN quiet TEXT;
ALTER TABLE user_prefs ADD COLUMN tz TEXT;

-- The one-statement commit (0006) writes the clock too (NULL: unchanged).
DROP TRIGGER commit_move;
DROP VIEW commits;
CREATE VIEW commits AS SELECT
    NULL AS game_id, NULL AS expected, NULL AS seat, NULL AS user_id, NULL AS action, NULL AS events,
    NULL AS state, NULL AS at, NULL AS finished, NULL AS timers, NULL AS clock;

CREATE TRIGGER commit_move INSTEAD OF INSERT ON commits
BEGIN
    SELECT RAISE(ABORT, 'boardroom:stale') WHERE NOT EXISTS (
        SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected AND status = 'active');
    UPDATE games SET state = NEW.state, version = NEW.expected + 1, updated_at = NEW.at,
        status = CASE WHEN NEW.finished IS NULL THEN status ELSE 'finished' END,
        result = COALESCE(NEW.finished, result),
        finished_at = CASE WHEN NEW.finished IS NULL THEN finished_at ELSE NEW.at END,
        clock = COALESCE(NEW.clock, clock)
        WHERE id = NEW.game_id;
    INSERT INTO actions (game_id, seq, seat, user_id, action, events, at)
        VALUES (NEW.game_id, NEW.expected + 1, NEW.seat, NEW.user_id, NEW.action, NEW.events, NEW.at);
    DELETE FROM timers WHERE NEW.timers IS NOT NULL AND game_id = NEW.game_id AND NOT EXISTS (
        SELECT 1 FROM json_each(NEW.timers) j WHERE j.value ->> 0 = timers.kind AND j.value ->> 1 = timers.ref);
    INSERT INTO timers (game_id, kind, ref, due_at, payload, version)
        SELECT NEW.game_id, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value -> 3, NEW.expected + 1
        FROM json_each(NEW.timers) j WHERE NEW.timers IS NOT NULL
        ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
            version = excluded.version;
END;
