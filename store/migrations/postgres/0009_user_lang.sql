-- Each person's language (issue 30): what they read in Discord, learnt from their interactions
-- (NULL: never seen), so that what is addressed to them alone (their DM panel) follows it.
ALTER TABLE user_prefs ADD COLUMN lang TEXT;
