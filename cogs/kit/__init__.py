"""The panel kit: what a panel is made of (panel.py, independent of discord.py), its discord.py
rendering (views.py, layout.py), the custom_id format (codec.py), answering an interaction
(replies.py), names as inert text (names.py) and the bot's clock (clock.py)."""
