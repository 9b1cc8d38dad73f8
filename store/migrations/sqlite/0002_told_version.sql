-- The version whose narration, pings and table last went out to the channel. A move committed
-- just before a crash is ahead of it; the restarted bot tells it from the log (House.catch_up).
-- Games already in the database were told up to date.
ALTER TABLE games ADD COLUMN told_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET told_version = version;
