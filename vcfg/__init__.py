"""vcfg: configuration validation and introspection for vLLM deployments."""

__version__ = "0.1.0"
