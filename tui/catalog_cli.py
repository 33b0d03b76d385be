"""`gpusizer catalog update`: re-read current cloud prices (SkyPilot's public catalog) into your catalog folder."""
from __future__ import annotations

import argparse
import datetime
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gpusizer catalog", description="Keep the catalog's prices current.")
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser("update", help="re-price cloud offers from SkyPilot's public catalog (needs the network)",
                                 description="Re-price every offer that came from SkyPilot's public catalog, withdraw "
                                 "the ones no longer listed, add instance types the catalog lacks, and write them to "
                                 "your catalog folder (GPUSIZER_CATALOG_DIR). The shipped catalog stays the fallback.")
    update.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    update.add_argument("--from", dest="recorded", type=Path, metavar="FOLDER",
                        help="read a recorded copy (FOLDER/index.json + the vms.csv files) instead of the network")
    update.add_argument("--cloud", action="append", metavar="PROVIDER", help="only this provider (repeatable), e.g. aws")
    arguments = parser.parse_args(argv)

    from gpusizer.catalog import load_catalog
    from gpusizer.catalog.catalog import clear_cache
    from gpusizer.catalog.loading import user_catalog_dir
    from gpusizer.catalog.price_update import GitHubSource, RecordedSource, report_lines, update_offers, write_update

    source = RecordedSource(arguments.recorded) if arguments.recorded else GitHubSource()
    folder = user_catalog_dir()
    today = datetime.date.today()
    result = update_offers(load_catalog(), source, today, folder / "offers.csv", arguments.cloud)
    written = None
    if not arguments.dry_run and result.files:
        written = write_update(result, folder, today)
        clear_cache()
    print("\n".join(report_lines(result, source.label, written)))
    return 0 if result.files else 1
