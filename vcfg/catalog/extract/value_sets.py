"""Value sets: the names vLLM accepts for an option that argparse takes as any string,
read statically per release (`ValueSet`).

Each entry below says where vLLM keeps the names and where it refuses an unknown
one; the names and both locations are read from the release's source, so a release
that moved or dropped either simply has no such set (nothing is guessed):

- ``--reasoning-parser``: ``ReasoningParserManager``'s registry (the lazy
  ``_REASONING_PARSERS_TO_REGISTER`` table and ``register_module`` decorators, see
  flags_registry.py), refused by the serve command's argument check (0.33.0
  entrypoints/common/cli_args.py:628, 0.13.0 entrypoints/openai/api_server.py:1340);
- ``--tool-call-parser``: ``ToolParserManager``'s registry, refused there only with
  ``--enable-auto-tool-choice`` (0.33.0 cli_args.py:619);
- ``--quantization``: the ``QuantizationMethods`` Literal (model_executor/layers/
  quantization/__init__.py), refused by ``ModelConfig._verify_quantization`` (0.33.0
  config/model.py:1465);
- ``--attention-backend``: ``AttentionBackendEnum``'s member names, upper-cased by
  ``AttentionConfig.validate_backend_before`` (0.33.0 config/attention.py:229);
- ``--kv-cache-dtype`` (0.33: ``CacheDType | str``): the ``CacheDType`` Literal, refused
  by ``CacheConfig._validate_cache_dtype`` (0.33.0 config/cache.py:471) unless a
  platform plugin registers the name.
"""

from __future__ import annotations

import ast
from typing import Optional

from vcfg.catalog.extract.flags_registry import scan_registry
from vcfg.catalog.extract.flags_symbols import ModuleIndex
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import Loc, ValueSet


def _line_of(src: VllmSource, files: tuple[str, ...], needle: str) -> Optional[Loc]:
    """The first line holding ``needle`` in the first of ``files`` that has it."""
    for rel in files:
        text = src.read(rel)
        if text is None:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if needle in line:
                return Loc(file=rel, line=i)
    return None


def _class_line(src: VllmSource, rel: str, name: str) -> Optional[Loc]:
    tree = src.tree(rel)
    if tree is None:
        return None
    for st in tree.body:
        if isinstance(st, ast.ClassDef) and st.name == name:
            return Loc(file=rel, line=st.lineno)
    return None


def _literal_alias(src: VllmSource, rel: str, name: str) -> Optional[tuple[list[str], Loc]]:
    """The string members of ``name = Literal[...]`` at the top of module ``rel``."""
    tree = src.tree(rel)
    if tree is None:
        return None
    for st in tree.body:
        target = (
            st.targets[0]
            if isinstance(st, ast.Assign) and len(st.targets) == 1
            else (st.target if isinstance(st, ast.AnnAssign) else None)
        )
        value = st.value if isinstance(st, (ast.Assign, ast.AnnAssign)) else None
        if not (isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Subscript)):
            continue
        if not (isinstance(value.value, ast.Name) and value.value.id == "Literal"):
            return None
        elts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
        names = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return (names, Loc(file=rel, line=st.lineno)) if names else None
    return None


def _enum_members(src: VllmSource, rel: str, name: str) -> Optional[tuple[list[str], Loc]]:
    """The member names (``NAME = ...`` in the class body) of enum ``name``."""
    tree = src.tree(rel)
    if tree is None:
        return None
    for st in tree.body:
        if isinstance(st, ast.ClassDef) and st.name == name:
            names = [
                t.id
                for b in st.body
                if isinstance(b, ast.Assign)
                for t in b.targets
                if isinstance(t, ast.Name) and t.id.isupper() and not t.id.startswith("_")
            ]
            return (names, Loc(file=rel, line=st.lineno)) if names else None
    return None


def _enum_ints(src: VllmSource, rel: str, name: str) -> Optional[tuple[list[str], list[int], Loc]]:
    """The members of enum ``name`` whose value is an int literal: (names, values, where)
    (``CUDAGraphMode.FULL_DECODE_ONLY = (FULL, NONE)`` is a name but not a number)."""
    tree = src.tree(rel)
    if tree is None:
        return None
    for st in tree.body:
        if isinstance(st, ast.ClassDef) and st.name == name:
            names: list[str] = []
            numbers: list[int] = []
            for b in st.body:
                if not (isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name)):
                    continue
                t = b.targets[0].id
                if t.startswith("_") or not t.isupper():
                    continue
                names.append(t)
                if isinstance(b.value, ast.Constant) and type(b.value.value) is int:
                    numbers.append(b.value.value)
            return (names, numbers, Loc(file=rel, line=st.lineno)) if names else None
    return None


def _registry(src: VllmSource, index: ModuleIndex, rel: str, manager: str) -> Optional[tuple[list[str], Loc]]:
    loc = _class_line(src, rel, manager)
    if loc is None:
        return None
    names = scan_registry(index, rel, manager).listed()
    return (names, loc) if names else None


_SERVE_CHECKS = (
    "vllm/entrypoints/common/cli_args.py",
    "vllm/entrypoints/openai/api_server.py",
    "vllm/entrypoints/openai/cli_args.py",
)


