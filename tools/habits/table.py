"""Sitting down: each person's preferences (`/game prefs`), the lobby (`/game new`, Join, Add AI,
the Options form with the pace and what happens at a deadline), then Start. All of it as
people do it, except the game's seed, which the tool writes into the lobby's row so that a run
can be repeated (it changes only the shuffle, never how the bot behaves).
"""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType

from tests.support.sim import modal_nodes

from .people import SLEEPERS, Person

#: What the host chooses in the lobby's Options form (the rest stays as the form shows it).
CHOSEN = {"pace": "slow", "on_deadline": "ai", "lang": ["en"]}
#: The sleepers' time zone and quiet hours, when `/game prefs` offers them.
ZONE, QUIET_FROM, QUIET_TO = "UTC", 23, 7


def _prefs_command(bot: Any) -> Any:
    group = bot.tree.get_command("game")
    return group.get_command("prefs") if group is not None else None


def _pick(param: Any, wanted: Any) -> Any:
    """`wanted` as the option takes it: one of its choices if it has some, else its type."""
    choices = list(getattr(param, "choices", None) or [])
    if choices:
        text = str(wanted).lower()
        for c in choices:
            if str(c.value).lower() == text or str(c.name).lower() == text:
                return c.value
        for c in choices:
            if text in str(c.value).lower() or text in str(c.name).lower():
                return c.value
        return choices[0].value
    if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
        return int(str(wanted).split(":")[0])
    return wanted


def quiet_options(bot: Any) -> dict[str, Any]:
    """The `/game prefs` options that set a time zone or quiet hours, with the sleepers' values
    (empty when the bot has none: this tree's)."""
    prefs = _prefs_command(bot)
    out: dict[str, Any] = {}
    for param in getattr(prefs, "parameters", []) or []:
        name = param.name.lower()
        if "zone" in name or name == "tz":
            out[param.name] = _pick(param, ZONE)
        elif "quiet" in name or "sleep" in name:
            if any(w in name for w in ("start", "from", "begin")):
                out[param.name] = _pick(param, QUIET_FROM if param.type == AppCommandOptionType.integer
                                        else f"{QUIET_FROM:02d}:00")
            elif any(w in name for w in ("end", "until", "_to", "stop")):
                out[param.name] = _pick(param, QUIET_TO if param.type == AppCommandOptionType.integer
                                        else f"{QUIET_TO:02d}:00")
            elif param.type == AppCommandOptionType.boolean:
                out[param.name] = True
            else:
                out[param.name] = _pick(param, f"{QUIET_FROM:02d}:00-{QUIET_TO:02d}:00")
    return out


async def preferences(sim: Any, people: list[Person]) -> dict[str, Any]:
    """Each person's `/game prefs`: DM panels for the DM player, quiet hours for the sleepers
    (when offered). Returns the quiet-hour options used (empty: none offered)."""
    quiet = quiet_options(sim.bot)
    for person in people:
        options: dict[str, Any] = {}
        if person.habit == "dm":
            options["dm_panel"] = True
        if person.habit in SLEEPERS:
            options.update(quiet)
        if options:
            await person.member.slash(sim.channel, "game prefs", **options)
    await sim.settle()
    return quiet


def _controls(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The form's controls a host fills (selects, text inputs, radio groups, checkboxes)."""
    return modal_nodes(modal, lambda node: bool(node.get("custom_id")) and node.get("type") in (3, 4, 21, 22, 23))


def form_values(modal: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """The Options form filled as the host fills it: the chosen controls, every other required
    one as the form shows it."""
    out: dict[str, Any] = {}
    for node in _controls(modal):
        key = node["custom_id"]
        if key in chosen:
            out[key] = chosen[key]
            continue
        if node.get("required") is False:
            continue
        defaults = [o["value"] for o in node.get("options") or [] if o.get("default")]
        if node["type"] == 4:
            out[key] = node.get("value") or ""
        elif node["type"] == 21:  # a radio group: one value
            if defaults:
                out[key] = defaults[0]
        elif defaults or node["type"] == 3:
            out[key] = defaults or [node["options"][0]["value"]]
    return out


async def sit_down(sim: Any, title: str, people: list[Person], ai: int, seed: int,
                   lang: str = "en") -> tuple[Any, float]:
    """The host opens the lobby, the others join, the host adds `ai` seat-filler seats, sets the
    options in the form (the game in `lang`), and starts. The started game, and the moment Start
    was clicked."""
    host = people[0].member
    await sim.new_game(host, title)
    for person in people[1:]:
        await sim.lobby(person.member, "join")
    for _ in range(ai):
        await sim.lobby(host, "addai")
    shown = await sim.lobby(host, "opts")
    if shown.modal is not None:
        await host.submit_modal(shown, form_values(shown.modal, {**CHOSEN, "lang": [lang]}))
    game = await sim.game()
    await sim.store.update_game(game.id, sim.env.now().timestamp(), seed=seed)
    started = sim.env.now().timestamp()
    await sim.lobby(host, "start")
    await sim.settle()
    game = await sim.game()
    assert game is not None and game.status == "active", f"{title} did not start"
    for person in people:
        person.seat = game.seat_of(person.user_id)
    return game, started
