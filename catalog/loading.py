"""Reading catalog files, built-in and the user's own, into validated rows.

A user's folder (GPUSIZER_CATALOG_DIR, else the platform config folder's `catalog/`)
may hold gpus.csv, offers.csv, providers.csv and models.json with the same columns.
A row whose id exists overrides only the columns it fills; a new id adds a row.
"""
from __future__ import annotations

import csv
import json
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import CatalogError

Row = TypeVar("Row", bound=BaseModel)
LIST_FIELDS = {"aliases"}
USER_DIR_ENV = "GPUSIZER_CATALOG_DIR"


def user_catalog_dir() -> Path:
    from gpusizer.settings import settings

    configured = settings().catalog_dir
    if configured:
        return configured
    import platformdirs  # only needed when no folder is named

    return Path(platformdirs.user_config_dir("gpusizer")) / "catalog"


def builtin_text(filename: str) -> str:
    return resources.files("gpusizer.catalog").joinpath("data", filename).read_text(encoding="utf-8")


def _clean(raw: dict[str, Any]) -> dict[str, Any]:
    """CSV cells: empty means absent, lists are ';'-separated."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key is None:
            raise ValueError(f"more cells than columns: {value}")
        if isinstance(value, str):
            value = value.strip()
            if value == "":
                continue
            if key in LIST_FIELDS:
                value = [part.strip() for part in value.split(";") if part.strip()]
        out[key] = value
    return out


def parse_records(text: str, filename: str) -> list[dict[str, Any]]:
    if filename.endswith(".json"):
        data = json.loads(text)
        records = data["models"] if isinstance(data, dict) else data
        return [{k: v for k, v in r.items() if v is not None} for r in records]
    return [_clean(row) for row in csv.DictReader(text.splitlines())]


def validate_rows(records: list[dict[str, Any]], schema: type[Row], where: str, id_field: str) -> list[Row]:
    rows = []
    for number, record in enumerate(records, start=1):
        try:
            rows.append(schema.model_validate(record))
        except (ValidationError, ValueError) as error:
            raise CatalogError(f"{where} row {number} ({id_field} {record.get(id_field)!r}): {_first_problem(error)}") from None
    return rows


def _first_problem(error: Exception) -> str:
    if isinstance(error, ValidationError):
        problems = [f"{'.'.join(map(str, e['loc'])) or 'row'}: {e['msg']}" for e in error.errors()]
        return "; ".join(problems)
    return str(error)


def merge_user_rows(rows: list[Row], schema: type[Row], id_field: str, user_file: Path) -> list[Row]:
    """Overlay a user's file on built-in rows: partial rows override by id, new ids are added."""
    if not user_file.is_file():
        return rows
    by_id = {getattr(row, id_field): row for row in rows}
    records = parse_records(user_file.read_text(encoding="utf-8"), user_file.name)
    for _number, record in enumerate(records, start=1):
        key = record.get(id_field)
        base = by_id[key].model_dump() if key in by_id else {}
        merged = validate_rows([{**base, **record}], schema, f"{user_file}", id_field)[0]
        if key not in by_id:
            rows = [*rows, merged]
        else:
            rows = [merged if getattr(row, id_field) == key else row for row in rows]
        by_id[key] = merged
    return rows


def load_table(filename: str, schema: type[Row], id_field: str, user_dir: Path | None) -> list[Row]:
    rows = validate_rows(parse_records(builtin_text(filename), filename), schema, f"catalog/data/{filename}", id_field)
    ids = [getattr(row, id_field) for row in rows]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise CatalogError(f"catalog/data/{filename}: duplicate {id_field} {duplicates}")
    if user_dir is not None:
        rows = merge_user_rows(rows, schema, id_field, user_dir / filename)
    return rows
