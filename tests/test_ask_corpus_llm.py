"""LLM mode over the same corpus (issue #15): a scripted model makes, for every question, the tool call its expected
reading implies, through gpusizer's own MCP server over stdio; every call is accepted and the answer quotes it."""
import json

import pytest
from ask_corpus import CORPUS, call_matches, expected_call
from pydantic_ai.messages import ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from gpusizer.tui.ask.llm import ask_llm, server_toolset

pytestmark = pytest.mark.slow  # run by .ci/run after the README's test command (pyproject.toml: markers)

BY_QUESTION = {case["question"]: case for case in CORPUS}


def corpus_assistant():
    """Calls the expected tool for the question it is given (none for card questions), then says what came back."""
    async def stream(messages, info: AgentInfo):
        question = next(p.content for m in messages for p in getattr(m, "parts", []) if getattr(p, "part_kind", "") == "user-prompt")
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        expected = expected_call(BY_QUESTION[question])
        if expected is None or returns:
            yield "answered from " + (returns[-1].tool_name if returns else "the catalog")
            return
        tool, arguments = expected
        yield {0: DeltaToolCall(name=tool, json_args=json.dumps(arguments))}
    return FunctionModel(stream_function=stream)


async def test_every_corpus_question_reaches_its_tool_through_the_mcp_server(catalog):
    toolset, model = server_toolset(), corpus_assistant()
    right, refused = [], []
    async with toolset:  # one server for the whole corpus
        for case in CORPUS:
            answer = await ask_llm(case["question"], model=model, toolset=toolset)
            assert answer.understood, (case["question"], answer.answer)
            right.append(call_matches(case, answer.calls, catalog))
            if expected_call(case):
                assert answer.answer == f"answered from {expected_call(case)[0]}", (case["question"], answer.calls)
                refused.extend(c.error for c in answer.calls if c.error)
    assert all(right), [c["question"] for c, ok in zip(CORPUS, right, strict=True) if not ok]
    # what the tools refuse is their answer to the right call: a GPU with no purchase price or no cloud offer
    assert len(refused) <= 0.02 * len(CORPUS) and all("purchase price" in e or "no cloud offer" in e for e in refused), refused
