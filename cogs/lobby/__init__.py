"""A game before it starts: the lobby message (lobby.py) and its clicks (flow.py)."""
