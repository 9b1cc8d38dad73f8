"""Bad input, as a careless or curious player (or a stale client) can send it: forged and
malformed custom_ids, clicks from people who do not play, clicks drawn for an earlier version,
forms with impossible numbers, actions that are not legal now.

`try_bad_input(sim, game, members, outsider, rng, locales)` tries one at random and checks the
house's promise: the interaction is answered (never "This interaction failed"), with a short
reply in the clicker's language that is not the internal-error apology, and the game (version
and state) is exactly as before. Forged custom_ids arrive on a message the bot could have sent
(an older table, a copy of a panel): SimCord, like Discord, only delivers clicks on components
a message really has, so the forged components are put on a bot message in the channel.

`press(sim, member, custom_id, ...)` and `submit(sim, member, custom_id, fields)` are the two
primitives, also used by tests/reliability/test_bad_input.py.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from simcord import actors as sim_actors
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

import engine
from cogs.kit import codec
from engine.core import RuleError, copy_json
from locales import Translator
from tests.support.sim import modal_inputs, reply_text

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]")
INTERNAL = {Translator(lang)("core.error.internal") for lang in ("en", "ja")}

#: Modals the bot showed during play (custom_id and text inputs), to be sent back with bad values.
_MODALS: list[dict[str, Any]] = []


def remember_modal(modal: dict[str, Any]) -> None:
    if modal and modal.get("custom_id"):
        _MODALS.append(copy_json(modal))
        del _MODALS[:-50]


@dataclass
class Outcome:
    kind: str
    problem: str | None = None
    reply: str = ""


# -- the two primitives -------------------------------------------------------------------------

def forged_message(sim: Any, channel: Any, custom_id: str, *, select_values: list[str] | None = None) -> Any:
    """A message of the bot in `channel` holding one component with this custom_id."""
    backend = sim.env.backend
    if select_values is None:
        comp = {"type": ComponentType.BUTTON, "style": 2, "label": "?", "custom_id": custom_id}
    else:
        comp = {"type": ComponentType.STRING_SELECT, "custom_id": custom_id, "min_values": 1,
                "max_values": max(1, len(select_values)),
                "options": [{"label": v[:100] or "-", "value": v} for v in select_values]}
    return backend.create_message(channel.id, backend.bot_user.id, "", components=[
        {"type": ComponentType.ACTION_ROW, "components": [comp]}])


async def press(sim: Any, member: Any, custom_id: str, *, values: list[str] | None = None,
                channel: Any = None, message: Any = None, dm: bool = False) -> InteractionResult:
    """`member` clicks a component with `custom_id` (a select with `values`), on `message` or
    on a bot message made to carry it; `dm`: in their DMs with the bot (a DM panel's click)."""
    env = sim.env
    channel = member.user.dm_channel if dm else (channel or sim.channel)
    stored = message if message is not None else forged_message(sim, channel, custom_id, select_values=values)
    data: dict[str, Any] = {"custom_id": custom_id,
                            "component_type": ComponentType.BUTTON if values is None else ComponentType.STRING_SELECT}
    if values is not None:
        data["values"] = list(values)

    def build() -> tuple[Any, dict[str, Any]]:
        record, payload = sim_actors._interactions.base_payload(
            env.backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
            guild_id=None if dm else member.guild.id, user_id=member.id, data=data)
        payload["message"] = dict(serializers.message_payload(env.backend, stored))
        record.source_message_id = stored.id
        return record, payload

    return await _deliver(sim, "press", build)


async def _deliver(sim: Any, operation: str, build: Any) -> InteractionResult:
    """Hand the bot one INTERACTION_CREATE as SimCord's own actors do: `build()` makes the
    interaction record and payload inside the SimCord operation; then wait until it settled."""
    env = sim.env
    env._begin_operation(operation)
    try:
        record, payload = build()
        env._notify_dispatch_observers(record)
        env.backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    await sim.settle()
    return InteractionResult(env, record)


async def submit(sim: Any, member: Any, custom_id: str, fields: dict[str, str], *,
                 channel: Any = None) -> InteractionResult:
    """`member` submits a form with this custom_id and these text fields (as a client would
    after the bot showed it; the bot may have restarted since, or the custom_id be forged)."""
    env = sim.env
    channel = channel or sim.channel
    data = {"custom_id": custom_id, "components": [
        {"type": ComponentType.ACTION_ROW, "components": [{"type": 4, "custom_id": k, "value": v}]}
        for k, v in fields.items()]}
    return await _deliver(sim, "submit", lambda: sim_actors._interactions.base_payload(
        env.backend, type=InteractionType.MODAL_SUBMIT, channel_id=channel.id, guild_id=member.guild.id,
        user_id=member.id, data=data))


def judge(result: InteractionResult, lang: str) -> str | None:
    """What is wrong with the answer to a bad input (None: nothing)."""
    if not (result.acknowledged or result.modal is not None):
        return "not answered (Discord would say: This interaction failed)"
    text = reply_text(result)
    if not text.strip():
        return "answered with nothing to read"
    if any(i in text for i in INTERNAL):
        return f"answered with the internal-error apology: {text[:120]!r}"
    if re.search(r"\b(core|imtheboss|filthyrich|blackfriday|ewars|toy)\.[a-z_]+\.[a-z_]+", text):
        return f"a catalogue key shows instead of a message: {text[:120]!r}"
    if lang == "ja" and not JAPANESE.search(text):
        return f"a Japanese user was answered in another language: {text[:120]!r}"
    return None


# -- bad input at random ------------------------------------------------------------------------

BAD_AMOUNTS = ["-5", "-0", "99999999999999999999", "1e9", "abc", "1.5", "", "   ", "0x10", "½", "²", "Ⅻ", "3 4",
               "１２３４５６７８９０１２３", "-١٢", "NaN", "∞", "$-3", "12 dollars"]
SCRIPT_DIGITS = ["２", "١", "३", "๓", "𝟚", "３", "٣"]


def _garbage(rng: random.Random) -> str:
    alphabet = "abcxyz:!#{}[]\"'\\ 0123456789-_*é漢\n\t"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60)))


