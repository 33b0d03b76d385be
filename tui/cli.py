"""`gpusizer`: the terminal UI's command line (the UI lands with issue #6)."""
import sys


def main() -> int:
    print("gpusizer: the terminal UI is not built yet (issue #6); the calculators are importable from gpusizer.tools",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
