"""Flat MCP tool signatures built from the tools' own request models.

The argument names, types, limits and descriptions live once, in `gpusizer.tools`; the server
only spreads them into a function signature so `MCPServer` publishes them as the input schema.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeAlias, get_args

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

LONG_CHOICE = 8  # a rider whose choices are longer than this is typed as a string: the owning tool lists them

# (request model, the field names to take or None for all, whether they are optional riders)
FieldGroup: TypeAlias = tuple[type[BaseModel], Iterable[str] | None, bool]


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
    typed = Annotated[(annotation, *field.metadata, Field(description=description or None))]
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
