"""Models outside the catalog: a config.json on disk, a model folder with safetensors, a Hugging Face Hub id."""
import json
import struct

import pytest

from gpusizer.catalog import SizingError
from gpusizer.catalog.hf_config import arch_fields
from gpusizer.tools import estimate_vram

LLAMA_LIKE = {"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
              "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "tie_word_embeddings": True, "torch_dtype": "bfloat16", "head_dim": 64}


def write_safetensors(path, tensors):
    """A safetensors file whose header lists the tensors (data bytes zero-filled)."""
    header, offset = {}, 0
    for name, (dtype, shape, size) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    blob = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(blob)) + blob + bytes(offset))


def test_a_local_config_json_is_read_like_the_catalog_row(tmp_path, catalog):
    """Llama-3.2-1B's config.json, given as a file, counts the same parameters as the catalog's row."""
    (tmp_path / "config.json").write_text(json.dumps(LLAMA_LIKE))
    from_file = estimate_vram(catalog=catalog, model=str(tmp_path / "config.json"))
    from_catalog = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.2-1B")
    assert from_file.params == from_catalog.params
    assert from_file.breakdown.kv_cache == from_catalog.breakdown.kv_cache
    assert any("architecture read from" in w for w in from_file.warnings)


def test_a_model_folder_weighs_its_safetensors_tensors(tmp_path, catalog):
    config = {**LLAMA_LIKE, "num_hidden_layers": 2}
    (tmp_path / "config.json").write_text(json.dumps(config))
    write_safetensors(tmp_path / "model.safetensors", {"model.embed_tokens.weight": ("BF16", [128256, 2048], 128256 * 2048 * 2),
                                                       "model.layers.0.mlp.down_proj.weight": ("BF16", [2048, 8192], 2048 * 8192 * 2)})
    result = estimate_vram(catalog=catalog, model=str(tmp_path))
    assert result.breakdown.weights == 128256 * 2048 * 2 + 2048 * 8192 * 2
    assert any("safetensors headers" in a for a in result.assumptions)


def test_multi_token_prediction_layers_are_shipped_but_not_loaded(tmp_path):
    from gpusizer.catalog.checkpoint import summarize_folder
    write_safetensors(tmp_path / "model.safetensors", {"model.layers.0.w": ("F8_E4M3", [4, 4], 16),
                                                       "model.layers.1.w": ("F8_E4M3", [4, 4], 16)})
    summary = summarize_folder(tmp_path, num_hidden_layers=1)
    assert (summary.loaded_bytes, summary.total_bytes) == (16, 32)
    assert "multi-token prediction" in summary.skipped_note


def test_a_file_that_is_not_safetensors_is_refused_clearly(tmp_path):
    from gpusizer.catalog.checkpoint import read_header
    (tmp_path / "model.safetensors").write_bytes(b"\xff" * 16)
    with pytest.raises(SizingError, match="not a safetensors file"):
        read_header(tmp_path / "model.safetensors")


def write_header(path, header):
    blob = json.dumps(header).encode() if not isinstance(header, bytes) else header
    path.write_bytes(struct.pack("<Q", len(blob)) + blob)


@pytest.mark.parametrize("header", [
    {"w": {"dtype": "BF16", "shape": [2], "data_offsets": "0-4"}},
    {"w": {"dtype": "BF16", "shape": [2], "data_offsets": [4, 0]}},
    {"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 1.5]}},
    {"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4, 8]}},
    {"w": {"dtype": "BF16", "shape": [2], "data_offsets": [-8, 4]}},
    b"[" * 200_000 + b"]" * 200_000,
], ids=["a string", "end before start", "a float", "three offsets", "negative", "nested too deep"])
def test_a_model_folder_with_a_malformed_safetensors_header_is_refused_by_name(tmp_path, catalog, header):
    """Someone points the tool at a folder whose weights file was cut or hand-edited: the answer names the file."""
    (tmp_path / "config.json").write_text(json.dumps({**LLAMA_LIKE, "num_hidden_layers": 2}))
    write_header(tmp_path / "model.safetensors", header)
    with pytest.raises(SizingError, match="model.safetensors is not a safetensors file"):
        estimate_vram(catalog=catalog, model=str(tmp_path))


@pytest.mark.parametrize("index", ["{not json", '{"weight_map": ["a.safetensors"]}', '{"metadata": 7}', "[]"])
def test_a_malformed_safetensors_index_is_refused_by_name(tmp_path, catalog, index):
    (tmp_path / "config.json").write_text(json.dumps({**LLAMA_LIKE, "num_hidden_layers": 2}))
    (tmp_path / "model.safetensors.index.json").write_text(index)
    with pytest.raises(SizingError, match="index.json is not a safetensors index"):
        estimate_vram(catalog=catalog, model=str(tmp_path))


def test_an_index_pointing_outside_its_folder_is_not_followed(tmp_path, catalog):
    """A shard name is a file beside the index, never a path elsewhere on the machine."""
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({**LLAMA_LIKE, "num_hidden_layers": 2}))
    write_safetensors(tmp_path / "elsewhere.safetensors", {"model.layers.0.w": ("BF16", [4, 4], 32)})
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"w": "../elsewhere.safetensors"}}))
    from gpusizer.catalog.checkpoint import weight_files
    assert weight_files(folder) == []


