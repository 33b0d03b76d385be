"""The layers stay as docs/architecture.md draws them: the calculators and the catalog never pull in the MCP or Textual
faces, every package is installed and typed, and modules stay small."""
import pathlib
import subprocess
import sys
import tomllib

import pytest


@pytest.mark.parametrize("module", ["gpusizer.catalog", "gpusizer.tools"])
def test_core_imports_neither_textual_nor_mcp(module):
    code = (f"import sys, {module}; from gpusizer.catalog import load_catalog; load_catalog(); "
            "bad = [m for m in ('textual', 'mcp') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{module} imported {result.stdout.strip()} {result.stderr[-500:]}"


def test_no_generic_top_level_module_is_importable():
    for generic in ("tools", "server", "tui", "catalog", "settings"):
        result = subprocess.run([sys.executable, "-c", f"import {generic}"], capture_output=True, text=True, cwd="/")
        assert result.returncode != 0, f"'import {generic}' works: a generic module leaked into site-packages"


def test_server_import_path_keeps_textual_out():
    """Cold start matters: MCP clients spawn the server often, so the TUI's toolkit must not load with it."""
    code = ("import sys; from gpusizer.server.app import create_server; create_server(); "
            "print([m for m in ('textual', 'rich.live', 'plotext') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip() == "[]"


ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("settings", "catalog", "tools", "server", "tui")


def test_every_package_folder_is_installed():
    """A folder with an __init__.py that pyproject.toml does not list would be missing from the wheel."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"gpusizer." + ".".join(init.parent.relative_to(ROOT).parts)
             for folder in FOLDERS for init in (ROOT / folder).rglob("__init__.py")}
    assert found == listed


def test_no_module_outside_the_ask_reader_is_over_400_lines():
    """A module holds one idea (CONTRIBUTING.md); tools/questions/ is being redesigned on its own issue."""
    long = {str(path.relative_to(ROOT)): n for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")
            if "questions" not in path.parts and (n := len(path.read_text().splitlines())) > 400}
    assert long == {}


def test_each_package_is_typed_for_its_users():
    assert all((ROOT / folder / "py.typed").is_file() for folder in FOLDERS)
