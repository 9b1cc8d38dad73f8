"""What the bot registers with Discord and asks of its gateway (issue 27, "Discord hygiene"):
every command, option and choice named and described in Japanese and both Spanish locales (with
their accents), no placeholder description, `contexts`/`integration_types` on every top-level
command, and only the gateway intents the code listens for."""

from __future__ import annotations

import re

import discord

from app import create_bot, intents

LOCALES = ("ja", "es-ES", "es-419")
#: Discord's rule for command and option names (CHAT_INPUT): lowercase where the script has case.
NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
PLACEHOLDERS = ("…", "...", "")


def walk(node: dict, path: str, out: list[tuple[str, dict]]) -> None:
    out.append((path, node))
    for option in node.get("options") or []:
        walk(option, f"{path} {option['name']}", out)
    for choice in node.get("choices") or []:
        if choice["value"] != "toy":  # the tests' own title (tests/support/toy.py), never registered outside them
            out.append((f"{path} = {choice['value']}", choice))


async def payloads(bot) -> list[dict]:
    return [await cmd.get_translated_payload(bot.tree, bot.tree.translator) for cmd in bot.tree.get_commands()]


async def test_every_command_option_and_choice_is_localised(sim):
    nodes: list[tuple[str, dict]] = []
    top = await payloads(sim.bot)
    for command in top:
        walk(command, command["name"], nodes)
    assert len(nodes) > 40
    missing = []
    for path, node in nodes:
        names = node.get("name_localizations") or {}
        missing += [f"{path}: name in {loc}" for loc in LOCALES if not names.get(loc)]
        is_choice = "value" in node
        if not is_choice:
            described = node.get("description_localizations") or {}
            missing += [f"{path}: description in {loc}" for loc in LOCALES if not described.get(loc)]
            texts = [node["description"], *described.values()]
            missing += [f"{path}: placeholder description {t!r}" for t in texts if t.strip() in PLACEHOLDERS]
            for name in [node["name"], *names.values()]:
                if not NAME.match(name) or name != name.lower():
                    missing.append(f"{path}: {name!r} is not a valid command or option name")
    assert not missing, "\n".join(missing)
    spanish = {loc: {n["name_localizations"][loc] for _, n in nodes if "value" not in n} for loc in ("es-ES", "es-419")}
    for loc, names in spanish.items():
        assert {"mías", "estadísticas"} <= names, (loc, sorted(names))
        assert not {"mias", "estadisticas"} & names


async def test_commands_say_where_they_work_with_contexts_not_only_dm_permission(sim):
    for command in await payloads(sim.bot):
        assert command["contexts"] == [0], command["name"]  # GUILD: not in DMs, not in group DMs
        assert command["integration_types"] == [0], command["name"]  # installed in a server, not by a user
        # discord.py 2.7 still writes the deprecated field; it must agree with `contexts`.
        assert command.get("dm_permission") in (False, None)


def test_the_bot_asks_only_for_the_intents_its_listeners_need(tmp_path):
    bot = create_bot(tmp_path / "b.db")
    assert bot.intents == intents()
    assert dict(bot.intents) == {**{name: False for name, _ in discord.Intents.none()},
                                 "guilds": True, "guild_messages": True, "moderation": True}
    assert not bot.intents.message_content and not bot.intents.members and not bot.intents.presences


async def test_every_listener_has_its_intent(sim):
    # Which intent delivers each event the cogs listen to (discord.py's Intents documentation).
    needs = {"on_member_ban": "moderation", "on_guild_channel_update": "guilds", "on_raw_thread_update": "guilds",
             "on_guild_role_update": "guilds", "on_guild_join": "guilds", "on_guild_remove": "guilds",
             "on_guild_channel_delete": "guilds", "on_thread_delete": "guilds", "on_raw_thread_delete": "guilds",
             "on_raw_message_delete": "guild_messages", "on_message": "guild_messages", "on_interaction": None,
             # Privileged and deliberately not asked for: the click and digest checks do the work.
             "on_raw_member_remove": "members"}
    heard = {name for cog in sim.bot.cogs.values() for name, _ in cog.get_listeners()}
    assert heard <= set(needs), heard - set(needs)
    wanted = {needs[name] for name in heard} - {None, "members"}
    assert {name for name, on in sim.bot.intents if on} == wanted
