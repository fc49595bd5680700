"""Build a `Catalog` from a `VllmSource`: the four extractors, put together."""

from __future__ import annotations

from vcfg import __version__
from vcfg.catalog.extract.configs import extract_configs
from vcfg.catalog.extract.configs_conditional import conditional_classes
from vcfg.catalog.extract.connectors import extract_connectors
from vcfg.catalog.extract.envs import extract_env_vars
from vcfg.catalog.extract.flags import extract_flags
from vcfg.catalog.extract.sites import extract_sites
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.extract.value_sets import extract_value_sets
from vcfg.catalog.model import Catalog
from vcfg.errors import VcfgError
from vcfg.records import RecordError, dump, load, replace


def build_catalog(src: VllmSource, version: str | None = None) -> Catalog:
    version = version or src.version
    if not version and (src.commit or src.ref):
        from vcfg.catalog.extract.devtree import dev_version
        from vcfg.catalog.store import newest_bundled

        version = dev_version(newest_bundled())  # a checkout or tarball of a branch
    if not version:
        raise VcfgError(
            f"cannot tell the vLLM version of {src.description}",
            hint="pass --vllm-version X with --source",
        )
    configs = extract_configs(src)
    conditional = conditional_classes(src)
    configs = [
        replace(c, built_when=conditional[c.name][0], built_when_loc=conditional[c.name][1])
        if c.name in conditional
        else c
        for c in configs
    ]
    connectors = extract_connectors(src)
    cat = Catalog(
        vllm_version=version,
        generated_by=f"vcfg {__version__}",
        source=f"vllm {version}" if not src.commit else f"vllm {src.ref or 'commit'}@{src.commit}",
        commit=src.commit,
        ref=src.ref,
        env_vars=extract_env_vars(src),
        configs=configs,
        flags=extract_flags(src, configs),
        connectors=connectors,
        sites=extract_sites(src, configs, connectors),
        value_sets=extract_value_sets(src),
    )
    # The extractors build records without checks; what is saved must load back checked.
    try:
        return load(Catalog, dump(cat))
    except RecordError as e:  # pragma: no cover - an extractor bug, not a user error
        raise AssertionError(f"catalog of vllm {version} does not check: {e}") from e
