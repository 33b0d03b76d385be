"""Questions with a backstory: what failed before, what a thread claimed, what a card is besides its name. The
sentence that asks decides; numbers only told about are not inputs, and a memory size that restates a GPU is no GPU."""
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusizer.tools.questions import ask

PLACEHOLDER = re.compile(r"—|\bNone\b|\bnan\b|\bnull\b")

READINGS = [  # (question, journey, what the reading must hold, keys it must not hold)
    ("gpt-oss-120b on one h100 in vllm OOMs for me at 128k. what max context is realistic on a single 80gb card?",
     "limits", {"model": "openai/gpt-oss-120b", "gpus": [["h100-sxm", 1]], "engine": "vllm"}, {"seq_len"}),
    ("Jan auto-picks ~2k context for gemma 3 27b on my 4090, which is useless. at q4_k_m whats the max ctx that fits?",
     "limits", {"model": "google/gemma-3-27b-pt", "weights_dtype": "q4_k_m"}, {"seq_len"}),
    ("a colleague's PR says llama3.1 8b at 32K ctx drops to ~1.1GB of cache with q4_0. so for the full 128k with q8_0 "
     "weights and q4_0 kv, whats the total memory needed?", "estimate",
     {"seq_len": 131072, "weights_dtype": "q8_0", "kv_cache_dtype": "q4_0"}, {"gpus"}),
    ("I rented 4x A40 (48GB each) for QLoRA on llama 3 8b and get OOM. 192GB for an 8B should be plenty no?",
     "fit", {"gpus": [["a40", 4]]}, set()),
    ("a readme claims a full finetune of an 8B fits a 24GB card. is that real for llama 3.1 8b on my 4090?",
     "fit", {"gpus": [["rtx-4090", 1]]}, set()),
    ("got two used 3090s (48gb total), will llama 3.3 70b q4_k_m fit in llama.cpp?", "fit", {"gpus": [["rtx-3090", 2]]}, set()),
    ("Mac Studio M2 Ultra 192GB: what decode speed for llama 3 70b q4_k_m? bandwidth is 800GB/s so ~10 tok/s?",
     "speed", {"gpus": [["apple-m2-ultra-76c-192gb", 1]]}, set()),
    ("How much memory does qwen3-235b-a22b take at q3_k_m? The gguf alone is near 97 GiB.", "estimate", {}, {"gpus"}),
    ("Deepspeed stage 3 OOMs on a 7B mistral full finetune on one A100-80GB. should this fit?", "fit",
     {"model": "mistralai/Mistral-7B-v0.3", "sharding": "zero3"}, {"params_billions"}),
    ("how long to train a 7b from scratch on one trillion tokens with 64 H100s?", "training_time",
     {"training_tokens": 1e12, "params_billions": 7.0}, set()),
    ("cheapest way to fine-tune llama 3.3 70b on ~20k chat examples?", "cheapest_method", {}, {"seq_len"}),
    ("we continue pretraining OLMo 2 7B, all parameters. what GPU setup should we rent?", "which_gpu", {"method": "full"}, set()),
    ("we need sixteen H200s for six weeks. are we looking at 100k or more like 300k?", "cloud_cost", {"hours": 1008.0},
     {"seq_len"}),
    ("~200 devs, peak maybe 60 of them hitting it at once. serving gpt-oss-120b with sglang on H100s, how many GPUs?",
     "serving", {"users": 60, "gpus": [["h100-sxm", 1]]}, set()),
    ("serving llama 3.1 8b on L40S: each user sends ~8k tokens and gets ~2k back. how many l40s for 300 users?",
     "serving", {"seq_len": 8192, "output_tokens": 2048, "users": 300}, set()),
    ("qwen2.5 72b chatbot, twenty requests per second, each answer is around 300 tokens. how many H200s with vllm?",
     "serving", {"output_tokens": 300, "requests_per_s": 20.0}, {"seq_len"}),
    ("max concurrent requests for llama 3.1 8b on an L4 with vllm at ~4k tokens? serving only, no training", "limits",
     {"workload": "inference"}, set()),
    ("is gaudi 3 any good vs h100 for training, price/perf wise?", "compare", {"gpus": [["gaudi3", 1], ["h100-sxm", 1]]},
     {"unknown_model"}),
    ("ollama ps shows 47%/53% CPU/GPU for gpt-oss 20b on my 4070. should it fit fully?", "fit", {}, {"utilization"}),
    ("vllm on a 3090 with llama 3.1 8b, gpu-memory-utilization 0.9: what's the biggest max-model-len I can set?", "limits",
     {"gpu_memory_utilization": 0.9}, {"utilization"}),
    ("B200 vs H200 running Llama 4 Maverick on vllm. how much faster is blackwell actually?", "compare", {}, set()),
    ("two 24gb cards vs one 48gb card for llama 3.3 70b q4?", "compare", {"gpus": [["24GB", 2], ["48GB", 1]]}, set()),
    # what others ran, or what one had before, yields to what the question asks about
    ("A friend ran qwen2.5 72b on 2 A100s last month. How much vram does it need at q4_k_m?", "estimate",
     {"model": "Qwen/Qwen2.5-72B", "weights_dtype": "q4_k_m"}, {"gpus"}),
    ("my old box had a 5080. now i have two 3090s: will gpt-oss-120b fit across the two 3090s in vllm?", "fit",
     {"gpus": [["rtx-3090", 2]]}, set()),
    ("my laptop has an 8gb 3070 and models spill out of it. what gpu should i buy to run qwen3 14b q4_k_m at 32k?",
     "which_gpu", {"model": "Qwen/Qwen3-14B"}, {"gpus", "unknown_gpu"}),
    ("A guy on reddit did plain LoRA on one card. Which GPU should I rent to QLoRA llama 3.1 70b?", "which_gpu",
     {"method": "qlora"}, set()),
    ("I want full fine-tuning (not lora) of qwen2.5 1.5b, my professor says lora is not enough. Which GPU to buy?",
     "which_gpu", {"method": "full"}, set()),
    ("with the KV cache type set to q8_0, will gemma 3 27b q4_k_m fit on a 4090 at 32k?", "fit",
     {"kv_cache_dtype": "q8_0", "weights_dtype": "q4_k_m"}, set()),
    ("An article says a 256GB M3 Ultra runs 405B models. I have the Mac Studio M3 Ultra with 256GB. Biggest model I can "
     "run at q4_k_m on it?", "biggest_model", {"gpus": [["256GB", 1]]}, {"params_billions", "unknown_model"}),
    ("finally got a 5090 after 4 months of refreshing. biggest model i can serve in AWQ on it with vllm?", "biggest_model",
     {"weights_dtype": "awq"}, {"hours"}),
    # a size after a model is its sibling; the clause that asks decides which is meant
    ("people get 80 tok/s for gpt-oss 20b on a 4090. what would the 120b give me in llama.cpp?", "speed",
     {"model": "openai/gpt-oss-120b"}, set()),
    ("llama 3.1 8b runs fine on my 4090, would the 70b fit on two?", "fit",
     {"model": "meta-llama/Llama-3.1-70B", "gpus": [["rtx-4090", 2]]}, set()),
    ("we prototyped with ollama on a 4090. which single gpu should we rent to serve qwen3 32b with vllm for 20 users?",
     "which_gpu", {"engine": "vllm"}, {"gpus"}),
    ("before I blame vllm's gguf support: what decode speed does llama 3.1 70b q4_k_m get on an a100 with llama.cpp?",
     "speed", {"engine": "llama_cpp"}, set()),
    ("torn between a new 4060 ti 16gb and a used 3090 for qwen3 32b in ollama. which card wins?", "compare",
     {"gpus": [["rtx-4060-ti-16gb", 1], ["rtx-3090", 1]]}, set()),
    ("a blog claims the mi300x beats the h100 by 33% on mixtral. for mixtral 8x7b in fp16, how does one mi300x stack up "
     "against one h100?", "compare", {"gpus": [["mi300x", 1], ["h100-sxm", 1]]}, {"utilization"}),
    # numbers as words, and numbers that are measurements rather than inputs
    ("how long to pretrain a one point five billion parameter model on three hundred billion tokens with thirty two h100s?",
     "training_time", {"params_billions": 1.5, "training_tokens": 3e11, "gpus": [["h100-sxm", 32]]}, set()),
    ("rent or buy 4 l40s if we use them forty percent of the time and renting is two dollars fifty per gpu hour?",
     "rent_or_buy", {"utilization": 0.4, "rent_usd_per_gpu_hour": 2.5}, set()),
    ("full finetune of mistral 7b on 8x a100, 3 epochs over 60M tokens. it's been running 3 days, how long should it take?",
     "training_time", {"training_tokens": 1.8e8}, {"hours"}),
    ("tried ollama and it choked at 20 people. moving to sglang: how many l40s to serve gpt-oss-20b to 200 users at 30+ "
     "tok/s each?", "serving", {"engine": "sglang", "tokens_per_s_per_user": 30.0, "users": 200}, set()),
    ("Swapped my 3070 for a 7800 XT (16GB). What's the biggest model I can fit entirely on it at q4_k_m?", "biggest_model",
     {"unknown_gpu": "7800 xt", "gpus": [["16GB", 1]]}, set()),
    ("our company wants deepseek v3 for 1000 employees, maybe 100 of them use it in same time. we use sglang on H200. how "
     "many H200 we need?", "serving", {"users": 100, "gpus": [["h200-sxm", 1]]}, set()),
    ("we currently run qwen3 32b on 2x a100 40gb and it's cramped. moving to a single h200: with fp8 weights in vllm, how "
     "many concurrent 8k requests can it hold?", "limits", {"gpus": [["h200-sxm", 1]]}, set()),
    ("my buddy swears his used 3090 does qwen 2.5 32b q4_k_m at 35 t/s. what decode speed should i really expect with "
     "llama.cpp?", "speed", {"gpus": [["rtx-3090", 1]], "weights_dtype": "q4_k_m"}, set()),
    ("we serve a fine-tuned mistral 7b on two t4s and latency is awful. which gpu should we move to for serving it with vllm?",
     "which_gpu", {"workload": "inference"}, {"method"}),
    ("we're a 12-person company; someone wants to buy one rtx pro 6000 blackwell at ~$8,500 instead of renting one at "
     "~$1.80/hr, about 8 hours a day. over 3 years, does buying win?", "rent_or_buy",
     {"purchase_usd_per_gpu": 8500.0, "rent_usd_per_gpu_hour": 1.8}, {"users"}),
    ("buy or rent eight H100s if utilisation is about forty percent over two years?", "rent_or_buy", {"utilization": 0.4},
     set()),
    ("we're on p5 on-demand. if I need 8 H100s for three days straight, what would that cost on spot?", "cloud_cost",
     {"gpus": [["h100-sxm", 8]], "hours": 72.0}, set()),
    ("we keep getting 'max seq len is larger than the KV cache' so let me ask properly: qwen2.5 14b on vllm, one l40s, max "
     "model len 8k. how many concurrent requests can it hold?", "limits", {"seq_len": 8192}, set()),
    ("running a zoo of 7-13B models, want to consolidate. L40S vs A100 80GB for inference?", "compare", {}, {"params_billions"}),
    ("Intel rep keeps calling Gaudi 3 'H100-class at half the price'. What is a Gaudi 3 actually: memory, bandwidth, TDP?",
     "gpu_card", {"gpus": [["gaudi3", 1]]}, set()),
    # the setup being left yields to the one moved to
    ("we serve llama 3.1 70b as two vllm replicas on 4x a100 80gb each. if we move to h200s with fp8 weights, how many gpus "
     "for 400 concurrent users?", "serving", {"gpus": [["h200-sxm", 1]], "users": 400}, set()),
    ("our support bot runs qwen2.5 7b and the old t4s are choking. if we serve it with vllm on l4s instead, how many for 25 "
     "req/s?", "serving", {"gpus": [["l4", 1]], "requests_per_s": 25.0}, set()),
    ("want to serve llama 3.3 70b with vllm to ~5 ppl on my team. how many h100 do i need?", "serving", {"users": 5}, set()),
    ("saw an mi300x on a rental site going for less than an h100. what are its specs, and is it faster than an h100?",
     "compare", {"gpus": [["mi300x", 1], ["h100-sxm", 1]]}, set()),
    ("I can grab a new 4090 for $1,700 or a coworker's used 3090 for $750. what's the real speed gap between them for "
     "llama 3.1 8b at q4_k_m?", "speed", {"gpus": [["rtx-4090", 1], ["rtx-3090", 1]]}, set()),
    ("A local shop has a used RTX A6000 going for about what a new 5090 costs. For 70b-class models at 4-bit, which one is "
     "the better card?", "compare", {"gpus": [["rtx-a6000", 1], ["rtx-5090", 1]]}, set()),
    ("cheapest on-demand H200 for about a week? also, is one of them enough to run llama 3.1 70b in bf16?", "cloud_cost",
     {"hours": 168.0, "pricing": "on_demand"}, set()),
    ("been running mistral nemo on a 3060 for months. want to run 32b-class models at 4-bit now, what card should i buy?",
     "which_gpu", {"params_billions": 32.0, "weights_dtype": "int4"}, {"model"}),
    ("local shop wants 2.5x the price of a used 3090 for a 4090. is the 4090 actually worth it?", "compare",
     {"gpus": [["rtx-3090", 1], ["rtx-4090", 1]]}, set()),
    ("for fine-tuning mistral small 3 24b on rented gpus, which is cheapest overall: full, lora or qlora?",
     "cheapest_method", {}, set()),
    ("Sold my 4060 Ti 16GB and grabbed a used 3090 Ti. What's the biggest model I can load at q4_k_m with 16k context?",
     "biggest_model", {"gpus": [["rtx-3090-ti", 1]]}, set()),
    ("whats inside mistral small 3.1 24b: layers, kv heads, max context?", "model_card", {}, set()),
    # asides in brackets, dismissals, spending rates and epochs told apart from the question
    ("picked up a used l40s from a lab sale (they also had a100 40gb cards but those went to another group). on the l40s, "
     "with vllm and awq weights, what's the biggest model i can serve at 16k?", "biggest_model", {"gpus": [["l40s", 1]]},
     set()),
    ("our old cluster of 16x v100 32gb is way too old. before we pick new gpus: how much memory does a full finetune of "
     "olmo 2 7b in bf16 with zero-3 need?", "estimate", {"sharding": "zero3"}, {"gpus"}),
    ("we spend about $4k a month on the api. what's the cheapest way to run qwen3 30b a3b ourselves?", "cheapest_method",
     {}, {"hours"}),
    ("we rent 8 h100s for a year, what does that cost on demand (not spot)?", "cloud_cost",
     {"hours": 8760.0, "pricing": "on_demand"}, {"years"}),
    ("buy vs rent two l40s if we'd use them 24/7 for a year?", "rent_or_buy", {"years": 1.0, "utilization": 1.0}, set()),
    ("how long would a lora of mistral 7b take on one a100 with ~80M tokens, 3 epochs?", "training_time",
     {"training_tokens": 240e6}, set()),
    ("how do the h200 and mi300x compare on memory, bandwidth and fp8 tflops?", "compare", {}, {"weights_dtype"}),
    # the setup moved to, the one asked about by place, and what the asker says to ignore
    ("today our chatbot runs mistral 7b on a single a10g with ollama. the plan is to move it to qwen2.5 32b on l40s cards "
     "via vllm for about 40 concurrent users. how many l40s?", "serving",
     {"model": "Qwen/Qwen2.5-32B", "engine": "vllm", "users": 40}, set()),
    ("at work we have 4x a100 for vllm, and at home i have a 3090 (bought used). at home, with llama.cpp, how fast would "
     "qwen3 14b q4_k_m run?", "speed", {"gpus": [["rtx-3090", 1]], "engine": "llama_cpp"}, set()),
    ("my current rig is a 3090. the two i'm torn between are the l40s and the rtx 6000 ada, how do they compare for "
     "llama 3.3 70b at 4-bit?", "compare", {"gpus": [["l40s", 1], ["rtx-6000-ada", 1]]}, set()),
    ("lora on llama 3.1 8b on my 4090 since the lab a100 is booked this week. whats the biggest batch at 2k before it "
     "ooms?", "limits", {"gpus": [["rtx-4090", 1]]}, set()),
    ("we have some t4s and an l4 around but I'm not asking which to use yet. how much vram does a qlora of qwen3 8b need "
     "at 4k?", "estimate", {}, {"gpus"}),
    ("our rep sent a quote at $2.40/hr for h100s but that's for the other team, ignore it. what would 8 h200s cost for "
     "two weeks?", "cloud_cost", {"gpus": [["h200-sxm", 8]], "hours": 336.0}, {"rent_usd_per_gpu_hour"}),
    ("how much vram does qwen3 14b need for a lora in bf16? and how long would 2 epochs over 20M tokens take on one h100?",
     "estimate", {"training_tokens": 40e6}, set()),
    ("will mistral nemo run on my 4060 ti 16gb at q8_0 in ollama? and what's the longest context it could take?", "fit",
     {}, set()),
    ("finally retired my 2080 ti and got a 4090 (24gb). can i run qwen3 32b at q4_k_m with 16k context in ollama?", "fit",
     {"gpus": [["rtx-4090", 1]]}, set()),
    ("our current cluster is 64x a100 40gb, but the run happens on the new 128x h200 cluster. how long to pretrain a 1b "
     "model on 500b tokens on the new cluster?", "training_time", {"gpus": [["h200-sxm", 128]]}, set()),
    ("my pc only has a 3070, but the lab lets me use a box with four l40s cards. if i load llama 3.3 70b q4_k_m onto "
     "those 4 cards with llama.cpp, how fast will it go?", "speed", {"gpus": [["l40s", 4]]}, set()),
    ("got my four 3090s for ~$700 each. serving qwen2.5 72b awq with vllm at 8k per chat, how many people can use it at "
     "once?", "limits", {"gpus": [["rtx-3090", 4]]}, {"purchase_usd_per_gpu"}),
    ("fine-tuning qwen3 8b on ~30k customer support chats, about 20M tokens: cheapest way, full, lora or qlora?",
     "cheapest_method", {}, {"seq_len"}),
    ("we're serving qwen3 14b on one h100 with vllm. if each request can go to 16k tokens, how many can run concurrently?",
     "limits", {}, set()),
    ("for the last two years our lab got by on two 3090s. we now have $20k of grant money. which gpu should we buy to lora "
     "llama 3.1 8b?", "which_gpu", {}, {"years", "purchase_usd_per_gpu"}),
    ("I don't have H100s, only a single L40S. how much context can gpt-oss-20b take on it with vllm?", "limits",
     {"gpus": [["l40s", 1]]}, set()),
    ("Right now the demo runs llama 3.1 8b on a 4090. For production we want llama 3.3 70b in fp8 on h100s with vllm for "
     "50 concurrent users. how many h100s?", "serving", {"model": "meta-llama/Llama-3.3-70B-Instruct"}, set()),
    ("vram needed for command-r-plus in 8-bit?", "estimate", {"unknown_model": "command-r-plus"}, set()),
    ("I run mixtral 8x7b on two 3090s. now I'm curious about mistral large 2, just want a rough vram figure at q4_k_m.",
     "estimate", {"unknown_model": "mistral large 2"}, {"model"}),
    ("my buddy says he runs qwen3 32b q8_0 on a single 5090 with no offload. I have a 4090. is that possible on his card?",
     "fit", {"gpus": [["rtx-5090", 1]]}, set()),
    ("I've got an M2 Max MacBook and a used 3090 in my linux box. forget the mac: on the 3090, what's the biggest model I "
     "can run at q4_k_m?", "biggest_model", {"gpus": [["rtx-3090", 1]]}, {"unknown_gpu"}),
    ("we want to adapt llama 3.1 8b to our docs, about 30M tokens, one epoch. a friend did a full FT once. what's the "
     "cheapest way to do it?", "cheapest_method", {"workload": "training"}, set()),
    ("max micro-batch for a full finetune of qwen3 4b on one h100 at 4096 seq len with grad ckpt?", "limits", {}, set()),
    ("a vendor deck says gpt-oss-120b needs two h100s and I don't buy it. does it fit on our one h100 nvl with vllm?",
     "fit", {"gpus": [["h100-nvl", 1]]}, set()),
    ("which gpu should i get so qwen3 32b q6_k with 16k context sits fully in vram? was eyeing a 4090 but prices are "
     "wild", "which_gpu", {}, {"gpus"}),
    ("what's the total memory of llama 3.1 70b in fp8 at 32k context, one sequence at a time?", "estimate",
     {"batch_size": 1}, set()),
    ("rolling out a coding assistant to ~400 engineers; peak is 50 people hitting it at the same moment. how many h100s "
     "for qwen2.5 coder 32b on vllm?", "serving", {"users": 50}, set()),
    ("our on-prem cluster is booked solid until next month. what would 4x a100 80gb for 36 hours cost on spot?",
     "cloud_cost", {"hours": 36.0}, set()),
    ("users see ~25 tok/s each with 16 concurrent sessions on our a10g. what per-user tok/s should mistral nemo awq on "
     "vllm deliver?", "speed", {}, {"tokens_per_s_per_user"}),
    ("h100 vs h200 vs b200 for llama 3.1 405b in fp8, which is the most cost-effective to serve on?", "compare", {}, set()),
    ("support bot on gpt-oss-20b, about 12 requests/sec, replies average ~300 tokens. our rep quoted l4 node pools. how "
     "many l4s?", "serving", {"output_tokens": 300, "gpus": [["l4", 1]]}, {"seq_len"}),
    ("how does one mi300x stack up against one h200 for llama 3.1 70b? mostly whether it fits and the tokens/sec",
     "compare", {}, set()),
    ("the search team runs mistral 7b on a10gs and says they get ~60 concurrent sessions per card. our box is 2x l40s "
     "with gemma 3 27b on vllm: at 16k per chat, how many concurrent users can we hold?", "limits", {}, {"users"}),
    ("buy two 8-GPU H100 servers at about $31k per GPU or rent at $2.40/hr, 8 hours a day over 3 years?", "rent_or_buy",
     {"gpus": [["h100-sxm", 16]]}, set()),
    ("the only free card in our on-prem rack is an h100 pcie. would llama 4 scout in 4-bit fit on it with 32k context in "
     "vllm?", "fit", {"gpus": [["h100-pcie", 1]]}, set()),
    ("which gpu would i need to self-host llama 3.1 70b at int4 with 16k context, and what would that cost per month "
     "if it's up 24/7?", "which_gpu", {}, {"utilization"}),
    ("what gpu(s) would i need to run command r+ at 4bit", "which_gpu", {"unknown_model": "command r+"}, set()),
    ("realistic decode tok/s for r1 in fp8 on 8x h200 with vllm?", "speed", {"model": "deepseek-ai/DeepSeek-V3"}, set()),
    ("last month's invoice has 4x a100 80gb on spot for two weeks straight. what should that have cost?", "cloud_cost",
     {"hours": 336.0, "pricing": "spot"}, set()),
    ("my bot chokes as soon as more than 3 people ask at once. moving to vllm on l4s for 40 concurrent users with qwen3 "
     "8b, how many l4s?", "serving", {"users": 40}, set()),
    ("lab box has one rtx pro 6000 blackwell (96gb) - we sold the two 3090s it replaced. longest context for gpt-oss-120b "
     "in llama.cpp with a q8_0 kv cache?", "limits", {"gpus": [["rtx-pro-6000-blackwell", 1]]}, set()),
    ("our infra team is split between gaudi 3 and mi325x for an on-prem llama 4 maverick cluster. can you compare the two?",
     "compare", {"gpus": [["gaudi3", 1], ["mi325x", 1]]}, set()),
    ("what would renting 8x a100 80gb for 100 hours cost? also, if we'd keep them busy 8 hours a day, does buying make "
     "sense over 3 years?", "cloud_cost", {"hours": 100.0}, set()),
    ("our aws rep claims an awq quant of qwen2.5 32b runs fine on one l40s with vllm at 16k. we run mistral 7b on a10gs "
     "today. is that actually true?", "fit", {"gpus": [["l40s", 1]]}, set()),
    ("1M chat samples averaging about 500 tokens each, LoRA on qwen3 14b for 2 epochs on one h100. how long?",
     "training_time", {"training_tokens": 1e9}, {"seq_len"}),
    ("picked up two tesla p40s (24gb each). what's the biggest model I can load across both p40s at q4_k_m in ollama?",
     "biggest_model", {"unknown_gpu": "tesla p40", "gpus": [["24GB", 2]]}, set()),
    ("ollama plan: llama 3.3 70b q4_k_m with num_ctx 16384 on two 3090s. does all of that sit inside the 48gb, or will "
     "it shove layers onto the cpu?", "fit", {}, set()),
    ("we had deepseek r1 on h100s with sglang; management approved moving us to h200s. still sglang, still fp8. how many "
     "h200s for 100 concurrent users?", "serving", {"engine": "sglang"}, set()),
    ("capacity sheet for our team's Q3 asks: lora of mistral small 3.1 24b in bf16 at 8k, micro batch 2. memory needed?",
     "estimate", {"weights_dtype": "bf16"}, {"engine"}),
    ("we have one 8x h200 node booked through end of quarter. with vllm and fp8 weights, what's the longest context for "
     "kimi k2 on that node?", "limits", {"gpus": [["h200-sxm", 8]]}, set()),
    ("our amd rep keeps bringing up the mi325x. what are its actual specs, memory and bandwidth?", "gpu_card",
     {"gpus": [["mi325x", 1]]}, set()),
    ("continued pretraining of qwen3 14b on 40B tokens on 32 h100s (the b200 partition belongs to another team, so don't "
     "count that). how many days?", "training_time", {"gpus": [["h100-sxm", 32]]}, set()),
    ("I know Q4 is a bit too big for 24GB, so I'm going with q3_k_m. how fast will mixtral 8x7b run on my 3090 in "
     "llama.cpp?", "speed", {"weights_dtype": "q3_k_m"}, set()),
    ("a tool on qwen2.5 32b awq used by ~25 underwriters at once. what gpu should we spec for it?", "which_gpu",
     {"users": 25}, set()),
    ("one of the vendors keeps pushing falcon 180b. how much memory does it need in int8?", "estimate",
     {"unknown_model": "falcon 180b"}, set()),
    ("we're moving off the old tgi setup (4x a100 40gb, fine at 4k ctx) onto vllm on 2x h100: does llama 3.1 70b in fp8 "
     "fit with max sequence length 20000?", "fit", {"seq_len": 20000}, set()),
    ("someone on discord said 2 h100s are enough for any 70b. how many h100s do we need to serve llama 3.3 70b in fp8 to "
     "5 people at 128k?", "serving", {"gpus": [["h100-sxm", 1]]}, set()),
    ("llama 3.2 3b on one t4 with vllm in fp16: if every request is capped at 4k tokens, how many can run at the same "
     "time?", "limits", {}, set()),
    ("our lab node is 8x a100 40gb. full fine-tune of olmo 2 13b with fsdp at 4096 tokens: what's the biggest per-gpu "
     "micro-batch?", "limits", {"gpus": [["a100-40gb-sxm", 8]]}, set()),
    ("sre here: a ticket wants mixtral 8x7b on one of our single-l40s nodes. does it fit with awq?", "fit",
     {"gpus": [["l40s", 1]]}, set()),
    ("our lab only has v100s (4x v100 sxm2 32gb in one box; the a100 partition is booked solid until summer). full "
     "finetune of llama 2 7b with zero-3 in fp16: does it fit on all 4 cards?", "fit",
     {"gpus": [["v100-32gb-sxm2", 4]]}, set()),
    ("our h100 allocation got pushed to Q3 (ignore the h100s). how many mi300x for llama 4 scout at 12 requests/sec "
     "with vllm?", "serving", {}, {"weights_dtype"}),
    ("how do the mi300x and h100 compare per card for llama 3.1 70b? also, does the 70b fit on a single mi300x?",
     "compare", {}, set()),
    ("a partner firm we work with runs 32b models on a pair of 4090s. what's the largest model we could run on our single "
     "rtx pro 6000 blackwell at 4-bit with 16k context?", "biggest_model", {"gpus": [["rtx-pro-6000-blackwell", 1]]},
     set()),
    ("we're moving off the old t4 fleet onto l40s nodes. will mixtral 8x7b awq fit on 2x l40s with vllm at 32k?", "fit",
     {"gpus": [["l40s", 2]]}, set()),
    ("I'm torn between moving to h100 sxm or jumping straight to b200 for lora on llama 3.1 8b. how do those two stack "
     "up?", "compare", {"gpus": [["h100-sxm", 1], ["b200", 1]]}, set()),
    ("about 10 clinicians using it at the same time, gemma 3 27b at 8k. what gpu should we buy?", "which_gpu",
     {"users": 10}, set()),
    ("a vendor pitched us a full fine-tune on 8x h100 for $12k. what's the cheapest way to adapt qwen3 8b on 25M tokens?",
     "cheapest_method", {}, {"gpus"}),
    # a named colleague's claim is a report; when the asker got their hardware is no past setup
    ("Priya says her team ran qwen2.5 32b on one H100 at fp8. We have an L40S. Will qwen2.5 32b at q4_k_m fit on it?",
     "fit", {"gpus": [["l40s", 1]]}, set()),
    ("Hardware is 2x L40S in a server the lab bought two years ago. Will mistral small 3.1 in bf16 fit at 8k context?",
     "fit", {"gpus": [["l40s", 2]]}, set()),
    ("We have an H100 NVL on loan. How many concurrent chats at 8k each fit on the H100 for qwen2.5 14b with vllm?",
     "limits", {"gpus": [["h100-nvl", 1]], "seq_len": 8192}, {"purchase_usd_per_gpu"}),
    ("i'm on a 3060 12gb now, saw a 5080 on sale and am thinking of pulling the trigger. how fast would qwen3 14b q4_k_m "
     "run on it?", "speed", {"gpus": [["rtx-5080", 1]]}, set()),
    ("our 4-person data team runs everything on a pair of a6000s. how do the l40s and the h100 pcie compare for gemma 2 "
     "27b?", "compare", {"gpus": [["l40s", 1], ["h100-pcie", 1]]}, {"users"}),
    ("how many B200s to full fine-tune llama 3.1 70b with fsdp? we tried 4 nodes of A100s and ran out of memory",
     "which_gpu", {"gpus": [["b200", 1]]}, set()),
    ("what exactly is the mi300x, memory and bandwidth? also would llama 3.1 405b at fp8 fit on 4 of them?", "gpu_card",
     {"gpus": [["mi300x", 4]]}, set()),
    ("will qwen3 32b q4_k_m OOM on my 4090 at 8k? also how long would a LoRA pass over 30M tokens take on it?", "fit", {},
     set()),
    ("buying 2 rtx 6000 ada vs renting: we'd use them 30 hours a week over the next year and a half", "rent_or_buy",
     {"years": 1.5}, set()),
    # code pasted in a message is a piece of its own; config keys read as the words they stand for
    ("on one 4090: `vllm serve Qwen/Qwen2.5-14B-Instruct-AWQ --max-model-len 16384 --kv-cache-dtype fp8` last month on a "
     "3060 it OOMed. how many 16k sequences can the 4090 hold at once?", "limits",
     {"engine": "vllm", "weights_dtype": "awq", "kv_cache_dtype": "fp8", "gpus": [["rtx-4090", 1]]}, set()),
    ("my notebook: ```FastLanguageModel.from_pretrained('unsloth/llama-3.1-8b', max_seq_length = 4096, load_in_4bit = True)"
     " per_device_train_batch_size = 4``` will this fit on a 16GB card?", "fit",
     {"method": "qlora", "batch_size": 4, "seq_len": 4096, "gpus": [["16GB", 1]]}, {"weights_dtype"}),
    ("What's the largest per_device_train_batch_size for a LoRA of qwen2.5 7b on an L4 at max_seq_length=4096?", "limits",
     {"method": "lora"}, {"batch_size"}),
    # a quoted e-mail, a plan, a move from one card to another, a price set aside
    ("> On Mon, Ravi wrote: > on the old V100s we got batch 4 at 2k  The V100s are gone. What's the biggest batch for a "
     "LoRA of llama 3.1 8b at 4k on one H100?", "limits", {"gpus": [["h100-sxm", 1]]}, {"batch_size"}),
    ("a benchmark had the MI300X ahead, but that was on Mixtral. We want to run qwen2.5 72b in fp8. MI300X vs H200: how do "
     "they compare for that?", "compare", {"model": "Qwen/Qwen2.5-72B"}, set()),
    ("Upgraded from a single RTX A6000 (which ran llama 3 70b q4 at 15 tok/s) to 2x RTX 6000 Ada. Now on vLLM with AWQ: "
     "what's the biggest model I can serve on the pair?", "biggest_model", {"gpus": [["rtx-6000-ada", 2]]}, set()),
    ("quotes came in at $8,900 per L40S and $8,500 per RTX PRO 6000. Leaving price aside, how do the two compare for "
     "LoRA on gemma 3 12b?", "compare", {}, {"purchase_usd_per_gpu"}),
    ("About 40 people on the team, but maybe 15 are using it at the same time. How many L4s to serve phi-4 with vllm?",
     "serving", {"users": 15}, set()),
    # terse and second-language phrasings
    ("My colleague say qwen2.5 72b awq not fit on our one L40S. Is true? Also how fast it would be?", "fit",
     {"gpus": [["l40s", 1]]}, set()),
    ("how long qlora llama 3.1 8b 80M tok on one l4?", "training_time", {"training_tokens": 8e7}, set()),
    ("buy 2 h100 pcie or rent? busy 6h/day, 3 yrs", "rent_or_buy", {"utilization": 0.25, "years": 3.0}, set()),
    ("Vendor quote us 29000 usd per H100 PCIe, we need 4. Runs 24/7 for 3 years. Rent or buy?", "rent_or_buy",
     {"gpus": [["h100-pcie", 4]]}, set()),
    ("I have access to a GH200 node, only one GPU for me. What is the largest LLM that fits on the GH200 in fp8?",
     "biggest_model", {"gpus": [["gh200", 1]]}, set()),
    # a launch date is no rental length; a per-token API price is no GPU price
    ("We're launching in about five weeks. Serving llama 3.1 70b in fp8 on H100s to 300 users, nobody should see less "
     "than 15 tokens/sec. How many H100s?", "serving", {"tokens_per_s_per_user": 15.0}, {"hours"}),
    ("DeepSeek's own API charges $2.19 per million output tokens. We're deciding between an 8x MI300X node and an 8x H200 "
     "node for R1 in fp8. How do those two compare?", "compare", {}, {"purchase_usd_per_gpu"}),
    ("what does 8x h100 on spot cost for a whole quarter?", "cloud_cost", {"hours": 2190.0}, set()),
    # cloud instance types name their GPUs; bullets and log lines are pieces of their own
    ("p4de.24xlarge for 100 hours on demand, how much?", "cloud_cost", {"gpus": [["a100-80gb-sxm", 8]]}, set()),
    ("g6e.xlarge or g6.xlarge for llama 3.1 8b inference, which one's better?", "compare",
     {"gpus": [["l40s", 1], ["l4", 1]]}, set()),
    ("Sizing for our game:\n- target GPU: RTX 4060 Ti 16GB\n- model: Llama 3.2 3B Instruct, 4-bit\n- context per chat: 4k\n"
     "Our old test rig has a 1080 Ti but ignore that. Does it fit on the target card?", "fit",
     {"weights_dtype": "int4", "seq_len": 4096, "gpus": [["rtx-4060-ti-16gb", 1]]}, set()),
    ("our server logged `Loading model weights took 15.2 GB` for llama 3.1 8b. how much memory would command-r 35b need "
     "in bf16?", "estimate", {"unknown_model": "command-r 35b"}, {"gpus", "model"}),
    ("how much vram does command-r need at 8 bit", "estimate", {"unknown_model": "command-r"}, set()),
    # prices and pricing the asker rules out
    ("Our vendor sent an H100 quote (~$31k a card) — please don't factor that in. How many GB for Qwen2.5-72B at bf16 "
     "with 32k context?", "estimate", {}, {"purchase_usd_per_gpu", "gpus"}),
    ("16 B200s for 10 days: what will that cost? Don't quote me spot, we can't tolerate preemption.", "cloud_cost",
     {"pricing": "on_demand"}, set()),
    ("rent or buy a node of 8x H200, 90% busy for four years? ignore the $3.80/hr in the old contract", "rent_or_buy",
     {"gpus": [["h200-sxm", 8]]}, {"rent_usd_per_gpu_hour"}),
    ("~150 clinicians at peak, each expects ≈30 tok/s. Llama 3.1 8B on H100 NVL cards — how many do we need?", "serving",
     {"tokens_per_s_per_user": 30.0, "users": 150}, set()),
    # a move someone else says we should have made is no move; what the question leaves aside stays aside
    ("I've got one node with 8 H100s. My advisor says we should have asked for MI300X time instead, which isn't happening."
     " With FP8 weights on this node, what is the longest context for llama 3.1 405b?", "limits",
     {"gpus": [["h100-sxm", 8]]}, set()),
    ("I tinker on an old 1080 Ti at home and a guy on our team insists 70b needs 200GB. Leaving aside what hardware we "
     "end up buying, how much GPU memory does llama 3.3 70b need in fp8 at 8k?", "estimate", {}, {"unknown_gpu", "gpus"}),
    ("We're a lab adding four B200s, busy half the time over two years. A friend at another university pays $3.50/hr for "
     "B200s but we wouldn't get that. Buy or rent?", "rent_or_buy", {"gpus": [["b200", 4]]}, {"rent_usd_per_gpu_hour"}),
    ("150 chats at peak and we'd like each to stream at 25 tokens/s or better. Mistral Nemo on L40S cards: how many?",
     "serving", {"tokens_per_s_per_user": 25.0}, set()),
    ("Will Llama 3.2 3B run on my Jetson Orin Nano with llama.cpp at Q4_K_M?", "fit", {"unknown_gpu": "jetson orin nano"},
     set()),
    # people outside ML: a colleague's question passed on, a roommate's numbers, a rate the asker cannot get
    ("A student wants to LoRA Mistral Nemo on one of our A100 40GB PCIe cards at 4096 with gradient checkpointing. She "
     "asked me what the biggest batch size is before it runs out of memory. She first tried on her gaming PC with a 3060. "
     "What should I tell her?", "limits", {"gpus": [["a100-40gb-pcie", 1]]}, set()),
    ("I've got a 5070 Ti. What speed for Qwen3 14B at Q4_K_M in LM Studio? My roommate gets 40 tok/s on his 3090.",
     "speed", {"gpus": [["rtx-5070-ti", 1]]}, set()),
    ("A reseller quoted $2.10/hr per H200 for a 3-year reservation, which our grant rules don't allow. A full node of "
     "H200s for two weeks: what would that cost at normal on-demand rates?", "cloud_cost", {"gpus": [["h200-sxm", 8]]},
     {"rent_usd_per_gpu_hour"}),
    ("We want to run the DeepSeek R1 distill that's based on Qwen 32B at 16k context. Which GPU should we buy?",
     "which_gpu", {"model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"}, set()),
    ("we've been renting H100s for months. We're now considering buying a node of H200s, busy around the clock for 4 "
     "years. Does buying make sense compared to renting?", "rent_or_buy", {"gpus": [["h200-sxm", 8]]}, set()),
    ("How much memory does gpt-oss-120b need at 128k context? (we're on A100 80GBs today but that's beside the point, I "
     "just want the number)", "estimate", {}, {"gpus"}),
    ("Someone keeps saying 'Qwen3 30B A3B'. What does the A3B part mean?", "model_card", {}, set()),
    ("~20k protein descriptions to fine-tune llama 3.2 3b on, all weights: how much GPU memory?", "estimate", {},
     {"seq_len"}),
    # round 28: a sentence that dismisses the ones before it, a price in an ad, a card kept in a drawer, counts of outside GPUs
    ("Last year we paid $2.10/hr per A100. A colleague on the vision team got quoted $1.85/hr per H100. Neither applies "
     "here. We need sixteen H200s for three days on spot: what would that cost?", "cloud_cost",
     {"gpus": [["h200-sxm", 16]]}, {"rent_usd_per_gpu_hour"}),
    ("Saw an ad claiming MI300X for $1.49/hr, too good to be true. We need one MI300X up 24/7 for a month: what does that "
     "typically cost?", "cloud_cost", {"gpus": [["mi300x", 1]]}, {"rent_usd_per_gpu_hour"}),
    ("I've got two 4060 Ti 16GB cards (the old 1070 lives in a drawer now). What's the largest model I can run on them?",
     "biggest_model", {"gpus": [["rtx-4060-ti-16gb", 2]]}, {"unknown_gpu"}),
    ("gpt-oss-120b on 4x AMD MI50 16GB with vllm: does it fit in 64GB total?", "fit",
     {"gpus": [["16GB", 4]], "unknown_gpu": "mi50"}, set()),
    ("What's the memory size and bandwidth of an MI325X? also how does it compare to an H200?", "gpu_card", {}, set()),
    ("Single MI300X, Llama 3.1 8B in bf16 on vLLM, 8k tokens per request. How many of those can it keep in flight at "
     "once?", "limits", {}, set()),
    ("2x H100, llama 3.1 70b fp16 on vllm. Keeping batch size at 4, what is the longest context we can configure?",
     "limits", {"batch_size": 4}, set()),
    ("Gemma 3 27B at Q4_K_M in Ollama, 16k context. Budget is about $2k. Which card should I buy?", "which_gpu", {},
     {"purchase_usd_per_gpu"}),
    # round 30: rates per minute and at the spike, headcount beside a peak, files, tags and indirect hardware
    ("~1,200 staff, but around 60 people will be using it at the same moment. Mistral Small 3.1 on H100s: how many?",
     "serving", {"users": 60}, set()),
    ("peak traffic is about 180 requests per minute into Llama 3.1 8B on L40S cards. How many do we need?", "serving",
     {"requests_per_s": 3.0}, set()),
    ("traffic averages ~2 requests/sec but spikes to 8 req/s. gpt-oss-20b on H100 PCIe cards: how many GPUs?", "serving",
     {"requests_per_s": 8.0}, set()),
    ("1 million samples, roughly 550 tokens each. On one H100, how long would one epoch of fine-tuning Llama 2 13B take?",
     "training_time", {"training_tokens": 5.5e8}, {"seq_len"}),
    ("the box under my desk has two of the 24GB nvidia cards. can Qwen3-32B-Q8_0.gguf fit on them in llama.cpp at 32k?",
     "fit", {"model": "Qwen/Qwen3-32B", "weights_dtype": "q8_0", "gpus": [["24GB", 2]]}, set()),
    ("ollama's deepseek-r1:14b at q4_K_M with 32k context: how many GB?", "estimate",
     {"model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B"}, set()),
    ("on our DGX H100, what's the longest context Llama 3.1 405B in fp8 can handle under vllm for a single sequence?",
     "limits", {"gpus": [["h100-sxm", 8]], "batch_size": 1}, set()),
    ("What would a p5e cost us for a week on-demand?", "cloud_cost", {"gpus": [["h200-sxm", 8]]}, set()),
    ("can my laptop hold the new OpenAI open model, the big one, in LM Studio with 128GB?", "fit",
     {"model": "openai/gpt-oss-120b"}, set()),
    ("Qwen/Qwen3-30B-A3B-Instruct-2507 - total vs active params, how many experts, how many layers?", "model_card",
     {"model": "Qwen/Qwen3-30B-A3B"}, set()),
    ("Running Devstral Small in FP8 with SGLang on an RTX PRO 6000 Blackwell. What generation speed should I expect?",
     "speed", {"unknown_model": "devstral small"}, set()),
    # round 31
    ("2x H100, vLLM, Llama 3.3 70B in FP8 with the KV cache also in fp8, 8k per conversation. How many concurrent sequences "
     "can the two H100s hold?", "limits", {"kv_cache_dtype": "fp8"}, set()),
    ("RTX 6000 Ada: time to first token and decode tokens/sec for Mistral Small 3.1 in fp8 on vLLM, 4k context, 300 tokens "
     "generated?", "speed", {"output_tokens": 300}, set()),
    ("Looking to self-host codestral for the team's autocomplete. What GPU do I need to run it at 4 bit?", "which_gpu",
     {"unknown_model": "codestral"}, set()),
    ("mi355x specs? memory and bandwidth. how does it stack up vs b300", "gpu_card", {}, set()),
    ("Llama 3.1 70B in float16 on 2x H100 with vLLM. I'm rebuilding the deployment from scratch. What's the longest "
     "context I can configure?", "limits", {"weights_dtype": "fp16", "workload": "inference"}, {"method"}),
    ("About 200 concurrent users on Llama 3.3 70B in FP8. (Another department has a 64xA100 cluster but it's off limits to"
     " us.) How many H100s do we need?", "serving", {"gpus": [["h100-sxm", 1]]}, set()),
    # round 32
    ("Last quarter we paid $1.10/hr per A100. For a one-week eval sprint I need 4x H200: where's the cheapest on-demand "
     "place to rent that, and the total?", "cloud_cost", {"hours": 168.0, "gpus": [["h200-sxm", 4]]}, set()),
    ("We're replacing our 8x A100 cluster. For serving Llama 3.1 405B in fp8, which gives the best throughput: H100 SXM, "
     "MI300X or B200?", "compare", {}, set()),
    ("Just grabbed two used 3090s off ebay for about $1200 total. Will llama 3.1 70B Q4_K_M fit across both with 8k "
     "context in llama.cpp?", "fit", {"gpus": [["rtx-3090", 2]]}, {"purchase_usd_per_gpu"}),
    ("our team lead keeps saying 'buy whatever has 32GB'. what's the real memory footprint for a 13B model in int8 at 16k "
     "context with fp8 kv cache?", "estimate", {}, {"gpus"}),
    ("10 tok/s with gpt-oss 20b on my RTX 4070 in ollama, context set to 8192. People on the tracker post bigger numbers "
     "but they're on 5090s. What should I expect on this card?", "speed",
     {"gpus": [["rtx-4070", 1]], "seq_len": 8192}, set()),
    ("We've been quoted $32k per H200 SXM and we'd need 8 of them, or the cloud at $3.50/hr per GPU. Busy 8 hours a day "
     "for 3 years: buy or rent?", "rent_or_buy", {"gpus": [["h200-sxm", 8]]}, set()),
    ("kimi k2 - is it actually a trillion params? how many are active per token?", "model_card", {}, set()),
    ("Can I run gpt-oss-20b on a laptop with a 3080 mobile 16gb?", "fit", {"unknown_gpu": "3080 mobile"}, set()),
    # round 33
    ("can a 4060 ti 16gb run qwen3-30b-a3b q4_k_m fully on the gpu? and roughly what speed would i get", "fit", {}, set()),
    ("ads for H200s at $1.99/hr from a provider I don't trust. We need 4 H200s for 3 days: what would that cost at normal "
     "cloud prices?", "cloud_cost", {"gpus": [["h200-sxm", 4]]}, {"rent_usd_per_gpu_hour"}),
    ("It's between an L40 and an RTX A6000 for LoRA on OLMo 2 7B. Which of the two is faster for that, and also how long "
     "would a 50M token run take on the faster one?", "compare", {}, set()),
    ("Qwen3-32B to about 200 concurrent users, each expecting around 20 tokens/s. How many H100s?", "serving",
     {"tokens_per_s_per_user": 20.0}, set()),
    # round 34
    ("2x L40S serving Mistral Small 3.1 in fp8 on vLLM, 4k per chat. How many users can chat at the same time? (Ignore "
     "the three T4s in the same rack, those are for OCR.)", "limits", {"gpus": [["l40s", 2]]}, set()),
    ("120 people chatting at once on GLM-4.5-Air hosted on H200s. How many H200s to keep each user at around 30 tokens/s?",
     "serving", {"tokens_per_s_per_user": 30.0}, set()),
    ("What's the minimum number of H100s to do a full fine-tune of Qwen2.5-14B with FSDP? Also roughly how long would 2B "
     "tokens take on that setup?", "which_gpu", {}, set()),
    ("what are the VRAM and memory bandwidth of the MI355X? the sales rep kept comparing it to the B300 but I only care "
     "about the AMD card's specs", "gpu_card", {"gpus": [["mi355x", 1]]}, set()),
    ("What's the GPU memory needed to LoRA fine-tune Gemma 3 12B in bf16? Sequence length 4096, batch size 8.", "estimate",
     {}, set()),
    # rules written after rounds 35-36 (who's right, moved off, trained in fp8, 20k is 20,000, schedules of use)
    ("my coworker says qwen2.5 32b at q4_k_m fits a 24GB card with 16k context, my friend says no. who's right? "
     "I have a 4090.",
     "fit", {"gpus": [["rtx-4090", 1]]}, set()),
    ("will llama 3.1 70b q4_k_m fit on my 3090s? I have two. same quant as before, also ollama.", "fit", {}, set()),
    ("We moved off the T4s and bought an L40S last week. How much VRAM does Mistral Small 24B need in fp8 on it?",
     "estimate", {"gpus": [["l40s", 1]]}, set()),
    ("keep the old A100s for CI. For training, what does a full fine-tune of Llama 3.1 8B need on H100s?",
     "fit", {"gpus": [["h100-sxm", 1]]}, set()),
    ("my friend has a 3090 and says it runs gemma 3 27b fine. would it fit on my 4070 ti super at q4_k_m?",
     "fit", {"gpus": [["rtx-4070-ti-super", 1]]}, set()),
    ("Our lab has 12 people. How many H100s to serve Qwen3 32B to all of them?", "which_gpu", {}, {"users"}),
    ("200 concurrent internal users on Llama 3.3 70B in fp8: how many H100s?", "serving", {"users": 200}, set()),
    ("I only get one of them: on an 8x A100 node, can one GPU run Llama 3.1 8B in bf16 at 32k context?",
     "fit", {}, set()),
    ("what does renting one H100 cost if I use it 10 hours a day for 30 days?", "cloud_cost", {"hours": 300.0}, set()),
    ("Llama 3.1 8B at 20k context in bf16: how much memory?", "estimate", {"seq_len": 20000}, set()),
    ("Llama 3.1 8B at 32k context in bf16: how much memory?", "estimate", {"seq_len": 32768}, set()),
    ("We've been on Llama 2 70B for a year. Now: should we rent or buy 8x H100 for serving Llama 3.3 70B?",
     "rent_or_buy", {}, {"years"}),
    ("the r1 distill 70b on two 4090s at q4_k_m, does it fit?",
     "fit", {"model": "deepseek-ai/DeepSeek-R1-Distill-Llama-70B"}, set()),
    ("The model was trained in fp8, but I'll serve it in bf16: how much memory for Qwen2.5 7B at 8k?",
     "estimate", {"weights_dtype": "bf16"}, {"method"}),
    ("which of the 5090 or 4090 has the nicest RGB lighting?", None, {}, set()),
    ("currently on a 4070, picking up a 5090 next week. can it run qwen3 32b at q4_k_m?",
     "fit", {"gpus": [["rtx-5090", 1]]}, set()),
    # rules written after rounds 37-39 (money words, told numbers, counts across both, asks in order)
    ("is gemma 3 12b in q6 ok for a 12gb 3060?", "fit", {"weights_dtype": "q6_k"}, set()),
    ("would buying a used 3090 for about three grand beat renting one at 30 cents/hr, if we use it 6 hours a "
     "day for 2 years?",
     "rent_or_buy", {"purchase_usd_per_gpu": 3000.0}, set()),
    ("support desk rollout: 2,000 staff, we expect 150 at once at peak, running Qwen2.5 14B on vLLM. what "
     "hardware do we need?",
     "serving", {"users": 150}, set()),
    ("we retrain a LoRA on llama 3.1 8b twice a month on ~10M tokens, what's the cheapest way to do it?",
     "cheapest_method", {}, {"hours"}),
    ("there's a p4d.24xlarge in our account and I want to know who started it", None, {}, set()),
    ("For context, our prototype ran on one T4. Production: how many L40S to serve Mistral 7B to 60 concurrent users?",
     "serving", {"gpus": [["l40s", 1]]}, set()),
    ("The old chatbot ran Llama 2 13B on an A10G. The new one is Qwen3 32B in fp8: will it fit on one L40S?",
     "fit", {"model": "Qwen/Qwen3-32B", "gpus": [["l40s", 1]]}, set()),
    ("At my last company we had H100s at $1.10/hr. Now: what does 2x A100 for 5 days cost on demand?",
     "cloud_cost", {"gpus": [["a100-80gb-sxm", 2]]}, {"rent_usd_per_gpu_hour"}),
    ("what would 1 H100 cost for 12 hours a day over 20 days?", "cloud_cost", {"hours": 240.0}, set()),
    ("I have two 4090s. can qwen2.5 72b q4_k_m be split across both in llama.cpp?",
     "fit", {"gpus": [["rtx-4090", 2]]}, set()),
    ("what's the smallest card that can hold mistral nemo in fp8 with 32k context?", "which_gpu", {}, set()),
    ("which gpu to buy for qwen2.5 14b q4_k_m in ollama? budget is below $800",
     "which_gpu", {}, {"purchase_usd_per_gpu"}),
    ("does a full finetune of qwen2.5 3b fit on a 4090? I'd rather not use gradient checkpointing",
     "fit", {"gradient_checkpointing": False}, set()),
    ("our qlora'd mistral 7b gets 30 requests/min at peak: how many L4s do we need with vllm?",
     "serving", {}, {"method"}),
    ("The data team quoted us 2 weeks on their A100s. How long would a LoRA on llama 3.1 70b over 1B tokens "
     "take on 8x H200?",
     "training_time", {"gpus": [["h200-sxm", 8]]}, {"hours"}),
    ("memory for a qlora of qwen2.5 32b at 8k? disregard the 4x L40S quote from the reseller, I want the number",
     "estimate", {}, {"gpus"}),
    ("cheapest gpu and method to fine-tune gemma 2 9b at 4k context?", "cheapest_method", {}, set()),
    ("What's the memory needed for Llama 3.1 405B in fp8, and how many H100s is that?",
     "estimate", {"gpus": [["h100-sxm", 1]]}, set()),
    # rules written after round 40 (hardware written indirectly)
    ("Apple M2 Max w/ 96GB: how fast would qwen2.5 32b q4_k_m generate in llama.cpp?",
     "speed", {"unknown_gpu": "apple m2 max"}, set()),
    ("H200 SXM 141GB x8 node: how many 16k sequences of Llama 3.1 405B in fp8 fit at once in vllm?",
     "limits", {"gpus": [["h200-sxm", 8]]}, set()),
    ("2x the 4090, what's the biggest model that fits at q4_k_m in llama.cpp?",
     "biggest_model", {"gpus": [["rtx-4090", 2]]}, set()),
    ("how many 24gb cards would it take to hold llama 3.3 70b at q4_k_m fully in vram with ollama?",
     "which_gpu", {"gpus": [["24GB", 1]]}, set()),
    ("what's the number of layers and kv heads of falcon 180b?", "model_card", {"params_billions": 180.0}, set()),
    # rules written after round 41 (phone shorthand, told sentences in Slack and e-mail)
    ("wil mistral nemo q5km fit on a 3060 12g w/ 8k ctx", "fit", {"weights_dtype": "q5_k_m"}, set()),
    ("gpus needed for 120 req/min llama 3.1 70b fp8 ~300 out toks", "serving", {"requests_per_s": 2.0}, set()),
    ("buy an a100 80g for 17k or rent at 1.4/hr? 12h a day",
     "rent_or_buy", {"purchase_usd_per_gpu": 17000.0}, {"seq_len"}),
    ("an old 2080 is in the closet but forget about that card. how much vram does qwen2.5 14b need at q8_0?",
     "estimate", {}, {"gpus"}),
    ("We're a 250-person agency and want to self-host Llama 3.1 70B in fp8. How many H100s does the model need?",
     "which_gpu", {}, {"users"}),
    ("what's the vram on an A10G, and how many params is mistral 7b?", "gpu_card", {"gpus": [["a10g", 1]]}, set()),
    ("thinking of buying 4x L40S at $9,000 each vs renting at "
     "$0.90/gpu-hr, about 10 hours a day for 2 years. which is cheaper?",
     "rent_or_buy", {"purchase_usd_per_gpu": 9000.0}, set()),
    ("We got two RTX 6000 Ada cards last year (paid, not the question). Can the pair hold Qwen2.5 72B at int4?",
     "fit", {"gpus": [["rtx-6000-ada", 2]]}, set()),
    # rules written after round 42 (newcomers' words, infra engineers' flags)
    ("i want to make llama 3.1 8b write like my discord bot with a lora fine-tune. how much vram is that?",
     "estimate", {"method": "lora"}, set()),
    ("my cousin's old card is a 24 gig one, no idea which. biggest model i could load in q4?",
     "biggest_model", {"weights_dtype": "q4_k_m"}, set()),
    ("we're a 25-person clinic. if all 25 of us used a qwen2.5 7b assistant at the same time, how many L4s would we need?",
     "serving", {"users": 25}, set()),
    ("3090 or 4070 ti super for qwen2.5 14b? which would be quicker, and would both fit it at q6?",
     "compare", {}, set()),
    ("llama 3.1 8b on one A10G under vllm, max-model-len 16k. how many concurrent seqs (max-num-seqs) fit in the kv cache?",
     "limits", {"seq_len": 16384}, set()),
    ("can qwen3-30b-a3b (q4_k_m) run on a 4060 ti 16gb at 32k ctx, and what tok/s would i get?", "fit", {}, set()),
    ("how many H200 to hold Llama 3.1 405B in bf16 with 32k ctx? vllm", "which_gpu", {}, set()),
    ("rent or buy 4x H100: on-demand ~$2.50/gpu-hr, buy ~$28k each, 3 years at 16 hrs a day. (ignore the $1.60 spot price)",
     "rent_or_buy", {"pricing": "on_demand"}, set()),
    # rules written after rounds 45-46 (conversations, infra engineers' flags and asides)
    ("burn-in of mixtral 8x7b on 3 p4de.24xlarge for 5 days at $4.10 per gpu-hr, what's the total?",
     "cloud_cost", {"gpus": [["a100-80gb-sxm", 24]], "rent_usd_per_gpu_hour": 4.1, "hours": 120}, set()),
    ("llama-server with gemma 3 12b q5_k_m on a 3060 12gb, -ctk q8_0 -ctv q8_0: longest -c that stays on the card?",
     "limits", {"weights_dtype": "q5_k_m", "kv_cache_dtype": "q8_0"}, set()),
    ("helpdesk assistant, 120 concurrent users, each has to get >=15 tok/s, qwen2.5 14b on vllm. how many L40S?",
     "serving", {"users": 120, "tokens_per_s_per_user": 15}, set()),
    ("L4s for llama 3.1 8b at 12 QPS on vllm, how many? a reseller keeps claiming one L4 does 30 QPS, ignoring that",
     "serving", {"requests_per_s": 12}, set()),
    ("mistral small 24b fp8 on sglang, 60 concurrent chats at 20 tok/s each. how many H100s? (a consultant pitched a 32-gpu "
     "cluster, we are not going that route)", "serving", {"gpus": [["h100-sxm", 1]]}, set()),
    ("our cluster nodes lose a GPU after the driver update and NCCL hangs at init on the A100 boxes. any idea?",
     None, {}, set()),
    ("can mistral small 24b in bf16 fit on 2x L40S with vllm, or do we have to use the fp8 weights?",
     "fit", {"weights_dtype": "bf16"}, set()),
    ("can qwen2.5 14b go 4-bit gptq on a 4060 ti 16gb with 16k ctx?", "fit", {"weights_dtype": "gptq"}, set()),
    ("two A30s (24GB) left over from a project: could they run qwen2.5 14b in bf16 with vllm tp=2?",
     "fit", {"unknown_gpu": "a30", "gpus": [["24GB", 2]]}, set()),
    ("used to rent a40s for my side gig, maybe 3 hours a day. does buying a 5090 at $2,400 beat that over 3 years?",
     "rent_or_buy", {"gpus": [["rtx-5090", 1]]}, {"unknown_gpu"}),
    ("how much vram for gemma 3 27b in bf16 with 12 concurrent seqs at 8k each?", "estimate", {"batch_size": 12}, {"users"}),
    ("team of 3 here, buy two L40S at $8k each or rent them at $0.95/hr? they'd run 24/7, 3 years",
     "rent_or_buy", {"utilization": 1.0}, {"users"}),
    ("what top_p and temperature do you use for gemma 3 when writing fiction?", None, {}, set()),
    # rules written after rounds 47-48 (platform messages, terse one-liners, people outside ML)
    ("vllm serve Qwen/Qwen2.5-32B-Instruct --quantization fp8 --kv-cache-dtype fp8_e4m3 on one L40S: longest context?",
     "limits", {"weights_dtype": "fp8", "kv_cache_dtype": "fp8"}, set()),
    ("chat endpoint on llama 3.1 8b, vllm, 20 QPS, p50 output 150 tokens, p95 output 500 tokens, sizing for the p95. how many A10Gs?",
     "serving", {"output_tokens": 500, "requests_per_s": 20}, {"seq_len"}),
    ("H100 vs B200 for deepseek v3 fp8 in sglang, which serves more tokens/s per node (8 gpus each)?",
     "compare", {"gpus": [["h100-sxm", 8], ["b200", 8]]}, set()),
    ("the triton pods get OOMKilled by the kubelet right after start, limits.memory is 32Gi on the L4 nodes. why?", None, {}, set()),
    ("TGI --num-shard 2 --max-total-tokens 16384 with mistral 7b on 2x L4, what aggregate tok/s at batch 16?",
     "speed", {"seq_len": 16384, "batch_size": 16}, set()),
    ("k8s: limits.nvidia.com/gpu: 4, nodeSelector nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3, qwen2.5 72b bf16 on vllm. fits?",
     "fit", {"gpus": [["h100-sxm", 4]]}, set()),
    ("should the lab buy A100 80GB cards at ~$15,000 each (we'd get 8) or keep renting them at $1.40/hr, 12 hours a day, 3 years?",
     "rent_or_buy", {"gpus": [["a100-80gb-sxm", 8]]}, set()),
    ("max batch for qwen2.5 7b on one L4 at 2k total tokens per sequence?", "limits", {"seq_len": 2048}, set()),
    ("lora qwen2.5 7b on a 4090, batch 4 at 2048, will it fit?", "fit", {"seq_len": 2048, "batch_size": 4}, set()),
    ("rent 2 h100 3wk cost", "cloud_cost", {"hours": 504}, set()),
    ("ft qwen2.5 7b full, 4x a100, 50M tok, how long?", "training_time", {"method": "full"}, set()),
    ("one A100 for a workshop: 2 hours a session, 3 times a week, for 6 weeks. spot is fine. roughly what will it cost?",
     "cloud_cost", {"hours": 36, "pricing": "spot"}, set()),
    ("$50k of our grant is set aside for GPUs. which card should we buy to full fine-tune qwen2.5 7b, and how many?",
     "which_gpu", {}, {"purchase_usd_per_gpu"}),
    ("our support team would have 30 people chatting at once, each one should get about 25 tokens a second. llama 3.1 8b, how many L4s?",
     "serving", {"users": 30, "tokens_per_s_per_user": 25}, set()),
    ("our engineer wants to run mistral small 24b locally instead of paying anthropic every month. how much vram is that? she said 8-bit "
     "if that matters", "estimate", {"weights_dtype": "int8"}, {"hours"}),
    ("the office has a tower with two RTX A5000s that used to do video editing. could qwen2.5 32b at q4 run across the two cards?",
     "fit", {"unknown_gpu": "rtx a5000"}, set()),
    # rules written after round 49 (two-turn exchanges, forum threads)
    ("cmake with -DGGML_CUDA=ON fails at the link step, undefined reference to cublas symbols. card is a 3060. which lib is missing?",
     None, {}, set()),
    ("after updating peft my qlora adapter won't load anymore, it throws KeyError on lora_B. trained it on a 3090 with qwen2.5 7b. why?",
     None, {}, set()),
    ("Did a QLoRA of mistral 7b on a 4060 ti 16gb. A tutorial used seq len 4096 and batch size 4 and I copied it. Will that fit at "
     "those settings?", "fit", {"seq_len": 4096, "batch_size": 4}, set()),
    ("new build with a 5080 16gb, coming from a 1070 so it's a big jump. biggest model at q4_k_m with 8k ctx fully on the gpu?",
     "biggest_model", {"gpus": [["rtx-5080", 1]]}, {"unknown_gpu"}),
    ("one L40S runs our chatbot on qwen2.5 14b now; at peak 60 concurrent users and we want each of them to get 25 tok/s. how many "
     "L40S do we need?", "serving", {"users": 60, "tokens_per_s_per_user": 25}, set()),
    ("a 4x H100 box 12 hours a day on weekdays, so about 20 days, at $2.40 per gpu-hour: what's the bill?",
     "cloud_cost", {"hours": 240, "rent_usd_per_gpu_hour": 2.4}, set()),
    ("deepseek r1 at q4 gguf with llama.cpp, 32k context: can H200s do it, and how many would we need?", "which_gpu", {}, set()),
    ("a 4x A100 node is booked for us for the next 10 days. LoRA of qwen2.5 32b on 500M tokens: how long will the run take?",
     "training_time", {"training_tokens": 500_000_000}, {"hours"}),
    # rules written after rounds 51-52 (forum threads, ops messages, long conversations, hobbyists)
    ("still on a 2060 that can't hold anything over 7b. I want qwen2.5 32b q4_k_m at 8k ctx in llama.cpp: how many 3060 12gbs do I "
     "need?", "which_gpu", {"weights_dtype": "q4_k_m"}, set()),
    ("We serve llama 3.1 8b on one L4 with vllm, about 25 concurrent users right now. Sales wants to roll it out to 200 concurrent "
     "users at 20 tok/s each. How many L4s?", "serving", {"users": 200, "tokens_per_s_per_user": 20}, set()),
    ("a forum post said ~2 bytes per param so ~28GB for qwen2.5 14b. how much VRAM does it really need in bf16 at 4k context?",
     "estimate", {"weights_dtype": "bf16"}, {"gpus"}),
    ("one L40S with qwen2.5 14b in vllm, a single user sees ~60 tok/s. how many concurrent users at 8k context before the kv cache "
     "is full?", "limits", {"seq_len": 8192}, {"users"}),
    ("need 32k sequences now for contracts; which GPU should I rent to LoRA qwen2.5 7b at 32k context?",
     "which_gpu", {"seq_len": 32768}, {"users"}),
    ("we send ~20M tokens/day to an API for classification. cheapest way to run qwen2.5 7b ourselves: which GPU and quant?",
     "cheapest_method", {}, {"training_tokens"}),
    ("full fine-tune of qwen2.5 1.5b on the 40GB A100 with the HF Trainer, seq 1024: max batch size?",
     "limits", {"gpus": [["a100-40gb-sxm", 1]], "recipe": "hf_trainer"}, set()),
    ("which prompt format should I use for mistral nemo in LM Studio? it keeps printing [INST]", None, {}, set()),
    ("vllm wheel on my 5080 fails with 'no kernel image is available for execution on the device'. is there a prebuilt wheel that "
     "works?", None, {}, set()),
    ("is a 850W psu enough for a 4090 and a 7800x3d?", None, {}, set()),
    ("Ray Serve with vllm, llama 3.1 8b on L4s: ~600 requests/min, output len ~300 tokens. how many L4s?",
     "serving", {"output_tokens": 300, "requests_per_s": 10}, {"seq_len"}),
    ("B200 vs MI355X for deepseek v3 fp8, which gives more tok/s per node? 8 gpus either way",
     "compare", {"gpus": [["b200", 8], ["mi355x", 8]]}, set()),
    ("how many 4060 ti 16gbs would i need for qwen2.5 32b in q4? lol", "which_gpu", {"weights_dtype": "q4_k_m"}, set()),
    ("my rtx 4080 laptop gpu has 12gb. can it run qwen2.5 14b at q4_k_m?", "fit", {"unknown_gpu": "rtx 4080 laptop"}, set()),
    ("picked up three mi50s on ebay (32gb each, about $150 a pop). biggest model across all three in q4?",
     "biggest_model", {"gpus": [["32GB", 3]]}, {"purchase_usd_per_gpu"}),
    ("h100 80gb going cheap at a local auction - what are its specs and bandwidth?", "gpu_card", {}, set()),
    ("me and 3 discord friends want to share my 3090 running qwen2.5 7b in vllm. how long can the context be with 4 users at once?",
     "limits", {"users": 4, "engine": "vllm"}, set()),
    # rules written after rounds 53-54 (conversations, forum posts, work messages)
    ("want to QLoRA mistral 7b at 2k ctx, batch 2. a youtube video says 5GB is plenty but I doubt it. how much vram does it need?",
     "estimate", {"method": "qlora"}, {"gpus"}),
    ("internal assistant on qwen2.5 32b for ~300 staff, maybe 50 chatting at the same time, 15 tok/s each. how many L40S with vllm?",
     "serving", {"users": 50}, set()),
    ("We rent 4x A100 at $1.80/gpu/hr about 10 hours a day. We got a quote of ~$14k per card, and our CTO thinks buying wins. Over "
     "3 years, rent or buy?", "rent_or_buy", {"purchase_usd_per_gpu": 14000, "rent_usd_per_gpu_hour": 1.8}, set()),
    ("sglang crashes with 'CUDA error: an illegal memory access was encountered' after an hour on my H100. is there a fix?",
     None, {}, set()),
    ("does gemma 3 27b at q4_k_m get noticeably dumber than q8 for summaries? vram isn't the issue", None, {}, set()),
    ("how many parameters does deepseek v3 have, and how many are active per token?", "model_card", {}, set()),
    ("LoRA of qwen2.5 14b on 80M tokens x2 epochs on one L40S, how long?", "training_time", {"training_tokens": 160_000_000}, set()),
    ("Fine-tuning Mistral 7B fully on 500M tokens with FSDP on 4x A100, how long?", "training_time", {"method": "full"}, set()),
    ("dashboard shows ~28 tok/s per stream for llama 3.3 70b fp8 on one H100 with vllm. is that the decode speed to expect?",
     "speed", {}, {"tokens_per_s_per_user"}),
    ("llama 3.1 70b for ~25 QPS, 250 output tokens, on H100s with vllm. how many? ignore the 16-GPU figure in the reseller deck, "
     "that assumed fp8 and we're not doing that.", "serving", {"gpus": [["h100-sxm", 1]]}, {"weights_dtype"}),
    ("our training jobs keep dying with NCCL timeouts on the A100 nodes since the driver upgrade. any ideas?", None, {}, set()),
    # rules written after round 55 (conversations, posts with backstory)
    ("qwen2.5 72b awq on vllm, 150 concurrent users at 20 tok/s each. the reseller quoted us 6 GPUs. how many L40S do we really "
     "need?", "serving", {"gpus": [["l40s", 1]]}, set()),
    ("last run was a LoRA of qwen2.5 7b on 3B tokens. this one is qwen2.5 14b, 500M tokens x 2 epochs, on 8 H100s. how long?",
     "training_time", {"model": "Qwen/Qwen2.5-14B", "training_tokens": 1_000_000_000}, set()),
    ("mistral 7b in ollama answers way worse than chatgpt for me. how do i make it smarter?", None, {}, set()),
    # rules written after rounds 57-58 (conversations, forum posts, one-liners and newcomers, work threads)
    ("we have ~250 analysts, assume 30 active at once wanting 20 tok/s each, qwen2.5 32b on vllm. how many L40S?",
     "serving", {"users": 30}, set()),
    ("budget check: renting eight A100s around the clock for two months at one dollar ninety per GPU per hour, what does that "
     "come to?", "cloud_cost", {"rent_usd_per_gpu_hour": 1.9, "hours": 1460}, {"purchase_usd_per_gpu"}),
    ("I have an RTX 3060 and LM Studio. if I load Llama 3.1 8B, about how many words per second will it write?", "speed", {}, set()),
    ("a student wants to LoRA Qwen2.5 7B on thirty million tokens, three passes over the data, on one L40S. how many hours?",
     "training_time", {"training_tokens": 90_000_000}, set()),
    ("we want to train Llama 3.1 8B fully in bf16. how many H100s would that take?", "which_gpu", {"method": "full"}, set()),
    ("our team's nodes have 2x L40S each. will llama 3.3 70b awq load on one node with 8k context? (research has H100s but that "
     "cluster is theirs, not ours)", "fit", {"gpus": [["l40s", 2]]}, set()),
    ("spare RTX 6000 Ada in the office. biggest model at 4-bit on it? don't count the old titan boxes, they're going to recycling",
     "biggest_model", {}, {"unknown_gpu"}),
    # rules written after round 59
    ("B200 or MI355X for llama 3.1 405b in fp8? we'd get 8 of either, sales rep says AMD wins but I want numbers",
     "compare", {"gpus": [["b200", 8], ["mi355x", 8]]}, set()),
]


