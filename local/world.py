"""The local stand-in's world: one server, a #games channel and the members one plays as.

SimCord numbers everything from its clock, which starts at the same instant every run, so a world
built in the same order gets the same ids each time: the games in the local database (keyed by
channel and member ids) are found again after a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import simcord
import simcord.interactions as _interactions

#: The members of the local server, the first being the one the page opens as (who opens lobbies
#: by default). Names, never a pronoun: the bot writes them into shared sentences ("Alex's turn",
#: "waiting for: Alex, Ann"), which a member called "you" garbled in every language (issue 28 #5).
#: The same in every language, as a Discord display name is the same for everyone who sees it.
#: The order is part of the ids (a rename keeps them): append, never reorder.
MEMBERS = ("Alex", "Ann", "Ken", "Eva")
#: The languages one can switch a member to (catalogue language -> Discord locale).
LOCALES = {"en": "en-US", "ja": "ja", "es": "es-ES"}


@dataclass
class World:
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: dict[str, simcord.MemberActor]
    #: user id -> Discord locale sent with that member's interactions (en-US when absent).
    locales: dict[int, str] = field(default_factory=dict)
    #: Puts SimCord's own interaction payloads back (the stand-in ends with the world).
    release: Callable[[], None] = lambda: None

    @property
    def viewers(self) -> list[simcord.MemberActor]:
        return list(self.members.values())

    def set_language(self, user_id: int, language: str) -> None:
        self.locales[user_id] = LOCALES[language]

    def language(self, user_id: int) -> str:
        locale = self.locales.get(user_id, "en-US")
        return next(lang for lang, loc in LOCALES.items() if loc == locale)


def build_world(env: simcord.Env, names: Iterable[str] = MEMBERS) -> World:
    guild = env.create_guild("Boardroom (local)")
    channel = guild.create_text_channel("games", topic="Board games: type /game new")
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    world = World(guild, channel, members)
    world.release = _speak_locales(world)
    return world


def _speak_locales(world: World) -> Callable[[], None]:
    """SimCord sends every interaction as en-US; Discord sends the clicker's own locale, which
    is what the bot answers in. Stamp each member's chosen locale on their interactions (the
    same stand-in the language tests use), until the returned function puts SimCord's back."""
    original = _interactions.base_payload

    def base_payload(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = world.locales.get(kwargs.get("user_id"), "en-US")
        return record, payload

    _interactions.base_payload = base_payload

    def release() -> None:
        if _interactions.base_payload is base_payload:
            _interactions.base_payload = original

    return release
