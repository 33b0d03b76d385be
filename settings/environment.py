"""gpusizer's configuration, read in one place: environment variables, and for the Ask model the config file.

Every variable is validated here, so a wrong value stops with a sentence naming it instead of failing later. API
keys are never read here: the LLM provider libraries read their own variables (OPENAI_API_KEY, ...).
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class ConfigError(ValueError):
    """A setting that does not validate: the message names the variable or file and what it accepts."""


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

# variable: (settings field, what it does, default as the README states it)
VARIABLES = {
    "GPUSIZER_CATALOG_DIR": ("catalog_dir", "folder of your own gpus.csv, offers.csv, providers.csv, models.json rows",
                             "the platform config folder's catalog/ (e.g. ~/.config/gpusizer/catalog)"),
    "GPUSIZER_CACHE_DIR": ("cache_dir", "where configs and safetensors headers fetched from the Hugging Face Hub are kept",
                           "the platform cache folder's models/ (e.g. ~/.cache/gpusizer/models)"),
    "GPUSIZER_CONFIG": ("config_file", "the config file ([ask] model and base_url)", "the platform config folder's config.toml"),
    "GPUSIZER_LOG_LEVEL": ("log_level", "the MCP server's log level (logs go to stderr)", "WARNING"),
    "GPUSIZER_MCP_TOKEN": ("mcp_token", "bearer token every HTTP request must carry (required off loopback)", "none"),
    "GPUSIZER_EXPORT_DIR": ("export_dir", "where the terminal UI saves Markdown and JSON exports",
                            "the platform data folder's exports/ (e.g. ~/.local/share/gpusizer/exports)"),
    "GPUSIZER_LLM_MODEL": ("llm_model", "the Ask model (a pydantic-ai id such as openai:gpt-4.1-mini); else [ask] model",
                           "none (the offline parser)"),
    "GPUSIZER_LLM_BASE_URL": ("llm_base_url", "an OpenAI-compatible endpoint for the Ask model; else [ask] base_url", "none"),
}


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    catalog_dir: Path | None = None
    cache_dir: Path | None = None
    config_file: Path | None = None
    log_level: LogLevel = "WARNING"
    mcp_token: str | None = Field(default=None, min_length=8, max_length=4096, repr=False)
    export_dir: Path | None = None
    llm_model: str | None = Field(default=None, max_length=200)
    llm_base_url: str | None = Field(default=None, max_length=2000, pattern=r"^https?://")


def settings(environ: dict[str, str] | None = None) -> Settings:
    """The settings now (read on every call: cheap, and a changed environment is seen)."""
    environ = dict(os.environ if environ is None else environ)
    values: dict[str, object] = {}
    for variable, (name, _, _) in VARIABLES.items():
        raw = environ.get(variable, "").strip()
        if raw:
            values[name] = Path(raw).expanduser() if name.endswith(("_dir", "_file")) else raw
    if isinstance(values.get("log_level"), str):
        values["log_level"] = str(values["log_level"]).upper()
    values.update(ask_section(values))
    try:
        return Settings.model_validate(values)
    except ValidationError as error:
        problem = error.errors()[0]
        field = str(problem["loc"][0]) if problem["loc"] else "?"
        variable = next((v for v, (name, _, _) in VARIABLES.items() if name == field), field)
        raise ConfigError(f"{variable}: {problem['msg']}") from None


def default_config_file() -> Path:
    from platformdirs import user_config_path

    return user_config_path("gpusizer") / "config.toml"


def ask_section(values: dict[str, object]) -> dict[str, object]:
    """[ask] model / base_url from the config file, where the environment gave no model."""
    if values.get("llm_model"):
        return {}
    path = values.get("config_file")
    path = path if isinstance(path, Path) else default_config_file()
    if not path.is_file():
        return {}
    try:
        section = tomllib.loads(path.read_text(encoding="utf-8")).get("ask", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    found: dict[str, object] = {}
    if section.get("model"):
        found["llm_model"] = section["model"]
    if section.get("base_url") and not values.get("llm_base_url"):
        found["llm_base_url"] = section["base_url"]
    return found