@pytest.mark.parametrize("question, journey, holds, lacks", READINGS, ids=[r[0][:48] for r in READINGS])
def test_the_sentence_that_asks_decides_the_reading(catalog, question, journey, holds, lacks):
    answer = ask(question, catalog)
    assert answer.journey == journey, answer.interpretation
    assert {k: answer.reading.get(k) for k in holds} == holds
    assert not lacks & set(answer.reading)


def test_a_length_told_about_is_said_to_be_set_aside(catalog):
    answer = ask("gpt-oss-120b on one h100 in vllm OOMs for me at 128k. what max context is realistic?", catalog)
    assert "'128k': a length the question tells of, not asks for" in " ".join(answer.read)


def test_the_longest_context_never_exceeds_the_models_window(catalog):
    answer = ask("what max context can gpt-oss-120b have on a single h100 in vllm?", catalog)
    assert "the model's whole window, 131,072 tokens" in answer.answer


def test_rent_or_buy_after_a_rental_bill_counts_the_job_as_the_use(catalog):
    answer = ask("sixteen H200s for six weeks on-demand: the bill? and would it be cheaper to just buy them?", catalog)
    assert "buy" in answer.answered and "1,008 h of use over 3 years" in answer.answer
    made = next(c for c in answer.calls if c.tool == "rent_vs_buy")
    assert made.arguments["utilization"] == pytest.approx(1008 / (3 * 8760))