def test_an_unknown_architecture_says_which_fields_are_missing():
    with pytest.raises(SizingError, match="lacks hidden_size, num_attention_heads"):
        arch_fields({"model_type": "mystery", "num_hidden_layers": 4, "vocab_size": 100, "intermediate_size": 64}, "me/mystery")


def test_an_unknown_model_type_with_standard_fields_is_read_as_a_llama_style_decoder(catalog, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({**LLAMA_LIKE, "model_type": "brand_new_decoder"}))
    result = estimate_vram(catalog=catalog, model=str(tmp_path))
    assert result.params == estimate_vram(catalog=catalog, model="meta-llama/Llama-3.2-1B").params


@pytest.mark.parametrize("config,windowed", [
    ({"model_type": "mistral", "sliding_window": 4096}, 32),                       # no layer_types: every layer slides
    ({"model_type": "mistral", "sliding_window": None}, 0),                        # Mistral-7B-v0.3
    ({"model_type": "qwen2", "sliding_window": 131072, "use_sliding_window": False}, 0),  # declared, not used
    ({"model_type": "qwen2", "sliding_window": 4096, "use_sliding_window": True, "max_window_layers": 28}, 4),
    ({"model_type": "gemma3_text", "sliding_window": 1024, "sliding_window_pattern": 6}, 27),
    ({"model_type": "gpt_oss", "layer_types": ["sliding_attention", "full_attention"] * 16, "sliding_window": 128}, 16),
    ({"model_type": "llama4_text", "attention_chunk_size": 8192}, 24),            # 3 of 4 layers chunked
])
def test_which_layers_keep_a_window_follows_transformers(config, windowed):
    base = {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 16,
            "num_key_value_heads": 8, "vocab_size": 32000}
    fields = arch_fields({**base, **config}, "x/y")
    assert fields.get("window_layers", 0) == windowed


RECORDED_QWEN3_4B = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 2560, "intermediate_size": 9728,
    "num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
    "max_position_embeddings": 40960, "tie_word_embeddings": True, "torch_dtype": "bfloat16", "attention_bias": False,
    "use_sliding_window": False, "sliding_window": None, "max_window_layers": 36}


class RecordedHub:
    """Stands in for huggingface_hub with a recorded config.json and safetensors metadata: no network in tests."""

    def __init__(self, tmp_path, calls, online=True, cached=True):
        self.tmp_path, self.calls, self.online, self.cached = tmp_path, calls, online, cached

    def hf_hub_url(self, repo_id, filename):
        return f"https://huggingface.co/{repo_id}/resolve/main/{filename}"

    def get_hf_file_metadata(self, url, retry_on_errors=True):
        assert retry_on_errors is False, "the reachability probe must not back off for ~23 s offline"
        if not self.online:
            raise ConnectionError("[Errno -2] Name or service not known")

    def hf_hub_download(self, repo_id, filename, local_files_only=False):
        assert self.online or local_files_only, "offline, only the Hub client's own cache may be read"
        if not self.cached and local_files_only:
            raise FileNotFoundError(f"{filename} of {repo_id} is not in the local cache")
        self.calls.append(repo_id)
        path = self.tmp_path / "config.json"
        path.write_text(json.dumps(RECORDED_QWEN3_4B))
        return str(path)

    def get_safetensors_metadata(self, repo_id):
        from types import SimpleNamespace as NS
        tensor = NS(dtype="BF16", data_offsets=(0, 8_044_936_192))
        return NS(files_metadata={"model.safetensors": NS(tensors={"model.everything": tensor})})


def test_a_hub_id_is_read_from_the_hub_once_then_from_the_cache(monkeypatch, tmp_path, catalog):
    import sys
    calls = []
    monkeypatch.setitem(sys.modules, "huggingface_hub", RecordedHub(tmp_path, calls))
    first = estimate_vram(catalog=catalog, model="Qwen/Qwen3-4B-Thinking-2507")
    second = estimate_vram(catalog=catalog, model="Qwen/Qwen3-4B-Thinking-2507")
    assert calls == ["Qwen/Qwen3-4B-Thinking-2507"]
    assert first.breakdown.weights == second.breakdown.weights == 8_044_936_192
    assert first.params == pytest.approx(4.02e9, rel=0.01)
    assert any("Hugging Face Hub" in w for w in first.warnings)


