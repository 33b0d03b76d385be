"""The MCP server: the four calculators as tools, the catalog as resources, a few prompts.

A thin adapter: arguments in, a `gpusizer.tools` call, the tool's pydantic result out. Every
`SizingError` reaches the client as a `ToolError` with its fix-it text.
"""
from __future__ import annotations

import functools
import logging
import sys
import threading
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, metadata, version
from typing import TYPE_CHECKING, Any, TypeAlias

import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolResult,
    EmptyResult,
    GetPromptResult,
    InputRequiredResult,
    SetLevelRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel

from gpusizer.settings import settings

from .catalog_resources import add_catalog_resources
from .compact_schema import compact, output_schema
from .prompts import add_prompts
from .signatures import FieldGroup, flat_tool
from .tool_listing import saved_tools
from .tool_results import answered, converted, readable

if TYPE_CHECKING:
    from gpusizer.catalog import Catalog

INSTRUCTIONS = (
    "gpusizer answers GPU sizing and cost questions from a sourced catalog of GPUs, models and cloud prices. "
    "Start with estimate_vram for 'will it fit / how much memory / how many GPUs', then compare_gpus to choose "
    "hardware, cloud_cost for what a job costs to rent, rent_vs_buy for owning versus renting, and plan_serving for "
    "how many GPUs serve a model to N users or requests per second with vLLM, SGLang or llama.cpp; plan_training "
    "for how long and how much a training run costs, biggest_model for the largest model a GPU holds, estimate_speed "
    "for tokens/s. "
    "Each tool's text is the answer, verdict first with the cheapest fix, and every result lists its assumptions: "
    "quote them with the figures, and read gpusizer://gpus or "
    "gpusizer://models for exact names."
)

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

TITLES = {"estimate_vram": "Estimate VRAM", "compare_gpus": "Compare GPUs", "cloud_cost": "Cloud cost",
          "rent_vs_buy": "Rent vs buy", "plan_serving": "Plan serving", "plan_training": "Plan training",
          "biggest_model": "Biggest model", "estimate_speed": "Estimate speed"}
SERVER_DESCRIPTION = ("GPU sizing from a sourced catalog: memory to serve and fine-tune, GPU comparisons, "
                      "cloud prices, rent-or-buy.")

# Arguments whose names say what they are: the tool's description names them once instead of a description each.
NAMED_IN_DESCRIPTION = {
    "estimate_vram": ("loss", "logits_kept", "gradient_checkpointing", "activation_offloading", "optimizer_in_backward",
                      "torch_compile", "engine_version", "gpu_memory_utilization", "max_model_len", "max_num_seqs",
                      "max_num_batched_tokens", "enforce_eager", "n_gpu_layers", "flash_attention"),
    "cloud_cost": ("spot_interruptions_per_hour", "hours_lost_per_interruption", "checkpoint_overhead_fraction",
                   "storage_gb_months", "egress_gb", "storage_usd_per_gb_month", "egress_usd_per_gb"),
    "plan_serving": ("params_billions", "weights_dtype", "kv_cache_dtype", "engine_version", "gpu_memory_utilization",
                     "bandwidth_efficiency",
                     "compute_efficiency", "pricing", "prompt_tokens", "output_tokens", "jurisdiction", "gpu"),
    "plan_training": ("params_billions", "examples", "tokens_per_example", "epochs", "recipe", "gpu", "gpu_count", "seq_len",
                      "batch_size", "gradient_checkpointing", "mfu", "fp8_training", "selective_checkpointing", "pricing"),
    "biggest_model": ("gpu_count", "method", "weights_dtypes", "seq_len", "batch_size", "gradient_checkpointing", "limit"),
    "estimate_speed": ("params_billions", "num_gpus", "weights_dtype", "kv_cache_dtype", "prompt_tokens", "output_tokens"),
    "rent_vs_buy": ("electricity_usd_per_kwh", "pue", "power_watts_per_gpu", "idle_watts_per_gpu", "colocation_usd_per_kw_month",
                    "staff_usd_per_year", "maintenance_fraction_per_year", "residual_fraction", "cost_of_capital",
                    "server_share_usd_per_gpu"),
}