def test_hours_a_year_are_a_utilization(catalog):
    answer = ask("rent or buy 8 h100s, we need them 500 hours a year?", catalog)
    assert answer.reading["utilization"] == pytest.approx(500 / 8760)


def test_a_gpu_swapped_out_in_a_follow_up_is_replaced_not_added(catalog):
    first = ask("will gemma 3 27b q4_k_m fit on a 4090 at 32k?", catalog)
    answer = ask("and if i swap the 4090 for a 5090?", catalog, first)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["rtx-5090", 1]]


@pytest.mark.parametrize("question", ["will qwen3 32b at q8_0 or q4_k_m fit on my arc a770?",
                                      "is lora or qlora better for llama 3.1 8b on a titan rtx?"])
def test_a_second_format_or_method_on_a_gpu_outside_the_catalog_is_answered_not_a_crash(catalog, question):
    answer = ask(question, catalog)  # the second answer went straight to the fit and indexed a GPU list that was empty
    assert answer.journey == "fit" and answer.answer.count("not in the catalog") == 2


PIECES = {  # words people combine; every combination must get an answer or a 'not understood', never an exception
    "lead": ["", "my old box had a 3090. ", "a friend says it needs 48GB. ", "someone on reddit ran it at 128k; "],
    "ask": ["will", "how fast is", "how much vram for", "max context for", "cheapest way to run", "which gpu for",
            "rent or buy", "how long to train", "what is"],
    "model": ["llama 3.1 8b", "qwen3 30b a3b", "a 13b model", "command r+", "deepseek r1", ""],
    "format": ["", "q4_k_m", "q8_0 or q4_k_m", "lora or qlora", "fp8", "iq1_s"],
    "gpu": ["", "on a 4090", "on my arc a770", "on 2x 24gb cards", "on a mac studio 192gb", "on 8 h100s for a week",
            "vs an a100"],
    "tail": ["?", " at 32k?", " with vllm for 50 users?", ", and how fast?", " on 1T tokens?"],
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in PIECES.items()}))
def test_any_combination_of_real_pieces_gets_an_answer_not_an_exception(catalog, parts):
    question = f"{parts['lead']}{parts['ask']} {parts['model']} {parts['format']} {parts['gpu']}{parts['tail']}"
    answer = ask(" ".join(question.split()), catalog)
    assert answer.answer and not PLACEHOLDER.search(answer.answer)


