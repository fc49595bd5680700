"""NVIDIA srt-slurm recipes with a vLLM backend: each role of
``backend.vllm_config`` (``prefill``, ``decode``, ``aggregated``) is the argv of a
Dynamo vLLM worker (``python -m dynamo.vllm``), its keys long option names without
dashes (``true``: a bare switch), with ``backend.<role>_environment``."""

from __future__ import annotations

import json
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="srt_slurm",
    patterns=("*.yaml", "*.yml"),
    summary="NVIDIA srt-slurm recipes: backend.vllm_config prefill/decode/aggregated workers",
)

_ROLES = ("prefill", "decode", "aggregated")


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping, scalar

    docs = documents(path, text)
    doc = docs.single()
    if doc is None:
        return None
    backend = mapping(mapping(doc).get("backend"))
    roles = [r for r in _ROLES if r in mapping(backend.get("vllm_config"))]
    if roles and scalar(backend.get("type")) in (None, "vllm"):
        return Evidence("srt_slurm", 0.9, (f"an srt-slurm recipe (backend.vllm_config: {', '.join(roles)})",), docs)
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.model import Run, Word
    from vcfg.launch.readers._containers import keyed, map_env
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _node_span, _scalar_word, _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    top = keyed(docs.head(1)[0])
    backend = keyed(top["backend"][1])
    model = keyed(top.get("model", (None, None))[1])
    image = None
    if isinstance(model.get("container", (None, None))[1], yaml.ScalarNode):
        image = _scalar_word(loc, model["container"][1])

    def synth(t: str, sp: Any) -> Word:
        return Word(t, sp, t, (Run(0, len(t), sp, False),) if t else ())

    out: list[Any] = []
    for role, (kn, vn) in keyed(backend["vllm_config"][1]).items():
        if role not in _ROLES:
            continue
        at = _node_span(loc, kn)
        argv = [synth("python3", at), synth("-m", at), synth("dynamo.vllm", at)]
        path_node = model.get("path", (None, None))[1]
        if isinstance(path_node, yaml.ScalarNode):
            w = _scalar_word(loc, path_node)
            if w.value.startswith("hf:"):
                w = w.slice(3, len(w.value))
            argv += [synth("--model", _node_span(loc, model["path"][0])), w]
        for k, v in vn.value if isinstance(vn, yaml.MappingNode) else []:
            if not isinstance(k, yaml.ScalarNode):
                continue
            flag = synth("--" + k.value, _node_span(loc, k))
            if isinstance(v, yaml.ScalarNode):
                if v.tag == "tag:yaml.org,2002:bool":
                    if v.value.lower() in ("true", "yes", "on"):
                        argv.append(flag)
                    continue
                # the recipe is loaded as YAML and each value passed as str(value): 0.90 -> 0.9
                loader = yaml.SafeLoader("")
                try:
                    shown = str(loader.construct_object(v))
                except (yaml.YAMLError, TypeError, ValueError):
                    shown = v.value
                finally:
                    loader.dispose()
                w = _scalar_word(loc, v)
                argv += [flag, w if w.value == shown else synth(shown, _node_span(loc, v))]
            else:  # a mapping or a list: the JSON text of it
                loader = yaml.SafeLoader("")
                try:
                    value = json.dumps(loader.construct_object(v, deep=True))
                except (yaml.YAMLError, TypeError, ValueError):
                    continue
                finally:
                    loader.dispose()
                argv += [flag, synth(value, _node_span(loc, v))]
        env = map_env(loc, backend.get(f"{role}_environment", (None, None))[1])
        found = shell.classify_argv(argv, env, at, path)
        out.extend(i._replace(image=image) for i in found)
    return LaunchPlan(path, invocations=tuple(out), source_kind="srt-slurm")
