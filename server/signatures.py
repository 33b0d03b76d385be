"""Flat MCP tool signatures built from the tools' own request models.

The argument names, types, limits and descriptions live once, in `gpusizer.tools`; the server
only spreads them into a function signature so `MCPServer` publishes them as the input schema.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Literal, TypeAlias, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, Field
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from .stdio_wire import is_utf8

LONG_CHOICE = 8  # a rider whose choices are longer than this is typed as a string: the owning tool lists them
REPLACEMENT = "\ufffd"  # what a decoder puts for bytes that are not UTF-8: no catalog name holds it

# (request model, the field names to take or None for all, whether they are optional riders)
FieldGroup: TypeAlias = tuple[type[BaseModel], Iterable[str] | None, bool]


def leaves(annotation: Any) -> Iterator[Any]:
    """The plain types and literal values an annotation admits (through Optional, unions, Annotated and lists)."""
    if get_origin(annotation) is Literal:
        yield from get_args(annotation)
    elif get_args(annotation):
        for inner in get_args(annotation):
            yield from leaves(inner)
    else:
        yield annotation


def no_bool(value: Any) -> Any:
    """true and false are not numbers here ('"seq_len": true' was read as 1): pydantic's lax mode takes them as 1 and 0."""
    if isinstance(value, bool):
        raise PydanticCustomError("number_not_bool", "expects a number, not true or false")
    return value


def no_mangled_text(value: Any) -> Any:
    """U+FFFD or a lone surrogate in a name means bytes that were not UTF-8 on the way: 'Llama-3.1-8B\\xff' must not
    silently resolve to Llama-3.1-8B."""
    for text in value if isinstance(value, list) else [value]:
        if isinstance(text, str) and not text.isascii() and (REPLACEMENT in text or not is_utf8(text)):
            raise PydanticCustomError("mangled_text", "holds a replacement character or a lone surrogate, so the bytes "
                                      "sent were not valid utf-8: send the name as utf-8")
    return value


def strictness(annotation: Any) -> list[Any]:
    """Before-validators for what pydantic's lax mode would take silently: a bool for a number, mangled text."""
    kinds = list(leaves(annotation))
    numeric = any(k in (int, float) or (isinstance(k, int) and not isinstance(k, bool)) for k in kinds)
    checks: list[Any] = [BeforeValidator(no_bool)] if numeric and bool not in kinds else []
    return checks + ([BeforeValidator(no_mangled_text)] if str in kinds else [])


def parameter_from_field(name: str, field: FieldInfo, *, optional: bool = False) -> inspect.Parameter:
    """One keyword parameter carrying the field's type, limits and description. An optional rider (another tool's
    workload field) says so in a few words: its full description lives once, on estimate_vram."""
    annotation: Any = field.annotation
    description = field.description or ""
    if optional:
        choices = [c for option in get_args(annotation) or [annotation] for c in get_args(option)]
        annotation = (str if len(choices) > LONG_CHOICE else annotation) | None
        description = ""  # the tool's description names its estimate_vram riders once
        default: Any = None
    else:
        default = inspect.Parameter.empty if field.is_required() else field.default
    typed = Annotated[(annotation, *field.metadata, *strictness(annotation), Field(description=description or None))]
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=typed)


def flat_tool(call: Callable[..., Any], name: str, returns: type, groups: Iterable[FieldGroup]) -> Callable[..., Any]:
    """A function named `name` whose signature lists the chosen fields of each request model.

    `groups` holds (model, field names or None for all, optional): optional fields default to None and are
    left out of the call, so a tool sees only what the client gave (e.g. compare_gpus' workload fields).
    """
    parameters: list[inspect.Parameter] = []
    for model, names, optional in groups:
        chosen = names if names is not None else model.model_fields
        parameters += [parameter_from_field(n, model.model_fields[n], optional=optional) for n in chosen]
    parameters.sort(key=lambda p: p.default is not inspect.Parameter.empty)  # required first, for readers

    def tool(**arguments: Any) -> Any:
        return call(**{key: value for key, value in arguments.items() if value is not None})

    tool.__name__ = tool.__qualname__ = name
    tool.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    return tool
