"""Ratings after a game (issue 29): the model (model.py, openskill's Plackett-Luce), who a
finished game rates (rule.py), the ratings in the database (book.py) and their rebuild
(rebuild.py, `python -m store rerate`)."""

from .book import GLOBAL, Change, Judged, Standing
from .model import DEFAULT_LEVEL, Player, Skill, points
from .rule import Decision, Entry

__all__ = ["DEFAULT_LEVEL", "GLOBAL", "Change", "Decision", "Entry", "Judged", "Player", "Skill", "Standing",
           "points"]
