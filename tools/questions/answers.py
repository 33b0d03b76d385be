"""What Ask returns: the answer, how the question was read, what it ignored and assumed, and each tool call made."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, Field, PrivateAttr

from gpusizer.catalog import Catalog, SizingError


class ToolCall(BaseModel):
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None


class AskAnswer(BaseModel):
    question: str
    understood: bool
    journey: str | None = None
    interpretation: str
    answer: str
    reading: dict[str, Any] = Field(default={}, description="what the question was read as, field by field")
    read: list[str] = Field(default=[], description="each span of the question and what it was read as")
    ignored: list[str] = Field(default=[], description="content words no reading used")
    set_aside: list[str] = Field(default=[], description="GPUs and models named but not what the question was read as "
                                                         "asking about (told of, left, dismissed), each with why")
    from_backstory: list[str] = Field(default=[], description="inputs read from sentences that tell rather than ask (a setup, "
                                                           "a plan), each as the words and what they were read as")
    defaults_used: list[str] = Field(default=[], description="what the answer assumed because the question did not say")
    answered: list[str] = Field(default=[], description="what the answer covers: fit, speed, cost, buy, which_gpu...")
    not_answered: list[str] = Field(default=[], description="parts of the question this answer does not cover")
    readings: list[str] = Field(default=[], description="the journey answered; a second one where the question gives a "
                                                     "quantity only that one uses (both are answered)")
    follow_up: bool = Field(default=False, description="read as a change to the previous question")
    calls: list[ToolCall] = []
    _reading: Any = PrivateAttr(default=None)  # the Reading, for follow-up questions
    _models_seen: list[str] = PrivateAttr(default_factory=list)  # the conversation's models so far, the latest last


Result = TypeVar("Result", bound=BaseModel)


def call(calls: list[ToolCall], catalog: Catalog, tool: Callable[..., Result], **arguments: Any) -> Result:
    """Call a tool with the arguments that were set, recording the call (and its refusal) for the answer's cards."""
    arguments = {k: v for k, v in arguments.items() if v is not None}
    record = ToolCall(tool=tool.__name__, arguments=arguments)
    calls.append(record)
    try:
        result = tool(catalog=catalog, **arguments)
    except SizingError as error:
        record.error = str(error)
        raise
    record.result = result.model_dump(mode="json")
    return result
