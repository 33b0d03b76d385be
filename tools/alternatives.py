"""Alternatives: what every result offers beside its verdict, the cheapest changes that turn a "no" (or a costly "yes")
into a better answer, each tried through the same tool and kept with its figure.

The changes themselves belong to the domains (memory/ladder.py holds the rungs people reach for: a smaller format, an
FP8 KV cache, checkpointing, a lighter recipe, sharding, more GPUs); this module holds the shape every result shares
and the retry, so that no face computes a fix on its own.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from gpusizer.catalog import SizingError

Result = TypeVar("Result")
Answer = TypeVar("Answer", bound=BaseModel)
ArgumentValue = str | int | float | bool | None
RETRYING: ContextVar[bool] = ContextVar("retrying_for_alternatives", default=False)  # a retry's own alternatives go unread


class Change(BaseModel):
    """One change to the call and what it gives: `arguments` are the tool's own, to call it again with."""
    change: str = Field(description="what to change, in words")
    arguments: dict[str, ArgumentValue] = Field(description="the arguments that make it, to call the tool again with")
    text: str = Field(description="the change and its figure in one line")


def retried(call: Callable[..., Result], arguments: Mapping[str, Any], changes: Mapping[str, Any]) -> Result | None:
    """The tool called again with the changes on top of the arguments; None where it cannot take them."""
    token = RETRYING.set(True)
    try:
        return call(**{**arguments, **changes})
    except SizingError:  # a change this model, engine or GPU cannot take: not an alternative
        return None
    finally:
        RETRYING.reset(token)


def with_alternatives(result: Answer, find: Callable[[], Sequence[Change]]) -> Answer:
    """The result with the alternatives `find` gives in its `alternatives` field; a retry made while looking for them
    skips the search (nobody reads a retry's alternatives, and the search would recurse)."""
    if RETRYING.get():
        return result
    found = list(find())
    return result.model_copy(update={"alternatives": found}) if found else result


def worth_it(before: float | None, after: float | None, saving: float = 0.15) -> bool:
    """A change is worth naming where it makes the answer possible, or cheaper (or faster) by at least `saving`."""
    if after is None:
        return False
    return before is None or after <= before * (1 - saving)
