"""`python bot.py --local`: the real bot, its cogs and its store, against SimCord (the simulated
Discord the tests use) instead of Discord, with SimCord's preview page served on 127.0.0.1 so
that anyone can play every title in a browser without a token.

Nothing here draws a panel: the page shows exactly the messages, components, forms and pictures
the cogs send, so it cannot drift from what Discord shows. This package only builds the world
(a server, a channel, a few members: `world.py`), keeps the virtual clock moving and lets it be
fast-forwarded (`clock.py`), adds the `/local` commands for the clock and the language
(`cog.py`), and runs it all (`run.py`).
"""

#: Where `--local` keeps its games and serves its page unless told (`--db`, `--port`). Here, not
#: in run.py, so that the command line can show them without importing SimCord.
DEFAULT_DB = "boardroom-local.db"
DEFAULT_PORT = 8765