def test_a_follow_up_that_asks_nothing_new_keeps_the_question(catalog):
    first = ask("what's an a100 80gb going for per hour these days?", catalog)
    answer = ask("and a 4090?", catalog, first)
    assert first.journey == answer.journey == "cloud_cost" and answer.calls[0].arguments["gpu"] == "rtx-4090"


def test_a_model_card_that_also_asks_the_fit_answers_both(catalog):
    answer = ask("what is GLM-4.5-Air architecturally (moe? active params?) and would it fit on 2x H100 in fp8?", catalog)
    assert answer.journey == "model_card" and answer.answered == ["card", "fit"] and "Fit: " in answer.answer


def test_specs_then_the_hourly_rate_answers_the_card_and_the_rent(catalog):
    answer = ask("specs of the H200 NVL? and what does one go for per hour to rent?", catalog)
    assert answer.journey == "gpu_card" and "cost" in answer.answered


def test_a_context_as_long_as_the_window_holds_the_prompt_and_the_answer(catalog):
    answer = ask("how fast is llama 3.1 8b on an h100 with vllm at 128k context?", catalog)
    assert "could not answer" not in answer.answer and "130,816 prompt + 256 output tokens" in answer.answer
    assert answer.calls[0].arguments["prompt_tokens"] == 130816