def extract_value_sets(src: VllmSource) -> list[ValueSet]:
    index = ModuleIndex(src)
    out: list[ValueSet] = []

    def add(found: Optional[tuple[list[str], Loc]], check: Optional[Loc], **kw) -> None:  # type: ignore[no-untyped-def]
        if found is not None and check is not None:
            out.append(ValueSet(values=found[0], loc=found[1], check=check, **kw))

    add(
        _registry(src, index, "vllm/reasoning/abs_reasoning_parsers.py", "ReasoningParserManager"),
        _line_of(src, _SERVE_CHECKS, "reasoning_parser not in valid_reasoning_parsers"),
        name="reasoning parsers",
        dest="reasoning_parser",
        also=["none"] if _maps_none(src) else [],
        plugins=["reasoning_parser_plugin"],
        stage="at start-up, before the engine is built",
    )
    for rel in (
        "vllm/tool_parsers/abstract_tool_parser.py",
        "vllm/entrypoints/openai/tool_parsers/abstract_tool_parser.py",
    ):
        found = _registry(src, index, rel, "ToolParserManager")
        if found is not None:
            add(
                found,
                _line_of(src, _SERVE_CHECKS, "tool_call_parser not in valid_tool_parses"),
                name="tool-call parsers",
                dest="tool_call_parser",
                when="enable_auto_tool_choice",
                plugins=["tool_parser_plugin"],
                stage="at start-up, before the engine is built",
            )
            break
    add(
        _literal_alias(src, "vllm/model_executor/layers/quantization/__init__.py", "QuantizationMethods"),
        _line_of(src, ("vllm/config/model.py",), "not in supported_quantization"),
        name="quantization methods",
        dest="quantization",
        stage="when the engine config is built, after the model's config is fetched",
    )
    for rel in ("vllm/v1/attention/backends/registry.py", "vllm/attention/backends/registry.py"):
        found = _enum_members(src, rel, "AttentionBackendEnum")
        if found is not None:
            add(
                found,
                _line_of(src, ("vllm/config/attention.py",), "AttentionBackendEnum[value.upper()]"),
                name="attention backends",
                dest="attention_backend",
                case_insensitive=True,
                also=["auto"] if _line_of(src, ("vllm/config/attention.py",), 'value.lower() == "auto"') else [],
                stage="when the engine config is built",
            )
            break
    if _line_of(src, ("vllm/config/cache.py",), "cache_dtype: CacheDType | str"):
        add(
            _literal_alias(src, "vllm/config/cache.py", "CacheDType"),
            _line_of(src, ("vllm/config/cache.py",), "if not is_known_kv_cache_dtype(cache_dtype)"),
            name="KV cache dtypes",
            dest="kv_cache_dtype",
            stage="when the engine config is built",
        )
    _enum_sets(src, out)
    return out


_COMPILATION = "vllm/config/compilation.py"


def _enum_sets(src: VllmSource, out: list[ValueSet]) -> None:
    """Enum-typed config fields whose before-validator looks a text value up by name
    (upper-cased) and leaves a number to pydantic's enum check (the member values):
    CompilationConfig.mode (0.33.0 config/compilation.py:853-871, from 0.11) and
    .cudagraph_mode (:873-879: ``CUDAGraphMode[value.upper()]``, a KeyError for an
    unknown name, from 0.10.2); and ``--optimization-level`` (``-O``), a plain
    ``OptimizationLevel`` IntEnum field of VllmConfig (0.33.0 config/vllm.py:435, from
    0.12), which takes a member value written as digits."""
    mode = _enum_ints(src, _COMPILATION, "CompilationMode")
    check = _line_of(src, (_COMPILATION,), "not in CompilationMode.__members__")
    if mode is not None and check is not None:
        out.append(
            ValueSet(
                name="compilation modes",
                dest="CompilationConfig.mode",
                values=mode[0],
                numbers=mode[1],
                case_insensitive=True,
                loc=mode[2],
                check=check,
                stage="at parse time (vllm exits 2)",
            )
        )
    graph = _enum_ints(src, _COMPILATION, "CUDAGraphMode")
    check = _line_of(src, (_COMPILATION,), "CUDAGraphMode[value.upper()]")
    if graph is not None and check is not None:
        out.append(
            ValueSet(
                name="CUDA graph modes",
                dest="CompilationConfig.cudagraph_mode",
                values=graph[0],
                numbers=graph[1],
                case_insensitive=True,
                loc=graph[2],
                check=check,
                stage="at parse time (a KeyError: vllm exits with a traceback)",
            )
        )
    level = _enum_ints(src, "vllm/config/vllm.py", "OptimizationLevel")
    check = _line_of(src, ("vllm/config/vllm.py",), "optimization_level: OptimizationLevel")
    if level is not None and check is not None and level[1]:
        out.append(
            ValueSet(
                name="optimization levels",
                dest="optimization_level",
                values=[str(n) for n in level[1]],
                loc=level[2],
                check=check,
                stage="when the engine config is built",
            )
        )


def _maps_none(src: VllmSource) -> bool:
    """0.33: ``parse_reasoning_parser`` turns ``none`` (any case) into unset."""
    return _line_of(src, ("vllm/engine/arg_utils.py",), "def parse_reasoning_parser") is not None
