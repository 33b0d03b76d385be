"""Cloud instance types people name instead of GPUs ('a p4d.24xlarge'): each row names a catalog GPU, carries its source,
and agrees with the offers that sell the same instance type."""
from gpusizer.catalog import load_catalog
from gpusizer.catalog.instances import instance_gpus, instance_types


def test_every_instance_type_names_a_catalog_gpu_with_its_source():
    catalog = load_catalog(include_user=False)
    rows = instance_types().values()
    assert len(rows) >= 50
    for row in rows:
        assert row.gpu_id in catalog.gpu_by_id, row.instance_type
        assert row.source.startswith("https://") and row.as_of.year >= 2025


def test_instance_types_agree_with_the_offers_that_sell_them():
    catalog = load_catalog(include_user=False)
    checked = 0
    for offer in catalog.offers:
        found = instance_gpus(offer.instance_type)
        if found is not None:
            assert found == (offer.gpu_id, offer.gpus_per_instance), offer.offer_id
            checked += 1
    assert checked >= 5  # p5.48xlarge, p4d.24xlarge, g6.xlarge, a3-highgpu-8g, ... are sold in offers.csv


def test_a_question_naming_an_instance_reads_its_gpus():
    from gpusizer.tools.questions import ask
    answer = ask("p4de.24xlarge for 100 hours on demand, how much?", load_catalog(include_user=False))
    assert answer.reading["gpus"] == [["a100-80gb-sxm", 8]]
    assert instance_gpus("g9.xlarge") is None


def test_an_instance_family_named_alone_holds_its_eight_gpus():
    from gpusizer.tools.questions import ask
    answer = ask("our old box was a p4d.24xlarge. Now: p5e for a week on spot, what's the bill?", load_catalog(include_user=False))
    assert answer.reading["gpus"] == [["h200-sxm", 8]]
