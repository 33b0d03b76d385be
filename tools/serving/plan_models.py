"""The pydantic input and output of plan_serving (the MCP tool's schema comes from these)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpusizer.tools.alternatives import Change
from gpusizer.tools.memory.engine_settings import ServingEngine
from gpusizer.tools.memory.engine_versions import VERSION_LIMIT
from gpusizer.tools.validation import NAME_LIMIT, Jurisdiction, MemoryFraction, ModelName, ParamsBillions

FORMAT_FIELDS = ("weights_dtype", "kv_cache_dtype")
ReplicaSize = Literal[1, 2, 4, 8]
ServingPricing = Literal["on_demand", "spot"]  # estimate_vram's, with its choices and checks


class PlanServingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: ModelName | None = None  # described once, on estimate_vram: tools/list is context on every turn
    params_billions: ParamsBillions | None = None  # an unlisted dense model, as in estimate_vram
    weights_dtype: str | None = Field(default=None, max_length=NAME_LIMIT, description="default: as released (llama_cpp: q4_k_m)")
    kv_cache_dtype: str | None = Field(default=None, max_length=NAME_LIMIT)
    engine: ServingEngine = Field(default="vllm")
    engine_version: str | None = Field(default=None, max_length=VERSION_LIMIT)
    concurrent_users: int | None = Field(default=None, ge=1, le=10_000_000, description="requests in flight at once")
    requests_per_s: float | None = Field(default=None, gt=0, le=1_000_000)
    prompt_tokens: int = Field(default=1024, ge=1, le=10_000_000)
    output_tokens: int = Field(default=256, ge=1, le=1_000_000)
    ttft_s: float | None = Field(default=None, ge=0.001, le=3600, description="target (s)")
    tokens_per_s_per_user: float | None = Field(default=None, ge=0.01, le=100_000, description="target, per request")
    min_tokens_per_s_per_user: float | None = Field(default=None, ge=0, le=100_000, description="floor when no target is "
                                                    "given (default 10, interactive chat; 0: none)")
    gpu: str | None = Field(default=None, max_length=NAME_LIMIT)
    gpus_per_replica: ReplicaSize | None = Field(default=None, description="default: the cheapest")
    pricing: ServingPricing = Field(default="on_demand")
    jurisdiction: Jurisdiction | None = None
    gpu_memory_utilization: MemoryFraction | None = Field(default=None, description="vLLM 0.9; SGLang mem_fraction_static")
    bandwidth_efficiency: float | None = Field(default=None, ge=0.05, le=1, description="override the engine's share of bandwidth")
    compute_efficiency: float | None = Field(default=None, ge=0.05, le=1, description="override the share of dense compute")

    @field_validator("weights_dtype", "kv_cache_dtype", mode="before")
    @classmethod
    def _lower_case(cls, value: object) -> object:
        return value.strip().lower().replace("-", "_") if isinstance(value, str) else value


class ServingOffer(BaseModel):
    provider: str
    instance_type: str
    region: str
    pricing: str
    instances: int
    replicas_per_instance: int
    usd_per_instance_hour: float
    price_date: str
    source: str
    offer_class: str = Field(default="", description="the class the price is quoted in: datacenter or marketplace "
                             "on-demand, or spot")


class ServingOption(BaseModel):
    """One GPU type: the cheapest replica shape that meets the targets, and what the traffic needs of it."""
    gpu_id: str
    gpus_per_replica: int
    tensor_parallel: int = Field(description="1 for llama.cpp, which splits layers across its GPUs")
    replicas: int
    total_gpus: int
    fewest_gpus: int = Field(description="the fewest GPUs of this type that serve the traffic, at any cost (total_gpus is "
                             "the cheapest plan's)")
    max_concurrency_per_replica: int = Field(description="requests of prompt + output tokens the KV cache holds at once")
    concurrency_per_replica: int = Field(description="requests each replica runs at the planned load")
    limited_by: str = Field(description="what caps a replica's batch: kv_cache, max_num_seqs (SGLang: max_running_requests), "
                            "tokens_per_s_per_user or ttft_s")
    largest_concurrency_per_replica: int = Field(description="the most requests a replica runs within the targets (what "
                                                 "limited_by caps): its capacity, at or above the planned concurrency")
    capacity_requests_per_s: float = Field(description="requests/s all replicas sustain at that capacity: requests at once / "
                                           "(ttft_s + output_tokens x decode step), Little's law")
    tokens_per_s_per_user: float = Field(description="decode speed each request sees at the planned load")
    aggregate_tokens_per_s: float = Field(description="output tokens per second of all replicas at the planned load")
    ttft_s: float = Field(description="time to first token at the planned load, without queueing")
    decode_step_ms: float
    compute_bound_batch: int | None = Field(description="batch from which decode's linear layers are compute-bound")
    kv_cache_tokens_per_replica: int
    usd_per_hour: float | None = Field(description="all replicas; null without a cloud offer in the catalog")
    usd_per_month: float | None = Field(description="730 hours")
    usd_per_million_output_tokens: float | None
    offer: ServingOffer | None


class InfeasibleGpu(BaseModel):
    gpu_id: str
    reason: str


class ServingAlternative(Change):
    """A change to the request and the cheapest plan it gives (tools/serving/alternatives.py)."""
    gpu_id: str
    total_gpus: int
    usd_per_month: float | None
    tokens_per_s_per_user: float


class ServingPlan(BaseModel):
    model: str
    engine: str
    engine_version: str
    weights_dtype: str
    kv_cache_dtype: str
    concurrent_users: int | None = Field(description="the load planned for: requests in flight at once, or")
    requests_per_s: float | None = Field(description="arrivals per second")
    prompt_tokens: int
    output_tokens: int
    options: list[ServingOption] = Field(description="one per GPU type, cheapest first (unpriced last, fewest GPUs first)")
    infeasible: list[InfeasibleGpu]
    assumptions: list[str]
    warnings: list[str]
    alternatives: list[ServingAlternative] = Field(default=[], description="changes that make it possible or cheaper")
