-- The time model (issue 24): each game keeps its players' clocks (`clock`: their time banks and
-- the absences granted to them), written with the move that changes them; each person may keep
-- quiet hours in their time zone, in which their clock stops.
ALTER TABLE games ADD COLUMN clock jsonb NOT NULL DEFAULT '{}';
ALTER TABLE user_prefs ADD COLUMN quiet TEXT;
ALTER TABLE user_prefs ADD COLUMN tz TEXT;