DESCRIPTIONS = {
    "estimate_vram": (
        "Peak memory per GPU to serve or train a model: bytes, breakdown, assumptions, the GPUs it fits on; with gpu "
        "the largest batch and context. Training: recipe sets loss, logits_kept, gradient_checkpointing, "
        "activation_offloading, optimizer_in_backward, torch_compile. Engines (vllm or sglang with gpu, llama_cpp): "
        "start-up budget, KV tokens, max concurrency; engine_version, gpu_memory_utilization, max_model_len, max_num_seqs, "
        "max_num_batched_tokens, enforce_eager, n_gpu_layers, flash_attention."),
    "compare_gpus": (
        "Specs and prices of 2-20 GPUs with ratios to the first; with a model (and estimate_vram's "
        "workload, method, weights_dtype, batch_size, seq_len), also fits, decode tokens/s and $/million tokens."),
    "cloud_cost": (
        "Cloud offers that run N GPUs for H hours, cheapest first. Give a model (and estimate_vram's workload arguments) "
        "instead of gpu_count to rent what it needs. Also storage_gb_months, egress_gb, storage_usd_per_gb_month, "
        "egress_usd_per_gb, spot_interruptions_per_hour, hours_lost_per_interruption, checkpoint_overhead_fraction."),
    "rent_vs_buy": (
        "Owning vs renting N GPUs over years at a utilization: both totals, the verdict, break-even "
        "utilization, yearly table. Owned: electricity_usd_per_kwh, pue, power_watts_per_gpu, idle_watts_per_gpu, "
        "colocation_usd_per_kw_month, staff_usd_per_year, maintenance_fraction_per_year, residual_fraction, "
        "cost_of_capital, server_share_usd_per_gpu."),
    "plan_serving": (
        "GPUs to serve a model (or params_billions) to concurrent_users or requests_per_s (prompt_tokens in, output_tokens "
        "out) under an engine: "
        "per GPU type (gpu: one) the cheapest replicas, speed, $/hour, $/month, $/million tokens. Also "
        "weights_dtype, kv_cache_dtype, engine_version, gpu_memory_utilization, pricing, jurisdiction, "
        "bandwidth_efficiency, compute_efficiency."),
    "plan_training": (
        "Time, GPU-hours and cost of a training run from training_tokens or examples x tokens_per_example x epochs, "
        "per GPU type cheapest first (or on gpu x gpu_count), with the GPUs the job needs under its recipe. Also "
        "params_billions, method, recipe, seq_len, batch_size, gradient_checkpointing, selective_checkpointing, "
        "fp8_training, mfu (default: published runs'), pricing."),
    "biggest_model": (
        "The largest catalog models that fit gpu (x gpu_count) for a workload, per format (default: as released and "
        "q4_k_m). Also method, weights_dtypes, seq_len, batch_size, gradient_checkpointing, limit."),
    "estimate_speed": (
        "Decode tokens/s per sequence and in all at a concurrency, prompt tokens/s and time to first token of a model on "
        "a GPU under vllm, sglang or llama_cpp, and what bounds each. Also params_billions, num_gpus, weights_dtype, "
        "kv_cache_dtype, prompt_tokens, output_tokens."),
}


Lifespan: TypeAlias = dict[str, Any]  # what the SDK's default lifespan yields: gpusizer keeps no state across requests


