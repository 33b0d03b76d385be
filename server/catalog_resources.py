"""The catalog as MCP resources (JSON), and completions for GPU and model names."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.types import Completion, CompletionArgument, CompletionContext, PromptReference, ResourceTemplateReference
from pydantic import BaseModel

from gpusizer.catalog import SizingError

if TYPE_CHECKING:
    from gpusizer.catalog import Catalog

JSON = "application/json"
GPU_ARGUMENTS = {"gpu", "gpu_id", "gpus"}
MODEL_ARGUMENTS = {"model", "model_id"}
NO_COMPLETION = Completion(values=[], total=0, has_more=False)
# Completions match fuzzily when nothing starts with the value (tens of ms for a 200-character value): they run on
# worker threads, two at a time (per event loop), so a flood of them leaves the event loop and other clients free.
COMPLETION_THREADS: RunVar[anyio.CapacityLimiter] = RunVar("gpusizer_completion_threads")


def completion_threads() -> anyio.CapacityLimiter:
    try:
        return COMPLETION_THREADS.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(2)
        COMPLETION_THREADS.set(limiter)
        return limiter


def as_json(rows: Iterable[BaseModel]) -> str:
    return json.dumps([row.model_dump(mode="json") for row in rows], indent=1)


def add_catalog_resources(server: MCPServer, get_catalog: Callable[[], Catalog]) -> None:
    @server.resource("gpusizer://gpus", name="gpus", title="GPU catalog", mime_type=JSON,
                     description="Every GPU: memory (marketed GB and usable bytes), bandwidth GB/s, dense TFLOPS per "
                                 "precision, TDP, interconnect, purchase price where known; each row with source and as_of")
    def gpus() -> str:
        return as_json(get_catalog().gpus)

    @server.resource("gpusizer://gpus/{gpu_id}", name="gpu", title="One GPU", mime_type=JSON,
                     description="One GPU's row by id or alias (e.g. gpusizer://gpus/h100-sxm), with its cloud offers")
    def gpu(gpu_id: str) -> str:
        catalog = get_catalog()
        try:
            spec = catalog.find_gpu(gpu_id)
        except SizingError as error:
            raise ResourceNotFoundError(str(error)) from None
        offers = [o.model_dump(mode="json") for o in catalog.offers_for(spec.gpu_id)]
        return json.dumps({**spec.model_dump(mode="json"), "offers": offers}, indent=1)

    @server.resource("gpusizer://models", name="models", title="Model catalog", mime_type=JSON,
                     description="Every model architecture (layers, hidden size, heads, KV heads, vocabulary, MoE and "
                                 "attention details) from its config.json, with source and as_of")
    def models() -> str:
        return as_json(get_catalog().models)

    @server.resource("gpusizer://offers", name="offers", title="Cloud offers", mime_type=JSON,
                     description="Every cloud instance offer: provider, instance type, GPUs per instance, region, "
                                 "on-demand and spot USD per hour, with source and as_of")
    def offers() -> str:
        return as_json(get_catalog().offers)

    @server.completion()  # type: ignore[no-untyped-call, untyped-decorator]  # mcp 2.3: MCPServer.completion() is unannotated
    async def complete(ref: PromptReference | ResourceTemplateReference, argument: CompletionArgument,
                       context: CompletionContext | None) -> Completion | None:
        """Names for a half-typed value; a value longer than any name (200 characters) completes to nothing."""
        if argument.name in GPU_ARGUMENTS:
            def values() -> list[str]:
                return get_catalog().complete_gpu(argument.value)
        elif argument.name in MODEL_ARGUMENTS:
            def values() -> list[str]:
                return get_catalog().complete_model(argument.value)
        else:
            return None
        from gpusizer.catalog.catalog import NAME_LIMIT

        if len(argument.value) > NAME_LIMIT:
            return NO_COMPLETION
        found = await anyio.to_thread.run_sync(values, limiter=completion_threads())
        return Completion(values=found, total=len(found), has_more=False)
