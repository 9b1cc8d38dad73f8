-- Ratings (issue 29): a multiplayer skill rating per title, per server (scope = the guild id) and
-- across servers (scope 0), Plackett-Luce through openskill (store/ratings/). People are rated by
-- user id (level ''); the seat-filler by strength level (user_id 0, level 'strong', ...), so that
-- "beats the strong AI" means something. `ordinal` (mu - 3 sigma) orders the leaderboard.
CREATE TABLE ratings (
    scope      BIGINT  NOT NULL,
    title      TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    level      TEXT    NOT NULL DEFAULT '',
    mu         DOUBLE PRECISION    NOT NULL,
    sigma      DOUBLE PRECISION    NOT NULL,
    ordinal    DOUBLE PRECISION    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    name       TEXT    NOT NULL DEFAULT '',   -- the display name last seen at a table
    updated_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (scope, title, user_id, level)
);
CREATE INDEX ratings_board ON ratings (scope, title, ordinal DESC);

-- Every finished game judged once (rated or not, and why not): the primary key makes the rating
-- of a game happen exactly once, whoever asks first (the ending move, the results, a restart).
-- `players`: who was rated, as decided then ([seat, user_id, level, place, name]), so a game
-- whose log was pruned can still be rated again by `python -m store rerate`.
CREATE TABLE rated_games (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated    BOOLEAN NOT NULL,
    why      TEXT,
    players  JSONB   NOT NULL DEFAULT '[]',
    at       DOUBLE PRECISION    NOT NULL
);

-- Each rated player's rating before and after each game, in each scope: the results message's
-- "+18, now 1,243" and the history chart of /game stats.
CREATE TABLE rating_changes (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        BIGINT NOT NULL,
    title        TEXT    NOT NULL,
    user_id      BIGINT NOT NULL,
    level        TEXT    NOT NULL DEFAULT '',
    mu_before    DOUBLE PRECISION    NOT NULL,
    sigma_before DOUBLE PRECISION    NOT NULL,
    mu           DOUBLE PRECISION    NOT NULL,
    sigma        DOUBLE PRECISION    NOT NULL,
    at           DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, scope, user_id, level)
);
CREATE INDEX rating_changes_player ON rating_changes (scope, title, user_id, level, at);