class GpusizerServer(MCPServer[Lifespan]):
    """MCPServer whose tool errors read as one fix-it sentence, whatever layer caught them.

    Cold start: the calculators (gpusizer.tools, a quarter of a second of imports and schema building) are registered
    on first need, not at start. tools/list is answered from the listing saved beside this module
    (server/tool_listing.json, which tests/test_server_tools.py keeps equal to what the tools declare), and the
    registration then runs on a thread while the client reads the list, so it is usually done before the first call."""

    _listed: list[Tool] | None = None
    _register: Callable[[], None] | None = None

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._registering = threading.Lock()

    def register_tools(self) -> None:
        """Registers the tools once (any thread; a second caller waits for the first)."""
        with self._registering:
            if self._register is not None:
                self._register()
                self._register = None

    async def list_tools(self) -> list[Tool]:
        """Input schemas without titles and with optional values folded, output schemas whole but without titles and
        descriptions (compact_schema): tools/list is context on every turn."""
        if self._listed is None and self._register is not None:
            saved = saved_tools()
            if saved is not None:
                self._listed = saved
                threading.Thread(target=self.register_tools, name="gpusizer-register-tools", daemon=True).start()
                return saved
        if self._listed is None:
            self.register_tools()
            listed = await super().list_tools()
            for tool in listed:
                tool.input_schema = compact(tool.input_schema)
                for name in NAMED_IN_DESCRIPTION.get(tool.name, ()):
                    tool.input_schema["properties"].get(name, {}).pop("description", None)
                tool.output_schema = output_schema(tool.output_schema) if tool.output_schema else None
            self._listed = listed
        return self._listed

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Lifespan, Any] | None = None) -> CallToolResult | InputRequiredResult:
        """MCPServer.call_tool, except that a result is converted once, with the tool's answer as its text (the SDK
        writes the result as indented JSON text first, which `answered` then replaced: a tenth of a call's CPU)."""
        if self._register is not None:
            await anyio.to_thread.run_sync(self.register_tools)
        tool = self._tool_manager.get_tool(name)  # registered: gpusizer.tools is imported
        try:
            if tool is None or name not in sys.modules["gpusizer.tools"].ANSWERS:
                return answered(await super().call_tool(name, arguments, context), name)
            if context is None:
                context = Context(mcp_server=self, subscriptions=self._subscriptions)
            result = await tool.run(arguments, context)
        except ToolError as error:
            raise readable(error, name) from error
        return converted(tool, result, name)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Context[Lifespan, Any] | None = None) -> GetPromptResult | InputRequiredResult:
        """An unknown prompt or a missing argument is invalid params (-32602), not an internal error with a traceback."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            known = ", ".join(sorted(p.name for p in self._prompt_manager.list_prompts()))
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {repr(name)[:80]}; prompts: {known}")
        missing = [a.name for a in prompt.arguments or [] if a.required and a.name not in (arguments or {})]
        if missing:
            raise MCPError(code=INVALID_PARAMS, message=f"prompt {name}: missing argument(s) {', '.join(missing)}")
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as error:
            raise MCPError(code=INVALID_PARAMS, message=f"prompt {name}: {str(error)[:300]}") from error


LOG_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "notice": logging.INFO, "warning": logging.WARNING,
              "error": logging.ERROR, "critical": logging.CRITICAL, "alert": logging.CRITICAL, "emergency": logging.CRITICAL}


def honour_log_level(server: MCPServer) -> None:
    """logging/setLevel (deprecated by the 2026-07-28 revision, still what clients on 2025 revisions and the
    Inspector send): sets the level of gpusizer's and the SDK's loggers, whose output goes to stderr."""
    async def set_level(context: ServerRequestContext[Any, Any], params: SetLevelRequestParams) -> EmptyResult:
        level = LOG_LEVELS.get(str(params.level), logging.WARNING)
        for name in ("gpusizer", "mcp"):
            logging.getLogger(name).setLevel(level)
        return EmptyResult()

    server._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)


def reject_unknown_tools(server: MCPServer) -> None:
    """An unknown tool name is a JSON-RPC invalid-params error (-32602), as the MCP spec and reference servers do; an
    unknown argument is a tool error naming the nearest valid one (the SDK would silently drop it: 'batchsize: 64'
    would answer for batch 1)."""
    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call" and isinstance(ctx.params, dict) and isinstance(ctx.params.get("name"), str):
            name = ctx.params["name"]  # a name of another type is the SDK's to refuse (-32602), not a crash here
            listed = {tool.name: tool for tool in await server.list_tools()}
            if name not in listed:
                shown = repr(name)[:80]
                raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {shown}; tools: {', '.join(sorted(listed))}")
            arguments = ctx.params.get("arguments") or {}
            valid = listed[name].input_schema.get("properties", {})
            unknown = [key for key in arguments if key not in valid] if isinstance(arguments, dict) else []
            if unknown:
                from gpusizer.tools.validation import unknown_arguments_message

                return CallToolResult(content=[TextContent(type="text", text=unknown_arguments_message(name, unknown, valid))],
                                      is_error=True)
        return await call_next(ctx)

    server.middleware.append(middleware)


RESOURCE_NOT_FOUND = -32002  # MCP 2025-11-25 and earlier; the 2026-07-28 revision uses -32602 (SEP-2164)
SHOWN_URI_CHARACTERS = 100


def clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def answer_protocol_errors(server: MCPServer) -> None:
    """Errors the SDK words for itself, said the way the spec and a client need: a request before `initialize` says
    to initialize first (the SDK says only 'Invalid request parameters'), and an unknown resource is -32002 on 2025
    protocol versions (the SDK answers -32602) with its URI shown once and clipped (the SDK echoes it whole, twice)."""
    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        try:
            return await call_next(ctx)
        except MCPError as error:
            connection = getattr(ctx.session, "_connection", None)  # mcp 2.3 keeps no public handle on it
            if error.error.code == INVALID_PARAMS and error.error.message == "Invalid request parameters" \
                    and not error.error.data and not getattr(connection, "initialize_accepted", False):
                # The code stays the SDK's (clients may key off it); the message says what to do.
                raise MCPError(code=INVALID_PARAMS, message=f"Server not initialized: send initialize (then "
                               f"notifications/initialized) before {ctx.method[:40]}") from error
            data = error.error.data
            if ctx.method == "resources/read" and error.error.code == INVALID_PARAMS and isinstance(data, dict) \
                    and isinstance(data.get("uri"), str):
                uri = clipped(data["uri"], SHOWN_URI_CHARACTERS)
                message = error.error.message
                if message.startswith("Unknown resource:"):
                    message = f"Resource not found: {uri} (resources: gpusizer://gpus, gpusizer://gpus/{{gpu_id}}, " \
                              "gpusizer://models, gpusizer://offers)"
                code = INVALID_PARAMS if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND
                raise MCPError(code=code, message=clipped(message, 400), data={"uri": uri}) from error
            raise

    server.middleware.insert(0, middleware)


def server_version() -> str:
    try:
        return version("gpusizer")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def project_url() -> str | None:
    """The Homepage of the installed package's metadata ([project.urls] in pyproject.toml), if it names one."""
    try:
        urls = metadata("gpusizer").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    return next((u.split(",", 1)[1].strip() for u in urls if u.lower().startswith("homepage")), None)


