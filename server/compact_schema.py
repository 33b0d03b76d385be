"""Smaller tool schemas: every byte of tools/list is context an assistant pays for on every turn.

Pydantic's JSON schemas repeat what the names already say ("title": "Batch Size") and spell an optional value as
anyOf [X, null]. Dropping titles, writing an optional value as its plain type (absent = the default) and an enum
without a type keeps the same constraints in about half the bytes. Bounds that only guard against hostile input (a
batch of at most a million, a name of at most 200 characters) are enforced by the tools and left out: no sensible call
comes near them, and an error names the limit when one does.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

NAMED_CHILDREN = ("properties", "$defs", "definitions", "patternProperties")
GUARD_MAXIMUM = 100_000   # a numeric maximum at least this large only guards against hostile input
GUARD_MAX_LENGTH = 100    # so does a string length limit at least this long


def rewritten(schema: Any, dropped: tuple[str, ...], finish: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """The schema walked depth first: the `dropped` keywords left out of every object, `finish` applied to each one
    after its children (property names are not annotations: a property called 'title' stays)."""
    if isinstance(schema, list):
        return [rewritten(item, dropped, finish) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in dropped:
            continue
        if key in NAMED_CHILDREN and isinstance(value, dict):
            out[key] = {name: rewritten(child, dropped, finish) for name, child in value.items()}
        else:
            out[key] = rewritten(value, dropped, finish)
    return finish(out)


def compact(schema: Any) -> Any:
    """An input schema without titles, with `anyOf [X, {type: null}]` written as X."""
    return rewritten(schema, ("title",), compact_one)


def compact_one(out: dict[str, Any]) -> dict[str, Any]:
    if "default" in out and out["default"] in (None, 0, False, []):  # what an absent argument means anyway
        del out["default"]
    if isinstance(out.get("maximum"), (int, float)) and out["maximum"] >= GUARD_MAXIMUM:
        del out["maximum"]
    if isinstance(out.get("maxLength"), int) and out["maxLength"] >= GUARD_MAX_LENGTH:
        del out["maxLength"]
    return fold_nullable(out)


ANSWER_FIELD = "answer"  # the text answer, first in structuredContent too (server/tool_results.py)


def output_schema(schema: Any) -> Any:
    """A result's full schema (nested objects, `required`, nullability kept, so a client that validates checks every
    level) without what costs bytes and checks nothing: titles, descriptions and defaults. The names carry their
    units (total_bytes, usd_per_hour); the tool's text explains the figures. `answer` leads the properties: clients
    that read structuredContent instead of the text (pydantic-ai does when every part is text) meet the verdict first."""
    out = rewritten(schema, ("title", "description", "default"), nullable_as_type_list)
    if isinstance(out, dict) and isinstance(out.get("properties"), dict):
        out = {**out, "properties": {ANSWER_FIELD: {"type": "string"}, **out["properties"]},
               "required": [ANSWER_FIELD, *out.get("required", [])]}
    return out


def nullable_as_type_list(schema: dict[str, Any]) -> dict[str, Any]:
    """`anyOf [{type: X}, {type: null}]` written as `type: [X, null]`: the same check in a third of the bytes."""
    options = schema.get("anyOf")
    if not isinstance(options, list) or not all(set(option) == {"type"} for option in options):
        return schema
    kinds = [kind for option in options for kind in (option["type"] if isinstance(option["type"], list) else [option["type"]])]
    return {**{key: value for key, value in schema.items() if key != "anyOf"}, "type": kinds}


def fold_nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional argument is written as its plain type: leaving it out is how a client asks for the default (the
    server still accepts an explicit null). An enum needs no type beside it."""
    options = schema.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = next(option for option in options if option != {"type": "null"})
        if (isinstance(other.get("type"), str) or "enum" in other) and "$ref" not in other:
            schema = {**{key: value for key, value in schema.items() if key != "anyOf"}, **other}
    if "enum" in schema:
        schema = {key: value for key, value in schema.items() if key != "type"}
    return schema
