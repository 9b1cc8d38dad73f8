"""The game runtime: applying a move (the rules, the commit, the timers, the undo memory), the
game cache and its locks, what each game owes next, the timer loop, seats, away mode, pauses,
lobbies and moves that cross processes. No Discord here: the runtime talks upward only through
the small protocols of `ports.py` (the notifier the table keeper implements, the clock)."""
