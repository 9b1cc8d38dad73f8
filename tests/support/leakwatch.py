"""The privacy watch on everything the bot sends: `LeakWatch` (what it checks and why:
tests/support/leaks.py, which also holds the leak records, the secrets of a state and the view
scramble check it shares with the engine-level tests)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Callable

import engine
from engine.core import copy_json
from locales import catalogue, languages
from tests.support.leaks import (MARKED, DECLARED, MARK_RE, WORD_RE, TAG, Leak, Request, Version, GameTrack,
                                 strings_in, numbers_in, private_numbers, scramble, check_views)


class LeakWatch:
    """Install with `watch = LeakWatch(sim); watch.install()` (or `with LeakWatch(sim) as w:`);
    call `checkpoint()` after each settled step and `await check()` for the leaks so far."""

    def __init__(self, sim: Any, *, markers: bool = True, view_every: int = 1, seed: int = 0) -> None:
        self.sim = sim
        self.markers = markers
        self.view_every = view_every
        self.rng = random.Random(seed)
        self.requests: list[Request] = []
        self.games: dict[int, GameTrack] = {}
        self.pictures: dict[str, tuple[str, str, dict[str, Any]]] = {}  # sha -> (fn, title, view)
        self.state_problems: list[Leak] = []
        self.checked = 0  # requests checked so far
        self.stats = {"requests": 0, "strings": 0, "pictures": 0, "versions": 0, "views_checked": 0}
        self._undo: list[Callable[[], None]] = []

    # -- installing -----------------------------------------------------------------------------

    def __enter__(self) -> "LeakWatch":
        self.install()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.uninstall()

    def _patch(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, type) and name not in obj.__dict__:  # inherited: undone by deleting ours
            setattr(obj, name, value)
            self._undo.append(lambda: delattr(obj, name))
            return
        old = obj.__dict__[name] if isinstance(obj, type) else getattr(obj, name)
        setattr(obj, name, value)
        self._undo.append(lambda: setattr(obj, name, old))

    def _watch_store(self, backend: type) -> None:
        """Record every version a store backend commits (`start`, `commit_action`, and states
        written by tests through `update_game`)."""
        watch = self
        real_start = backend.start
        real_commit = backend.commit_action
        real_update = backend.update_game

        async def start(store, game_id, state, options, now):
            ok = await real_start(store, game_id, state, options, now)
            if ok:
                game = await store.get(game_id)
                watch._record(game_id, game.title if game else "", 0, state, [])
            return ok

        async def commit_action(store, game_id, *, expected_version, state, events, **kw):
            track = watch.games.get(game_id)
            new = expected_version + 1
            if track is not None:
                track.pending.add(new)
            try:
                ok = await real_commit(store, game_id, expected_version=expected_version, state=state,
                                       events=events, **kw)
            finally:
                if track is not None:
                    track.pending.discard(new)
            if ok and track is not None:
                watch._record(game_id, track.title, new, state, events)
            return ok

        async def update_game(store, game_id, now, **fields):
            await real_update(store, game_id, now, **fields)
            track = watch.games.get(game_id)
            if track is not None and "state" in fields and fields["state"] is not None:
                watch._record(game_id, track.title, fields.get("version", track.latest), fields["state"], [])

        self._patch(backend, "start", start)
        self._patch(backend, "commit_action", commit_action)
        self._patch(backend, "update_game", update_game)

    def install(self) -> None:
        import simcord.http.router as router

        from cogs.titles.contract import uis
        from store.postgres import PostgresStore
        from store.sqlite import SQLiteStore

        watch = self
        real_dispatch = router.dispatch

        def dispatch(backend, method, path, *, json=None, params=None, files=None, **kw):
            request = watch._before(method, path, json, files)
            try:
                result = real_dispatch(backend, method, path, json=json, params=params, files=files, **kw)
            except Exception:
                request.delivered = False  # Discord refused it: nobody was shown anything
                raise
            watch._after(request, backend, result)
            return result

        self._patch(router, "dispatch", dispatch)

        for backend in (SQLiteStore, PostgresStore):  # each backend writes through its own methods
            self._watch_store(backend)

        from play.house import House

        real_act = House.act

        async def act(house, game_id, seat, action, **kw):
            result = await real_act(house, game_id, seat, action, **kw)
            if result.kind == "refused" and result.error is not None and isinstance(seat, int) \
                    and result.game is not None and result.game.state is not None:
                watch._refusal(result.game, seat, action, result.error)
            return result

        self._patch(House, "act", act)

        # Pictures: tag each drawing with the view it came from; note the bytes png() makes.
        for title, ui in uis().items():
            module = ui.render
            # Every public `*_image(view, names, lang, ...)` of the title's renderer: the table,
            # results and panel pictures, and pictures of sub-menus (Filthy Rich's placements).
            for fn_name in [n for n in vars(module) if n.endswith("_image") and not n.startswith("_")]:
                real = getattr(module, fn_name)

                def drawn(view, names, lang, *rest, _real=real, _fn=fn_name, _title=title):
                    img = _real(view, names, lang, *rest)
                    if img is not None:
                        img.info[TAG] = (_fn, _title, copy_json(view))
                    return img

                self._patch(module, fn_name, drawn)
        import render.pool as pool_mod

        real_png = pool_mod.png

        def png(img):
            tag = img.info.pop(TAG, None)
            data = real_png(img)
            if tag is not None:
                watch.pictures[hashlib.sha256(data).hexdigest()] = tag
            return data

        # Every picture of the house is encoded by the picture pool's job (render/pool.py); the
        # renderers patched above are closures, so the pool draws them in this process.
        self._patch(pool_mod, "png", png)

        # The picture story after a game (render/story.py) is an animation of table pictures,
        # encoded by its own `encode`, not by png(): it is judged by the views its frames were
        # drawn from (tagged by the renderers above; a conversion and a resize keep the tag).
        # One frame of a seat's own view makes the whole story that seat's.
        import render.story as story_mod

        real_encode = story_mod.encode

        def encode(frames, kind, quality=story_mod.QUALITY):
            data, ms = real_encode(frames, kind, quality)
            tags = [f.info.get(TAG) for f in frames]
            if tags and all(tags):
                own = [tag for tag in tags if tag[2].get("me") is not None]
                fn, title, _ = (own or tags)[0]
                views = {"me": own[0][2]["me"] if own else None, "frames": [tag[2] for tag in tags]}
                watch.pictures[hashlib.sha256(data).hexdigest()] = (f"story of {fn}", title, views)
            return data, ms

        self._patch(story_mod, "encode", encode)

        if self.markers:
            for lang in languages():
                cat = catalogue(lang)
                for section, _ in MARKED.values():
                    for key in [k for k in cat if k.startswith(section + ".")]:
                        kind = key[len(section) + 1:]
                        if "." in kind or not isinstance(cat[key], str):
                            continue
                        old = cat[key]
                        cat[key] = f"{old}⟦{kind}⟧"
                        self._undo.append(lambda cat=cat, key=key, old=old: cat.__setitem__(key, old))

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    # -- recording ------------------------------------------------------------------------------

    def _record(self, game_id: int, title: str, version: int, state: dict[str, Any], events: list[dict]) -> None:
        track = self.games.get(game_id)
        if track is None:
            track = self.games[game_id] = GameTrack(game_id, title)
        game = engine.get(title)
        secrets = {k: frozenset(v) for k, v in game.secrets(state).items()}
        numbers = private_numbers(title, state)
        track.versions[version] = Version(secrets, numbers)
        track.latest = max(track.latest, version)
        track.seats = max(track.seats, len([k for k in secrets if k != "hidden"]))
        self.stats["versions"] += 1
        for tokens in secrets.values():
            track.universe.update(tokens)
        # What each viewer could see at this version: every token of the game not secret from it.
        if title in MARKED:
            kind_of = MARKED[title][1]
            kinds = {kind_of(t) for t in track.universe}
            for viewer in ["public", *[str(s) for s in range(track.seats)]]:
                hidden = self._secret_from(track, viewer, version)
                seen = track.seen.setdefault(viewer, {})
                for token in track.universe - hidden:
                    seen.setdefault(kind_of(token), version)
                if viewer != "public":
                    # Kinds the seat is offered to name (Market Research lists every business
                    # whose sign is not in the binder): `check_views` shows the legal list does
                    # not depend on what the seat may not see.
                    for value in strings_in(game.legal(state, int(viewer)), []):
                        kind = kind_of(value) if value in track.universe else value
                        if kind in kinds:
                            seen.setdefault(kind, version)
        for ev in events:
            for param in DECLARED.get(title, {}).get(ev.get("type"), ()):
                if ev.get("to") is None and isinstance(ev.get(param), str):
                    track.declared.setdefault(ev[param], version)
        # Public events carry no secret id (the engine harness's rule, on the house's path).
        hidden_all = self._secret_from(track, "public", version)
        for ev in events:
            to = ev.get("to")
            audience = "public" if to is None else f"seat {to}"
            allowed = set()
            if to is not None and len(to) == 1:
                allowed = secrets.get(str(to[0]), frozenset())
            words = set(WORD_RE.findall(json.dumps(ev, ensure_ascii=False)))
            for token in (words & hidden_all) - allowed:
                self.state_problems.append(Leak("event", audience, token, self._owner(track, version, token),
                                                f"event {ev.get('type')} of game {game_id} v{version}"))
        if self.view_every and version % self.view_every == 0:
            self.stats["views_checked"] += 1
            for problem in check_views(title, state, self.rng):
                self.state_problems.append(Leak("view", "-", "", "", f"game {game_id} v{version}: {problem}"))

    def _refusal(self, game: Any, seat: int, action: dict[str, Any], error: Any) -> None:
        """The rules refused `action` of `seat`: the reason (key and params, shown to that seat
        only) must be the same whatever the seat may not see. Then any card kind it names (\"You
        have no Orange clan card\") is the seat's to read."""
        track = self.games.get(game.id)
        if track is None:
            return
        title = track.title
        twin = scramble(title, game.state, seat, self.rng)
        try:
            engine.get(title).apply(twin, seat, copy_json(action))
            other = None
        except Exception as exc:  # RuleError, or the engine tripping over a forged action
            other = (getattr(exc, "key", type(exc).__name__), getattr(exc, "params", {}))
        if other != (error.key, error.params):
            self.state_problems.append(Leak("refusal", f"seat {seat}", error.key, "other seats / the draw pile",
                                            f"game {game.id} v{game.version}: the refusal of {action} depends on "
                                            f"what the seat may not see ({error.key} {error.params} vs {other})"))
            return
        if title in MARKED:
            kind_of = MARKED[title][1]
            kinds = {kind_of(t) for t in track.universe}
            seen = track.seen.setdefault(str(seat), {})
            for value in strings_in(error.params, []):
                kind = kind_of(value) if value in track.universe else value
                if kind in kinds:
                    seen.setdefault(kind, game.version)

    def checkpoint(self) -> None:
        """The bot has settled: later requests are drawn from versions from now on."""
        for track in self.games.values():
            track.lo = track.latest

    def _before(self, method: str, path: str, body: Any, files: Any) -> Request:
        data = body
        if isinstance(data, dict) and "payload_json" in data:
            data = json.loads(data["payload_json"])
        captured = []
        for f in files or []:
            fp = getattr(f, "fp", None)
            if fp is None:
                continue
            pos = fp.tell()
            captured.append((getattr(f, "filename", "") or "", fp.read()))
            fp.seek(pos)
        request = Request(len(self.requests), method, path, strings_in(data, []), captured)
        for gid, track in self.games.items():
            hi = max([track.latest, *track.pending])
            request.windows[gid] = (min(track.lo, hi), hi)
        self.requests.append(request)
        return request

    def _after(self, request: Request, backend: Any, result: Any) -> None:
        try:
            request.audience, request.channel_id = self._audience(request, backend, result)
        except Exception as exc:  # an unknown shape: say so rather than guess
            request.audience = None
            request.strings.append(f"<audience unknown: {exc}>")

    def _audience(self, request: Request, backend: Any, result: Any) -> tuple[tuple[str, int] | None, int | None]:
        parts = request.path.strip("/").split("/")
        message: dict[str, Any] | None = None
        user_id: int | None = None
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel_id = int(parts[1])
            return self._channel_audience(backend, channel_id, None, None), channel_id
        if parts[0] == "interactions" and parts[-1] == "callback":
            record = backend.interactions[int(parts[1])]
            user_id = record.user_id
            if str(record.response_kind) == "modal":  # a form: only the clicker sees it
                return ("user", user_id), record.channel_id
            if isinstance(result, dict) and isinstance(result.get("resource"), dict):
                message = result["resource"].get("message")
            elif record.message_id is not None:
                stored = backend.get_message(record.channel_id, record.message_id)
                return self._channel_audience(backend, record.channel_id, stored.flags, user_id), record.channel_id
            if message is None:
                return None, record.channel_id
        elif parts[0] == "webhooks" and len(parts) >= 3:
            record = backend.interaction_by_token(parts[2])
            user_id = record.user_id
            message = result if isinstance(result, dict) else None
            if message is None:
                return None, record.channel_id
        else:
            return None, None
        channel_id = int(message.get("channel_id") or 0)
        return self._channel_audience(backend, channel_id, int(message.get("flags") or 0), user_id), channel_id

    @staticmethod
    def _channel_audience(backend: Any, channel_id: int, flags: int | None, user_id: int | None):
        if flags is not None and flags & 64:
            return ("user", user_id)
        channel = backend.get_channel(channel_id)
        if channel.guild_id is None:
            recipients = [u for u in channel.recipient_ids if u != backend.bot_user.id]
            return ("user", recipients[0]) if recipients else ("public", channel_id)
        return ("public", channel_id)

    # -- checking -------------------------------------------------------------------------------

    def _secret_from(self, track: GameTrack, viewer: str, version: int) -> frozenset[str]:
        v = track.versions.get(version)
        if v is None:
            return frozenset()
        out: set[str] = set()
        for owner, tokens in v.secret.items():
            if owner == viewer:
                continue
            out |= tokens
        return frozenset(out)

    def _numbers_from(self, track: GameTrack, viewer: str, version: int) -> dict[int, str]:
        v = track.versions.get(version)
        if v is None:
            return {}
        return {n: owner for owner, nums in v.numbers.items() if owner != viewer for n in nums}

    @staticmethod
    def _owner(track: GameTrack, version: int, token: str) -> str:
        v = track.versions.get(version)
        for owner, tokens in (v.secret.items() if v else ()):
            if token in tokens:
                return "the draw pile" if owner == "hidden" else f"seat {owner}"
        return "?"

    async def _refresh_seats(self) -> None:
        for gid, track in self.games.items():
            game = await self.sim.store.get(gid)
            if game is None:
                continue
            track.channel_id = game.channel_id
            track.users = {s.user_id: s.seat for s in game.seats if s.user_id}

    def _games_for(self, request: Request) -> list[GameTrack]:
        out = [t for t in self.games.values() if request.channel_id is not None and t.channel_id == request.channel_id]
        if request.audience and request.audience[0] == "user":
            out += [t for t in self.games.values() if request.audience[1] in t.users and t not in out]
        return out or list(self.games.values())

    async def check(self) -> list[Leak]:
        """Every leak in the requests sent since the last check (and in the recorded states)."""
        await self._refresh_seats()
        found: list[Leak] = list(self.state_problems)
        self.state_problems.clear()
        for request in self.requests[self.checked:]:
            found.extend(self._check_request(request))
        self.stats["requests"] += len(self.requests) - self.checked
        self.checked = len(self.requests)
        return found

    def _check_request(self, request: Request) -> list[Leak]:
        if not request.delivered:
            return []
        if request.audience is None:
            if any(s.startswith("<audience unknown") for s in request.strings):
                return [Leak("id", "?", "", "", f"{request.method} {request.path}: {request.strings[-1]}")]
            if not request.strings and not request.files:
                return []
        out: list[Leak] = []
        self.stats["strings"] += len(request.strings)
        words = set()
        for s in request.strings:
            words.update(WORD_RE.findall(s))
        marks = set()
        for s in request.strings:
            marks.update(MARK_RE.findall(s))
        numbers = numbers_in(request.strings)
        where = f"request #{request.index} {request.method} {request.path}"
        tracks = self._games_for(request)
        for track in tracks:
            viewer, label = self._viewer(track, request)
            lo, hi = request.windows.get(track.game_id, (track.latest, track.latest))
            versions = [v for v in range(lo, hi + 1) if v in track.versions] or [hi]
            hidden = None
            for v in versions:
                s = self._secret_from(track, viewer, v)
                hidden = s if hidden is None else hidden & s
            hidden = hidden or frozenset()
            for token in sorted(words & hidden):
                out.append(Leak("id", label, token, self._owner(track, hi, token),
                                where + self._snippet(request, token)))
            nums = None
            for v in versions:
                n = self._numbers_from(track, viewer, v)
                nums = dict(n) if nums is None else {k: o for k, o in nums.items() if k in n}
            for number in sorted(numbers & set(nums or {})):
                out.append(Leak("number", label, str(number), f"seat {(nums or {})[number]}",
                                where + self._snippet(request, str(number))))
            if track.title in MARKED and marks:
                kind_of = MARKED[track.title][1]
                kinds = {kind_of(t) for t in track.universe}
                seen = track.seen.get(viewer, {})
                for kind in sorted(marks & kinds):
                    if kind in seen and seen[kind] <= hi:
                        continue
                    if kind in track.declared and track.declared[kind] <= hi:
                        continue
                    if any(kind in other.seen.get(self._viewer(other, request)[0], {}) for other in tracks
                           if other is not track and other.title == track.title):
                        continue
                    out.append(Leak("name", label, kind, "other seats / the draw pile",
                                    where + self._snippet(request, f"⟦{kind}⟧")))
            for name, data in request.files:
                out.extend(self._check_picture(track, request, viewer, label, name, data, hidden, where))
        return out

    def _check_picture(self, track: GameTrack, request: Request, viewer: str, label: str, name: str, data: bytes,
                       hidden: frozenset[str], where: str) -> list[Leak]:
        self.stats["pictures"] += 1
        tag = self.pictures.get(hashlib.sha256(data).hexdigest())
        if tag is None:
            return [Leak("picture", label, name, "?", where + ": a picture no renderer drew from a view")]
        fn, title, view = tag
        out = []
        me = view.get("me")
        if viewer == "public" and me is not None:
            out.append(Leak("picture", label, name, f"seat {me}", where + f": {fn} of seat {me}'s view shown to all"))
        elif viewer != "public" and me is not None and str(me) != viewer:
            out.append(Leak("picture", label, name, f"seat {me}", where + f": {fn} of seat {me}'s view"))
        if title == track.title:
            words = set(WORD_RE.findall(json.dumps(view, ensure_ascii=False)))
            for token in sorted(words & hidden):
                out.append(Leak("picture", label, token, self._owner(track, track.latest, token),
                                where + f": {name} drawn from a view holding it"))
        return out

    @staticmethod
    def _viewer(track: GameTrack, request: Request) -> tuple[str, str]:
        if request.audience is None or request.audience[0] == "public":
            return "public", "the channel"
        seat = track.users.get(request.audience[1])
        if seat is None:
            return "public", f"user {request.audience[1]} (not seated)"
        return str(seat), f"seat {seat} (user {request.audience[1]})"

    @staticmethod
    def _snippet(request: Request, token: str) -> str:
        for s in request.strings:
            i = s.find(token)
            if i >= 0:
                return f": …{s[max(0, i - 60):i + len(token) + 20]}…"
        return ""
