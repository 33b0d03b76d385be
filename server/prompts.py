"""Prompts for the common journeys: each one a short brief telling the assistant which tools to call in what order."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from pydantic import Field

from gpusizer.catalog import SizingError

if TYPE_CHECKING:
    from gpusizer.catalog import Catalog

# rent_vs_buy's defaults, written here so that listing prompts imports no calculator (gpusizer.tools.money pulls in
# all of gpusizer.tools); tests/test_server_tools.py checks them against RentVsBuyRequest
RENT_VS_BUY_DEFAULTS = {"gpu_count": "8", "utilization": "0.7"}

Found = TypeVar("Found")


def checked(lookup: Callable[[str], Found], name: str) -> Found:
    """A catalog lookup whose "did you mean" reaches the client as an invalid-params error, not a crash."""
    try:
        return lookup(name)
    except SizingError as error:
        raise MCPError(code=INVALID_PARAMS, message=str(error)) from None


def add_prompts(server: MCPServer, get_catalog: Callable[[], Catalog]) -> None:
    @server.prompt(name="plan_fine_tune", title="Plan a fine-tune",
                   description="Compare full, LoRA and QLoRA fine-tuning of a model: memory, GPUs needed, cost")
    def plan_fine_tune(model: str = Field(description="model to fine-tune, e.g. 'meta-llama/Llama-3.1-8B'"),
                       seq_len: str = Field(default="4096", description="tokens per training sequence"),
                       budget_gpu: str = Field(default="", description="a GPU you already have or prefer, e.g. 'rtx 4090'")) -> str:
        model_id = checked(get_catalog().find_model, model).model_id
        on_gpu = f" Check each on {budget_gpu} with the gpu argument." if budget_gpu else ""
        return (f"Plan a fine-tune of {model_id} at {seq_len} tokens per sequence. Call estimate_vram with "
                f"workload='training' three times: method='full' with sharding='zero3', method='lora', and method='qlora'; "
                f"try gradient_checkpointing=true where memory is tight.{on_gpu} Then compare_gpus on the smallest GPUs "
                "each option fits, and cloud_cost for the cheapest one. Answer with a table: method, peak GiB per GPU, "
                "GPUs needed, cheapest $/hour; quote the assumptions.")

    @server.prompt(name="choose_inference_hardware", title="Choose inference hardware",
                   description="Pick GPUs to serve a model at a context and concurrency, per weight precision")
    def choose_inference_hardware(model: str = Field(description="model to serve"),
                                  context_tokens: str = Field(default="8192", description="context per request"),
                                  concurrent_requests: str = Field(default="8", description="sequences served at once")) -> str:
        model_id = checked(get_catalog().find_model, model).model_id
        return (f"Choose hardware to serve {model_id} with {concurrent_requests} concurrent requests of {context_tokens} "
                "tokens. Call estimate_vram (workload='inference', batch_size and seq_len as given) for bf16, fp8 and int4 "
                "weights. Take the GPUs from its fits list and call compare_gpus with the same workload to get decode "
                "tokens/s and $ per million tokens. Recommend one option per precision and say which bound limits speed.")

    @server.prompt(name="rent_or_buy", title="Rent or buy GPUs",
                   description="Cloud rent against owning a GPU cluster, with break-even utilization")
    def rent_or_buy(gpu: str = Field(description="GPU to buy or rent, e.g. 'h100'"),
                    gpu_count: str = Field(default=RENT_VS_BUY_DEFAULTS["gpu_count"], description="how many GPUs"),
                    utilization: str = Field(default=RENT_VS_BUY_DEFAULTS["utilization"],
                                             description="expected busy share, 0-1")) -> str:
        gpu_id = checked(get_catalog().find_gpu, gpu).gpu_id
        return (f"Decide whether to rent or buy {gpu_count} x {gpu_id} at {utilization} utilization. Call cloud_cost for "
                f"the cheapest rental, then rent_vs_buy with that rate; run it again with staff_usd_per_year and "
                "maintenance_fraction_per_year set to realistic values (ask the user) and compare. Report the verdict, "
                "the break-even utilization and GPU-hours, and the assumptions that drive them.")
