"""Validate what the bot sends against Discord's own OpenAPI description of its REST API
(`../shared/discord-api-spec/openapi.json`), so a test fails when a request body would be
refused by the real Discord."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATHS = [
    Path(__file__).resolve().parents[2] / "tests" / "data" / "openapi.json",
    Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json",
]
URI = "urn:discord-openapi"


@cache
def spec() -> dict[str, Any]:
    for path in SPEC_PATHS:
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise FileNotFoundError("Discord's openapi.json was not found: " + ", ".join(map(str, SPEC_PATHS)))


@cache
def _registry() -> Registry:
    return Registry().with_resource(URI, Resource(contents=spec(), specification=DRAFT202012))


@cache
def _routes() -> list[tuple[re.Pattern[str], str, int]]:
    out = []
    for template in spec()["paths"]:
        literal = len(re.sub(r"\{[^}]+\}", "", template))
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template)) + "$"
        out.append((re.compile(pattern), template, literal))
    out.sort(key=lambda r: -r[2])  # literal segments (@original, @me) win over parameters
    return out


def route_of(path: str) -> str | None:
    path = path.split("?")[0]
    for pattern, template, _ in _routes():
        if pattern.match(path):
            return template
    return None


@cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    op = spec()["paths"][template].get(method.lower())
    if op is None:
        raise AssertionError(f"{method} {template} is not in Discord's API")
    body = (op.get("requestBody") or {}).get("content", {})
    schema = (body.get("application/json") or body.get("multipart/form-data") or {}).get("schema")
    if schema is None:
        return None
    wrapped = {"$ref": URI + "#/__root__"} if False else {**schema}
    # Resolve local "#/components/..." refs against the whole document.
    text = json.dumps(wrapped).replace('"$ref": "#/', f'"$ref": "{URI}#/')
    return Draft202012Validator(json.loads(text), registry=_registry())


def problems(method: str, path: str, body: Any) -> list[str]:
    """Why Discord would refuse this request ([] when it conforms)."""
    template = route_of(path)
    if template is None:
        return [f"{method} {path}: no such route in Discord's API"]
    try:
        validator = _validator(template, method)
    except AssertionError as exc:
        return [str(exc)]
    if validator is None or body is None:
        return []
    out = []
    for error in validator.iter_errors(_numeric_snowflakes_as_strings(body)):
        deepest = best_match([error, *(error.context or [])]) if error.context else error
        where = "/".join(map(str, deepest.absolute_path))
        out.append(f"{method} {template}: {where}: {deepest.message[:300]}")
    return out


def _numeric_snowflakes_as_strings(body: Any) -> Any:
    """discord.py sends a few snowflakes as JSON numbers (new attachments' ids, allowed_mentions
    users, a DM's recipient), which Discord accepts though the spec types snowflakes as strings."""
    if not isinstance(body, dict):
        return body
    body = dict(body)
    if isinstance(body.get("attachments"), list):
        body["attachments"] = [
            {**a, "id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
            for a in body["attachments"]
        ]
    if isinstance(body.get("recipient_id"), int):
        body["recipient_id"] = str(body["recipient_id"])
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        body["allowed_mentions"] = {k: [str(x) for x in v] if k in ("users", "roles") and isinstance(v, list) else v
                                    for k, v in mentions.items()}
    return body
