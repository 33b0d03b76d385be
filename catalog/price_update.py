"""`gpusizer catalog update`: current prices from SkyPilot's public catalog, written to the user's catalog folder.

For every cloud SkyPilot covers (catalog/data/skypilot.json) the newest commit of its vms.csv is read; every shipped
offer that came from SkyPilot is priced again from it (same instance type, same region), offers no longer listed are
withdrawn, and for clouds whose rows are real instance types an instance type the catalog lacks is added, one per GPU
type and count, in its cheapest region. The result goes to the user's offers.csv, beside the user's own rows, which
are never touched; the shipped catalog stays the offline fallback. Nothing here runs without being asked.

Price sanity: rows from Local Zones and Wavelength Zones are left out (their prices are not the region's); on-demand and
spot moves are reported apart; a spot price above on-demand or under the floor is kept, flagged and reported, and the
pricing rule (tools/pricing.py) sets it aside; an instance type the catalog lacks is added where it sells a GPU count
the catalog lacks, or sells it cheaper (the A10G's g5.xlarge). Which GPUs an instance holds comes from the machine-type
table (instance_types.csv) first, then from the file's accelerator name: GCP's host rows name no GPU at all.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import re
import urllib.request
from pathlib import Path
from typing import Any, NotRequired, Protocol, TypedDict

from .catalog import Catalog
from .errors import SizingError
from .instances import instance_gpus
from .loading import load_table, parse_records
from .offer import CloudOffer
from .price_changes import MOVED_FRACTION, UPDATE_MARK, PriceChange, PriceUpdate
from .price_changes import report_lines as report_lines  # the faces print an update with it
from .skypilot_prices import (
    RegionPrice,
    SkyPilotCloud,
    SkyPilotSources,
    VmRow,
    host_plus_accelerator_price,
    instance_price,
    is_regular_zone,
    parse_vms_csv,
    skypilot_sources,
)

TIMEOUT_S = 20.0


class PriceSource(Protocol):
    label: str

    def latest(self, file: str) -> tuple[str, str | None]:
        """(commit, ISO date of that commit or None) of the newest version of a catalog file."""
        ...

    def text(self, file: str, commit: str) -> str:
        ...


class GitHubSource:
    """The live files: the commit from GitHub's API (its date is when SkyPilot last re-read the provider's prices),
    the file from raw.githubusercontent.com at that commit."""

    label = "github.com/skypilot-org/skypilot-catalog"

    def _get(self, url: str) -> str:
        request = urllib.request.Request(url, headers={"User-Agent": "gpusizer-catalog-update"})
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310 (fixed https URLs from data)
            body: bytes = response.read()  # urlopen's response is typed Any
            return body.decode("utf-8")

    def latest(self, file: str) -> tuple[str, str | None]:
        try:
            commits = json.loads(self._get(skypilot_sources()["latest_commit_url"].format(file=file)))
            return commits[0]["sha"], commits[0]["commit"]["committer"]["date"][:10]
        except (OSError, ValueError, LookupError, TypeError):
            return "master", None  # the API refused (rate limit) or answered oddly: read the branch, date unknown

    def text(self, file: str, commit: str) -> str:
        return self._get(skypilot_sources()["raw_url"].format(commit=commit, file=file))


class RecordedFile(TypedDict):
    commit: str
    date: NotRequired[str | None]


class RecordedSource:
    """A recorded copy of the catalog files: FOLDER/index.json maps each file to {commit, date}; FOLDER/<file> is
    the file (offline updates, and the tests)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.label = f"recorded copy in {self.folder}"
        index = self.folder / "index.json"
        if not index.is_file():
            raise SizingError(f"{self.folder}: not a recorded catalog copy (no index.json)")
        self.index: dict[str, RecordedFile] = json.loads(index.read_text(encoding="utf-8"))["files"]

    def latest(self, file: str) -> tuple[str, str | None]:
        if file not in self.index:
            raise OSError(f"{file} is not in the recorded copy")
        return self.index[file]["commit"], self.index[file].get("date")

    def text(self, file: str, commit: str) -> str:
        return (self.folder / file).read_text(encoding="utf-8")


