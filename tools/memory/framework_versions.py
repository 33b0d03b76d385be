"""Training-stack releases: which one a request means, and the release where a default that moves memory changed.

`framework_version` names releases as "4.46" (the recipe's own framework) or "transformers 4.46, bitsandbytes
0.43.1" (any of LIBRARIES, `name version` or `name==version`, separated by commas or semicolons). Without one, the
releases in CURRENT apply, the newest whose code was read. Each rule is a row: the library, the first release with
the new behaviour, the behaviour before and from it, and where it was read.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from gpusizer.catalog import SizingError

VersionKey = tuple[int, ...]

CURRENT: dict[str, str] = {"transformers": "5.23.0", "peft": "0.21.2", "bitsandbytes": "0.50.1", "trl": "1.16.0",
                           "torchtune": "0.6.1", "unsloth": "2026.10.9"}
RECIPE_FRAMEWORK = {"pytorch": "transformers", "hf_trainer": "transformers", "trl": "trl", "torchtune": "torchtune",
                    "unsloth": "unsloth"}


@dataclass(frozen=True)
class VersionRule:
    library: str
    since: VersionKey
    setting: str
    before: object
    after: object
    source: str


RULES = (
    VersionRule("transformers", (5, 0), "loads_checkpoint_dtype", False, True,
                "transformers 5.0: from_pretrained loads the checkpoint's dtype (dtype='auto'); 4.x loaded float32"),
    VersionRule("transformers", (4, 54), "trainer_optimizer_step", "foreach", "fused",
                "transformers PR #37358 (4.54): Trainer's optim defaults to adamw_torch_fused (torch >= 2.8); "
                "before, adamw_torch: torch's foreach AdamW"),
    VersionRule("transformers", (4, 46), "model_returns_fp32_logits", True, False,
                "transformers 4.46 moved the causal-LM loss into loss_utils.ForCausalLMLoss, which upcasts inside the loss; "
                "before, LlamaForCausalLM.forward upcast the logits (logits.float()) and returned them in fp32 with a loss"),
    VersionRule("transformers", (4, 56), "hub_hybrid_cache_honoured", True, False,
                "transformers PR #40039 (4.56): generate() drops the Hub's cache_implementation='hybrid' (Gemma 2/3's static "
                "sliding cache, sized to the window) for DynamicCache; its DynamicSlidingWindowLayer keeps a slice (a view) "
                "of the prefill's keys and values, so their whole storage stays allocated until the first decode step"),
    VersionRule("bitsandbytes", (0, 43, 2), "matmul4bit_saves_input", True, False,
                "bitsandbytes PR #1270 (0.43.2): MatMul4Bit keeps (None, B) for backward, no longer its 16-bit input A"),
)
LIBRARIES = tuple(CURRENT)

_PAIR = re.compile(r"^\s*([a-z_]+)?\s*(?:==|=|\s)?\s*v?(\d{1,4}(?:\.\d{1,4}){0,3})\s*$")


def _key(text: str) -> VersionKey:
    return tuple(int(part) for part in text.split("."))


@functools.lru_cache(maxsize=256)
def releases(framework_version: str | None, recipe: str) -> dict[str, VersionKey]:
    """Every library's release for this request: CURRENT with the named ones replaced (a bare version is the recipe's
    framework); a fix-it error for anything else."""
    chosen = {name: _key(version) for name, version in CURRENT.items()}
    for part in filter(str.strip, re.split(r"[,;]", (framework_version or "").lower())):
        match = _PAIR.match(part)
        library = (match.group(1) or RECIPE_FRAMEWORK[recipe]) if match else None
        if match is None or library not in chosen:
            raise SizingError(f"framework_version: '{part.strip()[:40]}' is not a release; use e.g. '4.46' (the "
                              f"recipe's {RECIPE_FRAMEWORK[recipe]}) or 'transformers 4.46, bitsandbytes 0.43.1' "
                              f"(libraries: {', '.join(LIBRARIES)})", arguments=("framework_version",))
        chosen[library] = _key(match.group(2))
    return chosen


def setting(name: str, chosen: dict[str, VersionKey]) -> object:
    """The value of a version-dependent setting under these releases."""
    rule = next(rule for rule in RULES if rule.setting == name)
    return rule.after if chosen[rule.library] >= rule.since else rule.before


def described(chosen: dict[str, VersionKey], libraries: tuple[str, ...]) -> str:
    return ", ".join(f"{name} {'.'.join(map(str, chosen[name]))}" for name in libraries)


def rule_source(name: str) -> str:
    return next(rule.source for rule in RULES if rule.setting == name)
