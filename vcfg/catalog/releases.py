"""The vLLM releases vcfg bundles catalogs for: every release on PyPI from 0.8.0 on,
patches and ``.postN`` included (none of them yanked; listed from
https://pypi.org/pypi/vllm/json on 2026-12-01).  Adding one is a line here and
`python -m vcfg.dev generate`; the catalogs share one table of facts
(`vcfg.catalog.packed`), so a patch release costs a few KiB."""

#: the command that writes every derived file, named in each file's header
GENERATED_BY = "python -m vcfg.dev generate"

BUNDLED_RELEASES: tuple[str, ...] = (
    "0.8.0", "0.8.1", "0.8.2", "0.8.3", "0.8.4", "0.8.5", "0.8.5.post1",
    "0.9.0", "0.9.0.1", "0.9.1", "0.9.2",
    "0.10.0", "0.10.1", "0.10.1.1", "0.10.2", "0.11.0", "0.11.1", "0.11.2", "0.12.0",
    "0.13.0", "0.14.0", "0.14.1", "0.15.0", "0.15.1", "0.16.0", "0.17.0", "0.17.1",
    "0.18.0", "0.18.1", "0.19.0", "0.19.1", "0.20.0", "0.20.1", "0.20.2", "0.21.0",
    "0.22.0", "0.22.1", "0.23.0", "0.24.0", "0.25.0", "0.25.1", "0.26.0", "0.27.0",
    "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0",
)  # fmt: skip


def newest_patches(releases: tuple[str, ...] = BUNDLED_RELEASES) -> tuple[str, ...]:
    """The newest release of each minor (``0.8.5.post1``, ``0.9.2``, ...): the releases
    whose JSON Schemas are committed under ``schemas/`` (the others come from
    ``vcfg schema --vllm-version X``)."""
    out: dict[str, str] = {}
    for v in releases:  # oldest first
        out[".".join(v.split(".")[:2])] = v
    return tuple(out.values())
