"""`gpusizer ask` for scripts, the LLM mode over gpusizer's own MCP server (scripted model, no network), the Ask tab."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic_ai.messages import ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from tui_helpers import settle, type_into

from gpusizer.tools import ANSWERS, estimate_vram
from gpusizer.tools.figures import gib
from gpusizer.tui.app import GpusizerApp
from gpusizer.tui.ask.llm import LlmSettings, ask_llm, llm_settings, what_to_do

GPUSIZER = str(Path(sys.executable).parent / "gpusizer")


def run_ask(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([GPUSIZER, "ask", *arguments], capture_output=True, text=True, timeout=60)


def test_ask_prints_the_interpretation_and_the_answer(catalog):
    result = run_ask("will llama 3.1 8b fit on a 4090 at 8k context?")
    assert result.returncode == 0, result.stderr
    expected = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", seq_len=8192, gpu="rtx-4090")
    assert "I read this as: meta-llama/Llama-3.1-8B" in result.stdout and gib(expected.total_bytes) in result.stdout


def test_ask_json_carries_the_interpretation_and_the_tool_results(catalog):
    result = run_ask("cheapest way to rent 8 H100s for 100 hours", "--json")
    assert result.returncode == 0
    answer = json.loads(result.stdout)
    assert answer["journey"] == "cloud_cost" and answer["interpretation"].startswith("I read this as")
    assert answer["calls"][0]["tool"] == "cloud_cost" and answer["calls"][0]["result"]["offers"]


def test_ask_exits_2_for_a_question_it_cannot_read():
    result = run_ask("what is the meaning of life")
    assert result.returncode == 2 and "Examples:" in result.stdout


def scripted_assistant():
    """A model that asks estimate_vram once, then answers with the figure the tool returned."""
    async def stream(messages, info: AgentInfo):
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returns:
            assert {t.name for t in info.function_tools} == set(ANSWERS)  # every tool the server offers
            yield {0: DeltaToolCall(name="estimate_vram", json_args=json.dumps({"model": "llama-3.1-8b", "gpu": "rtx 4090"}))}
            return
        yield "It needs "
        yield f"{returns[-1].content['total_gib']} GiB per GPU."
    return FunctionModel(stream_function=stream)


async def test_llm_mode_calls_the_real_server_over_mcp_and_streams(catalog):
    events = []
    answer = await ask_llm("will llama 3.1 8b fit on a 4090?", model=scripted_assistant(),
                           on_event=lambda kind, payload: events.append(kind))
    expected = estimate_vram(catalog=catalog, model="llama-3.1-8b", gpu="rtx 4090")
    assert answer.understood and answer.answer == f"It needs {expected.total_gib} GiB per GPU."
    assert answer.calls[0].tool == "estimate_vram" and answer.calls[0].result["total_bytes"] == expected.total_bytes
    assert events[:2] == ["call", "result"] and "text" in events


async def test_llm_mode_without_configuration_says_how_to_configure(monkeypatch, tmp_path):
    monkeypatch.delenv("GPUSIZER_LLM_MODEL", raising=False)
    monkeypatch.setenv("GPUSIZER_CONFIG", str(tmp_path / "none.toml"))
    answer = await ask_llm("will it fit?")
    assert not answer.understood and "GPUSIZER_LLM_MODEL" in answer.answer


def test_llm_settings_come_from_the_environment_or_the_config_file(monkeypatch, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[ask]\nmodel = "ollama:llama3.1"\nbase_url = "http://localhost:11434/v1"\n')
    monkeypatch.delenv("GPUSIZER_LLM_MODEL", raising=False)
    monkeypatch.setenv("GPUSIZER_CONFIG", str(config))
    assert llm_settings() == LlmSettings("ollama:llama3.1", "http://localhost:11434/v1")
    monkeypatch.setenv("GPUSIZER_LLM_MODEL", "anthropic:claude-sonnet-4-5")
    assert llm_settings().model == "anthropic:claude-sonnet-4-5"


@pytest.mark.parametrize("error, advice", [
    (RuntimeError("401 Unauthorized: invalid api_key"), "OPENAI_API_KEY"),
    (RuntimeError("429 Too Many Requests"), "rate-limiting"),
    (ConnectionError("Connection refused"), "http://localhost:11434/v1"),
])
def test_model_failures_say_what_to_do(error, advice):
    settings = LlmSettings("openai:gpt-4.1-mini", "http://localhost:11434/v1" if "Connection" in str(error) else None)
    assert advice in what_to_do(error, settings)


async def test_ask_tab_shows_the_answer_with_estimate_vrams_figures(catalog, monkeypatch, tmp_path):
    monkeypatch.delenv("GPUSIZER_LLM_MODEL", raising=False)
    monkeypatch.setenv("GPUSIZER_CONFIG", str(tmp_path / "none.toml"))
    async with GpusizerApp(tab="ask", catalog=catalog).run_test(size=(110, 36)) as pilot:
        await type_into(pilot, "#question", "how much vram for qwen2.5-7b at 16k context")
        await pilot.press("enter")
        await settle(pilot)
        shown = " ".join(str(s.render()) for s in pilot.app.active_pane.query("#transcript Static"))
        expected = estimate_vram(catalog=catalog, model="Qwen/Qwen2.5-7B", seq_len=16384)
        assert gib(expected.total_bytes) in shown and "I read this as: Qwen/Qwen2.5-7B" in shown
        cards = pilot.app.active_pane.query("Collapsible")
        assert len(cards) == 1 and "estimate_vram" in str(cards.first().title)


async def test_ask_tab_in_llm_mode_streams_the_answer_and_shows_a_card_per_tool_call(catalog):
    async with GpusizerApp(tab="ask", catalog=catalog).run_test(size=(110, 36)) as pilot:
        pane = pilot.app.active_pane
        pane.llm_model = scripted_assistant()
        await type_into(pilot, "#question", "hi! my cousin keeps talking about local llms, where do i even start")  # no parse
        await pilot.press("enter")
        for _ in range(200):  # the agent talks to a spawned gpusizer-mcp; wait for its answer
            await pilot.pause(0.05)
            if pane.last is not None:
                break
        await settle(pilot)
        expected = estimate_vram(catalog=catalog, model="llama-3.1-8b", gpu="rtx 4090")
        assert pane.last.understood and pane.last.calls[0].result["total_bytes"] == expected.total_bytes
        cards = pane.query("Collapsible")
        assert len(cards) == 1 and gib(expected.total_bytes) in str(cards.first().title)
        shown = " ".join(str(s.render()) for s in pane.query("#transcript Static"))
        assert f"It needs {expected.total_gib} GiB per GPU." in shown


def test_a_broken_user_catalog_is_named_not_a_traceback(tmp_path):
    (tmp_path / "gpus.csv").write_text("gpu_id,memory_gb,source,as_of\nh100-sxm,lots,our lab,2026-01-01\n")
    result = subprocess.run([GPUSIZER, "ask", "will llama 3.1 8b fit on a 4090"], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "GPUSIZER_CATALOG_DIR": str(tmp_path)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "gpus.csv row 1 (gpu_id 'h100-sxm'): memory_gb" in result.stderr


def test_an_answer_piped_into_a_reader_that_left_ends_without_a_traceback():
    """'gpusizer ask ... | head -1': the reader has closed the pipe; the answer is dropped quietly, no traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before a byte is written
    try:
        result = subprocess.run([GPUSIZER, "ask", "will llama 3.1 8b fit on a 4090?"], stdout=write_end, stderr=subprocess.PIPE,
                                text=True, timeout=60)
    finally:
        os.close(write_end)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr


