"""A full question typed after another is a new question, not a follow-up of the last one (issue #35): a question
that names its own subject starts afresh; one that opens with 'and', 'ok', 'then' or points back carries on."""
import pytest

from gpusizer.tools.questions import ask


@pytest.mark.parametrize("first, second", [
    ("can I qlora llama 3.1 8b on my 4090?", "what's the largest llm my 3090 can hold at q4?"),
    ("full fine-tune of qwen2.5 7b on 2 h100s, how much memory?", "which models fit on an rtx 4090 with llama.cpp?"),
    ("how fast is mistral 7b on an l4 with vllm?", "biggest model i could serve on one a100 80gb?"),
])
def test_asking_what_a_gpu_holds_after_a_training_question_is_answered_for_inference(catalog, first, second):
    answer = ask(second, catalog, ask(first, catalog))
    assert not answer.follow_up and answer.journey == "biggest_model" and answer.reading.get("workload") != "training"


def test_a_question_with_its_own_model_and_gpu_starts_afresh(catalog):
    answer = ask("will gemma 3 12b fit on a 3060 12gb?", catalog, ask("qlora of llama 3.1 70b on 2 a100s at 8k?", catalog))
    assert not answer.follow_up and answer.reading.get("workload") != "training" and answer.reading["gpus"] == [["rtx-3060-12gb", 1]]


def test_a_question_that_opens_as_a_follow_up_still_carries_the_setup(catalog):
    answer = ask("ok and the biggest model on a 3090 then?", catalog, ask("can I qlora llama 3.1 8b on my 4090?", catalog))
    assert answer.follow_up and answer.reading.get("workload") == "training"


@pytest.mark.parametrize("first, second", [  # each second question names what it asks of and about: nothing carries over
    ("can I qlora llama 3.1 8b on my 4090?", "how much does it cost to rent 4 a100s for a day?"),
    ("will qwen2.5 32b fit on two 3090s in awq?", "how much vram does mistral small 24b need for inference at 16k?"),
    ("how many h100s to serve llama 3.1 70b to 200 users?", "is the l40s or the a6000 better for stable diffusion training?"),
    ("rent or buy 8 h100 over 3 years?", "how many tokens per second does phi-4 get on an rtx 4060 ti 16gb?"),
    ("fine-tune gemma 2 9b with lora on one l4, fits?", "what's the longest context llama 3.1 8b can take on a 24gb card?"),
    ("how long to train a 1b model on 20b tokens with 8 a100s?", "whats the memory bandwidth of an mi300x?"),
    ("will llama 3.1 70b fit on 2 a100s in fp8?", "how much memory does it take to full fine-tune qwen2.5 7b?"),
    ("how fast is qwen3 14b on a 4090 with llama.cpp?", "is it worth buying a used 3090 or renting an a100 for a year at 40% use?"),
    ("qlora mistral 7b on a t4, will it fit?", "which gpu do i need to serve gemma 3 27b to 50 users?"),
])
def test_a_whole_question_after_another_is_read_on_its_own(catalog, first, second):
    alone = ask(second, catalog)
    after = ask(second, catalog, ask(first, catalog))
    assert not after.follow_up and after.journey == alone.journey and after.reading == alone.reading


@pytest.mark.parametrize("first, second, journey", [  # a card's own question, with 'it' or 'this' in it: no follow-up
    ("will llama 3.1 70b fit on 2 h100s in fp8?", "what is an mi300x and how much bandwidth does it have?", "gpu_card"),
    ("how many h100s to serve llama 3.3 70b to 200 users?", "tell me the specs of the b200", "gpu_card"),
    ("can i fine-tune qwen3 32b with qlora on a 4090?", "how many kv heads does gemma 3 27b have, is it moe?", "model_card"),
    ("rent or buy 4 a100s for two years?", "what's this gaudi3 thing, how much memory does it have?", "gpu_card"),
])
def test_a_question_about_a_named_card_after_another_is_read_on_its_own(catalog, first, second, journey):
    alone = ask(second, catalog)
    after = ask(second, catalog, ask(first, catalog))
    assert not after.follow_up and after.journey == alone.journey == journey and after.answer == alone.answer


@pytest.mark.parametrize("first, second", [  # short changes and words that point back still carry the setup
    ("will qwen2.5 32b fit on two 3090s in awq?", "and with 32k context?"),
    ("how many h100s to serve llama 3.1 70b to 200 users?", "what about 500 users?"),
    ("can I qlora llama 3.1 8b on my 4090?", "would it fit on a 3060 12gb instead?"),
])
def test_a_change_to_the_last_question_is_still_a_follow_up(catalog, first, second):
    assert ask(second, catalog, ask(first, catalog)).follow_up


def test_will_it_start_or_crash_beside_a_pasted_command_is_a_fit_not_troubleshooting(catalog):
    answer = ask("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768 on a single a10g. will this start or crash?", catalog)
    assert answer.understood and answer.journey == "fit" and any(c.tool == "estimate_vram" for c in answer.calls)
