import pytest

from gpusizer.catalog import load_catalog


@pytest.fixture(autouse=True)
def _isolated_user_catalog(tmp_path_factory, monkeypatch):
    """Tests never read the developer's own catalog overrides."""
    monkeypatch.setenv("GPUSIZER_CATALOG_DIR", str(tmp_path_factory.mktemp("no-user-catalog")))


@pytest.fixture
def catalog():
    return load_catalog(include_user=False)
