"""Config classes vLLM builds only on a condition, read statically: a bound on one of
their fields is checked only then (`ConfigClass.built_when`).

Two shapes are recognised:

- ``option:<dest>``: ``create_engine_config`` builds the class in a conditional
  expression on one of its own options, ``LoRAConfig(...) if self.enable_lora else
  None`` (0.33.0 engine/arg_utils.py:2691-2710, 0.13.0 arg_utils.py:1612-1623);
- ``model:multimodal``: ``ModelConfig.__post_init__`` builds it under ``if
  self._model_info.supports_multimodal:`` (0.33.0 config/model.py:831-881): only for a
  model vLLM registers as multimodal.
"""

from __future__ import annotations

import ast

from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import Loc

_ARG_UTILS = "vllm/engine/arg_utils.py"
_MODEL = "vllm/config/model.py"


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]


def conditional_classes(src: VllmSource) -> dict[str, tuple[str, Loc]]:
    """Class name -> (condition, where vLLM builds it)."""
    out: dict[str, tuple[str, Loc]] = {}
    tree = src.tree(_ARG_UTILS)
    if tree is not None:
        for n in ast.walk(tree):
            if not isinstance(n, ast.IfExp) or not isinstance(n.body, ast.Call):
                continue
            if not (isinstance(n.orelse, ast.Constant) and n.orelse.value is None):
                continue
            t = n.test
            if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"):
                continue
            f = n.body.func
            if isinstance(f, ast.Name) and f.id.endswith("Config"):
                out.setdefault(f.id, (f"option:{t.attr}", Loc(file=_ARG_UTILS, line=n.body.lineno)))
    tree = src.tree(_MODEL)
    if tree is not None:
        for n in ast.walk(tree):
            if not isinstance(n, ast.If):
                continue
            t = n.test
            if not (isinstance(t, ast.Attribute) and t.attr == "supports_multimodal"):
                continue
            for st in n.body:
                for c in _calls(st):
                    name = c.func.id  # type: ignore[attr-defined]
                    if name == "MultiModalConfig":
                        out.setdefault(name, ("model:multimodal", Loc(file=_MODEL, line=c.lineno)))
    return out
