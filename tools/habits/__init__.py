"""Slow games played by people with habits (issue 24): the measuring tool.

    python -m tools.habits                          # every title, with and without a seat-filler, seed 1
    python -m tools.habits --titles ewars --only people --cap-days 10 --json out.json --trace out.txt

Each title is played at its largest player count, `pace: slow` and `on_deadline: ai` chosen in
the lobby's Options form, once with people only and once with a seat-filler seat (Add AI). The
people (people.py) answer within minutes and sleep 23:00-07:00 UTC, look in once a day at about
20:00, play only from their DM panel, or go away for two days (`/game away until:2d`) in the middle
of the game (the first time they look in from `--away-day` on; by default about the middle of
a slow game of the title, __main__.AWAY_DAY). Everything they do goes through SimCord as clicks, selects, forms and slash commands
(panels.py); the only thing the tool writes itself is the game's seed (so a run repeats). Each
move is the seat-filler's choice for the person's seat, found on the panel they opened; when the
panel does not offer it, another choice of the seat-filler that it does offer (off_panel).

The figures of each game (report.py), every one counted from what happened:

    filler for people       moves the game's action log holds for a human seat with no user:
                            the seat-filler at a deadline. When the game row keeps per-seat time
                            banks (a `clock` column), those made while the seat's bank, as the
                            tool saw it just before, was not empty ("with bank left").
    reminders               reminder lines in the bot's new channel messages (a line that pings
                            someone and says "Reminder" or starts with ⏰: `core.ping.reminder`,
                            `core.ping.overdue`), one per person pinged.
      beyond two            per person and obligation (a window and when it opened for the
                            person: asked again after answering is a new one), reminders past
                            the second. Which of the windows a person owes a reminder is for,
                            the words cannot say: the bot's obligation row that counted it does
                            (report.reminded); else the oldest that had had fewer than two.
      to actor              reminders that reached someone within a minute after their own
                            click (select, form, command).
    offers told < 1 min     I'm the Boss!: offers (an `offered_*` event in the log) made to a
                            human boss (the rules replayed over the log say who was boss), after
                            which the boss was pinged in the channel or sent a DM within 60 s.
    deals failed, time left I'm the Boss!: `deal_failed` events that no person chose (the
                            deadline, or the seat-filler for the boss) and that were not publicly
                            impossible deals; with banks, only while the boss's bank was not empty.
    daily rolled himself    E-Wars: rounds with dice time (`dice_time`, `dice_time_auto` events)
                            in which the once-a-day player's own click rolled or claimed (took
                            part, as the slow bell counts it: the dice are dealt rolled, so a
                            claim with them is his roll).
    msgs/turn, pinged,      as tools/slowgames.py: channel messages per turn (a moment someone new
    table distance          owed something), human obligations (window and seat) whose person was
                            pinged or DMed while it was open, messages below the table message.
    off panel               moves the seat-filler chose that the person's panel did not offer
                            (plus moves for which the panel offered nothing at all: stuck).
"""
