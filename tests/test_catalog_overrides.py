"""Teams add their negotiated prices and in-house GPUs in a folder of their own."""
import pytest

from gpusizer.catalog import CatalogError, clear_cache, load_catalog

NEW_GPU = ("gpu_id,name,vendor,family,architecture,form_factor,launch_year,memory_gb,usable_memory_mib,memory_type,"
           "memory_bandwidth_gbps,bf16_tflops_dense,native_bf16,native_fp8,native_fp4,interconnect,source,as_of\n"
           "inhouse-x1,In-house X1,Acme,inhouse,Acme1,PCIe,2026,64,64000,HBM3,3000,500,true,true,false,PCIe only,internal spec sheet,2026-10-01\n")


@pytest.fixture
def user_dir(tmp_path):
    clear_cache()
    yield tmp_path
    clear_cache()


def test_a_user_file_changes_a_price_and_adds_a_gpu(user_dir):
    (user_dir / "offers.csv").write_text("offer_id,on_demand_usd_per_hour,source,as_of\n"
                                         "lambda-gpu_8x_h100_sxm5,20.00,our contract 2026-Q4,2026-10-01\n")
    (user_dir / "gpus.csv").write_text(NEW_GPU)
    catalog = load_catalog(user_dir)
    offer = next(o for o in catalog.offers if o.offer_id == "lambda-gpu_8x_h100_sxm5")
    assert offer.on_demand_usd_per_hour == 20.00 and offer.source == "our contract 2026-Q4"
    assert offer.instance_type == "gpu_8x_h100_sxm5"  # untouched columns keep the built-in values
    assert catalog.find_gpu("In-house X1").memory_gb == 64


def test_the_environment_variable_names_the_user_folder(user_dir, monkeypatch):
    (user_dir / "gpus.csv").write_text(NEW_GPU)
    monkeypatch.setenv("GPUSIZER_CATALOG_DIR", str(user_dir))
    assert load_catalog().find_gpu("inhouse-x1").vendor == "Acme"


def test_a_bad_user_row_fails_loudly_naming_the_file_and_row(user_dir):
    (user_dir / "gpus.csv").write_text(NEW_GPU.replace(",64,64000,", ",64,99999,"))
    with pytest.raises(CatalogError) as error:
        load_catalog(user_dir)
    assert "gpus.csv row 1" in str(error.value) and "inhouse-x1" in str(error.value)
