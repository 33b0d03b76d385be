"""The MCP server as an assistant meets it: in-memory `mcp.Client`, every tool, resource, prompt and completion."""
import json
import subprocess
import sys

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import PromptReference, ResourceTemplateReference

from gpusizer.server.app import create_server
from gpusizer.tools import cloud_cost, compare_gpus, estimate_vram, rent_vs_buy

TOOLS = {"estimate_vram", "compare_gpus", "cloud_cost", "rent_vs_buy", "plan_serving", "plan_training", "biggest_model",
         "estimate_speed"}


def connect(catalog) -> Client:
    """An in-memory client (a context manager per test: anyio's cancel scopes must close in the task that opened them)."""
    return Client(create_server(catalog))


async def test_every_tool_is_listed_read_only_with_an_output_schema(catalog):
    async with connect(catalog) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == TOOLS
        for tool in listed.values():
            hints = tool.annotations
            assert (hints.read_only_hint, hints.idempotent_hint, hints.open_world_hint) == (True, True, False)
            assert tool.output_schema and tool.output_schema["type"] == "object"
            assert tool.description and tool.title


async def test_every_tool_argument_is_flat_and_described(catalog):
    async with connect(catalog) as client:
        for tool in (await client.list_tools()).tools:
            properties = tool.input_schema["properties"]
            assert all("$ref" not in json.dumps(p) for p in properties.values()), f"{tool.name} has a nested argument"
            riders = {"model", "params_billions", "workload", "method", "weights_dtype", "batch_size", "seq_len"}
            undescribed = [name for name, p in properties.items() if not p.get("description")
                           and not (tool.name != "estimate_vram" and name in riders and "estimate_vram" in tool.description)
                           and name not in tool.description]
            assert not undescribed, f"{tool.name}: arguments without a description: {undescribed}"


async def test_contract_arguments_are_exposed(catalog):
    async with connect(catalog) as client:
        schemas = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        assert {"model", "params_billions", "workload", "method", "weights_dtype", "training_precision", "optimizer", "batch_size",
                "seq_len", "gradient_checkpointing", "lora_rank", "num_gpus", "sharding", "tensor_parallel", "gpu"} <= set(
            schemas["estimate_vram"]["properties"])
        assert schemas["cloud_cost"]["required"] == ["gpu", "hours"]
        assert schemas["compare_gpus"]["required"] == ["gpus"]
        assert schemas["estimate_vram"]["properties"]["workload"]["enum"] == ["inference", "training"]


@pytest.mark.parametrize("tool, function, arguments", [
    ("estimate_vram", estimate_vram, {"model": "meta-llama/Llama-3.1-8B", "workload": "training", "method": "qlora", "gpu": "rtx 4090"}),
    ("compare_gpus", compare_gpus, {"gpus": ["h100", "a100-80gb-sxm", "l40s"], "model": "llama 3.1 70b", "weights_dtype": "fp8"}),
    ("compare_gpus", compare_gpus, {"gpus": ["h100", "mi300x"]}),
    ("cloud_cost", cloud_cost, {"gpu": "h100", "gpu_count": 3, "hours": 10, "providers": ["aws", "lambda"]}),
    ("rent_vs_buy", rent_vs_buy, {"gpu": "a100-80gb-sxm", "utilization": 0.5, "staff_usd_per_year": 20000}),
])
async def test_the_mcp_answer_is_the_python_answer(catalog, tool, function, arguments):
    async with connect(catalog) as client:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content[0].text
        structured = dict(result.structured_content)
        assert structured.pop("answer") == result.content[0].text  # the text answer, first for clients that read only this
        assert structured == function(catalog=catalog, **arguments).model_dump(mode="json")


