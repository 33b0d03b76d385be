"""How Ask says what it understood: the reading in one line, the defaults it rested on, the words it ignored."""
from __future__ import annotations

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.figures import number, percent, token_count, usd
from gpusizer.tools.memory.engines.llama_cpp import DEFAULT_CONTEXT as LLAMA_CPP_CONTEXT
from gpusizer.tools.memory.plan import LLAMA_CPP_DEFAULT, resolve_weights_dtype
from gpusizer.tools.memory.recipes import DEFAULT_RECIPE
from gpusizer.tools.memory.request import VramRequest, stored_weights_dtype
from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest
from gpusizer.tools.serving.plan_models import PlanServingRequest
from gpusizer.tools.serving.targets import INTERACTIVE_FLOOR_TOKENS_PER_S
from gpusizer.tools.serving.windows import model_window
from gpusizer.tools.speed.training_time import FLOPS_PER_PARAMETER_PER_TOKEN
from gpusizer.tools.validation import default_of

from .answers import ToolCall
from .journeys import (
    ASSUMED_HOURS,
    BIGGEST_MODEL_CONTEXT,
    TRAINING_GPU,
    TRAINING_GPUS,
    bought_count,
    capacity_asked,
    estimate_engine,
    floorless,
    has_subject,
    lead_of,
    memory_of_unknown,
    named_gpus,
    serving_engine,
    training_count,
)
from .reading import Reading

MEMORY_JOURNEYS = ("estimate", "fit", "limits", "which_gpu", "cheapest_method")
PROMPT_TOKENS = default_of(PlanServingRequest, "prompt_tokens")  # the tools' defaults, said where the question is silent
OUTPUT_TOKENS = default_of(PlanServingRequest, "output_tokens")
SERVING_ENGINE = default_of(PlanServingRequest, "engine")
BATCH_SIZE = default_of(VramRequest, "batch_size")
WORKLOAD = default_of(VramRequest, "workload")


def weights_reading(reading: Reading, workload: str, catalog: Catalog, calls: list[ToolCall]) -> str:
    """The format the weights are stored in: the answer's tool's, else (a comparison or a cheapest way, whose results
    do not say it) the one estimate_vram would choose; with why where the question named none: the release's own, or
    the GGUF llama.cpp users download."""
    result = (calls[0].result if calls else None) or {}  # estimate_vram's, estimate_speed's; not compare_gpus' or cheapest_way's
    dtype = result.get("weights_dtype")
    why = next((line.split(" (", 1)[1] for line in result.get("assumptions", []) if line.startswith("weights: ")), "")
    if dtype is None and reading.weights_dtype:
        return stored_weights_dtype(reading.method, reading.weights_dtype)
    engine = "llama_cpp" if serving_engine(reading) == "llama_cpp" and workload == "inference" else "hf"
    if dtype is None and reading.model:
        try:
            request = VramRequest.model_validate({"model": reading.model, "workload": workload,
                                                  "method": reading.method or "full", "engine": engine})
            dtype, why = resolve_weights_dtype(request, catalog.find_model(reading.model), None)
        except SizingError:
            return "as released"
    dtype = dtype or (LLAMA_CPP_DEFAULT if engine == "llama_cpp" else "bf16")  # a model known by its size alone
    if reading.model and why.startswith(("as released", "llama.cpp's MXFP4 GGUF of this release")):
        return dtype + " (as released)"
    return dtype + (" (llama.cpp's usual GGUF)" if why.startswith("the GGUF most people run") else "")


def context_words(reading: Reading, journey: str, catalog: Catalog) -> tuple[str, str]:
    """The context the answer sizes, short and as a default: the one asked, else the sizing engine's own default
    (llama.cpp's -c, vLLM's and SGLang's whole model window), else estimate_vram's seq_len."""
    engine = estimate_engine(reading, journey in ("fit", "limits")) if journey in MEMORY_JOURNEYS else None
    if reading.seq_len or journey == "speed":  # speed: plan_serving's prompt, as the 'Assumed' line says
        said = f"{number(reading.seq_len)} tokens" if reading.seq_len else f"{number(PROMPT_TOKENS)}-token prompts"
    elif engine == "llama_cpp":
        return f"{number(LLAMA_CPP_CONTEXT)} tokens", f"{number(LLAMA_CPP_CONTEXT)} tokens (llama.cpp's -c default)"
    elif engine in ("vllm", "sglang") and reading.model:
        found = model_window(catalog, reading.model)
        window = number(found) if found is not None else "the model's"
        return f"{window} tokens (its window)", f"the model's whole window, {window} tokens ({engine}'s default)"
    else:
        said = f"{number(default_of(VramRequest, 'seq_len'))} tokens"
    return said, said