def test_a_size_in_a_follow_up_names_the_sibling_of_the_model_asked_about(catalog):
    first = ask("what's the architecture of qwen3 30b a3b, how many experts are active?", catalog)
    assert ask("and the 235b one?", catalog, first).reading["model"] == "Qwen/Qwen3-235B-A22B"
    assert "params_billions" in ask("what about a 14b model?", catalog, first).reading  # any model of that size


def test_a_training_run_on_one_consumer_card_is_one_card_not_a_node(catalog):
    answer = ask("how long would a qlora of llama 3.1 8b on ~40M tokens take on my 4090?", catalog)
    assert answer.calls[0].arguments["gpu_count"] == 1 and "1 × rtx-4090" in answer.interpretation


def test_a_follow_up_sets_the_kv_cache_precision(catalog):
    first = ask("what's the max context for llama 3.1 8b in fp16 on a 4090?", catalog)
    assert ask("what if the kv cache is fp8", catalog, first).reading["kv_cache_dtype"] == "fp8"


def test_a_follow_up_that_compares_keeps_the_gpu_asked_about_before(catalog):
    first = ask("gpt-oss-20b tok/s on a 5090?", catalog)
    answer = ask("how's that compare to a 4090 tho", catalog, first)
    assert answer.journey == "compare" and answer.reading["gpus"] == [["rtx-5090", 1], ["rtx-4090", 1]]


