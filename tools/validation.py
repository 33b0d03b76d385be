"""Pydantic's complaints, rewritten as one fix-it sentence per field."""
from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, NamedTuple, ParamSpec, TypeVar

from pydantic import BaseModel, Field, StringConstraints, ValidationError

NAME_LIMIT = 200  # characters of a model, GPU, provider or region name: checked before any fuzzy matching
Name = Annotated[str, StringConstraints(max_length=NAME_LIMIT)]
QUOTED = 60  # characters of a user's text an error message repeats
# Inputs that several tools take, declared once with their limits (each tool adds its own description)
ModelName = Annotated[str, StringConstraints(max_length=NAME_LIMIT)]
ParamsBillions = Annotated[float, Field(gt=0, le=10_000)]           # an unlisted dense model's size
Jurisdiction = Annotated[str, StringConstraints(max_length=8)]      # EU, EEA, US, UK, CA, JP, IN...
MemoryFraction = Annotated[float, Field(gt=0, le=1)]                # vLLM gpu_memory_utilization, SGLang mem_fraction_static


def quoted(text: object) -> str:
    """A user's value as an error message repeats it: at most QUOTED characters."""
    shown = repr(text)
    return shown if len(shown) <= QUOTED else shown[: QUOTED - 4] + "...'"


class Problem(NamedTuple):
    argument: str
    message: str
    allowed: str | None


def validation_problems(error: ValidationError, valid: Iterable[str] = ()) -> list[Problem]:
    """Each field pydantic refused: the argument, a fix-it phrase, and the allowed values or range where known."""
    problems = []
    for problem in error.errors():
        field = ".".join(str(p) for p in problem["loc"]) or "arguments"
        argument = str(problem["loc"][0]) if problem["loc"] else "arguments"
        got = problem.get("input")
        context = problem.get("ctx") or {}
        kind = problem["type"]
        if kind in ("too_short", "too_long"):
            limit = context.get("min_length") if kind == "too_short" else context.get("max_length")
            bound = "at least" if kind == "too_short" else "at most"
            problems.append(Problem(argument, f"{field} needs {bound} {limit} entries (got {context.get('actual_length')})",
                                    f"{bound} {limit} entries"))
        elif kind == "missing":
            problems.append(Problem(argument, f"missing argument '{field}'", None))
        elif kind == "extra_forbidden":
            close = nearest_names(field, valid)
            problems.append(Problem(argument, f"unknown argument '{field[:60]}'"
                                    + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""), None))
        elif kind == "literal_error":
            problems.append(Problem(argument, f"{field}={quoted(got)} is not allowed; use one of {context.get('expected')}",
                                    f"one of {context.get('expected')}"))
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            bound = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
            limit = next(iter(context.values()), "?")
            limit = f"{limit:g}" if isinstance(limit, (int, float)) else limit
            problems.append(Problem(argument, f"{field} must be {bound} {limit} (got {quoted(got)})", f"{bound} {limit}"))
        elif kind == "string_too_long":
            problems.append(Problem(argument, f"{field} is too long ({len(str(got)):,} characters; at most "
                                    f"{context.get('max_length')})", f"at most {context.get('max_length')} characters"))
        else:
            problems.append(Problem(argument, f"{field}: {problem['msg'].lower()} (got {quoted(got)})", None))
    return problems


def validation_message(error: ValidationError, tool: str, valid: Iterable[str] = ()) -> str:
    return f"{tool}: " + "; ".join(p.message for p in validation_problems(error, valid))


Request = TypeVar("Request", bound=BaseModel)


def parse_request(model: type[Request], arguments: Mapping[str, object], tool: str) -> Request:
    """Validate a tool's arguments into its request model, or raise SizingError with a fix-it message."""
    from gpusizer.catalog import SizingError

    try:
        return model(**arguments)
    except ValidationError as error:
        problems = validation_problems(error, model.model_fields)
        allowed = "; ".join(f"{p.argument} {p.allowed}" for p in problems if p.allowed) or None
        raise SizingError(f"{tool}: " + "; ".join(p.message for p in problems),
                          arguments=dict.fromkeys(p.argument for p in problems), allowed=allowed) from None


def default_of(model: type[BaseModel], name: str) -> Any:
    """A request field's default, so faces show the tools' defaults instead of copies of them."""
    return model.model_fields[name].default


def nearest_names(name: str, valid: Iterable[str]) -> list[str]:
    return difflib.get_close_matches(name, list(valid), n=2, cutoff=0.5)


def unknown_arguments_message(tool: str, unknown: Iterable[str], valid: Iterable[str]) -> str:
    valid = sorted(valid)
    parts = []
    for name in sorted(unknown):
        close = nearest_names(name, valid)
        parts.append(f"unknown argument '{name[:60]}'" + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""))
    listing = "" if all(nearest_names(name, valid) for name in unknown) else f" (arguments: {', '.join(valid)})"
    return f"{tool}: " + "; ".join(parts) + listing


P = ParamSpec("P")
R = TypeVar("R")


def declared_by(request: type[BaseModel], tool: str, extra: Iterable[str] = ()) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A tool function declared by its request model: its keyword arguments must be the model's fields with the same
    defaults (checked here, when the module loads, so the two cannot drift; tests check the types), and unknown keyword
    arguments raise SizingError naming the nearest valid one (Python's own TypeError would not). The function keeps its
    written signature for help() and type checkers."""
    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        parameters = {p: spec for p, spec in inspect.signature(function).parameters.items()
                      if spec.kind != spec.VAR_KEYWORD and p != "catalog"}
        check_declaration(tool, parameters, request)
        valid = frozenset([*parameters, *extra])

        @functools.wraps(function)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            unknown = set(kwargs) - valid - {"catalog"}
            if unknown:
                from gpusizer.catalog import SizingError

                raise SizingError(unknown_arguments_message(tool, unknown, valid), arguments=sorted(unknown))
            return function(*args, **kwargs)

        return checked

    return decorate


def check_declaration(tool: str, parameters: dict[str, inspect.Parameter], request: type[BaseModel]) -> None:
    fields = request.model_fields
    if set(parameters) != set(fields):
        raise TypeError(f"{tool}: the function's arguments and {request.__name__}'s fields differ: "
                        f"{sorted(set(parameters) ^ set(fields))}")
    for name, parameter in parameters.items():
        field = fields[name]
        default = inspect.Parameter.empty if field.is_required() else field.default
        if parameter.default != default:
            raise TypeError(f"{tool}: {name} defaults to {parameter.default!r}, {request.__name__} says {default!r}")