def _not_legal_action(game: Any, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """An action the engine refuses for `seat` now: another seat's legal move, a mutated one, or
    one of another phase."""
    g = engine.get(game.title)
    state = game.state
    candidates: list[dict[str, Any]] = []
    for other in range(len(game.seats)):
        if other != seat:
            candidates += g.legal(state, other)[:10]
    mine = g.legal(state, seat)
    for action in mine[:10]:
        broken = dict(action)
        for k in list(broken):
            if k != "type":
                broken[k] = rng.choice([None, -1, 10**12, "x", [], {}, True, 2.5])
        candidates.append(broken)
    candidates += [{"type": "timeout", "id": "nope"}, {"type": "no_such_action"}, {"type": ""}]
    rng.shuffle(candidates)
    for action in candidates:
        try:
            g.apply(copy_json(state), seat, action)
        except RuleError:
            return action
        except Exception:
            return action  # the engine fails on it: the house must still answer politely
    return None


async def try_bad_input(sim: Any, game: Any, members: dict[int, Any], outsider: Any, rng: random.Random,
                        locales: dict[int, str]) -> Outcome:
    """One bad input at random; checks it is answered, in the clicker's language, and changes
    nothing."""
    gid, ver = game.id, game.version
    key = codec.key(game)  # what a real component of this game names
    seated = list(members.items())
    seat, member = rng.choice(seated) if seated else (None, outsider)
    who = member
    kind = rng.choice(["garbage", "wrong_prefix", "other_game", "huge_numbers", "bad_json", "bad_index",
                       "not_legal", "stale", "outsider", "lobby_after_start", "house_verb", "title_code",
                       "select_garbage", "modal_amount", "modal_forged"])
    custom_id: str | None = None
    values: list[str] | None = None
    fields: dict[str, str] | None = None
    may_apply = False
    if kind == "garbage":
        custom_id = _garbage(rng)
    elif kind == "wrong_prefix":
        custom_id = rng.choice(["bx", "BR", "br ", "b", "bm", "lobby"]) + f":{key}:{ver}:Hhand"
    elif kind == "other_game":
        custom_id = codec.make(rng.choice(["br", "bs"]), gid + rng.randint(1, 10**6), rng.choice([None, 0, ver]),
                               rng.choice(["Hhand", "#0", '!{"type":"pass"}', "Hend:yes", "Ljoin", "Hset:pace"]))
        if custom_id.startswith("bs:"):
            values = ["live"]
    elif kind == "huge_numbers":
        custom_id = rng.choice([f"br:{'9' * 30}:*:Hhand", f"br:{key}:{'9' * 30}:#0", f"br:{key}:{ver}:#{'9' * 40}",
                                f"br:{key}:*:Hlog:{'9' * 40}", f"br:{key}:*:Hrules:{'9' * 40}", "br:-1:*:Hhand",
                                f"br:{key}:-3:#0", f"br:{key}:{ver}:#²", f"br:{key}:{ver}:#٣"])
    elif kind == "bad_json":
        custom_id = f"br:{key}:{ver}:" + rng.choice(['!{"type":', "!", "![]", '!"pass"', "!null", '!{"type":5}',
                                                     '!{"type":"pass","n":1e999}', '!{"type":"take","n":{}}',
                                                     "!{'type':'pass'}", '!{"no_type":1}'])
    elif kind == "bad_index":
        custom_id = f"br:{key}:{ver}:" + rng.choice(["#", "#-1", "#9999", "#1.5", "#x", "# 1", "#00000000000000001"])
        if rng.random() < 0.5:
            custom_id, values = "bs" + custom_id[2:], [rng.choice(["#0", "#999", "x", "!{}"])]
    elif kind == "not_legal":
        if seat is None:
            return Outcome(kind)
        action = _not_legal_action(game, seat, rng)
        if action is None:
            return Outcome(kind)
        text = json.dumps(action, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        if len(text) > 80:
            return Outcome(kind)
        custom_id = codec.make("br", game, rng.choice([ver, None]), "!" + text)
    elif kind == "stale":
        if seat is None or ver == 0:
            return Outcome(kind)
        g = engine.get(game.title)
        legal = g.legal(game.state, seat)
        code = codec.action_code(legal[0], legal) if legal else "#0"
        custom_id = codec.make("br", game, rng.randint(max(0, ver - 5), ver - 1), code)
    elif kind == "outsider":
        who = outsider
        custom_id = codec.make("br", game, rng.choice([ver, None]), rng.choice(["#0", '!{"type":"pass"}', "Hhand",
                                                                                "Hend:yes", "zz"]))
    elif kind == "lobby_after_start":
        custom_id = codec.make("br", game, None, rng.choice(["Ljoin", "Lstart", "Laddai", "Lleave", "Lcancel"]))
    elif kind == "house_verb":
        custom_id = codec.make("br", game, None, rng.choice(["H", "Hxyz", "Hlog:abc", "Hlog:-1", "Hrules:2:nosuch",
                                                             "Hthread:nosuch", "Hend", "Hkind", "Hlen:nosuch"]))
        if rng.random() < 0.4:
            custom_id = codec.make("bs", game, None, rng.choice(["Hset:pace", "Hset:reminder", "Hset:nosuch",
                                                                 "Hlen:nosuch", "Hkind"]))
            values = [rng.choice(["fast", "-1", "999999999999", "x", ""]) or "-"]
    elif kind == "title_code":
        custom_id = codec.make("br", game, ver, rng.choice(["zz", "act", "x:y:z", ":", "sell:", "sub:999", "?", "w|p",
                                                             "wnope|p", "b|" + "9" * 20]))
        if rng.random() < 0.5:
            custom_id, values = "bs" + custom_id[2:], [rng.choice(["x", "#0", "999", "!{}", "-1"])]
            # "act" with "#0" is no bad input: it is the action select naming the clicker's first
            # legal action at this version, a real move.
            may_apply = custom_id.endswith(":act") and values == ["#0"]
    elif kind == "select_garbage":
        custom_id = codec.make("bs", game, ver, "act")
        values = [rng.choice(["#999", "#-1", "!{", "", "x", '!{"type":"no_such"}', "#" + "9" * 50]) or "-"]
    elif kind in ("modal_amount", "modal_forged"):
        modals = [m for m in _MODALS if (codec.parse(m["custom_id"]) or codec.Parsed("", -1, None, "")).game_id == gid]
        if kind == "modal_forged" or not modals:
            custom_id = rng.choice([f"bm:{key}:{ver}:zz", f"bm:{key}:{ver}:#0", f"bm:{gid + 7}:{ver}:bid",
                                    "bm:x:y:z", "zz", f"bm:{key}:{ver}:" + "!" * 20])
            fields = {rng.choice(["n", "amount", "x", "ask"]): rng.choice(BAD_AMOUNTS)}
        else:
            modal = rng.choice(modals)
            parsed = codec.parse(modal["custom_id"])
            custom_id = codec.make("bm", game, ver, parsed.code) if parsed else modal["custom_id"]
            keys = [n["custom_id"] for n in modal_inputs(modal)] or ["n"]
            script = rng.random() < 0.25
            may_apply = script
            fields = {k: rng.choice(SCRIPT_DIGITS if script else BAD_AMOUNTS) for k in keys}
    assert custom_id is not None
    lang = "ja" if locales.get(who.id) == "ja" else "en"
    if fields is not None:
        result = await submit(sim, who, custom_id, fields)
    else:
        result = await press(sim, who, custom_id, values=values)
    outcome = Outcome(kind, reply=reply_text(result))
    after = await sim.store.get(gid)
    problems = []
    wrong = judge(result, lang)
    if wrong:
        problems.append(wrong)
    if not may_apply and after is not None and (after.version != ver or after.state != game.state):
        problems.append(f"the game changed: v{ver} -> v{after.version}")
    if problems:
        clicker = "outsider" if who is outsider else f"seat {seat}"
        outcome.problem = f"{custom_id!r} {values or fields or ''} by {clicker}: " + "; ".join(problems)
    return outcome


