"""`gpusizer`: open the terminal UI (optionally on a tab), `gpusizer ask "…"` to answer one question and exit, or
`gpusizer catalog update` to re-read current cloud prices."""
from __future__ import annotations

import argparse
import os
import sys

TAB_NAMES = ["estimate", "compare", "cloud", "rent", "serving", "catalog", "ask", "speed", "training", "biggest"]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from gpusizer.catalog import SizingError
    from gpusizer.settings import ConfigError, settings

    try:
        settings()
        return run(argv)
    except (ConfigError, SizingError) as error:  # a setting or a user's catalog row that does not validate: say which, no traceback
        print(f"gpusizer: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # 'gpusizer ask ... | head -3': the reader left; no traceback (Python's documented recipe)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run(argv: list[str]) -> int:
    if argv and argv[0] == "ask":
        from .ask_cli import main as ask_main

        return ask_main(argv[1:])
    if argv and argv[0] == "catalog":
        from .catalog_cli import main as catalog_main

        return catalog_main(argv[1:])
    parser = argparse.ArgumentParser(prog="gpusizer", description="GPU sizing and cost in the terminal. "
                                     'Also: gpusizer ask "QUESTION" [--json]; gpusizer catalog update [--dry-run].')
    parser.add_argument("--tab", choices=TAB_NAMES, default="estimate", help="open on this tab")
    arguments = parser.parse_args(argv)
    from .app import GpusizerApp

    app = GpusizerApp(tab=arguments.tab)
    app.run()
    return app.return_code or 0  # 2: a user's catalog row did not validate (the app says which as it closes)


if __name__ == "__main__":
    sys.exit(main())