def test_a_follow_up_asking_how_many_then_keeps_the_limit(catalog):
    first = ask("vllm on one l40s serving mistral 7b in bf16, requests at most 4k tokens. how many concurrent sequences "
                "before the kv cache runs out?", catalog)
    answer = ask("same thing but with the kv cache in fp8, how many then?", catalog, first)
    assert answer.journey == "limits" and answer.reading["kv_cache_dtype"] == "fp8"


def test_a_follow_up_pointing_at_that_card_keeps_the_question(catalog):
    first = ask("does gpt-oss-120b fit on a single h100 with the full 128k context in vllm?", catalog)
    answer = ask("right, so what's the longest max-model-len I can realistically set on that one card then?", catalog, first)
    assert answer.follow_up and answer.journey == "limits" and answer.reading["gpus"] == [["h100-sxm", 1]]


def test_a_follow_up_with_everything_else_the_same_keeps_the_plan(catalog):
    first = ask("serve llama 3.3 70b to about 60 simultaneous sessions with vllm: how many h100s?", catalog)
    answer = ask("client came back, peak is more like 120 sessions, everything else the same. how many H100s then?",
                 catalog, first)
    assert answer.follow_up and answer.journey == "serving" and answer.reading["model"] == "meta-llama/Llama-3.3-70B-Instruct"


def test_a_follow_up_adding_a_gpu_to_a_comparison_keeps_the_others(catalog):
    first = ask("L40S vs A100 80GB PCIe for serving qwen2.5-72b awq - which one gives more for the money?", catalog)
    answer = ask("throw the H100 NVL into that comparison too", catalog, first)
    assert answer.journey == "compare" and [g for g, _ in answer.reading["gpus"]] == ["l40s", "a100-80gb-pcie", "h100-nvl"]


def test_a_speed_answer_reads_as_the_prompt_it_assumed(catalog):
    answer = ask("how fast is llama 3.1 8b q4_k_m on a 3090 with llama.cpp?", catalog)
    assert "1,024-token prompts" in answer.interpretation and "prompt: 1,024 tokens" in " ".join(answer.defaults_used)


def test_the_question_readers_hold_no_control_characters():
    """A stray backspace in a pattern (an escape typed once too few) silently never matches."""
    from pathlib import Path

    import gpusizer.tools.questions as questions
    for source in Path(questions.__file__).parent.glob("*.py"):
        assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", source.read_text()), source.name


def test_the_place_asked_about_is_read_not_ignored(catalog):
    answer = ask("at work we have 4x a100, and at home a 3090. at home, how fast would qwen3 14b q4_k_m run in llama.cpp?",
                 catalog)
    assert answer.reading["gpus"] == [["rtx-3090", 1]] and "home" not in answer.ignored


def test_a_troubleshooting_question_is_not_answered_as_a_sizing_one(catalog):
    answer = ask("after updating ollama on my 3090 box, open webui can't talk to it anymore: connection refused on "
                 "localhost. do I need to set OLLAMA_HOST?", catalog)
    assert not answer.understood and answer.reading == {} and "troubleshooting" in answer.answer
    sizing = ask("my 4090 crashes when I load llama 3.1 70b q4_k_m in ollama. will it even fit?", catalog)
    assert sizing.journey == "fit" and sizing.reading["gpus"] == [["rtx-4090", 1]]


def test_ignore_with_no_gpu_name_after_it_leaves_the_gpus_alone(catalog):
    answer = ask("ignore a few typos. will llama 3.1 70b in fp8 fit on an a100 80gb with vllm?", catalog)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["a100-80gb-sxm", 1]]


def test_how_many_of_a_named_gpu_leads_with_that_gpus_count(catalog):
    answer = ask("how many H100s do I need to serve llama 3.1 405b in fp8? just one copy, no users to speak of", catalog)
    assert answer.journey == "which_gpu" and re.search(r"On h100-sxm: \d+ GPU\(s\)", answer.answer)


def test_a_gpus_card_asked_first_answers_the_card_and_the_fit(catalog):
    answer = ask("what's an L40S exactly? and could one of them run llama 3.1 8b in bf16?", catalog)
    assert answer.journey == "gpu_card" and "fit" in answer.answered
    priced = ask("what's an L40S going for per hour these days?", catalog)
    assert priced.journey == "cloud_cost"


def test_an_input_taken_from_the_backstory_is_said_to_come_from_there(catalog):
    answer = ask("Our lab has 4x A100 80GB in one box. A friend ran llama 70b on 2 H100s. Will qwen2.5 72b in fp8 fit on "
                 "ours at 16k context?", catalog)
    assert answer.from_backstory == ["'a100 80 gb' (4 × a100-80gb-sxm)"]
    assert "From the sentences that tell (not the one that asks): 'a100 80 gb' (4 × a100-80gb-sxm)." in answer.interpretation
    asked_alone = ask("Will qwen2.5 72b in fp8 fit on 4x A100 80GB at 16k context?", catalog)
    assert asked_alone.from_backstory == [] and "From the sentences" not in asked_alone.interpretation


