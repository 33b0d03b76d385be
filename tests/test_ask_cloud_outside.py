"""A GPU cloud the catalog holds no prices of ('CoreWeave', 'Paperspace', 'TensorDock') is said to be outside it, with
the providers it does price, and the job is answered from the catalog's offers: on-demand first, the comparable list
price; never silently ignored."""
import pytest

from gpusizer.catalog.clouds import cloud_names, priced_providers
from gpusizer.tools.questions import ask


@pytest.mark.parametrize("question, cloud", [
    ("what does CoreWeave charge for an HGX H100 node (8 GPUs) per month?", "CoreWeave"),
    ("how much would Paperspace charge for an A100 80GB for 50 hours?", "Paperspace"),
    ("what's TensorDock's rate for a 4090? need it 100 hours", "TensorDock"),
    ("genesis cloud quote for 2 H200 over a weekend (48h)?", "Genesis Cloud"),
])
def test_a_cloud_outside_the_catalog_is_said_and_the_catalog_answers_on_demand(catalog, question, cloud):
    answer = ask(question, catalog)
    lines = answer.answer.splitlines()
    assert answer.journey == "cloud_cost" and lines[0].startswith(f"{cloud} is not in the catalog")
    assert all(p in lines[0] for p in priced_providers(catalog))
    assert "on-demand" in lines[1] and "spot" not in lines[1]
    assert cloud.split()[0].lower() not in " ".join(answer.ignored)


def test_a_cloud_outside_the_catalog_beside_one_inside_prices_the_one_inside(catalog):
    answer = ask("Is CoreWeave cheaper than Lambda for 8x H100 for a week?", catalog)
    assert answer.reading["providers"] == ["lambda"]
    assert answer.answer.splitlines()[0].startswith("CoreWeave is not in the catalog") and "on lambda" in answer.answer


def test_a_user_catalog_that_adds_a_cloud_reads_it_as_a_provider(catalog):
    names = cloud_names(catalog)
    assert names["coreweave"].priced is False and names["lambda labs"].provider == "lambda"
    assert list(names).index("lambda labs") < list(names).index("lambda")  # longest names are read first
