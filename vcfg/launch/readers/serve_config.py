"""``vllm serve --config`` YAML files.

A YAML file is a serve config when a launch of the run reads it with ``--config``
(it is then read as part of that launch and has no launch of its own), or when its
name and shape say so: vLLM reads only ``.yaml``/``.yml`` files there, and most of
its top-level keys must be options of ``vllm serve`` in the target release, at
least one of them more telling than the names any application config uses
(``model``, ``port``, ``host`` ...) unless the file's name mentions vllm or serve.
Any other YAML file is not a serve config, and nothing is reported about it.
"""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="serve_config",
    patterns=("*.yaml", "*.yml"),
    summary="`vllm serve --config` YAML: a file a launch reads, or one whose keys are mostly vLLM options",
)

#: vllm serve options whose names application configs use too: alone, they do
#: not make a file a serve config
GENERIC_KEYS = frozenset(
    {
        "model",
        "port",
        "host",
        "seed",
        "device",
        "revision",
        "tokenizer",
        "config",
        "dtype",
        "task",
        "mode",
        "runner",
        "name",
        "api-key",
        "headless",
        "uds",
        "convert",
    }
)

_NAME_HINT = re.compile(r"vllm|serve", re.I)
_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:", re.M)


def _catalog(ctx: ReadContext) -> Any:
    if ctx.catalog is None:
        from vcfg.catalog import store

        ctx.catalog = store.load(store.newest_bundled())[0]
    return ctx.catalog


def _is_option(cat: Any, key: str) -> bool:
    """A key of the release's ``vllm serve``; a dotted key (``kv-transfer-config.kv_role``)
    counts when its first part is a JSON-valued option (vLLM merges it into the JSON)."""
    head, dot, _ = key.partition(".")
    flag = cat.flag("--" + head.replace("_", "-"))
    if dot:
        return flag is not None and flag.type in ("json", "config", "dict_or_str")
    return flag is not None or key == "model"


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    if not path.startswith("<"):
        where = ctx.referenced.get(os.path.normpath(os.path.abspath(path)))
        if where is not None:
            return Evidence("serve_config", 1.0, (f"the launch at {where} reads it with --config",), "referenced")
    early = _not_most_options(path, text, ctx)
    if early is not None:
        return early
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import load_serve_config

    docs = documents(path, text)
    if len(docs.head(2)) == 2 and docs.error is None:
        # several documents, which vLLM's yaml.safe_load refuses (as `load_serve_config`
        # says, after building the positions of a whole 20 MiB manifest)
        keys = _TOP_KEY.findall(text)
        broken = ", though the YAML does not parse"
    else:
        cfg = load_serve_config(text.encode("utf-8", "surrogateescape"), path, ctx.configs)
        if cfg.entries is not None:
            keys = [e.key for e in cfg.entries]
            broken = ""
        else:
            if not any(p.message.startswith("invalid YAML") for p in cfg.problems):
                return None  # empty, not a mapping
            keys = _TOP_KEY.findall(text)
            broken = ", though the YAML does not parse"
    if not keys:
        return None
    cat = _catalog(ctx)
    # each name asked once: the keys of a manifest of 100,000 documents are mostly the same few
    known = {k: _is_option(cat, k) for k in dict.fromkeys(keys)}
    options = [k for k in keys if known[k]]
    telling = [k for k in options if k.replace("_", "-") not in GENERIC_KEYS]
    hint = bool(_NAME_HINT.search(os.path.basename(path)))
    shown = ", ".join(options[:6]) + (" ..." if len(options) > 6 else "")
    summary = f"{len(options)} of {len(keys)} top-level keys are vllm serve {cat.vllm_version} options"
    if len(options) * 2 <= len(keys):
        return Evidence("serve_config", 0.0, (summary + (f" ({shown})" if options else "") + ": not most of them",))
    if not telling and not hint:
        return Evidence(
            "serve_config",
            0.0,
            (
                summary + f" ({shown}), names application configs use too, and the file's name does not "
                "mention vllm or serve",
            ),
        )
    return Evidence(
        "serve_config", 0.7 if hint or len(telling) >= 2 else 0.5, (summary + f" ({shown}){broken}",), "standalone"
    )


def _not_most_options(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    """The "not most of them" answer from the top-level keys of the composed document
    (shared with the other YAML readers), before the config is read with a position
    for every value: a compose file of thousands of services is not built into
    thousands of JSON words only to be refused.  None: read the config."""
    import yaml

    from vcfg.launch.readers._yaml import documents

    doc = documents(path, text).single()
    if not isinstance(doc, yaml.MappingNode):
        return None
    keys = [
        str(kn.value) for kn, _ in doc.value if isinstance(kn, yaml.ScalarNode) and kn.tag != "tag:yaml.org,2002:merge"
    ]
    if not keys:
        return None
    cat = _catalog(ctx)
    options = [k for k in keys if _is_option(cat, k)]
    if len(options) * 2 > len(keys):
        return None
    shown = ", ".join(options[:6]) + (" ..." if len(options) > 6 else "")
    summary = f"{len(options)} of {len(keys)} top-level keys are vllm serve {cat.vllm_version} options"
    return Evidence("serve_config", 0.0, (summary + (f" ({shown})" if options else "") + ": not most of them",))


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    """A config read by a launch of the run: no launch of its own (that launch
    reports its options).  Otherwise one ``vllm serve --config FILE`` launch whose
    model is not known, so every rule sees its options at their YAML lines."""
    from vcfg.launch.model import SERVE, Invocation, LineIndex, literal_word
    from vcfg.launch.yaml_config import load_serve_config

    cfg = load_serve_config(data, path, ctx.configs)  # also labels its positions with the path as given
    if evidence.data == "referenced":
        return LaunchPlan(path, source_kind="serve-config")
    if cfg.entries is None:
        return LaunchPlan(path, problems=cfg.problems, source_kind="serve-config")
    at = LineIndex(data, path).span(0, 0)
    args = (literal_word("--config", at), literal_word(os.path.basename(path), at))
    inv = Invocation(
        kind=SERVE,
        entrypoint="vllm serve",
        command=args,
        args=args,
        args_complete=True,
        span=at,
        env={},
        subcommand=("serve",),
    )
    return LaunchPlan(path, invocations=(inv,), source_kind="serve-config")
