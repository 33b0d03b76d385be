"""gpusizer's settings: environment variables and the config file, validated in one place.

- `settings()`: the settings now (`Settings`), read on every call.
- `VARIABLES`: each environment variable with the field it sets, what it does and its default.
- `ConfigError`: raised for a setting that does not validate, naming the variable.

Below the catalog (which reads its folders from here) and imported by the faces for the MCP token, exports and the
Ask model; it imports nothing else of gpusizer.
"""
from gpusizer.settings.environment import VARIABLES, ConfigError, Settings, default_config_file, settings

__all__ = ["VARIABLES", "ConfigError", "Settings", "default_config_file", "settings"]
