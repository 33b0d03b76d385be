"""The one exception every domain failure raises: its message is what an MCP client reads."""


class SizingError(ValueError):
    """Bad input or an impossible request, with a message that says how to fix it."""


class CatalogError(SizingError):
    """A catalog file (built-in or the user's own) has a row that does not validate."""