def subject_words(reading: Reading) -> str:
    if reading.model:
        return reading.model
    unknown = f"'{reading.unknown_models[0]}'" if reading.unknown_models else ""
    if reading.params_billions is None:
        return f"{unknown or 'a model'} (not in the catalog, no size given)"
    generic = f"a generic {number(reading.params_billions)}B dense model"
    return f"{unknown} as {generic}" if unknown else generic


def gpu_words(reading: Reading, counted: bool = True) -> str:
    """The GPUs named, with their counts unless compared; a memory size standing for a GPU outside the catalog
    carries its name."""
    sized = {memory: name for name, memory in memory_of_unknown(reading).items()}
    unsized = [f"'{u}' (not in the catalog)" for u in reading.unknown_gpus[len(sized):]]
    return ", ".join([(f"{c or 1} × " if counted else "") + (f"'{sized[g]}' ({g}, not in the catalog)" if g in sized else g)
                      for g, c in reading.gpus] + unsized)


def interpretation(reading: Reading, journey: str, catalog: Catalog, calls: list[ToolCall]) -> str:
    """The reading in one line: what the journey's tools were asked, with the values they used."""
    engine = serving_engine(reading) or SERVING_ENGINE
    if journey == "serving":
        traffic = (f"{number(reading.requests_per_s)} requests/s" if reading.requests_per_s is not None
                   else f"{number(reading.users or reading.batch_size or 1)} concurrent users")
        target = f", at least {number(reading.tokens_per_s_per_user)} tokens/s each" if reading.tokens_per_s_per_user else ""
        where = f" on {reading.gpu}" if reading.gpu else " on every catalog GPU"
        return f"serve {subject_words(reading)} with {engine} to {traffic}, {request_words(reading)}{target}{where}"
    if journey == "training_time":
        gpus = ", ".join(f"{training_count(catalog, g, c)} × {g}" for g, c in reading.gpus)
        asked = any(s.kind == "tokens_asked" for s in reading.spans)  # 'how many tokens for $10k', 'Chinchilla-optimal'
        amount = (f"on {token_count(reading.training_tokens)} tokens" if reading.training_tokens
                  else "(the tokens asked)" if asked else "(tokens per day)")
        how = f" ({reading.method})" if reading.method_said and reading.method else ""
        return f"train {subject_words(reading)}{how} {amount}" + (f" on {gpus}" if gpus else "") + (
            ", gradient checkpointing" if reading.gradient_checkpointing else "")
    if capacity_asked(reading, journey):  # serving_capacity: requests of a prompt and an answer
        speed = (f"at least {number(reading.tokens_per_s_per_user or INTERACTIVE_FLOOR_TOKENS_PER_S)} tokens/s each"
                 if not floorless(reading) else "the most output tokens/s in all" if lead_of(reading) == "throughput"
                 else "as many as the engine admits")
        cache = f", KV cache in {reading.kv_cache_dtype}" if reading.kv_cache_dtype else ""
        return (f"what {engine} serves of {reading.model} on {gpu_words(reading)}: requests of "
                f"{request_words(reading)} at once, {speed}{cache}")
    if journey == "biggest_model":
        return f"the largest catalog models that fit {gpu_words(reading)}"
    if journey in ("gpu_card", "cloud_cost", "rent_or_buy", "compare") and not has_subject(reading):
        gpus = gpu_words(reading, counted=False) if journey == "compare" else ", ".join(  # a rent-or-buy weighs the count bought
            f"{bought_count(reading, catalog) if journey == 'rent_or_buy' and i == 0 else c or 1} × {g}"
            for i, (g, c) in enumerate(reading.gpus))
        extra = {"cloud_cost": f", {number(reading.hours or ASSUMED_HOURS)} h"
                 + (f" at {usd(reading.rent_usd_per_gpu_hour)}/GPU-h" if reading.rent_usd_per_gpu_hour is not None else "")
                 + (f", {reading.jurisdiction} offers only" if reading.jurisdiction else ""),
                 "rent_or_buy": (f", utilization {percent(reading.utilization)}" if reading.utilization is not None else "")
                 + (f", {number(reading.years)} year{'s' if reading.years != 1 else ''}" if reading.years else "")}
        return f"{journey.replace('_', ' ')}: {gpus}{extra.get(journey, '')}"
    workload = reading.workload or WORKLOAD
    method = f" ({reading.method})" if workload == "training" and reading.method and journey != "cheapest_method" else ""
    pieces = ["compare " + gpu_words(reading, counted=False) + " for"] if journey == "compare" else []
    pieces += [subject_words(reading), workload + method, weights_reading(reading, workload, catalog, calls),
               f"batch {number(reading.batch_size or BATCH_SIZE)}", context_words(reading, journey, catalog)[0]]
    for value, label in ((reading.kv_cache_dtype, "KV cache in {}"), (reading.sharding, "sharding {}"),
                         (reading.recipe, "recipe {}"), (reading.training_precision, "{} precision"),
                         (serving_engine(reading), "engine {}"), (reading.gradient_checkpointing, "gradient checkpointing"),
                         (journey != "compare" and (reading.gpus or reading.unknown_gpus) and gpu_words(reading), "on {}")):
        if value:
            pieces.append(label.format(value))
    return ", ".join(pieces).replace(" for, ", " for ")


