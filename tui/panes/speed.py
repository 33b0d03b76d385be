"""Speed: how fast a model runs on a GPU under an engine: tokens/s per sequence and in all, prompts, first token."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Label, Static

from gpusizer.tools import SpeedEstimate, estimate_speed
from gpusizer.tools.figures import number
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.speed.estimate_speed import BOUND_WORDS, EstimateSpeedRequest

from ..form_input import FormInput
from ..safe_text import esc
from ..suggest import CatalogSuggester
from .base import ToolPane, default_text, field, pair, tool_choice
from .form_parts import model_fields


class SpeedPane(ToolPane[SpeedEstimate]):
    TITLE = "gpusizer speed"
    COMPUTE_IN_THREAD = True

    def form(self) -> ComposeResult:
        yield from model_fields(self.catalog, "meta-llama/Llama-3.1-8B-Instruct")
        yield from field("GPU", FormInput("rtx-4090", id="gpu", suggester=CatalogSuggester(self.catalog, "gpu")))
        yield pair(("GPUs", FormInput(default_text(EstimateSpeedRequest, "num_gpus"), id="num_gpus")),
                   ("At once", FormInput(default_text(EstimateSpeedRequest, "concurrency"), id="concurrency")))
        yield pair(("Engine", tool_choice(EstimateSpeedRequest, "engine")),
                   ("Weights", tool_choice(VramRequest, "weights_dtype")))
        yield pair(("KV cache", tool_choice(VramRequest, "kv_cache_dtype")),
                   ("Prompt tokens", FormInput(default_text(EstimateSpeedRequest, "prompt_tokens"), id="prompt_tokens")))
        yield from field("Output tokens", FormInput(default_text(EstimateSpeedRequest, "output_tokens"), id="output_tokens"))

    def results(self) -> ComposeResult:
        yield Static("", id="speed-summary", classes="headline")
        yield Static("", id="speed-warnings", classes="warnings")
        yield Static("", id="speed-hint", classes="hints")
        yield Static("", id="speed-bounds")
        yield Label("Assumptions", classes="section")
        yield Static("", id="speed-assumptions", classes="notes")

    def arguments(self) -> dict[str, Any]:
        subject = self.model_or_size()
        return self.given(**subject, gpu=self.text("gpu") or "", num_gpus=self.whole("num_gpus"),
                          concurrency=self.whole("concurrency"), engine=self.selected("engine"),
                          weights_dtype=self.selected("weights_dtype"), kv_cache_dtype=self.selected("kv_cache_dtype"),
                          prompt_tokens=self.whole("prompt_tokens"), output_tokens=self.whole("output_tokens"))

    def compute(self, arguments: dict[str, Any]) -> SpeedEstimate:
        return estimate_speed(catalog=self.catalog, **arguments)

    def show(self, result: SpeedEstimate) -> None:
        """The figures as the tool's answer words them: per sequence first, then all together, prompts, first token."""
        engine = ENGINE_NAMES.get(result.engine, result.engine)
        self.set_text("#speed-warnings", "\n".join(f"⚠ {esc(w)}" for w in result.warnings))  # e.g. it does not fit
        self.query_one("#speed-warnings").display = bool(result.warnings)
        self.set_text("#speed-hint", f"Fits with {esc(result.alternatives[0].text)}" if result.alternatives else "")
        self.query_one("#speed-hint").display = bool(result.alternatives)
        self.set_text("#speed-summary",
                      f"[b]{number(result.decode_tokens_per_s)} tokens/s[/b] per sequence, {number(result.concurrency)} at "
                      f"once ({number(result.aggregate_tokens_per_s)} tokens/s in all)  ·  {esc(result.model)} on "
                      f"{number(result.num_gpus)} × {esc(result.gpu_id)} with {esc(engine)} ({esc(result.weights_dtype)})\n"
                      f"prompts at {number(result.prefill_tokens_per_s)} tokens/s  ·  first token in "
                      f"{number(result.ttft_s, 3)} s")
        compute_bound = (f"; decode turns compute-bound from {number(result.compute_bound_batch)} sequences at once"
                         if result.compute_bound_batch else "")
        self.set_text("#speed-bounds", f"Decode is bound by {BOUND_WORDS[result.decode_bound_by]}, prompts by "
                                       f"{BOUND_WORDS[result.prefill_bound_by]}{compute_bound}.")
        self.set_text("#speed-assumptions", "\n".join(f"• {esc(a)}" for a in result.assumptions))
