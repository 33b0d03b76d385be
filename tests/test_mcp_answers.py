"""What an assistant receives from each tool: an answer it can read aloud (verdict first, the cheap fix named, at most
1,500 bytes) beside a structured result that validates against the schema the server advertises."""
import copy
import json
from pathlib import Path

import jsonschema
import pytest
from mcp import Client

from gpusizer.server.app import create_server
from gpusizer.tools.figures import gib, usd

CALLS = json.loads((Path(__file__).parent / "data" / "mcp_answer_calls.json").read_text())["calls"]


def label(call: dict) -> str:
    return f"{call['tool']}:" + ",".join(f"{k}={v}" for k, v in call["arguments"].items())[:60]


async def answer(catalog, tool: str, arguments: dict):
    """The tool's result over a real MCP session, and the output schema the server advertises for it."""
    async with Client(create_server(catalog)) as client:
        schema = next(t.output_schema for t in (await client.list_tools()).tools if t.name == tool)
        return await client.call_tool(tool, arguments), schema


@pytest.mark.parametrize("call", CALLS, ids=label)
async def test_each_answer_leads_with_its_verdict_in_at_most_1500_bytes(catalog, call):
    result, _ = await answer(catalog, call["tool"], call["arguments"])
    assert not result.is_error, result.content[0].text
    text = result.content[0].text
    assert len(text.encode()) <= 1500
    first_two = "\n".join(text.splitlines()[:2])
    for fragment in call["first_lines"]:
        assert fragment in first_two, f"{fragment!r} not in the first two lines:\n{text}"
    for fragment in call.get("anywhere", []):
        assert fragment in text, f"{fragment!r} not in:\n{text}"
    assert not text.lstrip().startswith("{"), "the text is an answer, not the result again as JSON"


@pytest.mark.parametrize("call", CALLS, ids=label)
async def test_the_structured_result_validates_against_the_advertised_schema(catalog, call):
    result, schema = await answer(catalog, call["tool"], call["arguments"])
    jsonschema.validate(result.structured_content, schema)


@pytest.mark.parametrize("tool", ["estimate_vram", "plan_serving", "cloud_cost", "rent_vs_buy", "compare_gpus"])
async def test_a_result_missing_a_required_field_fails_the_schema(catalog, tool):
    call = next(c for c in CALLS if c["tool"] == tool)
    result, schema = await answer(catalog, tool, call["arguments"])
    structured = result.structured_content
    for name in schema["required"]:
        broken = copy.deepcopy(structured)
        del broken[name]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


async def test_a_nested_required_field_is_checked_too(catalog):
    result, schema = await answer(catalog, "estimate_vram", {"model": "llama-3.1-8b", "gpu": "h100"})
    structured = copy.deepcopy(result.structured_content)
    jsonschema.validate(structured, schema)
    del structured["gpu_check"]["fits"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(structured, schema)


async def test_a_gpu_too_small_names_how_many_it_takes_and_the_split(catalog):
    result, _ = await answer(catalog, "estimate_vram", {"model": "llama-3.1-70b", "gpu": "rtx-3090"})
    check = result.structured_content["gpu_check"]
    assert check["fits"] is False and check["gpus_needed"] == 8 and "tensor parallel" in check["split"]
    assert f"it takes {check['gpus_needed']} x" in result.content[0].text.splitlines()[0]


async def test_serving_keeps_an_interactive_speed_unless_told_not_to(catalog):
    floored = (await answer(catalog, "plan_serving", {"model": "llama-3.3-70b", "concurrent_users": 200}))[0].structured_content
    packed = (await answer(catalog, "plan_serving", {"model": "llama-3.3-70b", "concurrent_users": 200,
                                                     "min_tokens_per_s_per_user": 0}))[0].structured_content
    assert floored["options"][0]["tokens_per_s_per_user"] >= 10 > packed["options"][0]["tokens_per_s_per_user"]
    assert any("default floor" in line for line in floored["assumptions"])


def scripted_assistant(question: str, text: str) -> str:
    """An assistant that has only the tool's text (no structured content) and answers with its first sentence."""
    return f"{question} {text.splitlines()[0]}"


@pytest.mark.parametrize("call", [c for c in CALLS if c.get("question")], ids=lambda c: c["question"])
async def test_an_assistant_reading_only_the_text_answers_the_question_with_the_tools_figure(catalog, call):
    result, _ = await answer(catalog, call["tool"], call["arguments"])
    said = scripted_assistant(call["question"], result.content[0].text)
    structured = result.structured_content
    if call["tool"] == "estimate_vram" and structured["box"]:  # cards used together: the verdict and what they share
        assert ("Fits the box" if structured["box"]["fits"] else "Does not fit the box") in said
        assert gib(structured["box"]["shared_bytes"]) in said
    elif call["tool"] == "estimate_vram":  # the verdict and the peak per GPU, as the tool computed them
        check = structured["gpu_check"]
        assert ("Fits" if check["fits"] else "Does not fit") in said
        assert gib(structured["total_bytes"]) in said
    elif call["tool"] == "cloud_cost":  # the cheapest total and where
        best = structured["offers"][0]
        assert usd(best["total_usd"]) in said and best["provider"] in said
