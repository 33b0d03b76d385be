"""A tool's result and its errors as a client reads them: the answer as the text beside the structured result (and as
its first field, `answer`, for clients that read only the structured result), and the fix-it sentence behind a
failure."""
from __future__ import annotations

from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool as RegisteredTool
from mcp.types import CallToolResult, InputRequiredResult, TextContent
from pydantic import ValidationError

from gpusizer.catalog import SizingError

from .compact_schema import ANSWER_FIELD

Result = TypeVar("Result")


def converted(tool: RegisteredTool, result: Any, name: str) -> CallToolResult | InputRequiredResult:
    """What the SDK's convert_result and then `answered` make of the tool's return value, the usual case in one
    step: a result of the tool's own model (the SDK's output validation passes such an instance unchanged) is dumped
    once for structuredContent and worded from the instance. Anything else takes the SDK's conversion, failures
    wrapped as Tool.run wraps them."""
    from gpusizer import tools

    model, word = tools.ANSWERS[name]
    metadata = tool.fn_metadata
    if type(result) is model and metadata.output_model is model and metadata.output_schema is not None \
            and not metadata.wrap_output:
        text = word(result)
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content={ANSWER_FIELD: text, **result.model_dump(mode="json", by_alias=True)})
    try:
        conversion = tool.fn_metadata.convert_result(result)
    except Exception as error:  # noqa: BLE001 - as Tool.run reports a conversion that fails
        raise UnexpectedToolError(f"Error executing tool {name}") from error
    return answered(conversion, name)


def answered(result: Result, name: str) -> Result:
    """The text content is the tool's answer (verdict first, at most 1,500 bytes: gpusizer.tools.ANSWERS), not the
    structured result again as JSON: an assistant reads the answer and finds every figure in structuredContent."""
    structured = getattr(result, "structured_content", None)
    from gpusizer import tools

    if isinstance(result, CallToolResult) and structured is not None and not result.is_error and name in tools.ANSWERS:
        model, word = tools.ANSWERS[name]
        text = word(model.model_validate(structured))
        result.content = [TextContent(type="text", text=text)]
        result.structured_content = {ANSWER_FIELD: text, **structured}
    return result


def readable(error: ToolError, tool: str) -> ToolError:
    """The SizingError or argument problem behind a ToolError, without the SDK's prefix and pydantic's URLs."""
    cause = error.__cause__
    while cause is not None:
        if isinstance(cause, SizingError):
            return ToolError(str(cause))
        if isinstance(cause, ValidationError):
            from gpusizer.tools.validation import validation_message

            return ToolError(validation_message(cause, tool))
        cause = cause.__cause__
    return error