async def test_ask_tab_follow_up_changes_the_last_question(catalog, monkeypatch, tmp_path):
    monkeypatch.delenv("GPUSIZER_LLM_MODEL", raising=False)
    monkeypatch.setenv("GPUSIZER_CONFIG", str(tmp_path / "none.toml"))
    async with GpusizerApp(tab="ask", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#question", "will llama 3.1 70b fit on an h100 in fp8?")
        await pilot.press("enter")
        await settle(pilot)
        await type_into(pilot, "#question", "and on an A100?")
        await pilot.press("enter")
        await settle(pilot)
        answer = pilot.app.active_pane.last
        expected = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", weights_dtype="fp8", gpu="a100-80gb-sxm")
        assert answer.follow_up and answer.calls[0].arguments["gpu"] == "a100-80gb-sxm"
        assert answer.calls[0].result["total_bytes"] == expected.total_bytes


def test_an_ask_card_for_a_llama_cpp_run_partly_in_system_ram_says_partly(catalog):
    from gpusizer.tools.questions import ask
    from gpusizer.tui.panes.ask import key_figures

    partly = ask("can I run qwen2.5 72b on one 4090 with llama.cpp at 32k", catalog)
    whole = ask("can I run qwen2.5 7b on one 4090 with llama.cpp at 32k", catalog)
    assert key_figures(partly.calls[0]).endswith("· fits partly (layers in system RAM)")
    assert key_figures(whole.calls[0]).endswith("· fits")
    assert partly.answer.startswith("Partly") and whole.answer.startswith("Yes")  # the answer and the card agree


def test_ask_json_lists_what_it_set_aside(catalog):
    from gpusizer.tools.questions import ask

    answer = ask("my old box had a 5080. now i have two 3090s: will gpt-oss-120b fit across the two 3090s in vllm?", catalog)
    assert answer.set_aside == ["GPU rtx-5080, told about, not asked about"]
    assert "Set aside (named, but not what I read you as asking about): GPU rtx-5080" in answer.interpretation


async def test_with_an_llm_a_question_the_parser_reads_one_way_is_answered_by_the_parser(catalog):
    async with GpusizerApp(tab="ask", catalog=catalog).run_test(size=(110, 36)) as pilot:
        pane = pilot.app.active_pane
        pane.llm_model = scripted_assistant()
        await type_into(pilot, "#question", "will llama 3.1 8b fit on a 4090 at 8k context?")
        await pilot.press("enter")
        await settle(pilot)
        assert pane.last.journey == "fit" and pane.last.calls[0].tool == "estimate_vram"  # no model call: instant


def prompt_recorder(prompts: list[str]):
    """A model that records the user's prompt and answers at once, calling no tool."""
    async def stream(messages, info: AgentInfo):
        prompts.extend(str(p.content) for m in messages for p in getattr(m, "parts", []) if type(p).__name__ == "UserPromptPart")
        yield "ok"
    return FunctionModel(stream_function=stream)


async def test_a_question_read_two_ways_goes_to_the_llm_with_the_parsers_reading(catalog):
    from gpusizer.tools.questions import ask
    from gpusizer.tui.ask.llm import needs_the_llm, parser_hint

    parsed = ask("will qwen2.5 14b fit on an L40S? about 40 people would chat with it at once", catalog)
    prompts: list[str] = []
    answer = await ask_llm(parsed.question, model=prompt_recorder(prompts), hint=parser_hint(parsed))
    assert needs_the_llm(parsed) and answer.answer == "ok"
    assert "a serving plan for the traffic" in prompts[0] and "users: 40" in prompts[0] and "Not from the user" in prompts[0]
