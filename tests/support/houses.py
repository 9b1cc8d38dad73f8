"""A house without Discord (processes of their own, store-level tests): the runtime built as
app.py builds it, with a notifier that records or says nothing instead of the table keeper."""

from __future__ import annotations

import random

from play.house import House
from play.plan import rules
from play.ports import Notifier, Silent
from play.result import Result
from play.runtime import Parts, Runtime
from store import Shards, Store


def headless_house(store: Store, notifier: Notifier | None = None, shards: Shards | None = None) -> House:
    return Runtime.build(Parts.build(store, shards=shards), notifier or Silent()).house



async def random_move(house: House, game_id: int, prng: random.Random) -> Result:
    """A random seat that may move plays a random legal move, through `House.act` as a click does
    (the game's own player, at the version it saw). The game must have a seat that may move."""
    game = await house.games.game(game_id)
    game_rules = rules(game)
    seat = prng.choice([s for s in range(len(game.seats)) if game_rules.legal(game.state, s)])
    return await house.act(game_id, seat, prng.choice(game_rules.legal(game.state, seat)),
                           user_id=game.seats[seat].user_id, version=game.version)
