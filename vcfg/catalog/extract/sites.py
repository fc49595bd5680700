"""Named places in vLLM's source where configuration flows: where a JSON flag value is
parsed into its config class, where the engine config is built, where the KV connector
factory creates the scheduler-side and worker-side connectors, where every environment
variable is finally evaluated.  `vcfg explain` prints them as the stages of a flow, so
each release gets its own file:line.

The sites are data (`SPECS`): a name, where to look, and what to look for (a function
definition by qualified name, or calls of a function, optionally labelled by one keyword
argument).  A site vLLM does not have in a release is simply absent.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional, Sequence

from vcfg.catalog.extract.pysource import dotted
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import ConfigClass, Connector, Loc, Site
from vcfg.records import record

ARG_UTILS = "vllm/engine/arg_utils.py"
FACTORY = "vllm/distributed/kv_transfer/kv_connector/factory.py"


@record(frozen=True)
class DefSpec:
    name: str
    file: str
    qualname: str  # "Class.method", "func", "outer.inner" (nested function)


@record(frozen=True)
class CallSpec:
    name: str
    folders: tuple[str, ...]
    callee: str  # dotted text of the called expression
    label_keyword: Optional[str] = None  # site name gets ".<label>" from this keyword
    skip_files: tuple[str, ...] = ()


SPECS: tuple[DefSpec | CallSpec, ...] = (
    DefSpec("cli.compute_kwargs", ARG_UTILS, "_compute_kwargs"),
    DefSpec("cli.parse_dataclass", ARG_UTILS, "_compute_kwargs.parse_dataclass"),
    DefSpec("cli.add_cli_args", ARG_UTILS, "EngineArgs.add_cli_args"),
    DefSpec("engine.from_cli_args", ARG_UTILS, "EngineArgs.from_cli_args"),
    DefSpec("engine.create_engine_config", ARG_UTILS, "EngineArgs.create_engine_config"),
    DefSpec("kv.register_connector", FACTORY, "KVConnectorFactory.register_connector"),
    DefSpec("kv.create_connector", FACTORY, "KVConnectorFactory.create_connector"),
    DefSpec("kv.get_connector_class", FACTORY, "KVConnectorFactory.get_connector_class"),
    CallSpec(
        "kv.create_connector_call",
        ("vllm/v1/core", "vllm/distributed/kv_transfer", "vllm/core"),
        "KVConnectorFactory.create_connector",
        label_keyword="role",
        skip_files=(FACTORY,),
    ),
    CallSpec(
        "kv.ensure_initialized_call",
        ("vllm/v1/worker", "vllm/worker"),
        "ensure_kv_transfer_initialized",
    ),
    CallSpec("envs.enable_envs_cache_call", ("vllm/v1/engine",), "enable_envs_cache"),
)


def _find_def(tree: ast.Module, qualname: str) -> Optional[int]:
    body: list[ast.stmt] = tree.body
    node: Optional[ast.AST] = None
    for part in qualname.split("."):
        found = None
        for stmt in ast.walk(ast.Module(body=body, type_ignores=[])) if node else body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name == part:
                found = stmt
                break
        if found is None:
            return None
        node = found
        body = found.body
    return getattr(node, "lineno", None)


def _calls(tree: ast.Module, callee: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted(node.func).endswith(callee):
            yield node


def extract_sites(
    src: VllmSource,
    configs: Sequence[ConfigClass] = (),
    connectors: Sequence[Connector] = (),
) -> list[Site]:
    out: list[Site] = []
    for spec in SPECS:
        if isinstance(spec, DefSpec):
            tree = src.tree(spec.file)
            line = _find_def(tree, spec.qualname) if tree else None
            if line:
                out.append(Site(name=spec.name, loc=Loc(file=spec.file, line=line)))
            continue
        leaf = spec.callee.rsplit(".", 1)[-1]
        for folder in spec.folders:
            for rel in src.py_files(folder):
                if rel in spec.skip_files:
                    continue
                text = src.read(rel) or ""
                if leaf + "(" not in text:  # cheap filter before parsing
                    continue
                tree = src.tree(rel)
                if tree is None:
                    continue
                for call in _calls(tree, spec.callee):
                    label = None
                    if spec.label_keyword:
                        for kw in call.keywords:
                            # only KVConnectorRole.X: `role=role` inside connectors is
                            # not a creation site
                            if kw.arg == spec.label_keyword and isinstance(kw.value, ast.Attribute):
                                label = kw.value.attr.lower()
                        if label is None:
                            continue  # e.g. super().__init__(role=role) inside connectors
                    name = f"{spec.name}.{label}" if label else spec.name
                    out.append(Site(name=name, loc=Loc(file=rel, line=call.lineno)))
    # where the config classes that carry the KV transfer settings are defined
    for cls in configs:
        if cls.name in ("VllmConfig", "KVTransferConfig"):
            out.append(Site(name=f"config.{cls.name}", loc=cls.loc))
            for f in cls.fields:
                if f.name == "kv_transfer_config":
                    out.append(Site(name=f"config.{cls.name}.{f.name}", loc=f.loc))
    # each connector's class definition
    for conn in connectors:
        if not conn.source_file:
            continue
        tree = src.tree(conn.source_file)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == conn.class_name:
                out.append(Site(name=f"connector.{conn.name}", loc=Loc(file=conn.source_file, line=node.lineno)))
    return out
