"""Results as Markdown or JSON: to the clipboard where the terminal allows (OSC 52), and always to a file."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from gpusizer.settings import settings


def export_folder() -> Path:
    configured = settings().export_dir
    if configured:
        return configured
    from platformdirs import user_data_path

    return user_data_path("gpusizer") / "exports"


def as_json(result: BaseModel, inputs: dict[str, Any] | None = None, catalog: str | None = None) -> str:
    """The inputs the tool was called with, its whole result (assumptions included) and the catalog it read."""
    return json.dumps({"inputs": inputs or {}, "result": result.model_dump(mode="json"), "catalog": catalog}, indent=2)


def as_markdown(title: str, result: BaseModel, inputs: dict[str, Any] | None = None, catalog: str | None = None) -> str:
    """The inputs, then the result: scalars as a two-column table, each list of rows as its own table, lists of text
    (assumptions, warnings) as bullets; the catalog it came from last."""
    data = result.model_dump(mode="json")
    scalars = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    lines = [f"# {title}", ""]
    if inputs:
        lines += ["## inputs", "", "| input | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in inputs.items()] + [""]
    lines += ["## result", "", "| field | value |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in scalars.items()]
    for key, value in data.items():
        if isinstance(value, dict):
            lines += ["", f"## {key}", "", "| field | value |", "|---|---|"]
            lines += [f"| {k} | {v} |" for k, v in value.items() if not isinstance(v, (list, dict))]
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines += ["", f"## {key}", ""] + rows_table(value)
            for row in value:  # a row's own list of rows (biggest_model: the models of each format) as a table below
                name = next((str(v) for v in row.values() if not isinstance(v, (list, dict))), "")
                for inner, items in row.items():
                    if isinstance(items, list) and items and isinstance(items[0], dict):
                        lines += ["", f"### {key}: {name}, {inner}", ""] + rows_table(items)
        elif isinstance(value, list) and value:
            lines += ["", f"## {key}", ""] + [f"- {item}" for item in value]
    if catalog:
        lines += ["", f"Catalog: {catalog}"]
    return "\n".join(lines) + "\n"


def rows_table(rows: list[dict[str, Any]]) -> list[str]:
    """A Markdown table of the rows' plain fields (a nested list gets its own table)."""
    columns = [c for c in rows[0] if not isinstance(rows[0][c], (list, dict))]
    return (["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
            + ["| " + " | ".join(str(row.get(c, "")) for c in columns) + " |" for row in rows])


def write_export(name: str, text: str, suffix: str) -> Path:
    folder = export_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.{suffix}"
    path.write_text(text)
    return path
