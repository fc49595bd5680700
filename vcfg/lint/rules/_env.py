"""What the environment rules share: the variables a launch receives from the script."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.context import LaunchContext, Target

#: the knowledge-pack setting (settings.toml, with vLLM's sources) naming the VLLM_*
#: variables vLLM reads with os.environ directly, outside vllm/envs.py's registry, and
#: the build-provenance names images set: never "unknown"
DIRECT_READS = "env.read-outside-registry"


def direct_reads(target: Target) -> list[str]:
    """The VLLM_* names read outside the registry, for the target's release."""
    s = target.knowledge.setting(DIRECT_READS, target.version)
    return s.values if s is not None else []


def is_serve(lc: LaunchContext) -> bool:
    return lc.inv.kind == "serve"


def script_bindings(lc: LaunchContext) -> Iterator:  # type: ignore[type-arg]
    """Exported, set bindings the script (or the command's prefixes) gave this launch.
    A launch that does not inherit the script's environment (a container) only has
    its own explicit ones (``docker run -e``, a manifest's ``env``) and what the shell
    that starts it exports (a ``bash -c`` string, a workflow's ``run:`` step)."""
    for b in lc.inv.env.values():
        if (b.source == "script" or b.source == "prefix") and b.exported and not b.unset:
            yield b


def vllm_reads(lc: LaunchContext, name: str) -> bool:
    """Would vLLM (or a plugin vcfg knows) read this variable, in this release or
    another bundled one, or is it a near miss of a name vLLM reads?  A script's own
    ``VLLM_PORT_BASE`` is none of these: the prefix alone says nothing."""
    target = lc.target
    if lc.catalog.env(name) is not None or name in target.config.allowed_env or name in direct_reads(target):
        return True
    if target.knowledge.plugin_env(name) is not None:
        return True
    if not name.startswith("VLLM_"):
        return False
    if target.knowledge.removed_env(name, target.version) is not None:
        return True
    if any(c.env(name) is not None for c in target.history):
        return True
    return bool(near_miss(lc, name))


def near_miss(lc: LaunchContext, name: str) -> list[str]:
    """The names of this release's variables ``name`` looks like a misspelling of
    (per catalog and name, once per run: the rules ask for a script's own names on
    every launch, and a batch's scripts share them)."""
    from vcfg.lint.rules._util import did_you_mean

    cat = lc.catalog
    run = lc.file.run
    memo = run.memo.setdefault("near_miss", {}) if run is not None else {}
    hit = memo.get((id(cat), name))
    if hit is None or hit[0] is not cat:
        hit = memo[(id(cat), name)] = (cat, did_you_mean(name, (e.name for e in cat.env_vars), cutoff=0.8))
    return list(hit[1])
