import os

import pytest
from hypothesis import settings

from gpusizer.catalog import load_catalog

# Property tests explore new random inputs on every developer run (that is how they find bugs); under CI they replay
# the same examples, so whether a change lands never depends on the draw. Set CI=1 to reproduce a CI run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _isolated_user_catalog(tmp_path_factory, monkeypatch):
    """Tests never read the developer's own catalog overrides or model cache, and never reach the Hugging Face Hub."""
    monkeypatch.setenv("GPUSIZER_CATALOG_DIR", str(tmp_path_factory.mktemp("no-user-catalog")))
    monkeypatch.setenv("GPUSIZER_CACHE_DIR", str(tmp_path_factory.mktemp("model-cache")))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture
def catalog():
    return load_catalog(include_user=False)
