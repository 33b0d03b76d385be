"""Models outside the catalog: a local config.json or model folder, or any Hugging Face Hub id when online.

Only config.json and the safetensors headers are read (from the Hub: fetched with `huggingface_hub`, an optional
dependency, and cached in the user cache folder), never the weights.
"""
from __future__ import annotations

import datetime
import inspect
import json
import re
from pathlib import Path
from typing import Any

from gpusizer.settings import settings

from .checkpoint import CheckpointSummary, summarize, summarize_folder
from .errors import SizingError
from .model_arch import ModelArch

HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
MAX_CONFIG_BYTES = 4 * 2**20


def looks_like_path(name: str) -> bool:
    """A file or folder name rather than an id: it says so, or it exists (as transformers' from_pretrained decides)."""
    if name.endswith(".json") or name.startswith((".", "/", "~")):
        return True
    try:
        return Path(name).exists()
    except (OSError, ValueError):  # names the filesystem cannot even look up (embedded NUL, too long)
        return False


def expanded(name: str) -> Path:
    """~ and ~user expanded; a user that does not exist is a clear error, not a crash."""
    try:
        return Path(name).expanduser()
    except RuntimeError:
        raise SizingError(f"cannot expand {name.split('/')[0][:40]!r} to a home folder: give the full path of the model "
                          "folder or config.json") from None


def looks_like_hub_id(name: str) -> bool:
    return bool(HUB_ID.match(name.strip()))


def arch_from_config(config: dict[str, Any], model_id: str, *, source: str, checkpoint: CheckpointSummary | None,
                     as_of: datetime.date, verification: str) -> ModelArch:
    fields: dict[str, Any] = {"model_id": model_id, "config": config, "source": source, "as_of": as_of,
                              "verification": verification}
    if checkpoint:
        fields["release_bytes"] = checkpoint.loaded_bytes
        fields["release_note"] = "; ".join(filter(None, [f"{checkpoint.loaded_bytes / 1e9:.2f} GB of tensors loaded "
                                                         "(safetensors headers)", checkpoint.skipped_note]))
    return ModelArch.model_validate(fields)


def read_config(path: Path) -> dict[str, Any]:
    if path.stat().st_size > MAX_CONFIG_BYTES:
        raise SizingError(f"{path} is too large to be a config.json ({path.stat().st_size:,} bytes)")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise SizingError(f"{path} is not valid JSON ({error})") from None
    if not isinstance(config, dict):
        raise SizingError(f"{path} is not a config.json (not a JSON object)")
    return config


def model_from_path(name: str) -> ModelArch:
    """A config.json file, or a folder holding one (and, when present, the safetensors files or their index)."""
    path = expanded(name)
    try:
        path.is_dir()
    except (OSError, ValueError):
        raise SizingError(f"no config.json at {name[:60]!r}: pass a model folder or its config.json") from None
    if path.is_dir():
        folder, config_file = path, path / "config.json"
    else:
        folder, config_file = path.parent, path
    if not config_file.is_file():
        raise SizingError(f"no config.json at {config_file}: pass a model folder or its config.json")
    config = read_config(config_file)
    claimed = str(config.get("_name_or_path") or "")
    model_id = claimed if looks_like_hub_id(claimed) else (folder.name if config_file.name == "config.json" else config_file.stem)
    layers = _layers(config)
    checkpoint = summarize_folder(folder, layers) if folder.is_dir() and layers else None
    as_of = datetime.date.fromtimestamp(config_file.stat().st_mtime)
    return arch_from_config(config, model_id, source=f"local file {config_file}", checkpoint=checkpoint, as_of=as_of,
                            verification="read from the local config.json" + (" and safetensors headers" if checkpoint else ""))


def _layers(config: dict[str, Any]) -> int:
    nested = config.get("text_config")
    text: dict[str, Any] = nested if isinstance(nested, dict) else config
    try:
        return int(text.get("num_hidden_layers") or 0)
    except (TypeError, ValueError):
        return 0


def cache_dir() -> Path:
    configured = settings().cache_dir
    if configured:
        return configured
    import platformdirs

    return Path(platformdirs.user_cache_dir("gpusizer")) / "models"


def hub_entry(repo_id: str) -> Path:
    return cache_dir() / repo_id.replace("/", "--") / "entry.json"


