-- Undo (issue 19): a move taken back leaves the log (so replaying the log still gives the
-- snapshot); its record is kept here. Versions never repeat: the move had `seq`, taking it back
-- made the game's version `undone_seq` (= seq + 1), so the log's seqs and these two numbers of
-- every record together are 1..version.
CREATE TABLE undone_actions (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    seat      INTEGER,
    user_id   INTEGER,
    action    TEXT    NOT NULL,
    events    TEXT    NOT NULL DEFAULT '[]',
    at        REAL    NOT NULL,
    undone_at REAL    NOT NULL,
    undone_seq INTEGER NOT NULL
);
CREATE INDEX undone_actions_game ON undone_actions (game_id);

-- The daily digest DM (issue 19): who asked for it, in which language, and when the last one
-- went out (so a restart never sends a second one within a day).
ALTER TABLE user_prefs ADD COLUMN digest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_prefs ADD COLUMN digest_lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE user_prefs ADD COLUMN digest_at REAL;
CREATE INDEX user_prefs_digest ON user_prefs (digest_at) WHERE digest = 1;
