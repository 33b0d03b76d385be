"""The ways people abbreviate and format what they type, rewritten to the words the readers know: quant shorthands
('q4'), engine flags ('--max-model-len', '-ctk q8_0'), trainer configs ('load_in_4bit=True'), cloud instance types
('p4d.24xlarge'), numbers with commas and units glued on ('30,000', '24gb'), punctuation."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from gpusizer.catalog.instances import machine_gpus

from . import regex as rx
from .number_words import digits_for_number_words

R1_DISTILL_BASE = {"1.5b": "qwen", "7b": "qwen", "14b": "qwen", "32b": "qwen", "8b": "llama", "70b": "llama"}  # DeepSeek's R1 distills
GRAND = {"a": "1", "one": "1", "a couple of": "2", "a couple": "2", "a pair of": "2"}  # thousands of dollars (2-19: digits by now)
QUARTER_BEFORE = r"(?:through|until|till|by|in|for|next|this|last|'s|our|end of|(?:pushed|moved|delayed|slipped) to) $"
GGUF_SHORT = {"2": "q2_k", "3": "q3_k_m", "4": "q4_k_m", "5": "q5_k_m", "6": "q6_k", "8": "q8_0"}  # 'q4': the usual file
TYPED = str.maketrans({"×": "x", "–": "-", "—": " - ", "’": "'", "~": " ", "`": " ", "≈": " ", "•": " "})  # typographic marks
Rows = list[tuple[str, str | Callable[[re.Match[str]], str]]]
SHORTHANDS: Rows = [  # as people abbreviate, to the words the readers know
    (r"([<>]=?|≥|≤)(?=\d)", r"\1 "),  # '>=25 tok/s' -> '>= 25 tok/s'
    (r"--?max[-_]input[-_](?:length|tokens)[ =]\d+(?=[\s\S]*--?max[-_]total[-_]tokens)", " "),  # TGI: the total is the context
    (r"\bnd ?(h100|h200) v5\b", r"nd96isr_\1_v5"), (r"\bndm ?a100 v4\b", "nd96amsr_a100_v4"),  # Azure's names for its VMs
    (r"\bnd ?a100 v4\b", "nd96asr_v4"),
    # '3 replicas of it, each replica on a g5.48xlarge': that many instances
    (r"\b(\d{1,3}) (replicas|nodes|instances|copies)\b([^.?!]{0,60}?\beach (?:replica |node |instance |copy |one )?(?:on|is|runs on"
     r"|running on|gets|with) an? )(?=(?:p\d|g\d|a\d-|nd96))", r"\1 \2\3\1 x "),
    (r"--dtype[ =](half|float16|fp16)\b", "fp16"), (r"--dtype[ =](bfloat16|bf16)\b", "bf16"),
    (r"\bllama(\d)_(\d)/(\d+)b_(\w+)", r"llama \1.\2 \3b \4"),  # torchtune config names: llama3_2/1B_full
    (r"\b(?:deepseek-r1:|(?:deepseek[ -]?)?r1[ -]distill(?:ed)?[ -])(1\.5b|7b|14b|32b|8b|70b)\b",
     lambda m: f"deepseek-r1-distill-{R1_DISTILL_BASE[m[1]]}-{m[1]}"),  # ollama's r1 tags are the distills; 'R1 distill 70B'
    (r"\b([a-z][\w.-]*):(\d+(?:\.\d+)?b)(?:-(?:instruct-|it-)?(q[2-8]_(?:k_[msl]|k|0|1)|fp16|bf16))?\b",
     lambda m: f"{m[1]} {m[2]} {m[3] or ''}"),  # ollama tags: gpt-oss:20b, qwen3:14b-q4_K_M
    (r"([\w./-]+?)[-.](q[2-8]_(?:k_[msl]|k|0|1)|iq[1-4]_(?:xxs|xs|nl|s|m)|f16|bf16)\.gguf\b", r"\1 \2 gguf"),  # file names
    (r"\b(?:the )?(?:new )?openai(?:'s)? open(?:[- ]weights?)? models?,? (?:the )?(big|large|bigger|larger|small|smaller)(?: one)?\b",
     lambda m: "gpt-oss-120b" if m[1].startswith(("big", "larg")) else "gpt-oss-20b"),  # 'the new OpenAI open model, the big one'
    (r"\bdgx ?(h100|h200|b200|b300|a100)\b", r"8 x \1"),  # a DGX holds eight
    (r"\b(\d{2,3}) ?(?:gb|gig|gigs) (a100|v100|h100|a6000|l40s?|a40|a10g?|mi\d{3}x?)\b", r"\2 \1gb"),  # 'the 40GB A100'
    (r"\b(?:assuming|provided|given) (?:that )?(?:it|that|this|the model|everything) (?:fits|does fit|will fit)\b", "assuming so"),
    # ('assuming it fits, how long would 200M tokens take?': a premise, not a fit asked)
    (r"(?<!rtx )\bpro 6000\b(?! (?:blackwell|ada|server|workstation))", "rtx pro 6000 blackwell"),  # 'the PRO 6000'
    (r"\b([\w.-]+/[\w.-]+?)-(?:instruct|thinking)-(?:2[4-9]\d\d)\b", r"\1"),  # 'Qwen3-30B-A3B-Instruct-2507': the model
    (r"\b(?:tpu[ -]?)?v(5e|5p|6e)-(\d+)\b", r"tpu v\1 \2 chips"),  # TPU slices: v5e-8
    (r"\b(q4_0|q8_0|q4|q8|fp8|int8|8[ -]?bit|4[ -]?bit) cache\b",  # TabbyAPI's 'Q4 cache' is the KV cache
     lambda m: "kv cache " + {"q4": "q4_0", "q8": "q8_0"}.get(m[1], m[1])),
    (r"\bsingle-(?=[a-z]+\d)", "single "),  # 'our single-L40S nodes'
    (r"\bq([2-6])k([msl])\b", r"q\1_k_\2"), (r"\bq([2-6])k\b", r"q\1_k"), (r"\bq([4-8])0\b", r"q\1_0"),  # 'q4km', 'q80'
    (r"\bq([568])\b(?![_.])", lambda m: GGUF_SHORT[m[1]]),  # Q1-Q4 may be quarters, Q5-Q8 never
    (r"\b(load|run|fit|it|model|them|that|serve|use|quantized|quantised|cards?|gpus?|vram|\d+ ?gb|\d+(?:\.\d+)?b) in q([234])\b(?!_|\.\d)",
     lambda m: f"{m[1]} in {GGUF_SHORT[m[2]]}"),  # 'load in q4' is a quant, 'launch in Q4' a quarter
    (r"\bq([234568])\b(?!_|\.\d)(?! (?:asks|planning|plan|budget|roadmap|goals?|okrs?|review|deadline|launch|\d{4}))",
     lambda m: m[0] if rx.search(QUARTER_BEFORE, m.string[:m.start()]) else GGUF_SHORT[m[1]]),  # 'through Q3', 'our Q3 asks':
    # a quarter; 'q4' the usual file
    (r"(?:^|\s)-c (\d+)\b", r" context \1"),
    (r"(?:^|\s)--?(?:cache-type-k|ctk) (\w+) --?(?:cache-type-v|ctv) \1\b", r" kv cache \1"),  # K and V alike: one format
    (r"(?:^|\s)--?(?:cache-type-k|ctk|ctv|cache-type-v) (\w+)", r" kv cache \1"),
    (r"(?:^|\s)-ngl (\d+)\b", r" llama.cpp n_gpu_layers \1"),
    (r"--quantization[ =](\w+)", r"\1"), (r"--?gpu[-_]memory[-_]utili[sz]ation[ =]", "gpu_memory_utilization "),
    (r"\b(\d+)-gpus?\b", r"\1 gpus"), (r"\b(\d+(?:\.\d+)?[kmbt]?)-tokens?\b", r"\1 tokens"),
    (r"\b(\d+)-k\b", r"\1k"),
    (r"\bone-(hour|day|week|month|year)\b", r"one \1"),  # 'a one-week sprint' (a '2-week' one is digits by now)
    (r"\b([abh]\d00) (pcie|sxm|nvl) (vs\.?|or|versus) (pcie|sxm|nvl)\b", r"\1 \2 \3 \1 \4"),  # 'h100 pcie vs sxm'
    (r"\b(\d+) cents?\b", lambda m: f"${int(m[1]) / 100:.2f}"),
    (r"\b(\d+) (?:dollars?|bucks?) (?:and )?(\d{1,2})\b(?: cents?)?", r"$\1.\2"),  # 'two dollars fifty'
    (r"\b(\d+(?:\.\d+)?) ?(?:bucks|dollars|usd)\b", r"$\1"), (r"\b(\d+(?:\.\d+)?) ?(?:percent|pct)\b", r"\1%"),
    (r"\b(\d+) ?(?:gigabytes?|gbs)\b", r"\1 gb"),
    (r"\bl3(\.[123])?(?=[ -]\d)", r"llama 3\1"), (r"\bmixtral[ -](\d+x\d+)\b(?!b)", r"mixtral \1b"),
    (r"\bds[ -]?(v3|v2|r1)\b", r"deepseek \1"),
    (r"\bollama_kv_cache_type ?= ?", "ollama kv cache "), (r"--?kv[-_]cache[-_]dtype[ =]", ", kv cache "),  # a clause of its own:
    # '--quantization fp8 --kv-cache-dtype fp8_e5m2' names the weights' format, then the cache's
    (r"\bfp8_e[45]m[23]\b", "fp8"),
    (r"--?cache[-_]type[-_][kv][ =]", "kv cache "), (r"--?max[-_]model[-_]len[ =]", "engine context "),
    (r"--?max[-_]total[-_]tokens[ =]", "context "),  # TGI: prompt and output of one request
    (r"--?(?:num[-_]shard|tensor[-_]parallel[-_]size|tp)[ =](\d+)", r"tensor parallel \1"),  # vLLM's and TGI's (num-shard)
    # Kubernetes: 'limits.nvidia.com/gpu: 2' asks for two GPUs, 'nvidia.com/gpu.product=NVIDIA-A100-SXM4-40GB' names them
    (r"\b(?:resources\.)?(?:limits|requests)\.nvidia\.com/gpu ?[:=] ?(\d+)", r"\1 gpus"),
    (r"\bnvidia\.com/gpu\.product ?[:=] ?", " "),
    (r"(?:\b(\d{1,3}) ?[x*]? ?)?(\b(?:(?<=a )p5|p5en?)(?![\w.-]| ?x)|(?<![\w.-])[a-z0-9]+[._-][\w.-]*[a-z0-9](?![\w-]))",
     lambda m: instance_words(m[2], int(m[1] or 1), m[0])),  # '2x p5.48xlarge', 'a p5', 'gpu_8x_h100_sxm5': a machine's GPUs
    (r"\blora_(?:r|alpha|dropout|rank) ?[=:] ?[\d.]+", " "),  # a LoRA rank is no size, context or batch
    (r"\b(?:deepseek[ -])?r1[ -]distill(?:ed)?(?: model| version| one)?(?: (?:that's|that is|which is))? (?:based on|of|on) (?:the )?"
     r"(qwen|llama)[ -]?(?:(?:2\.5|3\.1|3\.3|3)[ -])?(\d+b)\b", r"deepseek-r1-distill-\1-\2"),  # 'the R1 distill based on Qwen 32B'
    (rf"\b(\d+(?:\.\d+)?|{'|'.join(GRAND)}) grand\b", lambda m: f"${GRAND.get(m[1], m[1])}k"),  # 'a card costs a couple of grand'
    (r"\b(?:q?lora'?d|lora-tuned|lora-trained)\b", "fine-tuned"),  # 'our lora'd qwen 7b': how the model was made
    (r"\bload_in_([48])bit ?[=:] ?true\b", r"\1-bit"),  # config files and notebooks
    (r"\b(?:use_)?gradient_checkpointing ?[=:] ?(?:true|'unsloth'|\"unsloth\"|unsloth)", "gradient checkpointing"),
    (r"\badapter ?: ?(q?lora)\b", r"\1"), (r"\b(bf16|fp16) ?[=:] ?true\b", r"\1"),
    (r"\bfsdp ?:(?= ?-)", "fsdp "),
    (r"\b(?:per_device_train_|micro_|train_micro_)batch_size(?:_per_gpu)?\"? ?(?:[=:]|(?:up )?to) ?(\d+)", r"training batch size \1"),
    (r"\bzero_optimization\"? ?: ?\{ ?\"?stage\"? ?: ?([0-3])\b", r"zero\1 ,"), (r"\bzero_stage ?[=:] ?([0-3])\b", r"zero\1"),
    (r"\b(?:num_train_epochs|num_epochs|epochs) ?[=:] ?(\d+(?:\.\d+)?)\b", r"\1 epochs"),  # axolotl, TRL, torchtune configs
    # torchtune's recipes name their method: 'llama3_1/8B_lora_single_device', 'qwen2_5/7B_full'
    (r"\b(?:llama|qwen|mistral|gemma|phi|code_?llama)[\w.]*/\w*?_(q?lora|full)(?:_\w+)?\b", r"\g<0> , \1 fine-tune ,"),
    (r"(?<![\w/])(q?lora|full)_(?:single_device|distributed|finetune_\w+)\b", r"\1 fine-tune"),
    (r"\b(?:per_device_(?:eval_)?)?batch_size ?[=:] ?(\d+)", r"batch size \1"),
    (r"\b(?:per_device_train|micro)_batch_size\b|\bgradient_accumulation_steps\b",
     lambda m: m[0].replace("_", " ").replace("train ", "training ")),
    (r"\b(?:max[-_]model[-_]len|cutoff_len|max_seq_length|max_seq_len|model_max_length|num_ctx|n_ctx|ctx[-_]size|sequence_len)\b"
     r" ?[=:]? ?",
     "context "),
    (r"\b(\d+k?)-(context|tokens?|ctx|devs?|person|people|users?|seats?|hours?|days?|weeks?|months?|years?)\b",
     r"\1 \2"),
    (r"\b(\d+(?:\.\d+)?)b ?(?:-|to) ?(\d+(?:\.\d+)?)b\b", r"\1b-to-\2b"),  # a size range names no one size
    (r"(?<![\w.-])(\d+) ?(?:-|to) ?(\d+)b\b", r"\1b-to-\2b"),  # '7-13B models' (not 'llama-3.1-8b')
    (r"\b(\d+(?:\.\d+)?b)[ -](?:class|sized?|range|tier)\b", r"\1"),  # '32b-class models' are 32b models
    (r"(\S+?)-(awq|gptq|fp8|gguf|int4|int8|bnb-4bit|4bit|mlx|nvfp4|mxfp4)\b", r"\1 \2"),  # release suffixes name a format
]


SPACING: Rows = [  # then counts, units and marks, spaced as the readers split words
    (r"\b(\d+)\s*[x*]\s*(?=[a-z])(?!tx?\b|large\b)|\b(\d+)\s*\*\s*(?=\w)|\b(\d{1,3})x(?=\d{4}\b)|\b(\d+)x\s+(?=\d)",
     lambda m: f"{next(filter(None, m.groups()))} x "),  # 2xH100 -> 2 x h100 (not 12xlarge), 2x3090 -> 2 x 3090
    (r"\b(\d+)(gb|gigs?|gib)\b", r"\1 \2"),  # 24gb -> 24 gb
    (r"[,;:]", " , "),  # clause marks stay, so 'fp8, kv cache included' is not 'fp8 kv cache'
    (r"[!?()\[\]\"]|(?<!\w)'|'(?!\w)| -+ ", " "),
    (r"(?<!\d)\.(?![a-z])|\.(?![\da-z])", " "),  # full stops, not decimal points or 'llama.cpp'
    (r"\s+", " "),
]


def instance_words(name: str, instances: int, said: str) -> str:
    """Cloud instances as the GPUs they hold ('p4d.24xlarge' -> '8 x a100-40gb-sxm', two of them '16 x ...'), then the
    name of one the offers sell (read_providers prices it first); other words stay as typed."""
    found = machine_gpus(name)
    return f"{found[1] * instances} x {found[0]} {found[2]}".rstrip() if found else said


SMI_ROW = re.compile(r"^\W*(\d{1,2})\s+(nvidia [\w .-]+?)\s{2,}(?:on|off)\b.*$", re.MULTILINE)


def nvidia_smi_rows(text: str) -> str:
    """nvidia-smi's table lists one row per GPU ('| 0  NVIDIA A100-SXM4-80GB  On | ...'): the rows of one name are
    that many of it ('4 x nvidia a100-sxm4-80gb'), said once."""
    rows = SMI_ROW.findall(text)
    if len(rows) < 2:
        return text
    counts = Counter(name.strip() for _, name in rows)
    def row(match: re.Match[str]) -> str:  # the first row of a name says how many, the others nothing
        name = match[2].strip()
        return f"{counts.pop(name)} x {name} ," if name in counts else ""
    return SMI_ROW.sub(row, text)


@lru_cache(maxsize=4096)  # a question's sentences are normalized again one by one (sentences.py), a follow-up's twice
def normalize(question: str) -> str:
    text = nvidia_smi_rows(question.lower()).translate(TYPED)
    text = digits_for_number_words(rx.sub(r"(?<=\d),(?=\d{3}\b)", "", text))  # 30,000 -> 30000, 1,000,000 -> 1000000
    for pattern, replacement in (*SHORTHANDS, *SPACING):
        text = rx.sub(pattern, replacement, text)
    return text.strip()
