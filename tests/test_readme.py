"""The README's examples are what the tools answer today: docs/readme_examples.py prints them, and this fails when
the README shows something else (run `python docs/readme_examples.py` to refresh it)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "docs" / "readme_examples.py")
assert spec is not None and spec.loader is not None
readme_examples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(readme_examples)


def test_the_readme_shows_what_the_tools_answer():
    current = (ROOT / "README.md").read_text()
    assert readme_examples.rendered(current) == current, "run python docs/readme_examples.py"


def test_a_changed_answer_would_fail_the_check():
    current = (ROOT / "README.md").read_text()
    stale = current.replace("$ gpusizer ask", "$ gpusizer ask --stale", 1)
    assert readme_examples.rendered(stale) != stale