def update_offers(catalog: Catalog, source: PriceSource, today: datetime.date, user_file: Path | None = None,
                  clouds: list[str] | None = None) -> PriceUpdate:
    """Price the SkyPilot-sourced offers again from `source`; `catalog` supplies GPUs and providers."""
    config = skypilot_sources()
    shipped = load_table("offers.csv", CloudOffer, "offer_id", None)
    records = parse_records(user_file.read_text(encoding="utf-8"), user_file.name) if user_file is not None and user_file.is_file() else []
    own = [r for r in records if not str(r.get("verification", "")).startswith(UPDATE_MARK)]
    previous = {str(r.get("offer_id")): r for r in records if str(r.get("verification", "")).startswith(UPDATE_MARK)}
    own_ids = {str(r.get("offer_id")) for r in own}
    wanted = clouds or list(config["clouds"])
    unknown = [c for c in wanted if c not in config["clouds"]]
    if unknown:
        raise SizingError(f"no SkyPilot price file is configured for {', '.join(unknown)}; choose from {', '.join(config['clouds'])}")
    update = PriceUpdate(rows=list(own))
    places = {(o.provider, o.region): (o.country, o.jurisdiction) for o in shipped}
    for provider in wanted:
        cloud = config["clouds"][provider]
        if provider not in catalog.provider_by_id:
            update.skipped.append(f"{provider}: no row in providers.csv")
            continue
        try:
            commit, date = source.latest(cloud["file"])
            read = parse_vms_csv(source.text(cloud["file"], commit), cloud.get("placeholder_usd_per_hour"))
        except (OSError, ValueError, UnicodeDecodeError) as error:
            update.skipped.append(f"{provider}: {cloud['file']} not read ({error})")
            continue
        rows = [r for r in read if is_regular_zone(r.zone, cloud.get("regular_zones"))]
        if len(rows) < len(read):
            update.left_out_zones[provider] = len(read) - len(rows)
        if not rows:
            update.skipped.append(f"{provider}: {cloud['file']} has no rows")
            continue
        update.files[provider] = {"file": cloud["file"], "commit": commit, "date": date}
        stamp = {"as_of": date or f"../{today.isoformat()}", "checked": today.isoformat(),
                 "source": f"{config['repository']} catalogs/{cloud['file']} @{commit}",
                 "verification": f"{UPDATE_MARK} {today.isoformat()}: read from the file at that commit"}
        theirs = [o for o in shipped if o.provider == provider and o.source.startswith(config["repository"])]
        for offer in theirs:
            if offer.offer_id in own_ids:
                update.kept_yours.append(offer.offer_id)
                continue
            last = previous.get(offer.offer_id)
            _refresh(update, as_last_updated(offer, last), _price(cloud, config, rows, offer), stamp, was_withdrawn(last))
        if cloud.get("add_new"):
            known = {o.instance_type for o in shipped if o.provider == provider}
            _add_new(update, catalog, (provider, cloud, config), rows, _covered(shipped, own, provider), known, places,
                     stamp, previous)
    shipped_provider = {o.offer_id: o.provider for o in shipped}
    update.rows.extend(r for key, r in previous.items()  # an earlier update's rows for clouds not read this time stay
                       if r.get("provider", shipped_provider.get(key)) not in update.files)
    return update


def was_withdrawn(record: dict[str, Any] | None) -> bool:
    return record is not None and str(record.get("withdrawn", "")).lower() == "true"


def as_last_updated(offer: CloudOffer, record: dict[str, Any] | None) -> CloudOffer:
    """The shipped offer as an earlier update left it (so that 'moved' compares with what the user saw last)."""
    if record is None or was_withdrawn(record):
        return offer
    try:
        return CloudOffer.model_validate({**offer.model_dump(), **record})
    except ValueError:
        return offer


def _price(cloud: SkyPilotCloud, config: SkyPilotSources, rows: list[VmRow], offer: CloudOffer) -> RegionPrice | None:
    return price_of(cloud, config, rows, offer.instance_type, offer.region, offer.gpu_id, offer.gpus_per_instance)


def price_of(cloud: SkyPilotCloud, config: SkyPilotSources, rows: list[VmRow], instance_type: str, region: str,
             gpu_id: str, count: float) -> RegionPrice | None:
    """One instance type in one region, the way its cloud bills it."""
    if cloud["pricing"] == "host_plus_accelerator":
        name = config["gcp_accelerator_names"].get(gpu_id)
        return host_plus_accelerator_price(rows, instance_type, region, name, count)
    return instance_price(rows, instance_type, region)


def _compared(offer: CloudOffer, price: RegionPrice | None) -> tuple[str, float | None, float | None]:
    """The price a withdrawal is reported by: on-demand, or spot where the offer has none."""
    if offer.on_demand_usd_per_hour is not None:
        return "on_demand", offer.on_demand_usd_per_hour, price.on_demand_usd_per_hour if price else None
    return "spot", offer.spot_usd_per_hour, price.spot_usd_per_hour if price else None