def defaults_used(reading: Reading, journey: str, catalog: Catalog, calls: list[ToolCall]) -> list[str]:
    """What the answer assumed because the question did not say, in the words a user would change: the values the
    tools used, where they ran."""
    if capacity_asked(reading, journey):
        return engine_capacity_defaults(reading)
    out = memory_defaults(reading, journey, catalog, calls) if journey in MEMORY_JOURNEYS or journey in ("compare", "speed") \
        and has_subject(reading) else []
    return out + journey_defaults(reading, journey, catalog)


def request_words(reading: Reading) -> str:
    return f"{number(reading.seq_len or PROMPT_TOKENS)} prompt + {number(reading.output_tokens or OUTPUT_TOKENS)} output tokens"


def engine_capacity_defaults(reading: Reading) -> list[str]:
    return serving_defaults(reading, "limits") + unsaid((reading.tokens_per_s_per_user is None and not floorless(reading),
        f"speed: at least {number(INTERACTIVE_FLOOR_TOKENS_PER_S)} tokens/s per request (say e.g. '25 tok/s each')"))


def unsaid(*rows: tuple[object, str]) -> list[str]:
    """The default lines whose condition holds: each row is (whether the question left it unsaid, the line)."""
    return [line for needed, line in rows if needed]


def memory_defaults(reading: Reading, journey: str, catalog: Catalog, calls: list[ToolCall]) -> list[str]:
    workload = reading.workload or WORKLOAD
    training = workload == "training"
    return unsaid(
        (reading.workload is None and journey != "speed", "workload: inference (say 'fine-tune', 'LoRA' or 'QLoRA' for training)"),
        (training and not reading.method_said and journey != "cheapest_method",
         "method: full fine-tuning (say 'LoRA' or 'QLoRA' for adapters)"),
        (training and reading.recipe is None, f"recipe: {DEFAULT_RECIPE} (say 'unsloth', 'trl' or 'torchtune' for theirs)"),
        (reading.weights_dtype is None and (reading.model or reading.params_billions),
         f"weights: {weights_reading(reading, workload, catalog, calls)} (say '4-bit', 'fp8' or a GGUF type for another)"),
        (reading.seq_len is None and journey not in ("limits", "speed"),  # limits asks for the context; speed has prompts
         f"context: {context_words(reading, journey, catalog)[1]} (say e.g. '8k context')"),
        (reading.batch_size is None and journey != "speed" and training, f"batch: {BATCH_SIZE} per GPU"),
    ) + engine_defaults(reading, journey, workload)


