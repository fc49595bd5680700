"""What reads vLLM's source to build a catalog (never imported by a lint): the source
tree, wheel or download (`source`), one extractor per kind of fact (`envs`, `configs`,
`flags*`, `connectors`, `sites`), the Python-source toolkit they share (`pysource`) and
`build`, which puts them together."""
