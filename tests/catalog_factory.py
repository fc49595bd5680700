"""Small hand-made catalogs for tests that must not depend on real vLLM releases."""

from vcfg.catalog.model import (
    Catalog,
    ConfigClass,
    ConfigField,
    Connector,
    EnvVar,
    ExtraKey,
    Flag,
    Loc,
)

L = Loc(file="vllm/x.py", line=1)


def make_catalog(version="0.1.0", flags=(), envs=(), configs=(), connectors=()):
    return Catalog(
        vllm_version=version,
        flags=[
            Flag(option_strings=[f], dest=f.lstrip("-").replace("-", "_"), type="int", loc=L)
            if isinstance(f, str)
            else f
            for f in flags
        ],
        env_vars=[EnvVar(name=e, type="int", parse="int", loc=L) if isinstance(e, str) else e for e in envs],
        configs=list(configs),
        connectors=[
            Connector(name=c, module="m", class_name=c, loc=L) if isinstance(c, str) else c for c in connectors
        ],
    )


def kv_config(*fields):
    return ConfigClass(
        name="KVTransferConfig",
        loc=L,
        fields=[ConfigField(name=f, type="str", hints=["str"], loc=L) for f in fields],
    )


__all__ = ["make_catalog", "kv_config", "ExtraKey", "L"]
