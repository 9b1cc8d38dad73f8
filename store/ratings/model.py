"""The rating model: openskill's Plackett-Luce, made for games of more than two players, and
the number people see. Pure: no database, no clock, no Discord; the store and the rebuild
(`python -m store rerate`) both call it, so the numbers are the same whichever runs it.

A player's rating is (mu, sigma): a belief about their skill and how unsure it is. The number
shown is a conservative estimate, `ordinal = mu - 3 sigma` (what openskill calls the ordinal),
scaled onto a familiar range: a new player shows BASE, and climbs as their results pile up and
the model grows sure of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

#: What a new player shows: the ordinal of a fresh rating (mu 25, sigma 25/3) is 0.
BASE = 1000
#: Points per unit of ordinal: a fresh player who wins one four-player game gains about 90.
SCALE = 20
#: The seat-filler's strength in a game whose settings name none (games from before the host
#: could choose one played at this level). Each level is rated as a player of its own: a
#: friendly seat-filler's results must not move the strong one's rating.
DEFAULT_LEVEL = "strong"


@cache
def model() -> PlackettLuce:
    # openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): documented and stable
    # across its releases, and the library is pinned, so a rebuild gives the same numbers.
    return PlackettLuce()


@dataclass(frozen=True)
class Player:
    """Who a rating belongs to: a person (user_id, level "") or the seat-filler at a strength
    level (user_id 0)."""

    user_id: int
    level: str = ""

    @property
    def ai(self) -> bool:
        return self.user_id == 0


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        return points(self.mu, self.sigma)


def fresh() -> Skill:
    m = model()
    return Skill(m.mu, m.sigma)


def points(mu: float, sigma: float) -> int:
    """The rating people see."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def rate(entries: list[tuple[Player, int]], current: dict[Player, Skill]) -> dict[Player, Skill]:
    """New skills after one game. `entries`: (player, place) per rated seat, place 1 the best
    (ties share a place). A player in several seats (the seat-filler filling two) plays each
    seat as a team of its own from the same rating, and moves once, by the average of its
    seats' changes: one game is one result, however many seats it filled."""
    m = model()
    teams = []
    for player, _ in entries:
        skill = current.get(player) or fresh()
        teams.append([m.rating(mu=skill.mu, sigma=skill.sigma)])
    rated = m.rate(teams, ranks=[float(place) for _, place in entries])
    moved: dict[Player, list[Skill]] = {}
    for (player, _), team in zip(entries, rated):
        moved.setdefault(player, []).append(Skill(team[0].mu, team[0].sigma))
    out = {}
    for player, skills in moved.items():
        before = current.get(player) or fresh()
        out[player] = Skill(before.mu + sum(s.mu - before.mu for s in skills) / len(skills),
                            sum(s.sigma for s in skills) / len(skills))
    return out
