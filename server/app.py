"""The MCP server: the four calculators as tools, the catalog as resources, a few prompts.

A thin adapter: arguments in, a `gpusizer.tools` call, the tool's pydantic result out. Every
`SizingError` reaches the client as a `ToolError` with its fix-it text.
"""
from __future__ import annotations

import logging
import os
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, EmptyResult, SetLevelRequestParams, TextContent, ToolAnnotations
from pydantic import ValidationError

from gpusizer import tools
from gpusizer.catalog import Catalog, SizingError, load_catalog
from gpusizer.tools.cloud_cost import CloudCostRequest
from gpusizer.tools.compare_gpus import CompareRequest
from gpusizer.tools.rent_vs_buy import RentVsBuyRequest
from gpusizer.tools.validation import unknown_arguments_message, validation_message
from gpusizer.tools.vram_models import VramRequest
from gpusizer.tools.workload import WORKLOAD_FIELDS

from .catalog_resources import add_catalog_resources
from .prompts import add_prompts
from .signatures import flat_tool

INSTRUCTIONS = (
    "gpusizer answers GPU sizing and cost questions from a sourced catalog of GPUs, models and cloud prices. "
    "Start with estimate_vram for 'will it fit / how much memory / how many GPUs', then compare_gpus to choose "
    "hardware, cloud_cost for what a job costs to rent, and rent_vs_buy for owning versus renting. "
    "Every result lists its assumptions: quote them with the figures, and read gpusizer://gpus or "
    "gpusizer://models for exact names."
)

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

DESCRIPTIONS = {
    "estimate_vram": (
        "Peak GPU memory per GPU for serving or training a model, with a breakdown (weights, KV cache, activations, "
        "gradients, optimizer states, runtime overhead), the catalog GPUs it fits on with how many are needed, and "
        "with `gpu` the largest batch and longest sequence that fit that GPU. Use it for 'will X fit on Y', "
        "'how much VRAM for X', 'how many GPUs to fine-tune X'. Memory is in bytes."),
    "compare_gpus": (
        "Side-by-side specs and prices of 2-20 GPUs (memory, bandwidth, dense TFLOPS, FP8/FP4 support, cheapest "
        "on-demand and spot $/GPU-hour, per-dollar figures, ratios to the first GPU). Give a workload (model plus "
        "estimate_vram's arguments) to add fits, GPUs needed, decode tokens/s and prefill time bounds and $ per "
        "million tokens. Use it to choose between GPUs."),
    "cloud_cost": (
        "Every catalog cloud offer that can run gpu_count GPUs for the given wall-clock hours, cheapest first, "
        "on-demand and spot: whole instances, idle GPUs, billing increments and minimums, stale prices flagged. "
        "Use it for 'what does it cost to rent N x GPU for H hours' and 'cheapest provider'."),
    "rent_vs_buy": (
        "Own versus rent over a horizon: purchase, power, staff, maintenance, capital cost and residual value "
        "against cloud rent at a utilization; returns both totals, the recommendation, break-even utilization and "
        "GPU-hours, a yearly table and a utilization sweep. Use it for 'should we buy or rent'."),
}


class GpusizerServer(MCPServer):
    """MCPServer whose tool errors read as one fix-it sentence, whatever layer caught them."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            raise readable(error, name) from error

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context=None):
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
    async def set_level(context, params: SetLevelRequestParams) -> EmptyResult:
        level = LOG_LEVELS.get(str(params.level), logging.WARNING)
        for name in ("gpusizer", "mcp"):
            logging.getLogger(name).setLevel(level)
        return EmptyResult()

    server._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)


def readable(error: ToolError, tool: str) -> ToolError:
    """The SizingError or argument problem behind a ToolError, without the SDK's prefix and pydantic's URLs."""
    cause = error.__cause__
    while cause is not None:
        if isinstance(cause, SizingError):
            return ToolError(str(cause))
        if isinstance(cause, ValidationError):
            return ToolError(validation_message(cause, tool))
        cause = cause.__cause__
    return error


def reject_unknown_tools(server: MCPServer) -> None:
    """An unknown tool name is a JSON-RPC invalid-params error (-32602), as the MCP spec and reference servers do; an
    unknown argument is a tool error naming the nearest valid one (the SDK would silently drop it: 'batchsize: 64'
    would answer for batch 1)."""
    async def middleware(ctx, call_next):
        if ctx.method == "tools/call" and isinstance(ctx.params, dict):
            name = ctx.params.get("name")
            listed = {tool.name: tool for tool in await server.list_tools()}
            if name not in listed:
                shown = repr(name)[:80]
                raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {shown}; tools: {', '.join(sorted(listed))}")
            arguments = ctx.params.get("arguments") or {}
            valid = listed[name].input_schema.get("properties", {})
            unknown = [key for key in arguments if key not in valid] if isinstance(arguments, dict) else []
            if unknown:
                return CallToolResult(content=[TextContent(type="text", text=unknown_arguments_message(name, unknown, valid))],
                                      is_error=True)
        return await call_next(ctx)

    server.middleware.append(middleware)


def server_version() -> str:
    try:
        return version("gpusizer")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


def create_server(catalog: Catalog | None = None) -> MCPServer:
    """The gpusizer MCP server; `catalog` defaults to the built-in catalog plus the user's rows (loaded on first use)."""
    get_catalog = (lambda: catalog) if catalog is not None else load_catalog
    server = GpusizerServer("gpusizer", title="gpusizer: GPU sizing and cost", instructions=INSTRUCTIONS,
                            version=server_version(), subscriptions=False,
                            log_level=os.environ.get("GPUSIZER_LOG_LEVEL", "WARNING").upper())
    reject_unknown_tools(server)
    honour_log_level(server)
    for name, returns, groups in tool_shapes():
        function = flat_tool(with_catalog(getattr(tools, name), get_catalog), name, returns, groups)
        server.add_tool(function, name=name, title=name.replace("_", " ").capitalize(), description=DESCRIPTIONS[name],
                        annotations=READ_ONLY, structured_output=True)
    add_catalog_resources(server, get_catalog)
    add_prompts(server, get_catalog)
    return server


def with_catalog(call, get_catalog):
    return lambda **arguments: call(catalog=get_catalog(), **arguments)


def tool_shapes():
    """Each tool's name, result model and the request-model fields its flat arguments come from."""
    workload = WORKLOAD_FIELDS
    return [
        ("estimate_vram", tools.VramEstimate, [(VramRequest, None, False)]),
        ("compare_gpus", tools.GpuComparison, [(CompareRequest, None, False), (VramRequest, workload, True)]),
        ("cloud_cost", tools.CloudCost, [(CloudCostRequest, None, False), (VramRequest, workload, True)]),
        ("rent_vs_buy", tools.RentVsBuy, [(RentVsBuyRequest, None, False)]),
    ]