def test_a_follow_up_that_asks_which_gpu_drops_the_gpu_it_had(catalog):
    first = ask("gemma 3 27b q4_k_m on my 5090 with llama.cpp: what's the max ctx before layers spill to cpu?", catalog)
    answer = ask("ok and if i want the full 128k ctx with the same setup, which gpu should i get instead?", catalog, first)
    assert answer.journey == "which_gpu" and "gpus" not in answer.reading


def test_a_follow_up_asking_how_long_keeps_the_sequence_length(catalog):
    first = ask("planning a full fine-tune of olmo 2 13b with fsdp at 4k seq len. how much gpu memory in total?", catalog)
    answer = ask("thanks. if we run that on 8x h100 over 20B tokens, how long does it take?", catalog, first)
    assert answer.journey == "training_time" and answer.reading["seq_len"] == 4096


def test_a_conversation_keeps_its_node_and_asks_the_runs_bill(catalog):
    first = ask("full fine-tune of qwen2.5 7b on 1B tokens, 2 epochs, on a node of H100s with FSDP: how long?", catalog)
    second = ask("what if it were H200s instead?", catalog, first)
    assert second.journey == "training_time" and second.reading["gpus"] == [["h200-sxm", 8]]
    third = ask("and what would that run cost on spot?", catalog, second)
    assert third.journey == "training_time" and third.reading["pricing"] == "spot"


def test_a_follow_up_on_one_of_those_cards_keeps_the_card(catalog):
    first = ask("what exactly is the rtx pro 6000 blackwell? how much vram?", catalog)
    answer = ask("could i run glm 4.5 air on one of those at fp8?", catalog, first)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["rtx-pro-6000-blackwell", 1]]


def test_a_follow_up_that_adds_two_gpus_to_a_comparison_keeps_the_first_two(catalog):
    first = ask("h100 vs h200 for llama 3.1 405b inference in fp8?", catalog)
    answer = ask("throw the B200 and the MI300X into that comparison too", catalog, first)
    assert [g for g, _ in answer.reading["gpus"]] == ["h100-sxm", "h200-sxm", "b200", "mi300x"]


def test_a_noisy_fan_is_a_troubleshooting_question_not_a_card(catalog):
    answer = ask("my gpu fan started making a grinding noise right after I swapped my 2080 for a 4080 super, is that normal??",
                 catalog)
    assert not answer.understood and "troubleshooting" in answer.answer


def test_a_cloud_bill_at_the_askers_own_rate_is_priced_at_that_rate_first(catalog):
    answer = ask("How much would 8x H100 at $2.10/gpu/hr cost for 2 weeks? Some provider quoted $4/hr, ignore that.", catalog)
    assert answer.journey == "cloud_cost" and answer.reading["rent_usd_per_gpu_hour"] == 2.1
    assert "at $2.10/GPU-h" in answer.interpretation
    assert answer.answer.startswith("At your rate of $2.10/GPU-h: 8 GPUs × 336 h = 2,688 GPU-hours, $5,644.80.")
    assert "the catalog's cheapest" in answer.answer


def test_a_follow_up_asking_for_more_epochs_multiplies_the_data_once(catalog):
    first = ask("LoRA of Qwen2.5 7B on 100M tokens on 4x A100, how long?", catalog)
    more = ask("what about 3 epochs of that data", catalog, first)
    assert more.journey == "training_time" and more.reading["training_tokens"] == 300_000_000
    again = ask("and 2 epochs instead of 3?", catalog, more)
    assert again.reading["training_tokens"] == 200_000_000


def test_how_many_cards_of_a_memory_size_answers_the_count_held_fully_in_vram(catalog):
    answer = ask("how many 24gb cards would it take to hold llama 3.3 70b at q4_k_m fully in vram with ollama?", catalog)
    assert answer.journey == "which_gpu" and "On 24 GB cards: 2 of them" in answer.answer


def test_the_card_of_a_model_outside_the_catalog_says_how_to_get_it(catalog):
    answer = ask("what's the number of layers and kv heads of falcon 180b?", catalog)
    assert answer.journey == "model_card" and "'falcon 180b' is not in the catalog" in answer.answer
    assert "Hugging Face repo id" in answer.answer


def test_a_gpus_card_asked_with_a_models_size_answers_both(catalog):
    answer = ask("what's the vram on an A10G, and how many params is mistral 7b?", catalog)
    assert answer.journey == "gpu_card" and "\nModel: mistralai/Mistral-7B-v0.3" in answer.answer


def test_a_serving_plan_asked_for_a_span_prices_that_span_at_the_pricing_asked(catalog):
    week = ask("how many A10Gs to serve llama 3.1 8b to 20 concurrent users at 30 tok/s each for a week on spot?", catalog)
    assert week.journey == "serving" and " for 168 h" in week.answer
    assert next(c for c in week.calls if c.tool == "plan_serving").arguments["pricing"] == "spot"


def test_a_conversation_keeps_its_setup_through_asides_of_the_asker(catalog):
    opening = ask("ok and would qwen2.5 14b at q4_k_m still fit on the 3090?", catalog)
    longest = ask("sweet, whats the longest ctx i can give the 14b before it spills out of vram?", catalog, opening)
    assert longest.journey == "limits" and longest.reading["model"] == "Qwen/Qwen2.5-14B"
    assert longest.reading["weights_dtype"] == "q4_k_m" and "params_billions" not in longest.reading
    fit = ask("does llama 3.3 70b at q4_k_m fit on a 4090?", catalog)
    count = ask("damn. how many of those cards would i need then?", catalog, fit)
    assert count.journey == "which_gpu" and count.reading["model"] == "meta-llama/Llama-3.3-70B-Instruct"


def test_a_month_of_a_serving_plan_rents_the_gpus_the_plan_needs(catalog):
    plan = ask("need to serve llama 3.1 8b to about 20 concurrent users on A10Gs, each wanting ~30 tok/s. how many gpus?", catalog)
    gpus = next(c for c in plan.calls if c.tool == "plan_serving").result["options"][0]["total_gpus"]
    month = ask("what would a month of that cost on demand?", catalog, plan)
    assert month.journey == "cloud_cost" and month.reading["gpus"] == [["a10g", gpus]] and gpus > 1
    compared = ask("would l4s be a better fit than a10gs for this workload?", catalog, plan)
    assert compared.journey == "compare"


def test_a_serving_conversation_moves_between_plan_bill_and_purchase(catalog):
    plan = ask("how many H100s to serve llama 3.3 70b in fp8 with vllm to 100 concurrent users at 20 tok/s each?", catalog)
    month = ask("and what would that run us per month on demand?", catalog, plan)
    assert month.journey == "cloud_cost" and month.reading["hours"] == 730
    other = ask("ok what if we went with H200s instead, how many would that be", catalog, month)
    assert other.journey == "serving" and other.reading["gpus"] == [["h200-sxm", 1]]
    bought = ask("if we just bought the h200s outright at ~$32k a card, how long until that beats renting them?", catalog, other)
    assert bought.journey == "rent_or_buy" and bought.reading["purchase_usd_per_gpu"] == 32000


def test_a_follow_up_naming_a_model_and_gpu_then_keeps_the_conversations_context(catalog):
    first = ask("will qwen2.5 14b at q4_k_m fit on a 4090 with 8k context in llama.cpp?", catalog)
    then = ask("would gemma 3 27b fit on the 5090 at q5_k_m then", catalog, first)
    assert then.reading["model"] == "google/gemma-3-27b-pt" and then.reading["seq_len"] == 8192
    which = ask("ehh should i get a used 3090 or a 5070 ti for this instead? which one's better", catalog, then)
    assert which.journey == "compare" and which.reading["model"] == "google/gemma-3-27b-pt"


def test_a_conversation_without_a_model_in_the_follow_up_keeps_the_setup(catalog):
    first = ask("picked up a used 4090 for my homelab. does gemma 3 27b at q4 run in lm studio on it?", catalog)
    speed = ask("sweet. roughly what tok/s then", catalog, first)
    assert speed.journey == "speed" and speed.reading["gpus"] == [["rtx-4090", 1]] and speed.reading["engine"] == "llama_cpp"
    higher = ask("could i do q6 with two of those cards", catalog, speed)
    assert higher.journey == "fit" and higher.reading["weights_dtype"] == "q6_k" and higher.reading["gpus"] == [["rtx-4090", 2]]


def test_a_follow_up_naming_only_a_model_keeps_the_card_asked_about(catalog):
    first = ask("biggest model i can run on a 3060 12gb in ollama at q4?", catalog)
    answer = ask("would qwen2.5 14b fit?", catalog, first)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["rtx-3060-12gb", 1]]
    assert answer.reading["weights_dtype"] == "q4_k_m"


def test_a_follow_up_asking_how_many_of_a_card_after_an_estimate_answers_the_count(catalog):
    first = ask("vram to full fine-tune qwen2.5 7b in bf16 with adamw at 2k seq len, batch 4?", catalog)
    answer = ask("right, how many H100s is that", catalog, first)
    assert answer.journey == "which_gpu" and answer.reading["model"] == "Qwen/Qwen2.5-7B"


def test_buying_in_a_follow_up_weighs_owning_over_the_years_said(catalog):
    first = ask("llama 3.1 8b for 300 concurrent users at 15 tok/s each on vllm, how many L40S?", catalog)
    bill = ask("what's a month of that on demand", catalog, first)
    assert bill.journey == "cloud_cost"
    own = ask("and if we bought them instead and ran them 24/7 for 4 years?", catalog, bill)
    assert own.journey == "rent_or_buy" and own.reading["years"] == 4 and own.reading["utilization"] == 1.0


def test_the_bigger_one_in_a_follow_up_is_the_bigger_model_named_before(catalog):
    first = ask("torn between gemma 3 12b and 27b. how much memory does the 12b take in bf16 at 8k context?", catalog)
    answer = ask("and the bigger one?", catalog, first)
    assert answer.reading["model"] == "google/gemma-3-27b-pt"
    assert "the bigger of the models asked about before" in " ".join(answer.read)


def test_a_follow_up_giving_a_rate_per_minute_changes_the_request_rate(catalog):
    first = ask("we see 120 requests a minute to a llama 3.1 8b endpoint on vllm, 300 output tokens each. how many L4s?", catalog)
    answer = ask("what if it's 900 a minute", catalog, first)
    assert answer.journey == "serving" and answer.reading["requests_per_s"] == 15


def test_a_hyphenated_epoch_count_multiplies_the_data(catalog):
    first = ask("qlora of mistral 7b on a 4090 at 4k context, does it fit?", catalog)
    answer = ask("how long would a 3-epoch run over 50M tokens take on it", catalog, first)
    assert answer.journey == "training_time" and answer.reading["training_tokens"] == 150_000_000


def test_renting_another_gpu_for_that_in_a_follow_up_prices_that_gpu(catalog):
    first = ask("can gpt-oss-120b run on one rtx pro 6000 at 32k context?", catalog)
    answer = ask("what would renting an H200 for that cost per month instead", catalog, first)
    assert answer.journey == "cloud_cost" and answer.reading["gpus"] == [["h200-sxm", 1]] and answer.reading["hours"] == 730


def test_is_one_card_worth_it_over_another_compares_them(catalog):
    answer = ask("is the 4090 worth it over a 3090 for qwen2.5 14b at q5?", catalog)
    assert answer.journey == "compare" and [g for g, _ in answer.reading["gpus"]] == ["rtx-4090", "rtx-3090"]


def test_a_follow_up_asking_if_the_cards_keep_up_with_the_traffic_plans_serving(catalog):
    first = ask("gpt-oss-120b on 2x H100 with vllm at 16k context, what's the max number of concurrent users?", catalog)
    answer = ask("would those 2 H100s keep up with 150 concurrent users at 20 tok/s each?", catalog, first)
    assert answer.journey == "serving" and answer.reading["users"] == 150


def test_assuming_it_fits_asks_the_time_not_the_fit(catalog):
    first = ask("full fine-tune of qwen2.5 3b on 2x A100 80GB, 4k context: does it fit?", catalog)
    answer = ask("assuming it fits, how long would 300M tokens take on those two cards?", catalog, first)
    assert answer.journey == "training_time" and answer.reading["training_tokens"] == 300_000_000


def test_two_nodes_in_a_follow_up_is_sixteen_gpus(catalog):
    first = ask("renting a node of H200s for 3 weeks on-demand, what's the bill?", catalog)
    answer = ask("what if we take two nodes instead and finish in 12 days?", catalog, first)
    assert answer.journey == "cloud_cost" and answer.reading["gpus"] == [["h200-sxm", 16]] and answer.reading["hours"] == 288


def test_n_of_each_in_a_follow_up_counts_every_gpu_compared(catalog):
    first = ask("H100 vs H200 for llama 3.1 70b in fp8 on vllm?", catalog)
    answer = ask("same comparison but for qwen3 235b, 4 of each?", catalog, first)
    assert answer.journey == "compare" and answer.reading["gpus"] == [["h100-sxm", 4], ["h200-sxm", 4]]


def test_a_follow_up_asking_whether_that_changes_the_answer_keeps_the_question(catalog):
    first = ask("buy 4x L40S at $8k each or rent at $0.90/hr, 3 years, 24/7?", catalog)
    answer = ask("Honestly they would sit idle most nights, maybe busy 10 hours a day. Does that change the answer?", catalog, first)
    assert answer.journey == "rent_or_buy" and abs(answer.reading["utilization"] - 10 / 24) < 1e-9


def test_back_to_an_earlier_model_restores_that_model(catalog):
    first = ask("can gemma 3 12b run on my 3090 at q4 in ollama?", catalog)
    second = ask("what about qwen2.5 32b?", catalog, first)
    back = ask("ok back to gemma, how fast is it?", catalog, second)
    assert back.journey == "speed" and back.reading["model"] == "google/gemma-3-12b-pt"
    again = ask("and the qwen one at 16k context?", catalog, back)
    assert again.reading["model"] == "Qwen/Qwen2.5-32B" and again.reading["seq_len"] == 16384