def _moves(offer: CloudOffer, price: RegionPrice) -> list[PriceChange]:
    """On-demand and spot, each compared on its own: a spot move never hides behind a steady on-demand price. A spot
    price set aside is reported with the doubtful ones instead."""
    found = []
    for pricing, old, new in (("on_demand", offer.on_demand_usd_per_hour, price.on_demand_usd_per_hour),
                              ("spot", offer.spot_usd_per_hour, None if price.spot_doubt else price.spot_usd_per_hour)):
        if (old is None and new is None) or (pricing == "spot" and price.spot_doubt):
            continue
        if old is None or new is None or abs(new / old - 1) > MOVED_FRACTION:
            found.append(PriceChange(offer.offer_id, offer.provider, offer.instance_type, offer.gpu_id,
                                     offer.gpus_per_instance, offer.region, old, new, pricing))
    return found


def _refresh(update: PriceUpdate, offer: CloudOffer, price: RegionPrice | None, stamp: dict[str, str],
             withdrawn_before: bool = False) -> None:
    pricing, old, new = _compared(offer, price)
    change = PriceChange(offer.offer_id, offer.provider, offer.instance_type, offer.gpu_id, offer.gpus_per_instance,
                         offer.region, old, new, pricing)
    if price is None:
        if withdrawn_before:
            update.unchanged += 1  # still not listed: stays withdrawn, not news
        else:
            update.removed.append(change)
        update.rows.append({"offer_id": offer.offer_id, "provider": offer.provider, "withdrawn": "true", **stamp,
                            "notes": f"not listed for {offer.instance_type} in {offer.region} at this commit: withdrawn"})
        return
    record = offer.model_dump(mode="json") | stamp | {
        "on_demand_usd_per_hour": price.on_demand_usd_per_hour, "spot_usd_per_hour": price.spot_usd_per_hour,
        "spot_zone": price.spot_zone,
        "notes": f"re-priced by {UPDATE_MARK}; shipped row: on-demand {offer.on_demand_usd_per_hour}, spot {offer.spot_usd_per_hour}"
                 + (f"; spot set aside: {price.spot_doubt}" if price.spot_doubt else "")}
    update.rows.append(record)
    moves = _moves(offer, price)
    update.moved.extend(moves)
    update.unchanged += not moves
    if price.spot_doubt:
        update.doubtful.append(change._replace(pricing="spot", old_usd_per_hour=offer.spot_usd_per_hour,
                                               new_usd_per_hour=price.spot_usd_per_hour, why=price.spot_doubt))


def _covered(shipped: list[CloudOffer], own: list[dict[str, Any]], provider: str) -> dict[tuple[str, float], float]:
    """(GPU, count) -> the lowest on-demand price per instance the catalog already has at this provider (inf: spot only)."""
    covered: dict[tuple[str, float], float] = {}
    pairs = [((o.gpu_id, o.gpus_per_instance), o.on_demand_usd_per_hour) for o in shipped if o.provider == provider]
    pairs += [((str(r.get("gpu_id")), float(r.get("gpus_per_instance") or 0)), _number(r.get("on_demand_usd_per_hour")))
              for r in own if r.get("provider") == provider]
    for key, usd in pairs:
        covered[key] = min(covered.get(key, float("inf")), usd if usd is not None else float("inf"))
    return covered


def _number(value: object) -> float | None:
    try:
        return float(str(value)) if value not in (None, "") else None
    except ValueError:
        return None


Cloud = tuple[str, SkyPilotCloud, SkyPilotSources]  # provider, its entry in skypilot.json, the whole file


def _add_new(update: PriceUpdate, catalog: Catalog, cloud: Cloud, rows: list[VmRow], covered: dict[tuple[str, float], float],
             known: set[str], places: dict[tuple[str, str], tuple[str, str]], stamp: dict[str, str],
             previous: dict[str, dict[str, Any]]) -> None:
    """One offer per (GPU, count) the provider sells and the catalog lacks, or sells cheaper than the catalog's: its
    cheapest instance type and region."""
    provider = cloud[0]
    best: dict[tuple[str, float], tuple[tuple[float, float], VmRow, RegionPrice]] = {}
    for instance_type in sorted({r.instance_type for r in rows if r.instance_type and r.instance_type not in known}):
        sample = next(r for r in rows if r.instance_type == instance_type)
        held = gpus_in(catalog, provider, sample)
        if held is None:
            continue
        for region in sorted({r.region for r in rows if r.instance_type == instance_type}):
            price = price_of(cloud[1], cloud[2], rows, instance_type, region, *held)
            if price is None:
                continue
            rank = (price.on_demand_usd_per_hour or float("inf"), price.spot_usd_per_hour or float("inf"))
            if held in covered and rank[0] >= covered[held]:
                continue  # the catalog sells this many of this GPU here for no more already
            if held not in best or rank < best[held][0]:
                best[held] = (rank, next(r for r in rows if r.instance_type == instance_type and r.region == region), price)
    for (gpu_id, count), (_, row, price) in sorted(best.items()):
        _add_row(update, provider, row, gpu_id, count, price, places, stamp, previous)


