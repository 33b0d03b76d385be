"""Pydantic's complaints, rewritten as one fix-it sentence per field."""
from __future__ import annotations

from pydantic import ValidationError


def validation_message(error: ValidationError, tool: str) -> str:
    parts = []
    for problem in error.errors():
        field = ".".join(str(p) for p in problem["loc"]) or "arguments"
        got = problem.get("input")
        context = problem.get("ctx") or {}
        kind = problem["type"]
        if kind in ("too_short", "too_long"):
            limit = context.get("min_length") if kind == "too_short" else context.get("max_length")
            bound = "at least" if kind == "too_short" else "at most"
            parts.append(f"{field} needs {bound} {limit} entries (got {context.get('actual_length')})")
        elif kind == "missing":
            parts.append(f"missing argument '{field}'")
        elif kind == "extra_forbidden":
            parts.append(f"unknown argument '{field}'")
        elif kind == "literal_error":
            parts.append(f"{field}={got!r} is not allowed; use one of {context.get('expected')}")
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            bound = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
            limit = next(iter(context.values()), "?")
            limit = f"{limit:g}" if isinstance(limit, (int, float)) else limit
            parts.append(f"{field} must be {bound} {limit} (got {got!r})")
        else:
            parts.append(f"{field}: {problem['msg'].lower()} (got {got!r})")
    return f"{tool}: " + "; ".join(parts)


def parse_request(model: type, arguments: dict, tool: str):
    """Validate a tool's arguments into its request model, or raise SizingError with a fix-it message."""
    from gpusizer.catalog import SizingError

    try:
        return model(**arguments)
    except ValidationError as error:
        raise SizingError(validation_message(error, tool)) from None


def default_of(model: type, name: str):
    """A request field's default, so faces show the tools' defaults instead of copies of them."""
    return model.model_fields[name].default
