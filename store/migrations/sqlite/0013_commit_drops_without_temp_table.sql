-- The one-statement commit (0012) deleted the timers a move dropped with a row-value IN,
-- `(game_id, kind, ref) IN (SELECT ... FROM json_each(NEW.dropped))`: SQLite fills a temporary
-- b-tree with the list (two ephemeral tables in the trigger's program) before it deletes. In some
-- replays of the click benchmark's commits such a commit took 0.09 ms instead of 0.04 (I'm the
-- Boss!, where four moves of ten drop a row), in others the two forms cost the same; in place the
-- statement's median fell by about 0.01 ms (docs/PERFORMANCE.md, sixth round). The same rows go
-- now: the game's rows, found by its index, whose (kind, ref) is in the list. Nothing else changes.
DROP TRIGGER commit_move;

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
    DELETE FROM timers WHERE NEW.dropped IS NOT NULL AND NEW.dropped <> '[]' AND game_id = NEW.game_id
        AND EXISTS (SELECT 1 FROM json_each(NEW.dropped) j
                    WHERE j.value ->> 0 = timers.kind AND j.value ->> 1 = timers.ref);
    INSERT INTO timers (game_id, kind, ref, due_at, payload, version)
        SELECT NEW.game_id, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value -> 3, NEW.expected + 1
        FROM json_each(NEW.timers) j WHERE NEW.timers IS NOT NULL AND NEW.timers <> '[]'
        ON CONFLICT (game_id, kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
            version = excluded.version
            WHERE timers.due_at IS NOT excluded.due_at OR timers.payload IS NOT excluded.payload;
END;
