"""Constraints between the keys of one config-class JSON value, as data (GUIDE 3.4).

Where `vcfg.lint.constraints` relates options, an entry here relates the keys of one
object vLLM validates as a config class (``--profiler-config``, ``--eplb-config``,
``--speculative-config``, ...): a model validator of that class mirrored as a predicate
over the object's effective values (the key as given, else the field's default in the
release's catalog), the key a finding points at (it must be given), the releases, and
the validator's ``vllm@X:file:line``.  A key whose default the catalog does not know
makes the entry undecided: it reports nothing.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, Optional

from vcfg.lint.options import UNKNOWN, is_static_default
from vcfg.records import record


@record(frozen=True)
class KeyConstraint:
    """``violated`` over the keys ``keys`` of an object of class ``cls``, reported at
    key ``at`` (given by the user)."""

    cls: str
    keys: tuple[str, ...]
    at: str
    violated: Callable[[Any], bool]
    message: str
    help: str
    versions: str
    source: str


def effective(cls: Any, value: dict[str, Any], keys: tuple[str, ...]) -> Optional[SimpleNamespace]:
    """The values vLLM's validator sees for ``keys``: given, else the catalog default;
    None when one is neither (the entry is undecided)."""
    out: dict[str, Any] = {}
    for k in keys:
        if k in value:
            out[k] = value[k]
            continue
        f = cls.field(k)
        if f is None or not is_static_default(f.default) or f.default is UNKNOWN:
            return None
        out[k] = f.default
    return SimpleNamespace(**out)


def proton_keys(cls: Any) -> tuple[str, ...]:
    """The Proton options of ProfilerConfig: its fields named ``proton_*`` (0.33.0
    config/profiler.py:88-113, the list the validator walks at :250-262)."""
    return tuple(f.name for f in cls.fields if f.name.startswith("proton_"))


#: model validators mirrored (the releases are those whose source was read)
ENTRIES: tuple[KeyConstraint, ...] = (
    KeyConstraint(
        cls="ProfilerConfig",
        keys=("profiler", "proton_profiler_dir"),
        at="profiler",
        violated=lambda v: v.profiler == "proton" and not v.proton_profiler_dir,
        message='`"profiler": "proton"` needs `proton_profiler_dir`',
        help='add "proton_profiler_dir": a local directory for the traces',
        versions=">=0.28.0",  # the same check from 0.28.0 (config/profiler.py:210), 0.32.0:269
        source="vllm@0.33.0:vllm/config/profiler.py:269",
    ),
    KeyConstraint(
        cls="EPLBConfig",
        keys=("use_async", "communicator"),
        at="communicator",
        violated=lambda v: bool(v.use_async) and v.communicator in ("torch_nccl", "pynccl"),
        message="the `{communicator}` communicator does not work with async EPLB (`use_async` is on)",
        help='use "torch_gloo" or "nixl", leave "communicator" unset, or set "use_async": false',
        versions=">=0.24.0",
        source="vllm@0.33.0:vllm/config/parallel.py:124",
    ),
    KeyConstraint(
        cls="SpeculativeConfig",
        keys=("method", "draft_lm_head_quantization"),
        at="draft_lm_head_quantization",
        # method as given (an MTP model type named as the method is mtp by then:
        # speculative.py:1246 @0.33.0); without one vLLM infers it: undecided
        violated=lambda v: (
            v.draft_lm_head_quantization is not None
            and isinstance(v.method, str)
            and not (v.method in ("eagle", "eagle3", "mtp") or v.method.endswith("_mtp"))
        ),
        message="`draft_lm_head_quantization` does not apply to method `{method}`",
        help='drop it, or use an "eagle", "eagle3" or "mtp" draft',
        versions=">=0.33.0",
        source="vllm@0.33.0:vllm/config/speculative.py:1953",
    ),
)

#: the other direction of the Proton validator (0.33.0 config/profiler.py:264): a
#: Proton option that differs from its default without ``"profiler": "proton"``; the
#: releases that check it are the knowledge setting ``PROTON`` (settings.toml)
PROTON_SOURCE = "vllm@0.33.0:vllm/config/profiler.py:264"
PROTON = "profiler.proton-options-need-proton"
