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
