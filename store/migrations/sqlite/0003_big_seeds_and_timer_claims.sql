-- Seeds of 128 bits: SQLite's INTEGER is 64-bit (a bigger number would be stored as a lossy
-- REAL), so seeds become decimal text. `games` is rebuilt (SQLite cannot change a column's type);
-- the migration runner turns foreign keys off around it so that dropping the old table does not
-- cascade to seats, actions, timers and DM panels, and checks them before it commits. Old seeds
-- keep their exact value: CAST of an INTEGER is its decimal text.
CREATE TABLE games_rebuilt (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    title            TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    lang             TEXT    NOT NULL DEFAULT 'en',
    options          TEXT    NOT NULL DEFAULT '{}',
    settings         TEXT    NOT NULL DEFAULT '{}',
    seed             TEXT    NOT NULL,       -- decimal digits, up to 128 bits and more
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    result           TEXT,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL,
    told_version     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO games_rebuilt (id, guild_id, channel_id, title, status, host_id, lang, options, settings, seed, state,
                           version, lobby_message_id, table_message_id, result, created_at, updated_at, finished_at,
                           told_version)
    SELECT id, guild_id, channel_id, title, status, host_id, lang, options, settings, CAST(seed AS TEXT), state,
           version, lobby_message_id, table_message_id, result, created_at, updated_at, finished_at, told_version
    FROM games;
DROP TABLE games;
ALTER TABLE games_rebuilt RENAME TO games;
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_guild ON games (guild_id, status);

-- Timers are claimed before they fire (owner, lease_until), and carry the game version they were
-- planned for: a timer is consumed only while its game is still at that version. Timers already
-- in the database were planned for their game's current version.
ALTER TABLE timers ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN owner TEXT;
ALTER TABLE timers ADD COLUMN lease_until REAL;
UPDATE timers SET version = COALESCE((SELECT g.version FROM games g WHERE g.id = timers.game_id), 0);
