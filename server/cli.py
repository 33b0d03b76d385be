"""`gpusizer-mcp`: the MCP server's command line (the server itself lands with issue #5)."""
import sys


def main() -> int:
    print("gpusizer-mcp: the MCP server is not built yet (issue #5); the calculators are importable from gpusizer.tools",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
