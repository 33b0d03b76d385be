"""Configuration is read in one place and a wrong value is named, not discovered later."""
import subprocess
import sys
from pathlib import Path

import pytest

from gpusizer.settings import VARIABLES, ConfigError, settings

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_need_no_variable(tmp_path):
    current = settings({"GPUSIZER_CONFIG": str(tmp_path / "absent.toml")})
    assert current.log_level == "WARNING" and current.mcp_token is None and current.llm_model is None


@pytest.mark.parametrize("variable,value,fragment", [
    ("GPUSIZER_LOG_LEVEL", "LOUD", "GPUSIZER_LOG_LEVEL"),
    ("GPUSIZER_MCP_TOKEN", "short", "GPUSIZER_MCP_TOKEN"),
    ("GPUSIZER_LLM_BASE_URL", "localhost:11434", "GPUSIZER_LLM_BASE_URL"),
])
def test_a_wrong_value_names_its_variable(variable, value, fragment):
    with pytest.raises(ConfigError, match=fragment):
        settings({variable: value})


def test_the_config_file_gives_the_ask_model_when_the_environment_does_not(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[ask]\nmodel = "ollama:qwen3"\nbase_url = "http://localhost:11434/v1"\n')
    current = settings({"GPUSIZER_CONFIG": str(config)})
    assert (current.llm_model, current.llm_base_url) == ("ollama:qwen3", "http://localhost:11434/v1")
    assert settings({"GPUSIZER_CONFIG": str(config), "GPUSIZER_LLM_MODEL": "openai:gpt-4.1-mini"}).llm_model == "openai:gpt-4.1-mini"


def test_every_variable_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    assert [v for v in VARIABLES if v not in readme] == []


def test_the_server_refuses_to_start_on_a_wrong_setting_and_says_which():
    server = str(Path(sys.executable).parent / "gpusizer-mcp")
    result = subprocess.run([server], capture_output=True, text=True, timeout=30, env={"GPUSIZER_LOG_LEVEL": "LOUD", "PATH": ""})
    assert result.returncode == 2 and "GPUSIZER_LOG_LEVEL" in result.stderr


def test_exports_go_where_the_settings_table_says(monkeypatch):
    from gpusizer.tui.export import export_folder

    monkeypatch.delenv("GPUSIZER_EXPORT_DIR", raising=False)
    assert export_folder().name == "exports" and "exports" in VARIABLES["GPUSIZER_EXPORT_DIR"][2]