def engine_defaults(reading: Reading, journey: str, workload: str) -> list[str]:
    chosen, unsized = estimate_engine(reading, journey in ("fit", "limits")), serving_engine(reading)
    if workload != "inference" or journey not in MEMORY_JOURNEYS:
        return []
    if chosen is not None and unsized is None and chosen != "llama_cpp":
        return [f"engine: {chosen} (you asked about serving: the most common server; say sglang or llama.cpp/ollama for theirs)"]
    if chosen is None and unsized in ("vllm", "sglang"):
        return [f"engine: {unsized} sizes its memory budget on a named GPU; without one this is the model's own "
                "need under transformers generate() (name a GPU for its budget)"]
    if journey in ("estimate", "fit", "which_gpu", "cheapest_method") and chosen is None:
        return ["engine: transformers generate() with one full prefill (name vllm, sglang or llama.cpp/ollama "
                "for their start-up budget)"]
    return []


def serving_defaults(reading: Reading, journey: str) -> list[str]:
    return unsaid((serving_engine(reading) is None,
                   f"engine: {SERVING_ENGINE} (the most common server; say sglang or llama.cpp/ollama for theirs)"),
                  (reading.seq_len is None, f"prompt: {number(PROMPT_TOKENS)} tokens"),
                  (reading.output_tokens is None, f"output: {number(OUTPUT_TOKENS)} tokens"),
                  (journey == "speed" and reading.users is None and reading.batch_size is None, "users: 1 at a time"))


def journey_defaults(reading: Reading, journey: str, catalog: Catalog) -> list[str]:
    """The defaults of the journeys that size no memory."""
    if journey in ("serving", "speed"):
        return serving_defaults(reading, journey)
    if journey == "cloud_cost":
        return unsaid((reading.hours is None, f"duration: {number(ASSUMED_HOURS)} hour (say 'for a week' or '100 hours')"),
                      (reading.pricing is None, "pricing: on-demand and spot both listed"))
    if journey == "rent_or_buy":
        return ownership_defaults(reading, catalog)
    if journey == "biggest_model":
        return unsaid((reading.seq_len is None, f"context: {number(BIGGEST_MODEL_CONTEXT)} tokens"))
    if journey == "training_time":  # 'fine-tune X on 50M tokens': every weight trained unless adapters are named
        return unsaid((not reading.gpus, f"GPUs: {TRAINING_GPUS} × {TRAINING_GPU}"),
                      (True, "MFU: a published run's on that GPU generation"),
                      (not reading.method_said, f"method: full training, {FLOPS_PER_PARAMETER_PER_TOKEN} FLOPs per parameter "
                                                "per token (say 'LoRA' or 'QLoRA' for adapters)"))
    return []


def ownership_defaults(reading: Reading, catalog: Catalog) -> list[str]:
    named, n = named_gpus(reading), bought_count(reading, catalog)
    return unsaid(
        (named and not named[0][1],  # a memory size alone is no GPU one buys
         f"GPUs: {n} ({'a PCIe card is bought singly' if n == 1 else 'modules like these come as 8-GPU servers'}; say how many)"),
        ((reading.utilization if reading.hours is None else reading.hours) is None,  # hours of use set the utilization
         f"utilization: {percent(default_of(RentVsBuyRequest, 'utilization'))}"),
        (reading.years is None, f"horizon: {number(default_of(RentVsBuyRequest, 'years'))} years"),
        (reading.purchase_usd_per_gpu is None, "purchase price: the catalog's street price"),
        (reading.rent_usd_per_gpu_hour is None, "rent: the cheapest offer of as many, none idle"),
        (True, "owning lines: sourced defaults"))


def not_understood_text(reading: Reading, examples: list[str], troubleshooting: bool = False) -> str:
    listed = "Examples:\n" + "\n".join(f"  • {e}" for e in examples)
    if troubleshooting:  # 'Open WebUI can't talk to ollama since the update': no sizing asked
        return ("This reads as a setup or troubleshooting question (an error, a crash, a service that stopped); gpusizer "
                "answers sizing ones: memory, fit, speed, GPUs, cost. " + listed)
    seen = []
    if reading.workload:
        seen.append(f"a workload ({reading.workload})")
    if reading.hours:
        seen.append(f"{number(reading.hours)} hours")
    known = f"I saw {', '.join(seen)} but " if seen else "I "
    return (f"{known}found no model or GPU I know in this question. Name a model (e.g. 'llama 3.1 8b', 'a 13B model') "
            "or a GPU (e.g. 'h100', 'rtx 4090', 'a 24GB card'). " + listed)