def test_offline_a_hub_id_fails_at_once_not_after_the_clients_retries(monkeypatch, tmp_path, catalog):
    import sys
    monkeypatch.setitem(sys.modules, "huggingface_hub", RecordedHub(tmp_path, [], online=False, cached=False))
    with pytest.raises(SizingError, match=r"could not reach the Hugging Face Hub .*\(ConnectionError\)"):
        estimate_vram(catalog=catalog, model="Qwen/Qwen3-4B-Thinking-2507")


def test_offline_a_config_in_the_hub_clients_own_cache_still_answers(monkeypatch, tmp_path, catalog):
    import sys
    calls = []
    monkeypatch.setitem(sys.modules, "huggingface_hub", RecordedHub(tmp_path, calls, online=False))
    first = estimate_vram(catalog=catalog, model="Qwen/Qwen3-4B-Thinking-2507")
    estimate_vram(catalog=catalog, model="Qwen/Qwen3-4B-Thinking-2507")
    assert first.params == pytest.approx(4.02e9, rel=0.01)  # from config.json alone: no safetensors headers offline
    assert len(calls) == 2  # not kept in gpusizer's cache without its headers: read again, and fetched whole once online


def test_a_hub_id_offline_fails_clearly_and_names_the_local_alternative(catalog):
    pytest.importorskip("huggingface_hub")
    with pytest.raises(SizingError) as error:
        estimate_vram(catalog=catalog, model="someone/not-in-the-catalog-7B")
    message = str(error.value)
    assert "config.json" in message and "folder path" in message


DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "configs"


def test_qwen3_32b_from_its_config_json_equals_the_catalog_row(catalog):
    from_file = estimate_vram(str(DATA / "Qwen3-32B" / "config.json"), seq_len=32768, catalog=catalog)
    from_catalog = estimate_vram("Qwen/Qwen3-32B", seq_len=32768, catalog=catalog)
    assert (from_file.params, from_file.breakdown.kv_cache, from_file.breakdown.weights) == \
        (from_catalog.params, from_catalog.breakdown.kv_cache, from_catalog.breakdown.weights)
    assert from_catalog.breakdown.kv_cache == 64 * 2 * 8 * 128 * 2 * 32768  # 64 layers, 8 KV heads of 128, bf16


@pytest.mark.parametrize("typed,expected", [("llama 70b", "meta-llama/Llama-3.3-70B-Instruct"), ("qwen 72b", "Qwen/Qwen2.5-72B"),
                                            ("qwen 7b", "Qwen/Qwen2.5-7B"), ("qwen 32b", "Qwen/Qwen3-32B"),
                                            ("mistral small", "mistralai/Mistral-Small-24B-Instruct-2501")])
def test_a_short_family_name_reads_as_the_familys_current_model_and_says_so(catalog, typed, expected):
    result = estimate_vram(typed, catalog=catalog)
    assert result.model == expected
    assert any(f"'{typed}' read as {expected}" in w for w in result.warnings)


def test_a_size_alone_assumes_a_modern_grouped_query_shape(catalog):
    result = estimate_vram(params_billions=32, seq_len=32768, catalog=catalog)
    assert any("8 KV heads" in a for a in result.assumptions)
    qwen3_32b = estimate_vram("Qwen/Qwen3-32B", seq_len=32768, catalog=catalog)
    assert result.breakdown.kv_cache == pytest.approx(qwen3_32b.breakdown.kv_cache, rel=0.15)  # was +37% with MHA-like shapes


@pytest.mark.parametrize("model,window_layers", [("meta-llama/Llama-4-Scout-17B-16E-Instruct", 36), ("google/gemma-3-27b-pt", 52),
                                                 ("openai/gpt-oss-20b", 12), ("Qwen/Qwen3-32B", 0)])
def test_windowed_layers_follow_transformers(catalog, model, window_layers):
    assert catalog.find_model(model).windowed_layers == window_layers


def test_llama_4_scout_at_128k_holds_every_layers_prefill_in_transformers(catalog):
    """3 in 4 layers are chunked at 8k, but transformers 5's sliding/chunked cache layer keeps a view of the whole
    prefill until the first decode step (traced: tests/data/vram_traced_sliding_window.jsonl), so at the prefill's
    peak every layer holds all 131,072 tokens."""
    result = estimate_vram("llama 4 scout", seq_len=131072, catalog=catalog)
    per_token_layer = 2 * 8 * 128 * 2
    assert result.breakdown.kv_cache == per_token_layer * 48 * 131072
