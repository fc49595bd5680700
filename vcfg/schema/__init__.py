"""JSON Schemas generated from catalogs: ``build_schema(catalog, "serve")``.

See docs/schemas.md.  Modules: `build` (entry point), `serve`, `kvtransfer`,
`configs`, `env` (one per kind), `values` (single values), `describe` (the words),
`history` (releases a name exists in), `loader` (how ``--config`` YAML is read),
`helptext` (vLLM's help texts at run time), `write` (the committed files),
`editor` (``vcfg init-editor``), `api` (what the CLI calls).
"""

from vcfg.schema.build import SchemaOptions, build_schema, resolve_kind
from vcfg.schema.common import KINDS, dumps

__all__ = ["KINDS", "SchemaOptions", "build_schema", "dumps", "resolve_kind"]
