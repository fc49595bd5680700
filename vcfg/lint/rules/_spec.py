"""The speculative config a launch builds: ``--speculative-config`` and, from 0.33, the
``--spec-method``/``--spec-model``/``--spec-tokens`` shorthands merged into it
(0.33.0 engine/arg_utils.py:2108-2120), as constraint operands."""

from __future__ import annotations

from typing import Any

from vcfg.lint import constraints as c
from vcfg.lint.options import UNKNOWN

#: the keys each shorthand fills in (0.33.0 engine/arg_utils.py:2109-2111)
SHORTHANDS = (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens"))


def _json(x: Any) -> Any:
    # a value vcfg parsed as JSON; anything else (text vLLM would refuse, a hole) is
    # another rule's, and leaves the entry undecided
    return x if x is None or isinstance(x, dict) else UNKNOWN


OPERANDS = (
    c.Operand("speculative_config", convert=_json),
    *(c.Operand(dest, absent=None) for dest, _ in SHORTHANDS),
)


def merged(v: Any) -> Any:
    """The keyword arguments SpeculativeConfig gets, or None when the launch builds none
    (0.13.0 engine/arg_utils.py:1288, 0.33.0 :2122)."""
    spec = dict(v.speculative_config) if v.speculative_config is not None else None
    for dest, key in SHORTHANDS:
        x = getattr(v, dest)
        if x is not None:
            spec = spec if spec is not None else {}
            spec[key] = x
    return spec
