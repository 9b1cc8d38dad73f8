-- Away mode (issue 19): a player away until a moment (epoch seconds), for every game they play.
-- A row per user who set it; "back" deletes the row. Kept apart from user_prefs so a user's
-- preferences and their absences change independently.
CREATE TABLE user_away (
    user_id INTEGER PRIMARY KEY,
    until   REAL    NOT NULL
);
