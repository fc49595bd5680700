"""What the environment rules share: the variables a launch receives from the script."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.context import LaunchContext

#: VLLM_* names vLLM reads with os.environ directly, outside vllm/envs.py's registry
#: (research: vllm-config-surface.md section 3.4, 0.33.0), and build-provenance names
#: set by vLLM's own images: never "unknown".
DIRECT_READS = frozenset({
    "VLLM_PRECOMPILED_WHEEL_LOCATION", "VLLM_SNAPSHOT_TIMEOUT_S",
    "VLLM_MORIIO_TRANSFER_TIMEOUT_S", "VLLM_DIST_IDENT", "VLLM_CUSTOM_ALLREDUCE_ALGO",
    "VLLM_CPU_SIM_MULTI_NUMA", "VLLM_MINIMAX_M3_MSA_CUTLASS_MIN_BATCH",
    "VLLM_BUILD_COMMIT", "VLLM_BUILD_VERSION",
})  # fmt: skip


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
    if lc.catalog.env(name) is not None or name in DIRECT_READS or name in target.config.allowed_env:
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
    """The names of this release's variables ``name`` looks like a misspelling of."""
    from vcfg.lint.rules._util import did_you_mean

    return did_you_mean(name, (e.name for e in lc.catalog.env_vars), cutoff=0.8)
