"""Users type GPU and model names every which way."""
import pytest

from gpusizer.catalog import SizingError


@pytest.mark.parametrize("typed,gpu_id", [
    ("h100-sxm", "h100-sxm"), ("H100-SXM5", "h100-sxm"), ("NVIDIA H100 80GB HBM3", "h100-sxm"), ("h100 sxm", "h100-sxm"),
    ("A100-80GB", "a100-80gb-sxm"), ("a100 40gb", "a100-40gb-sxm"), ("rtx4090", "rtx-4090"), ("GeForce RTX 4090", "rtx-4090"),
    ("Tesla T4", "t4"), ("mi300x", "mi300x"), ("AMD Instinct MI300X", "mi300x"), ("h100 pcie", "h100-pcie"), ("l40s", "l40s"),
])
def test_loose_gpu_spellings_resolve(catalog, typed, gpu_id):
    assert catalog.find_gpu(typed).gpu_id == gpu_id


def test_a_bare_family_name_resolves_to_the_common_datacentre_part_and_says_so(catalog):
    match = catalog.resolve_gpu("H100")
    assert match.gpu.gpu_id == "h100-sxm"
    assert "h100-pcie" in match.note
    assert catalog.resolve_gpu("h100-sxm").note is None


def test_sxm_and_pcie_parts_are_distinct(catalog):
    assert catalog.find_gpu("H100 PCIe").gpu_id != catalog.find_gpu("H100 SXM").gpu_id


def test_an_unknown_gpu_gets_the_closest_names(catalog):
    with pytest.raises(SizingError) as error:
        catalog.find_gpu("H10")
    message = str(error.value)
    assert message.startswith("unknown GPU 'H10'; did you mean")
    assert "'h100-sxm'" in message and "'h100-pcie'" in message


@pytest.mark.parametrize("typed,model_id", [
    ("meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B"), ("META-LLAMA/llama-3.1-8b", "meta-llama/Llama-3.1-8B"),
    ("llama 3.1 70b", "meta-llama/Llama-3.1-70B"), ("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B"),
    ("mixtral", "mistralai/Mixtral-8x7B-v0.1"), ("qwen2.5-7b", "Qwen/Qwen2.5-7B"), ("gpt-oss-120b", "openai/gpt-oss-120b"),
])
def test_loose_model_spellings_resolve(catalog, typed, model_id):
    assert catalog.find_model(typed).model_id == model_id


def test_an_unknown_model_gets_suggestions_and_the_params_billions_way_out(catalog):
    with pytest.raises(SizingError) as error:
        catalog.find_model("llama-3.1-9b")
    assert "did you mean" in str(error.value) and "params_billions" in str(error.value)


def test_sizing_error_is_importable_from_both_packages_and_is_a_value_error():
    from gpusizer.catalog import SizingError as from_catalog
    from gpusizer.tools import SizingError as from_tools
    assert from_catalog is from_tools and issubclass(from_catalog, ValueError)


@pytest.mark.parametrize("typed,first", [("2070", "rtx-3070"), ("rtx 3060ti", "rtx-3060-12gb")])
def test_a_card_we_lack_is_offered_the_cards_that_share_its_model_number_first(catalog, typed, first):
    with pytest.raises(SizingError) as raised:
        catalog.resolve_gpu(typed)
    assert f"did you mean '{first}'" in str(raised.value)


def test_did_you_mean_for_a_pasted_page_matches_only_a_names_length_of_it(catalog, monkeypatch):
    """A 10 KB paste in a name field is cut to a name's length before fuzzy matching (matching all of it against
    every name took ~0.4 s per call, and no name is close to it anyway)."""
    from gpusizer.catalog import lookup

    seen = []
    real = lookup.process.extract
    monkeypatch.setattr(lookup.process, "extract", lambda query, *a, **k: seen.append(len(query)) or real(query, *a, **k))
    assert catalog._gpu_names.suggestions("h100 " * 2000)
    assert seen == [lookup.SUGGESTION_QUERY_LIMIT]
