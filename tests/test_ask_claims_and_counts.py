"""Fit questions as people ask them: a claim to check ('my buddy says it won't load, is he right?'), a count said
with the card's memory between ('two 16GB 4060 Ti's'), a bit width to Ollama ('4bit with ollama'), and how many GPUs
a full fine-tune takes."""
import pytest

from gpusizer.tools.questions import ask


@pytest.mark.parametrize("question", [
    "my buddy says llama 3.1 8b won't even load on an rtx 3080 10gb in 16-bit. is he right?",
    "my coworker thinks mistral 7b will not fit on a 3060 12gb in fp16, is that correct?",
    "a friend told me llama 3.1 70b can't run on a single h100 in bf16. am i wrong to doubt it?",
])
def test_a_claim_that_it_does_not_fit_is_answered_yes_when_it_does_not(catalog, question):
    answer = ask(question, catalog).answer
    assert answer.startswith("Yes, that claim is right, it does not fit: it needs"), answer


@pytest.mark.parametrize("question", [
    "friend said llama 3.1 70b at 4 bit wouldn't fit on two 3090s. is he right?",
    "my roommate reckons qwen2.5 7b won't run on a 4090 in bf16, true?",
    "someone on discord claims llama 3.1 8b in 4-bit can't fit on a 12gb 3060. is that right?",
])
def test_a_claim_that_it_does_not_fit_is_answered_no_when_it_does(catalog, question):
    answer = ask(question, catalog).answer
    assert answer.startswith("No, that claim is wrong: it fits on"), answer


@pytest.mark.parametrize(("question", "verdict"), [
    ("how many H100s would a full fine-tune of llama 3.1 70b need, memory-wise? colleague says 8 is plenty", "No, 8 is not enough"),
    ("vendor claims 2 l40s would be fine for serving llama 3.1 70b in fp8. how many l40s do i need?", "No, 2 is not enough"),
    ("my boss says 4 would be enough. how many a100 80gb do we need to full fine-tune qwen2.5 32b?", "Yes, 4 is enough"),
])
def test_a_count_someone_claims_is_compared_with_the_count_found(catalog, question, verdict):
    assert ask(question, catalog).answer.startswith(verdict)


@pytest.mark.parametrize("question", [
    "how many h100s to full fine tune llama 3.1 70b (bf16, adam)?",
    "full fine-tune of llama 3.1 70b: how many H100s do we need?",
    "how many h100 gpus would a full parameter finetune of llama-3.1-70b take?",
])
def test_a_full_fine_tune_of_a_70b_is_counted_sharded_over_two_nodes(catalog, question):
    answer = ask(question, catalog).answer
    assert answer.startswith("On h100-sxm: 16 GPU(s)") and "ZeRO-3 / FSDP over 16 GPUs" in answer, answer


@pytest.mark.parametrize(("question", "gpus"), [
    ("Will DeepSeek-R1-Distill-Qwen-32B fit on two 16GB 4060 Ti's in 4 bit?", [("rtx-4060-ti-16gb", 2)]),
    ("can 2x 24gb 3090s run llama 3.1 70b at 4 bit?", [("rtx-3090", 2)]),
    ("would a pair of 16 gig 4060tis hold qwen2.5 32b q4?", [("rtx-4060-ti-16gb", 2)]),
    ("does qwen2.5 32b fit on three 24 GB RTX 3090 cards?", [("rtx-3090", 3)]),
    ("four 48GB A6000s enough for llama 3.1 70b in fp16?", [("rtx-a6000", 4)]),
    ("can i run llama 3.1 8b on a 12 gb 3060?", [("rtx-3060-12gb", 1)]),
])
def test_a_count_said_before_the_cards_memory_is_the_count_of_that_card(catalog, question, gpus):
    assert ask(question, catalog).reading["gpus"] == [list(g) for g in gpus]


@pytest.mark.parametrize(("question", "gguf"), [
    ("got a 4090 (24 gigs). can i run qwen2.5 32b at 4bit with ollama??", "Q4_K_M"),
    ("can my 3060 12gb run llama 3.1 8b in 8-bit on ollama?", "Q8_0"),
    ("will qwen2.5 14b at 4 bit run in lm studio on a 16gb 4080?", "Q4_K_M"),
    ("llama.cpp with mistral 7b int8 on a 3060 12gb, will it fit?", "Q8_0"),
])
def test_a_bit_width_with_ollama_or_llama_cpp_is_sized_as_its_usual_gguf(catalog, question, gguf):
    answer = ask(question, catalog).answer
    assert f"as {gguf} GGUF" in answer and "could not answer" not in answer, answer


@pytest.mark.parametrize("question", [
    "full fine tune of llama 3.1 70b on 16 h100s, will it fit?",
    "we have 16 H100s across two nodes. enough to fully fine-tune llama 3.1 70b?",
    "can 16x h100 handle a full-parameter finetune of llama-3.1-70b?",
])
def test_a_sharded_fine_tune_that_fits_says_how_it_is_laid_out(catalog, question):
    answer = ask(question, catalog).answer
    assert answer.startswith("Yes: it fits on 16 × H100 SXM5 80GB (ZeRO-3 / FSDP over 16 GPUs with gradient checkpointing"), answer


@pytest.mark.parametrize("question", [
    "does qwen2.5 32b run on 24gb card in q4? my buddy says no, is he right?",
    "my coworker says its impossible to run llama 3.1 8b on a 3060 12gb in 4bit, is that true?",
    "reddit says llama 3.1 70b is too big for 2x 3090 at 4-bit, right?",
])
def test_a_claim_that_it_will_not_run_said_in_other_words_is_answered_wrong_when_it_fits(catalog, question):
    assert ask(question, catalog).answer.startswith("No, that claim is wrong: it fits")