def create_server(catalog: Catalog | None = None) -> GpusizerServer:
    """The gpusizer MCP server; `catalog` defaults to the built-in catalog plus the user's rows (loaded on first use)."""
    get_catalog = (lambda: catalog) if catalog is not None else default_catalog
    server = GpusizerServer("gpusizer", title="gpusizer: GPU sizing and cost", description=SERVER_DESCRIPTION,
                            instructions=INSTRUCTIONS, website_url=project_url(), version=server_version(), subscriptions=False,
                            log_level=settings().log_level)
    reject_unknown_tools(server)
    answer_protocol_errors(server)
    honour_log_level(server)

    def register() -> None:
        from gpusizer import tools

        for name, returns, groups in tool_shapes():
            function = flat_tool(with_catalog(getattr(tools, name), get_catalog), name, returns, groups)
            server.add_tool(function, name=name, title=TITLES[name], description=DESCRIPTIONS[name],
                            annotations=READ_ONLY, structured_output=True)

    server._register = register
    add_catalog_resources(server, get_catalog)
    add_prompts(server, get_catalog)
    return server


@functools.cache
def default_catalog() -> Catalog:
    """The built-in catalog plus the user's rows, imported and loaded on first use (not at start), once per process:
    load_catalog reads the settings again on every call to find the user's folder (~0.1 ms of each tool call)."""
    from gpusizer.catalog.catalog import load_catalog

    return load_catalog()


def with_catalog(call: Callable[..., BaseModel], get_catalog: Callable[[], Catalog]) -> Callable[..., BaseModel]:
    return lambda **arguments: call(catalog=get_catalog(), **arguments)


def tool_shapes() -> list[tuple[str, type[BaseModel], list[FieldGroup]]]:
    """Each tool's name, result model and the request-model fields its flat arguments come from."""
    from gpusizer import tools
    from gpusizer.tools.compare.compare_gpus import CompareRequest
    from gpusizer.tools.memory.biggest import BiggestModelRequest
    from gpusizer.tools.memory.request import VramRequest
    from gpusizer.tools.memory.workload import CORE_WORKLOAD_FIELDS
    from gpusizer.tools.money.cloud_cost import CloudCostRequest
    from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest
    from gpusizer.tools.serving.plan_models import PlanServingRequest
    from gpusizer.tools.speed.estimate_speed import EstimateSpeedRequest
    from gpusizer.tools.speed.plan_training import PlanTrainingRequest

    workload = CORE_WORKLOAD_FIELDS
    return [
        ("estimate_vram", tools.VramEstimate, [(VramRequest, None, False)]),
        ("compare_gpus", tools.GpuComparison, [(CompareRequest, None, False), (VramRequest, workload, True)]),
        ("cloud_cost", tools.CloudCost, [(CloudCostRequest, None, False), (VramRequest, workload, True)]),
        ("rent_vs_buy", tools.RentVsBuy, [(RentVsBuyRequest, None, False)]),
        ("plan_serving", tools.ServingPlan, [(PlanServingRequest, None, False)]),
        ("plan_training", tools.PlanTraining, [(PlanTrainingRequest, None, False)]),
        ("biggest_model", tools.BiggestModels, [(BiggestModelRequest, None, False)]),
        ("estimate_speed", tools.SpeedEstimate, [(EstimateSpeedRequest, None, False)]),
    ]
