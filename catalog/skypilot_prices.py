"""Reading SkyPilot's public catalog files (one vms.csv per cloud) into prices per instance type and region.

The files differ in column order from cloud to cloud, so rows are read by header name. A row is one instance type
in one zone (or region, where a cloud has no zones). GCP bills the host and the GPUs as separate items: its GPU
rows have no instance type, and an instance's price is its host row plus the accelerator row of the same zone.
"""
from __future__ import annotations

import csv
import io
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Literal, NamedTuple, NotRequired, TypedDict

from .offer import spot_doubt


class VmRow(NamedTuple):
    instance_type: str
    accelerator: str
    accelerator_count: float | None
    vcpus: float | None
    ram_gb: float | None
    region: str
    zone: str
    usd_per_hour: float | None
    spot_usd_per_hour: float | None


class RegionPrice(NamedTuple):
    on_demand_usd_per_hour: float | None
    spot_usd_per_hour: float | None
    spot_zone: str
    spot_doubt: str = ""  # why the spot price is set aside (above on-demand, under the floor); empty: sound


class SkyPilotCloud(TypedDict):
    """One cloud of skypilot.json."""
    file: str  # path of its vms.csv under catalogs/
    pricing: Literal["instance", "host_plus_accelerator"]
    add_new: bool  # whether the update may add instance types the shipped catalog lacks
    placeholder_usd_per_hour: NotRequired[float]  # the price the cloud writes for 'not sold here'
    regular_zones: NotRequired[list[str]]  # patterns a regular zone matches (others: Local Zones, Wavelength); none: all
    regular_zones_source: NotRequired[str]
    machine_types: NotRequired[bool]  # instance types and their GPUs come from instance_types.csv (host rows name no GPU)


class SkyPilotSources(TypedDict):
    """catalog/data/skypilot.json."""
    about: str
    repository: str
    raw_url: str  # with {commit} and {file}
    latest_commit_url: str  # with {file}
    clouds: dict[str, SkyPilotCloud]
    gcp_accelerator_names: dict[str, str]  # catalog gpu_id -> GCP accelerator name
    accelerator_names: dict[str, str]  # SkyPilot accelerator name -> catalog gpu_id


@lru_cache(maxsize=1)
def skypilot_sources() -> SkyPilotSources:
    """catalog/data/skypilot.json: which file each cloud is read from and how its rows are priced."""
    text = resources.files("gpusizer.catalog").joinpath("data", "skypilot.json").read_text(encoding="utf-8")
    sources: SkyPilotSources = json.loads(text)
    return sources


def _number(text: str | None, placeholder: float | None = None) -> float | None:
    """A price or size cell: empty, zero, unparsable or the cloud's 'not sold here' placeholder mean absent."""
    try:
        value = float(text) if text not in (None, "") else None
    except ValueError:
        return None
    if value is None or value <= 0 or value != value or (placeholder is not None and value == placeholder):
        return None
    return value


def parse_vms_csv(text: str, placeholder_usd_per_hour: float | None = None) -> list[VmRow]:
    """Every row of one vms.csv; rows without a region are left out."""
    rows = []
    for raw in csv.DictReader(io.StringIO(text)):
        region = (raw.get("Region") or "").strip()
        if not region:
            continue
        rows.append(VmRow(
            instance_type=(raw.get("InstanceType") or "").strip(),
            accelerator=(raw.get("AcceleratorName") or "").strip(),
            accelerator_count=_number(raw.get("AcceleratorCount")),
            vcpus=_number(raw.get("vCPUs")),
            ram_gb=_number(raw.get("MemoryGiB")),
            region=region,
            zone=(raw.get("AvailabilityZone") or "").strip(),
            usd_per_hour=_number(raw.get("Price"), placeholder_usd_per_hour),
            spot_usd_per_hour=_number(raw.get("SpotPrice"), placeholder_usd_per_hour),
        ))
    return rows


def is_regular_zone(zone: str, patterns: list[str] | None) -> bool:
    """A zone of the region proper: not a Local Zone or Wavelength Zone (whose spot markets and prices are their own)."""
    return not patterns or not zone or any(re.fullmatch(pattern, zone) for pattern in patterns)


def cheapest_in_region(zone_prices: list[tuple[str, float | None, float | None]], region: str) -> RegionPrice | None:
    """(zone, on-demand, spot) per zone -> the region's price: on-demand the lowest zone's; spot the lowest sound zone's
    (between the floor and on-demand), else the lowest, flagged in spot_doubt so that no tool uses it by default.
    None when no zone has a price."""
    on_demand = [price for _, price, _ in zone_prices if price is not None]
    if not on_demand and not any(spot is not None for _, _, spot in zone_prices):
        return None
    cheapest_od = min(on_demand) if on_demand else None
    # a zone whose spot price equals its on-demand price has no spot price: SkyPilot writes on-demand there (Azure's H100)
    spots = sorted((spot, zone) for zone, price, spot in zone_prices if spot is not None and spot != price)
    sound = [(spot, zone) for spot, zone in spots if not spot_doubt(spot, cheapest_od)]
    if not spots:
        return RegionPrice(cheapest_od, None, "")
    spot, zone = (sound or spots)[0]
    where = f"{zone} (cheapest zone in {region})" if zone and zone != region else f"cheapest zone in {region}"
    return RegionPrice(cheapest_od, spot, where, "" if sound else str(spot_doubt(spot, cheapest_od)))


def instance_price(rows: list[VmRow], instance_type: str, region: str) -> RegionPrice | None:
    """Price of one instance type in one region where Price covers the whole instance."""
    return cheapest_in_region([(r.zone, r.usd_per_hour, r.spot_usd_per_hour) for r in rows
                               if r.instance_type == instance_type and r.region == region], region)


def host_plus_accelerator_price(rows: list[VmRow], instance_type: str, region: str, accelerator: str | None,
                                count: float) -> RegionPrice | None:
    """GCP: the host row plus the accelerator row (that many GPUs) of the same zone; a TPU slice, named by its
    accelerator row alone, is priced from that row."""
    hosts = {r.zone: r for r in rows if r.instance_type == instance_type and r.region == region}
    if not hosts:
        return cheapest_in_region([(r.zone, r.usd_per_hour, r.spot_usd_per_hour) for r in rows
                                   if not r.instance_type and r.accelerator == instance_type and r.region == region], region)
    if accelerator is None:
        return None
    gpus = {r.zone: r for r in rows if not r.instance_type and r.accelerator == accelerator and r.region == region
            and r.accelerator_count == count}
    summed = []
    for zone in hosts.keys() & gpus.keys():
        host, gpu = hosts[zone], gpus[zone]
        on_demand = round(host.usd_per_hour + gpu.usd_per_hour, 5) if host.usd_per_hour and gpu.usd_per_hour else None
        spot = round(host.spot_usd_per_hour + gpu.spot_usd_per_hour, 5) if host.spot_usd_per_hour and gpu.spot_usd_per_hour else None
        summed.append((zone, on_demand, spot))
    return cheapest_in_region(summed, region)
