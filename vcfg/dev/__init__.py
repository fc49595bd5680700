"""Tools for vcfg's own development, never used by a lint: ``python -m vcfg.dev
generate`` writes every derived file (catalogs, indexes, schemas, rule pages)."""
