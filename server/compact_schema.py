"""Smaller tool schemas: every byte of tools/list is context an assistant pays for on every turn.

Pydantic's JSON schemas repeat what the names already say ("title": "Batch Size") and spell an optional value as
anyOf [X, null]. Dropping titles and writing optional values as a type list keeps the same constraints in about
two thirds of the bytes.
"""
from __future__ import annotations

from typing import Any

NAMED_CHILDREN = ("properties", "$defs", "definitions", "patternProperties")


def compact(schema: Any) -> Any:
    """The same schema without titles, with `anyOf [X, {type: null}]` folded into X's type list."""
    if isinstance(schema, list):
        return [compact(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key in NAMED_CHILDREN and isinstance(value, dict):
            out[key] = {name: compact(child) for name, child in value.items()}  # property names are not annotations
        else:
            out[key] = compact(value)
    if "default" in out and out["default"] in (None, 0, False, []):  # what an absent argument means anyway
        del out["default"]
    return fold_nullable(out)


def compact_output(schema: dict[str, Any]) -> dict[str, Any]:
    """An output schema as a client needs it to validate and read structuredContent: the top-level fields and their
    types (nested objects and lists typed as such). The field names carry their units (total_bytes, usd_per_hour),
    every result lists its assumptions, and the full shapes are in the tools' pydantic models."""
    properties = {name: shallow(field, schema.get("$defs", {})) for name, field in schema.get("properties", {}).items()}
    return {"type": "object", "properties": properties}


def shallow(field: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    field = compact(field)
    if "$ref" in field:
        return {"type": "object"}
    if "anyOf" in field:
        kinds = sorted({kind for option in field["anyOf"] for kind in kind_of(option)})
        return {"type": kinds if len(kinds) > 1 else kinds[0]}
    kept = {key: value for key, value in field.items() if key in ("type", "enum")}
    if kept.get("type") == "array" or kept.get("type") == ["array", "null"]:
        items = field.get("items", {})
        if "$ref" not in items and items.get("type") != "object":
            kept["items"] = {k: v for k, v in items.items() if k == "type"}
    return kept


def kind_of(option: dict[str, Any]) -> list[str]:
    if "$ref" in option:
        return ["object"]
    kind = option.get("type", "object")
    return kind if isinstance(kind, list) else [kind]


def fold_nullable(schema: dict[str, Any]) -> dict[str, Any]:
    options = schema.get("anyOf")
    if not isinstance(options, list) or len(options) != 2 or {"type": "null"} not in options:
        return schema
    other = next(option for option in options if option != {"type": "null"})
    if not isinstance(other.get("type"), str) or "$ref" in other:
        return schema
    merged = {key: value for key, value in schema.items() if key != "anyOf"}
    merged.update(other)
    merged["type"] = [other["type"], "null"]
    if "enum" in merged:
        merged["enum"] = [*merged["enum"], None]
    return merged