def _add_row(update: PriceUpdate, provider: str, row: VmRow, gpu_id: str, count: float, price: RegionPrice,
             places: dict[tuple[str, str], tuple[str, str]], stamp: dict[str, str], previous: dict[str, dict[str, Any]]) -> None:
    country, jurisdiction = places.get((provider, row.region), ("", ""))
    offer_id = re.sub(r"[^a-z0-9._\-]+", "-", f"{provider}-{row.instance_type}-{row.region}".lower()).strip("-")
    read_as = f"'{row.accelerator}' read as {gpu_id}" if row.accelerator else f"{gpu_id} from instance_types.csv"
    update.rows.append({
        "offer_id": offer_id, "provider": provider, "instance_type": row.instance_type, "gpu_id": gpu_id,
        "gpus_per_instance": count, "vcpus": row.vcpus, "ram_gb": row.ram_gb, "region": row.region,
        "country": country, "jurisdiction": jurisdiction,
        "on_demand_usd_per_hour": price.on_demand_usd_per_hour, "spot_usd_per_hour": price.spot_usd_per_hour,
        "spot_zone": price.spot_zone, **stamp,
        "notes": f"added by {UPDATE_MARK}: the cheapest region for {row.instance_type} ({read_as})"
                 + (f"; spot set aside: {price.spot_doubt}" if price.spot_doubt else "")
                 + ("" if jurisdiction else "; the region's country and jurisdiction are not known to gpusizer")})
    new_price = price.on_demand_usd_per_hour or price.spot_usd_per_hour
    last = previous.get(offer_id, {})
    old = _number(last.get("on_demand_usd_per_hour")) or _number(last.get("spot_usd_per_hour"))
    change = PriceChange(offer_id, provider, row.instance_type, gpu_id, count, row.region, old, new_price, "on_demand")
    if price.spot_doubt:
        update.doubtful.append(change._replace(pricing="spot", old_usd_per_hour=None,
                                               new_usd_per_hour=price.spot_usd_per_hour, why=price.spot_doubt))
    if old is None:
        update.new.append(change)  # new since the shipped catalog and any earlier update
    elif new_price is None or abs(new_price / old - 1) > MOVED_FRACTION:
        update.moved.append(change)
    else:
        update.unchanged += 1


def gpus_in(catalog: Catalog, provider: str, row: VmRow) -> tuple[str, float] | None:
    """(catalog GPU, GPUs per instance) of a vms.csv row: the machine-type table (instance_types.csv) first, where the
    provider's own documentation is the source (and a file's count can be wrong: SkyPilot lists Azure's ND96isr_H100_v5
    with 12 GPUs); else the file's accelerator name and count."""
    table = instance_gpus(row.instance_type, provider)
    if table is not None:
        return table if table[0] in catalog.gpu_by_id else None
    gpu_id = gpu_for(catalog, row.accelerator, row.instance_type)
    return (gpu_id, row.accelerator_count) if gpu_id is not None and row.accelerator_count else None


def gpu_for(catalog: Catalog, accelerator: str, instance_type: str) -> str | None:
    """The catalog GPU a SkyPilot accelerator name stands for; an instance type that says PCIe gets the PCIe part."""
    gpu_id = skypilot_sources()["accelerator_names"].get(accelerator)
    if gpu_id is None or gpu_id not in catalog.gpu_by_id:
        return None
    pcie = re.sub(r"-(sxm\d?)$", "-pcie", gpu_id)
    if "pcie" in instance_type.lower() and pcie in catalog.gpu_by_id:
        return pcie
    return gpu_id


def write_update(update: PriceUpdate, user_dir: Path, today: datetime.date) -> Path:
    """The user's offers.csv with this update's rows (their own rows first, unchanged), and update.json saying
    which commits were read."""
    user_dir.mkdir(parents=True, exist_ok=True)
    columns = list(CloudOffer.model_fields)
    extra = sorted({key for row in update.rows for key in row} - set(columns))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[*columns, *extra], lineterminator="\n")
    writer.writeheader()
    for row in update.rows:
        writer.writerow({key: ";".join(value) if isinstance(value, list) else ("" if value is None else value)
                         for key, value in row.items()})
    path = user_dir / "offers.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    (user_dir / "update.json").write_text(json.dumps({"updated": today.isoformat(), "files": update.files}, indent=1),
                                          encoding="utf-8")
    return path
