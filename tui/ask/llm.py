"""Ask with an LLM: a pydantic-ai agent that reaches gpusizer's tools through gpusizer's own MCP server.

The model gets exactly what an external assistant gets (the server over stdio, its instructions, its tools), so
the figures it quotes come from the same calculators. Configuration comes from the environment or the user's
config file; API keys only ever come from the environment (the provider libraries read them) and are never
written or shown.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpusizer.settings import settings
from gpusizer.tools.questions import AskAnswer, ToolCall
from gpusizer.tools.questions.second_readings import llm_hint

GUIDANCE = ("You size GPU workloads. Call the gpusizer tools for every figure you state and quote them as the tools "
            "return them; say which assumptions they used. If the question is unclear, ask one short question.")
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "google": "GEMINI_API_KEY"}


@dataclass(frozen=True)
class LlmSettings:
    model: str  # pydantic-ai model id, e.g. 'openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5'
    base_url: str | None = None  # any OpenAI-compatible endpoint: Ollama, vLLM, LM Studio


def llm_settings() -> LlmSettings | None:
    """GPUSIZER_LLM_MODEL / GPUSIZER_LLM_BASE_URL, else [ask] model / base_url in the config file; None: offline."""
    current = settings()
    return LlmSettings(current.llm_model, current.llm_base_url) if current.llm_model else None


def build_model(settings: LlmSettings):
    """A pydantic-ai model: by id, or an OpenAI-compatible endpoint by base URL (key optional for local servers)."""
    if settings.base_url:
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        name = settings.model.split(":", 1)[-1]
        provider = OpenAIProvider(base_url=settings.base_url, api_key=os.environ.get("OPENAI_API_KEY") or "not-needed")
        return OpenAIChatModel(name, provider=provider)
    return settings.model


def server_toolset():
    """gpusizer's MCP server over stdio, with its instructions."""
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    command = Path(sys.executable).parent / "gpusizer-mcp"
    transport = StdioTransport(command=str(command), args=[]) if command.exists() else \
        StdioTransport(command=sys.executable, args=["-m", "gpusizer.server.cli"])
    return MCPToolset(Client(transport), include_instructions=True, tool_error_behavior="failed")


def what_to_do(error: Exception, settings: LlmSettings | None) -> str:
    text = f"{type(error).__name__}: {error}"
    provider = (settings.model.split(":", 1)[0] if settings and ":" in settings.model else "")
    if "api_key" in text.lower() or "auth" in text.lower() or "401" in text:
        variable = KEY_VARIABLES.get(provider, "the provider's API key variable")
        return f"The model refused the credentials ({text}). Set {variable} in the environment and try again."
    if "429" in text or "rate" in text.lower():
        return f"The model is rate-limiting requests ({text}). Wait a moment and ask again."
    if "connect" in text.lower() or "timeout" in text.lower():
        where = settings.base_url if settings and settings.base_url else "the provider"
        return f"Could not reach {where} ({text}). Check the endpoint is running and reachable."
    return f"The model call failed ({text})."


def needs_the_llm(answer: AskAnswer) -> bool:
    """The parser's answer stands where it read the question one way; one it did not understand, or read two ways
    (a quantity given that its first answer does not use), goes to the LLM with the parser's reading as a hint."""
    return not answer.understood or len(answer.readings) > 1


def parser_hint(answer: AskAnswer) -> str:
    readings: list[str | None] = [*answer.readings] or [None]
    return llm_hint(answer.reading, readings[0], readings[1] if len(readings) > 1 else None)


Listener = Callable[[str, Any], Awaitable[None] | None]


async def ask_llm(question: str, model=None, toolset=None, on_event: Listener | None = None,
                  settings: LlmSettings | None = None, hint: str | None = None) -> AskAnswer:
    """Run one question through the agent; `on_event('text'|'call'|'result', payload)` streams the transcript. A `hint`
    (the parser's reading, tools.questions.second_readings.llm_hint) goes after the question, marked as not the user's."""
    settings = settings or llm_settings()
    try:
        from pydantic_ai import Agent, AgentRunResultEvent
    except ImportError:
        return AskAnswer(question=question, understood=False, interpretation="LLM support not installed",
                         answer="LLM mode needs the optional packages: pip install 'gpusizer[llm]' (or ask without an LLM).")
    if model is None and settings is None:
        return AskAnswer(question=question, understood=False, interpretation="no LLM configured",
                         answer="No LLM is configured: set GPUSIZER_LLM_MODEL (e.g. 'openai:gpt-4.1-mini', or a model name "
                                "with GPUSIZER_LLM_BASE_URL for Ollama/vLLM), or ask without --llm.")
    calls: dict[str, ToolCall] = {}
    answer = ""

    async def emit(kind: str, payload: Any) -> None:
        if on_event:
            outcome = on_event(kind, payload)
            if outcome is not None:
                await outcome

    chosen = model if model is not None else build_model(settings) if settings is not None else None
    agent = Agent(chosen, toolsets=[toolset or server_toolset()], instructions=GUIDANCE)
    try:
        prompt = f"{question}\n\n[Not from the user: {hint}]" if hint else question
        async with agent.run_stream_events(prompt) as events:
            async for event in events:
                await record_event(event, calls, emit)
                if isinstance(event, AgentRunResultEvent):
                    answer = str(event.result.output)
    except Exception as error:  # noqa: BLE001 - every model failure becomes a readable line in the transcript
        return AskAnswer(question=question, understood=False, interpretation="LLM error",
                         answer=what_to_do(error, settings), calls=list(calls.values()))
    return AskAnswer(question=question, understood=True, journey="llm", interpretation="answered by the LLM with the tools",
                     answer=answer, calls=list(calls.values()))


async def record_event(event, calls: dict[str, ToolCall], emit) -> None:
    """Tool calls and their results become cards; text deltas stream as they come."""
    from pydantic_ai.messages import FunctionToolCallEvent, FunctionToolResultEvent, PartDeltaEvent, PartStartEvent, TextPart, TextPartDelta

    if isinstance(event, FunctionToolCallEvent):
        record = ToolCall(tool=event.part.tool_name, arguments=event.part.args_as_dict())
        calls[event.part.tool_call_id] = record
        await emit("call", record)
    elif isinstance(event, FunctionToolResultEvent):
        known = calls.get(event.part.tool_call_id)
        if known is not None:
            record = known
            content = getattr(event.part, "content", None)
            if isinstance(content, dict):
                record.result = content
            else:
                record.error = str(content)
            await emit("result", record)
    elif isinstance(event, PartStartEvent) and isinstance(event.part, TextPart) and event.part.content:
        await emit("text", event.part.content)
    elif isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
        await emit("text", event.delta.content_delta)


def ask_llm_sync(question: str, hint: str | None = None) -> AskAnswer:
    import functools

    import anyio

    return anyio.run(functools.partial(ask_llm, question, hint=hint))