def test_back_to_the_size_said_earlier_restores_that_model(catalog):
    first = ask("llama 3.1 8b at q4 on a 4070 ti super in ollama, fits?", catalog)
    second = ask("what if i try mistral small 24b instead, same quant?", catalog, first)
    back = ask("back to the 8b at q8 then, what tok/s?", catalog, second)
    assert back.reading["model"] == "meta-llama/Llama-3.1-8B" and back.reading["weights_dtype"] == "q8_0"


def test_a_monthly_bill_of_that_card_keeps_the_conversation(catalog):
    first = ask("can qwen3 32b in fp8 fit on one L40S with vllm at 16k context?", catalog)
    second = ask("and on an H100 instead?", catalog, first)
    answer = ask("whats a month of that h100 gonna cost to rent?", catalog, second)
    assert answer.journey == "cloud_cost" and answer.reading["model"] == "Qwen/Qwen3-32B" and answer.reading["hours"] == 730


def test_how_many_of_another_card_after_rent_or_buy_plans_serving_again(catalog):
    first = ask("llama 3.1 70b in fp8 on vllm for 80 concurrent users at 20 tok/s each: how many H100s?", catalog)
    second = ask("should we buy them at $26k each instead, 24/7 for 3 years?", catalog, first)
    answer = ask("what if we went with H200s instead, how many of those would it take?", catalog, second)
    assert answer.journey == "serving" and answer.reading["gpus"] == [["h200-sxm", 1]]


def test_a_count_said_in_a_follow_up_beats_the_serving_plans_count(catalog):
    first = ask("qwen2.5 32b on vllm for 300 concurrent users at 15 tok/s each, how many L40S?", catalog)
    answer = ask("say we go with 3 of them, what's the monthly bill on demand?", catalog, first)
    assert answer.journey == "cloud_cost" and answer.reading["gpus"] == [["l40s", 3]]


def test_going_back_to_an_earlier_setting_is_a_follow_up(catalog):
    first = ask("rent or buy 4x H100: $2.20/gpu-hr rent, $27k each to buy, 3 years at 12 hours a day?", catalog)
    second = ask("and at 24/7?", catalog, first)
    answer = ask("Going back to the 12 hours a day: what if the purchase price drops to $22k per GPU?", catalog, second)
    assert answer.journey == "rent_or_buy" and answer.reading["purchase_usd_per_gpu"] == 22000
    assert answer.reading["utilization"] == 0.5


def test_would_a_card_do_it_asks_the_fit(catalog):
    first = ask("cheapest gpu to qlora qwen2.5 7b at 4k context?", catalog)
    answer = ask("would an L4 do it?", catalog, first)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["l4", 1]]


def test_how_many_of_a_card_after_a_fit_asks_the_count(catalog):
    first = ask("would mixtral 8x7b at 4-bit fit on one L40S?", catalog)
    answer = ask("ok and how many L40S would the bf16 version need", catalog, first)
    assert answer.journey == "which_gpu" and answer.reading["weights_dtype"] == "bf16"


def test_hours_a_day_over_those_weeks_is_the_hours_of_use(catalog):
    first = ask("8x H100 on demand for 3 weeks, what's the bill?", catalog)
    answer = ask("and if we only run it 8 hours a day over those 3 weeks?", catalog, first)
    assert answer.journey == "cloud_cost" and answer.reading["hours"] == 168


def test_doubling_the_users_in_a_follow_up_doubles_the_load_asked_about(catalog):
    first = ask("llama 3.1 8b on vllm for 60 concurrent users at 25 tok/s each: how many L4s?", catalog)
    answer = ask("And if we double the users?", catalog, first)
    assert answer.journey == "serving" and answer.reading["users"] == 120


def test_the_first_one_in_a_follow_up_is_the_first_gpu_compared(catalog):
    first = ask("compare the L40S, A100 80GB and H100 PCIe for serving llama 3.1 70b in fp8", catalog)
    answer = ask("how many tokens per second would it do on the first one?", catalog, first)
    assert answer.journey == "speed" and answer.reading["gpus"] == [["l40s", 1]]


def test_a_follow_up_asking_to_redo_the_bill_at_a_quoted_rate_keeps_the_plan(catalog):
    first = ask("qwen2.5 72b awq on vllm for 100 concurrent users at 20 tok/s, how many H100s?", catalog)
    bill = ask("what would that cost for a month on demand?", catalog, first)
    answer = ask("actually another provider quoted us $1.95/gpu-hr, can you redo the month at that rate", catalog, bill)
    assert answer.journey == "cloud_cost" and answer.reading["rent_usd_per_gpu_hour"] == 1.95 and answer.reading["hours"] == 730


def test_how_does_that_compare_to_another_card_for_a_model_compares_both(catalog):
    first = ask("what tok/s would qwen2.5 14b q4 get on a 5090 in ollama?", catalog)
    answer = ask("how does that compare to a used 3090 for running llama 3.1 8b?", catalog, first)
    assert answer.journey == "compare" and [g for g, _ in answer.reading["gpus"]] == ["rtx-5090", "rtx-3090"]


def test_forget_the_box_drops_the_gpus_of_the_conversation(catalog):
    first = ask("does deepseek v3 fit on 8x MI300X in fp8 with sglang?", catalog)
    answer = ask("ok forget the box for a sec, how much total vram does qwen3 235b need in fp8?", catalog, first)
    assert answer.journey == "estimate" and "gpus" not in answer.reading


def test_concurrent_sessions_of_a_length_are_a_context_not_users(catalog):
    answer = ask("4x H200 with llama 3.1 405b fp8 on vllm: how many concurrent 16k sessions can we hold?", catalog)
    assert answer.journey == "limits" and answer.reading["seq_len"] == 16384 and "users" not in answer.reading


def test_the_biggest_model_after_adding_a_card_asks_for_a_model(catalog):
    first = ask("can qwen2.5 14b at q4 run on my 3090 with 32k context in ollama?", catalog)
    answer = ask("if i add a second 3090, whats the biggest model i could run at q4 keeping that 32k ctx?", catalog, first)
    assert answer.journey == "biggest_model" and answer.reading["gpus"] == [["rtx-3090", 2]] and "model" not in answer.reading


def test_a_time_asked_after_the_cheapest_way_is_the_runs_time(catalog):
    first = ask("cheapest way to fine-tune mistral 7b on 40M tokens?", catalog)
    answer = ask("if we go with lora on one A100, how long would that take?", catalog, first)
    assert answer.journey == "training_time" and answer.reading["gpus"] == [["a100-80gb-sxm", 1]]


def test_gradient_checkpointing_turned_off_in_a_follow_up_is_off(catalog):
    first = ask("full fine-tune of qwen2.5 7b on 2x A100 80GB with fsdp and gradient checkpointing, 4k context: fits?", catalog)
    answer = ask("would it still fit per gpu with gradient checkpointing turned off?", catalog, first)
    assert answer.journey == "fit" and answer.reading["gradient_checkpointing"] is False


def test_the_card_named_by_a_word_picks_that_card_of_the_two(catalog):
    first = ask("rtx 6000 ada vs rtx a6000 for qlora of qwen2.5 14b at 4k?", catalog)
    answer = ask("how long would a run over 30M tokens take on the ada card?", catalog, first)
    assert answer.journey == "training_time" and answer.reading["gpus"] == [["rtx-6000-ada", 1]]


def test_serving_a_fine_tune_of_our_own_plans_it_from_its_size(catalog):
    answer = ask("we host an internal fine-tune named helpdesk-bot-13b, about 3 requests a second at peak. how many L40S?", catalog)
    assert answer.journey == "serving" and answer.reading["params_billions"] == 13 and answer.reading["workload"] == "inference"
    assert "helpdesk-bot" in answer.reading["unknown_model"] and "generic 13B" in answer.interpretation


def test_without_activation_checkpointing_is_off(catalog):
    answer = ask("full finetune of qwen2.5 3b on one a100 40gb, 8k seq, without activation ckpt: will it fit?", catalog)
    assert answer.reading["gradient_checkpointing"] is False


def test_a_config_with_an_epoch_key_and_a_deepspeed_stage_is_read(catalog):
    answer = ask('4x a100 80gb, full ft of mistral 7b. config has "zero_optimization": {"stage": 2}, '
                 '"train_micro_batch_size_per_gpu": 2 and num_train_epochs: 3 over a 40M token dataset. how long?', catalog)
    assert answer.journey == "training_time" and answer.reading["sharding"] == "zero2"
    assert answer.reading["batch_size"] == 2 and answer.reading["training_tokens"] == 120e6


def test_examples_and_their_average_length_said_apart_are_the_data(catalog):
    answer = ask("lora on llama 3.1 8b, one h100. 12k conversations, max len 8192 but ~900 tokens on average, 3 epochs. eta?", catalog)
    assert answer.journey == "training_time" and answer.reading["training_tokens"] == 12e3 * 900 * 3


def test_samples_packed_to_a_length_are_sequences_of_it(catalog):
    answer = ask("qwen2.5 0.5b full sft on an l4, 50k samples packed to 2048 tokens. how many hours?", catalog)
    assert answer.reading["training_tokens"] == 50e3 * 2048 and answer.reading["seq_len"] == 2048


def test_the_cheapest_way_between_two_cards_named_picks_among_them_and_prices_the_run(catalog):
    answer = ask("cheapest way to finetune qwen2.5 7b over 2k examples of 1k tokens each? an a10g vs an l40s", catalog)
    assert answer.journey == "cheapest_method" and "The run on" in answer.answer
    assert all(g in ("a10g", "l40s") for g in re.findall(r"\d+ × ([\w-]+) at", answer.answer.split(" The run")[0]))


def test_which_card_to_rent_among_those_named_answers_each(catalog):
    answer = ask("which gpu should we rent for a qlora of llama 3.1 70b at 2k ctx, an a6000, an l40s or an h100?", catalog)
    assert answer.journey == "which_gpu" and "Of the cards you named: " in answer.answer


def test_the_damage_of_a_rental_at_the_askers_rate_comes_first(catalog):
    answer = ask("planning to keep 4x l40s on vast at $0.85/hr each for 10 days, whats the damage?", catalog)
    assert answer.journey == "cloud_cost" and answer.answer.startswith("At your rate of $0.85/GPU-h: 4 GPUs × 240 h")


def test_a_budget_cap_in_thousands_is_money_not_a_context(catalog):
    answer = ask("which gpu should i buy for mistral small 24b at q4? want to stay under 2k", catalog)
    assert "seq_len" not in answer.reading


def test_a_quote_in_thousands_is_the_purchase_price(catalog):
    answer = ask("we rent an a100 80gb at $1.60/hr about 12 hours a day. the quote to buy one was ~18k. buy it over 2 years?", catalog)
    assert answer.journey == "rent_or_buy" and answer.reading["purchase_usd_per_gpu"] == 18000


def test_an_old_setup_still_in_use_is_read(catalog):
    answer = ask("old rig but i still use it: qwen2.5 32b awq with vllm on 2x 3090, 8k ctx. does it fit?", catalog)
    assert answer.reading["gpus"] == [["rtx-3090", 2]] and answer.reading["weights_dtype"] == "awq"


def test_a_format_written_onto_the_model_name_in_a_told_sentence_is_read(catalog):
    answer = ask("ollama said out of memory, too large for my gpu, when pulling qwen2.5 32b Q5_K_M. my card is a 4090. does it fit?", catalog)
    assert answer.reading["weights_dtype"] == "q5_k_m"


def test_two_different_cards_in_one_box_share_the_model(catalog):
    answer = ask("my rig has a 4090 and a 3060 12gb in it. can it run qwen2.5 32b q4_k_m in llama.cpp with 16k ctx?", catalog)
    assert answer.journey == "fit" and answer.answer.startswith(("Yes: rtx-4090 + rtx-3060-12gb", "No: rtx-4090 + rtx-3060-12gb"))
    assert "in proportion to each card's memory" in answer.answer


def test_nvidia_smi_rows_count_the_gpus(catalog):
    table = "\n".join(f"|   {n}  NVIDIA H100 80GB HBM3          On  |   00000000:1{n}:00.0 Off |" for n in range(8))
    answer = ask(f"{table}\ncan this box serve llama 3.1 405b in fp8 with vllm?", catalog)
    assert answer.reading["gpus"] == [["h100-sxm", 8]]


def test_full_length_requests_of_a_size_are_a_length(catalog):
    answer = ask("vllm, qwen3 32b fp8 on one h100. how many full-length 20k requests fit at once?", catalog)
    assert answer.journey == "limits" and answer.reading["seq_len"] == 20000 and "users" not in answer.reading


def test_a_follow_up_going_back_to_a_card_keeps_the_rest_of_the_setup(catalog):
    first = ask("decode speed of qwen3 30b a3b on an h100 with vllm at batch 16?", catalog)
    second = ask("and on an l40s?", catalog, first)
    answer = ask("back to the h100 but with qwen3 32b", catalog, second)
    assert answer.journey == "speed" and answer.reading["batch_size"] == 16 and answer.reading["gpus"] == [["h100-sxm", 1]]


def test_anyone_benchmarked_asks_the_speed(catalog):
    answer = ask("has anybody benchmarked llama 3.3 70b awq on 2x a6000? mostly curious about tok/s", catalog)
    assert answer.journey == "speed"


def test_which_is_faster_of_two_cards_for_serving_compares_them(catalog):
    answer = ask("for serving qwen2.5 32b with vllm, which is faster: an l40s or an a100 80gb?", catalog)
    assert answer.journey == "compare"


def test_an_old_card_the_asker_still_has_is_the_card_asked_about(catalog):
    """'I still have my old X': still theirs, so the card the question asks of (blind round 5, F08: set aside)."""
    answer = ask("i still have my old titan xp with 12gb. can it run qwen2.5 7b at q4 with ollama?", catalog)
    assert answer.journey == "fit" and answer.reading["gpus"] == [["12GB", 1]] and answer.answer.startswith("Yes")
