"""GPU clouds by the names people write: the catalog's providers, their other names, and well-known clouds the catalog
holds no prices for, so a question naming one is told so instead of being answered from another cloud in silence."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, cast

from .instances import instance_types, machine_key, machines

if TYPE_CHECKING:
    from .catalog import Catalog

ALIASES = {"amazon": "aws", "ec2": "aws", "google cloud": "gcp", "oracle": "oci", "lambda labs": "lambda",
           "lambda cloud": "lambda", "datacrunch": "verda"}  # other names of providers in providers.csv
# Well-known GPU clouds (GPUs rented by the hour) with no row in the built-in providers.csv, as they name themselves: a
# name here is read as a cloud outside the catalog, unless a user's providers.csv adds it. Common words ('together',
# 'modal', 'replicate') are left out.
UNPRICED = {"coreweave": "CoreWeave", "paperspace": "Paperspace", "together ai": "Together AI", "together.ai": "Together AI",
            "tensordock": "TensorDock", "massed compute": "Massed Compute", "voltage park": "Voltage Park",
            "genesis cloud": "Genesis Cloud", "digitalocean": "DigitalOcean", "ovhcloud": "OVHcloud", "scaleway": "Scaleway",
            "salad cloud": "SaladCloud", "saladcloud": "SaladCloud", "ibm cloud": "IBM Cloud", "alibaba cloud": "Alibaba Cloud",
            "hetzner": "Hetzner", "sf compute": "SF Compute", "nscale": "Nscale", "akash": "Akash",
            "modal labs": "Modal", "linode": "Akamai (Linode)", "baseten": "Baseten"}


class Cloud(NamedTuple):
    """What a name in a question says of where to rent."""
    provider: str  # the catalog's provider id, or the cloud's own name where the catalog has no offers of it
    priced: bool  # whether the catalog has the provider's offers
    machine: str = ""  # the instance type, where the name is of a machine ('gpu_8x_h100_sxm5', 'g6e.xlarge')
    sold: bool = True  # False: a machine instance_types.csv knows that no offer prices (its bill says so)


def cloud_names(catalog: Catalog, words: Iterable[str] = ()) -> dict[str, Cloud]:
    """Every name a cloud goes by, longest first (so 'lambda labs' is read before 'lambda'), then those of `words` that
    name a machine the catalog's offers sell (by machine_key: a question's words are read so)."""
    key = ("cloud_names",)
    if key not in catalog.derived:  # the catalog's rows never change after loading: built once, read per question
        known = {p.provider for p in catalog.providers}
        names = {name: Cloud(name, True) for name in known} | {a: Cloud(p, True) for a, p in ALIASES.items() if p in known}
        names |= {name: Cloud(shown, False) for name, shown in UNPRICED.items() if name not in names}
        listed = {machine_key(row.instance_type): Cloud(row.provider, True, row.instance_type, False)
                  for row in instance_types().values() if row.provider in known}
        catalog.derived[key] = (dict(sorted(names.items(), key=lambda item: (-len(item[0]), item[0]))),
                                listed | {k: Cloud(m.provider, True, m.instance_type) for k, m in machines(catalog).items()})
    names, machine = cast("tuple[dict[str, Cloud], dict[str, Cloud]]", catalog.derived[key])
    return names | {word: machine[word] for word in dict.fromkeys(words) if word in machine}


def priced_providers(catalog: Catalog) -> list[str]:
    """The providers the catalog holds offers of."""
    return sorted({o.provider for o in catalog.offers})
