"""The calculators and the catalog never pull in the MCP or Textual faces (STYLE.md section 1)."""
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["gpusizer.catalog", "gpusizer.tools"])
def test_core_imports_neither_textual_nor_mcp(module):
    code = (f"import sys, {module}; from gpusizer.catalog import load_catalog; load_catalog(); "
            "bad = [m for m in ('textual', 'mcp') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{module} imported {result.stdout.strip()} {result.stderr[-500:]}"


def test_no_generic_top_level_module_is_importable():
    for generic in ("tools", "server", "tui", "catalog"):
        result = subprocess.run([sys.executable, "-c", f"import {generic}"], capture_output=True, text=True, cwd="/")
        assert result.returncode != 0, f"'import {generic}' works: a generic module leaked into site-packages"


def test_server_import_path_keeps_textual_out():
    """Cold start matters: MCP clients spawn the server often, so the TUI's toolkit must not load with it."""
    code = ("import sys; from gpusizer.server.app import create_server; create_server(); "
            "print([m for m in ('textual', 'rich.live', 'plotext') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip() == "[]"
