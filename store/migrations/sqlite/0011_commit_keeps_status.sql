-- The one-statement commit (0007) wrote `status` on every move (`status = CASE ... ELSE status`):
-- naming a column in an UPDATE's SET makes SQLite rewrite every index on it, whatever the value,
-- so each move deleted and re-inserted the game's entries in `games_guild` and
-- `games_one_live_per_channel`, a sixth of the statement's CPU (docs/PERFORMANCE.md). The end of
-- a game (status, result, finished_at) is now its own UPDATE, run only when the move ended it;
-- the statement writes the same rows as before.
DROP TRIGGER commit_move;

CREATE TRIGGER commit_move INSTEAD OF INSERT ON commits
BEGIN
    SELECT RAISE(ABORT, 'boardroom:stale') WHERE NOT EXISTS (
        SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected AND status = 'active');
    UPDATE games SET state = NEW.state, version = NEW.expected + 1, updated_at = NEW.at,
        clock = COALESCE(NEW.clock, clock)
        WHERE id = NEW.game_id;
    UPDATE games SET status = 'finished', result = NEW.finished, finished_at = NEW.at
        WHERE NEW.finished IS NOT NULL AND id = NEW.game_id;
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