async def test_unknown_gpu_gets_did_you_mean(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("cloud_cost", {"gpu": "H10", "hours": 5})
        assert result.is_error
        assert "unknown GPU 'H10'; did you mean" in result.content[0].text and "h100-sxm" in result.content[0].text


async def test_impossible_values_name_the_allowed_range(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("rent_vs_buy", {"gpu": "h100", "utilization": 1.5, "years": -1})
        assert result.is_error
        text = result.content[0].text
        assert "utilization must be ≤ 1 (got 1.5)" in text and "years must be ≥ 0.01 (got -1)" in text
        assert "errors.pydantic.dev" not in text


async def test_wrong_literal_lists_the_allowed_values(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("estimate_vram", {"model": "llama 3.1 8b", "workload": "serving"})
        assert result.is_error and "'inference' or 'training'" in result.content[0].text


async def test_missing_model_asks_for_one(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("estimate_vram", {})
        assert result.is_error and "params_billions" in result.content[0].text


async def test_unknown_tool_is_a_json_rpc_invalid_params_error(catalog):
    async with connect(catalog) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("estimate_memory", {})
        assert raised.value.error.code == -32602 and "estimate_vram" in raised.value.error.message


async def test_the_server_keeps_serving_after_errors(catalog):
    async with connect(catalog) as client:
        await client.call_tool("estimate_vram", {"model": "no such model"})
        with pytest.raises(MCPError):
            await client.call_tool("nope", {})
        result = await client.call_tool("estimate_vram", {"params_billions": 7})
        assert not result.is_error and result.structured_content["total_bytes"] > 14e9


async def test_compare_without_a_model_ignores_the_workload_defaults(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("compare_gpus", {"gpus": ["h100", "a100"]})
        assert not result.is_error
        assert all(row["fits"] is None for row in result.structured_content["gpus"])


async def test_catalog_resources_are_json_with_provenance(catalog):
    async with connect(catalog) as client:
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        assert uris == {"gpusizer://gpus", "gpusizer://models", "gpusizer://offers"}
        for uri, rows in [("gpusizer://gpus", catalog.gpus), ("gpusizer://models", catalog.models), ("gpusizer://offers", catalog.offers)]:
            content = (await client.read_resource(uri)).contents[0]
            assert content.mime_type == "application/json"
            parsed = json.loads(content.text)
            assert len(parsed) == len(rows) and all(row["source"] and row["as_of"] for row in parsed)


async def test_one_gpu_resource_accepts_aliases_and_lists_its_offers(catalog):
    async with connect(catalog) as client:
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["gpusizer://gpus/{gpu_id}"]
        row = json.loads((await client.read_resource("gpusizer://gpus/h100")).contents[0].text)
        assert row["gpu_id"] == "h100-sxm" and row["offers"] and all(o["gpu_id"] == "h100-sxm" for o in row["offers"])


async def test_unknown_gpu_resource_is_not_found_with_suggestions(catalog):
    async with connect(catalog) as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("gpusizer://gpus/h10x")
        # -32602 on the 2026-07-28 revision this client speaks (SEP-2164); -32002 on 2025 ones (test_server_hostile)
        assert raised.value.error.code == -32602 and "did you mean" in raised.value.error.message


async def test_prompts_for_the_common_journeys(catalog):
    async with connect(catalog) as client:
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        assert set(prompts) == {"plan_fine_tune", "choose_inference_hardware", "rent_or_buy"}
        rendered = await client.get_prompt("plan_fine_tune", {"model": "llama 3.1 8b", "budget_gpu": "rtx 4090"})
        text = rendered.messages[0].content.text
        assert "meta-llama/Llama-3.1-8B" in text and "estimate_vram" in text and "rtx 4090" in text
        rendered = await client.get_prompt("rent_or_buy", {"gpu": "h100", "gpu_count": "16"})
        assert "16 x h100-sxm" in rendered.messages[0].content.text


async def test_prompt_with_unknown_model_is_invalid_params(catalog):
    async with connect(catalog) as client:
        with pytest.raises(MCPError) as raised:
            await client.get_prompt("choose_inference_hardware", {"model": "lama 3"})
        assert raised.value.error.code == -32602 and "did you mean" in raised.value.error.message


async def test_completions_for_gpu_and_model_names(catalog):
    async with connect(catalog) as client:
        gpus = await client.complete(PromptReference(type="ref/prompt", name="rent_or_buy"), {"name": "gpu", "value": "mi3"})
        assert gpus.completion.values == ["mi300x", "mi325x", "mi355x"]
        models = await client.complete(PromptReference(type="ref/prompt", name="plan_fine_tune"), {"name": "model", "value": "qwen3"})
        assert models.completion.values and all("qwen3" in v.lower() for v in models.completion.values)
        by_template = await client.complete(ResourceTemplateReference(type="ref/resource", uri="gpusizer://gpus/{gpu_id}"),
                                            {"name": "gpu_id", "value": "4090"})
        assert by_template.completion.values == ["rtx-4090"]


async def test_instructions_orient_a_model(catalog):
    server = create_server(catalog)
    assert server.instructions.count(". ") + 1 == 3
    assert all(name in server.instructions for name in TOOLS)


@pytest.mark.parametrize("tool,arguments,fragment", [
    ("estimate_vram", {"model": "llama-3.1-8b", "batchsize": 64}, "did you mean 'batch_size'"),
    ("cloud_cost", {"gpu": "h100", "hours": 1, "gpucount": 8}, "did you mean 'gpu_count'"),
])
async def test_a_misspelled_argument_is_an_error_naming_the_right_one_not_silently_ignored(catalog, tool, arguments, fragment):
    async with connect(catalog) as client:
        result = await client.call_tool(tool, arguments)
        assert result.is_error and fragment in result.content[0].text


async def test_what_a_model_reads_of_tools_list_stays_under_16_kb_because_it_is_context_on_every_turn(catalog):
    """An MCP client hands its model each tool's name, description and input schema (Anthropic's input_schema, OpenAI's
    parameters); the output schema goes to the client's validator, not into the model's context. So the model's share
    is held to issue #31's 16,000 bytes, and the whole list, with the eight tools' full output schemas (nested, with
    required: more than half of it), to a bound that catches a schema growing by accident."""
    async with connect(catalog) as client:
        listed = await client.list_tools()
        read_by_the_model = [tool.model_dump(by_alias=True, exclude_none=True, exclude={"output_schema"})
                             for tool in listed.tools]
        assert len(json.dumps(read_by_the_model, separators=(",", ":"))) < 16_000
        assert len(listed.model_dump_json(by_alias=True, exclude_none=True)) < 40_000
        assert {tool.title for tool in listed.tools} >= {"Estimate VRAM", "Compare GPUs", "Cloud cost", "Rent vs buy"}


async def test_the_text_is_the_tools_answer_and_every_figure_is_in_the_structured_content(catalog):
    async with connect(catalog) as client:
        result = await client.call_tool("estimate_vram", {"model": "llama-3.1-8b"})
        text = result.content[0].text
        assert text.startswith("meta-llama/Llama-3.1-8B inference") and len(text.encode()) <= 1500
        assert result.structured_content["total_bytes"] > 0 and "fits" in result.structured_content


async def test_initialize_describes_the_server(catalog):
    async with connect(catalog) as client:
        info = client.initialize_result.server_info if hasattr(client, "initialize_result") else client.server_info
        assert info.name == "gpusizer" and info.description and "GPU" in info.description


def test_the_saved_tool_listing_a_cold_start_answers_with_is_what_the_tools_declare():
    from gpusizer.server.saved_listing import declared_listing
    from gpusizer.server.tool_listing import LISTING
    assert LISTING.read_text(encoding="utf-8") == declared_listing(), "run: python -m gpusizer.server.saved_listing"


def test_the_rent_or_buy_prompt_defaults_are_rent_vs_buys_own():
    from gpusizer.server.prompts import RENT_VS_BUY_DEFAULTS
    from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest
    from gpusizer.tools.validation import default_of
    assert RENT_VS_BUY_DEFAULTS == {name: str(default_of(RentVsBuyRequest, name)) for name in RENT_VS_BUY_DEFAULTS}


def test_starting_the_server_imports_no_calculator():
    """A cold start answers initialize and the first tools/list without the calculators (a quarter of a second)."""
    code = ("import sys; from gpusizer.server.app import create_server; create_server(); "
            "print(sorted(m for m in sys.modules if m.startswith(('gpusizer.tools', 'gpusizer.catalog.catalog'))))")
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert started.stdout.strip() == "[]"


async def test_a_client_that_reads_only_the_structured_result_meets_the_verdict_first(catalog):
    """pydantic-ai hands the model structuredContent, not the text, when every part is text: the answer leads it."""
    async with connect(catalog) as client:
        result = await client.call_tool("estimate_vram", {"model": "llama 3.1 70b", "gpu": "rtx 4090"})
        first_key, first_value = next(iter(result.structured_content.items()))
        assert first_key == "answer" and first_value.startswith("Does not fit")
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert all(next(iter(t.output_schema["properties"])) == "answer" and "answer" in t.output_schema["required"]
                   for t in listed.values())
