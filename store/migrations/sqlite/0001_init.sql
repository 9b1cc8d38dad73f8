-- Games: one row per game, lobby to finish. The state snapshot and its version live here; the
-- version is the compare-and-swap guard and the number of applied actions.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    title            TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    lang             TEXT    NOT NULL DEFAULT 'en',
    options          TEXT    NOT NULL DEFAULT '{}',
    settings         TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    result           TEXT,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);
-- One game in the lobby or running per channel (a thread is a channel).
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,               -- NULL for an AI seat
    name     TEXT    NOT NULL,
    is_ai    INTEGER NOT NULL DEFAULT 0,
    left_at  REAL,                  -- the player left; the AI plays the seat
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

-- The action log: seq = the version the action produced. Replaying from (seed, options)
-- reproduces the snapshot.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    seat    INTEGER,                -- NULL: the system (a deadline)
    user_id INTEGER,
    action  TEXT    NOT NULL,
    events  TEXT    NOT NULL DEFAULT '[]',
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Durable timers: deadlines, reminders, AI turns. The scheduler sleeps until the earliest.
CREATE TABLE timers (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,       -- deadline | reminder | ai
    ref     TEXT    NOT NULL DEFAULT '',  -- the window id (deadline, reminder) or seat (ai)
    due_at  REAL    NOT NULL,
    payload TEXT    NOT NULL DEFAULT '{}',
    UNIQUE (game_id, kind, ref)
);
CREATE INDEX timers_due ON timers (due_at);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE user_prefs (
    user_id  INTEGER PRIMARY KEY,
    dm_panel INTEGER NOT NULL DEFAULT 0,
    pings    INTEGER NOT NULL DEFAULT 1,
    dm_closed INTEGER NOT NULL DEFAULT 0
);

-- The DM panel message kept up to date for players who asked for one.
CREATE TABLE dm_panels (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
