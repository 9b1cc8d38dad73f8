"""The channel's table and what hangs off it: the keeper (the runtime's notifier), the table
message, the turn message, private and DM panels, results, the daily digest, pauses, pages."""
