-- Away mode (issue 19): a player away until a moment (epoch seconds), for every game they play.
-- A row per user who set it; "back" deletes the row. Numbered 0004 like SQLite's migration of
-- the same change (PostgreSQL's schema started at 0001 with what SQLite reached by 0003).
CREATE TABLE user_away (
    user_id BIGINT           PRIMARY KEY,
    until   DOUBLE PRECISION NOT NULL
);