def model_from_hub(repo_id: str) -> ModelArch:
    """config.json and safetensors headers of a Hub repository, from the cache or fetched once."""
    entry = hub_entry(repo_id)
    if entry.is_file():
        cached = json.loads(entry.read_text(encoding="utf-8"))
    else:
        cached = fetch_from_hub(repo_id)
        if cached.pop("complete", True):  # False: read offline, without the safetensors headers: fetched again when online
            entry.parent.mkdir(parents=True, exist_ok=True)
            entry.write_text(json.dumps(cached), encoding="utf-8")
    checkpoint = CheckpointSummary.from_json(cached["checkpoint"]) if cached.get("checkpoint") else None
    return arch_from_config(cached["config"], repo_id, source=f"https://huggingface.co/{repo_id} (config.json"
                            + (", safetensors headers" if checkpoint else "") + f", fetched {cached['fetched']})",
                            checkpoint=checkpoint, as_of=datetime.date.fromisoformat(cached["fetched"]),
                            verification="read from the Hub's config.json" + (" and safetensors headers" if checkpoint else ""))


def fetch_from_hub(repo_id: str) -> dict[str, Any]:
    try:
        import huggingface_hub
    except ImportError:
        raise SizingError(f"model {repo_id!r} is not in the catalog; reading it from the Hugging Face Hub needs "
                          "huggingface_hub (pip install 'gpusizer[hub]'), or download its config.json and pass the file "
                          "or folder path as model") from None
    offline = None
    try:
        offline = _unreachable(huggingface_hub, repo_id)
        if offline is None:
            config = read_config(Path(huggingface_hub.hf_hub_download(repo_id, "config.json")))
            checkpoint = _hub_checkpoint(huggingface_hub, repo_id, _layers(config))
        else:  # a config.json that transformers or `hf download` left in the Hub client's own cache still serves
            config = read_config(Path(huggingface_hub.hf_hub_download(repo_id, "config.json", local_files_only=True)))
            checkpoint = None
    except SizingError:
        raise
    except Exception as error:  # the Hub client raises many kinds: offline, not found, gated, timeouts
        raise SizingError(hub_problem(repo_id, offline or error)) from None
    return {"config": config, "checkpoint": checkpoint.to_json() if checkpoint else None,
            "fetched": datetime.date.today().isoformat(), "complete": offline is None}


def _unreachable(hub: Any, repo_id: str) -> Exception | None:
    """The network error of one HEAD of config.json, or None when the Hub answered (an answer such as 'not found' or
    'gated' is raised). One try: offline, the client's own retries back off for about 23 s before failing."""
    metadata = hub.get_hf_file_metadata
    one_try = {"retry_on_errors": False} if "retry_on_errors" in inspect.signature(metadata).parameters else {}
    try:
        metadata(hub.hf_hub_url(repo_id, "config.json"), **one_try)
    except Exception as error:
        if getattr(error, "response", None) is not None:  # the Hub answered (HfHubHTTPError and its kinds)
            raise
        return error  # connection refused, no DNS, timeout, HF_HUB_OFFLINE
    return None


def _hub_checkpoint(hub: Any, repo_id: str, layers: int) -> CheckpointSummary | None:
    try:
        metadata = hub.get_safetensors_metadata(repo_id)
    except Exception as error:
        if type(error).__name__ == "NotASafetensorsRepoError":
            return None
        raise
    tensors = ((name, info.dtype, int(info.data_offsets[1]) - int(info.data_offsets[0]))
               for file in metadata.files_metadata.values() for name, info in file.tensors.items())
    return summarize(tensors, layers)


def hub_problem(repo_id: str, error: Exception) -> str:
    kind = type(error).__name__
    local = "download its config.json and pass the file or folder path as model"
    if kind in ("RepositoryNotFoundError", "EntryNotFoundError", "RevisionNotFoundError"):
        return f"no model {repo_id!r} on the Hugging Face Hub (or it is private: set HF_TOKEN); check the id, or {local}"
    if kind == "GatedRepoError":
        return f"{repo_id!r} is gated on the Hugging Face Hub: accept its licence there and set HF_TOKEN, or {local}"
    return f"could not reach the Hugging Face Hub for {repo_id!r} ({kind}); offline, {local}"
