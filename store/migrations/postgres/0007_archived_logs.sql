-- Pruning (issue 27, `python -m store prune`): a finished game whose action log was archived to a
-- compressed file and deleted from the database keeps its row (history and statistics read the
-- games and their seats, never the log); this says when its log left, so the log page and the
-- integrity check know an empty log is expected.
ALTER TABLE games ADD COLUMN log_archived_at DOUBLE PRECISION;
