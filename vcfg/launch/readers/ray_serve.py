"""Ray Serve LLM configs (``applications[].args.llm_configs[]``, ``llm_config``,
``prefill_config`` and ``decode_config``, standalone or as a
KubeRay RayService's ``serveConfigV2``): each LLM config is a vLLM engine whose
``engine_kwargs`` are EngineArgs field names, read here as the options they stand
for (``max_model_len: 4096`` -> ``--max_model_len 4096``, ``true`` a bare switch,
``false`` its ``--no-`` form, a mapping its JSON), the model from
``model_loading_config.model_source`` (else ``model_id``), the environment from
``runtime_env.env_vars`` (the application's, then the LLM config's)."""

from __future__ import annotations

import json
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan, Run, Word
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="ray_serve",
    patterns=("*.yaml", "*.yml"),
    summary=(
        "Ray Serve LLM configs (llm_configs, llm_config, prefill_config, decode_config): engine_kwargs, "
        "model_loading_config, runtime_env env_vars"
    ),
)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping

    docs = documents(path, text)
    doc = docs.single()
    if doc is None:
        return None
    apps = mapping(doc).get("applications")
    if apps is not None and any(k in text for k in _CONFIG_KEYS):
        return Evidence("ray_serve", 0.9, ("a Ray Serve config with LLM configs",), docs)
    return None


#: the application arguments that hold LLM configs: a list (``build_openai_app``), one
#: (``build_dp_openai_app``'s ``llm_config``), prefill and decode (``build_pd_openai_app``)
_CONFIG_KEYS = ("llm_configs", "llm_config", "prefill_config", "decode_config")


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    first = docs.head(1)
    invs = serve_config_launches(loc, first[0], path, []) if first else []
    return LaunchPlan(path, invocations=tuple(invs), source_kind="ray-serve")


def _synth(t: str, sp: Any) -> Word:
    return Word(t, sp, t, (Run(0, len(t), sp, False),) if t else ())


def serve_config_launches(loc: Any, root: Any, path: str, env: list[Any], image: Optional[Word] = None) -> list[Any]:
    """The engines of a Ray Serve config's LLM applications."""
    import yaml

    from vcfg.launch.readers._containers import keyed, map_env

    out: list[Any] = []
    apps = keyed(root).get("applications", (None, None))[1]
    if not isinstance(apps, yaml.SequenceNode):
        return out
    for app in apps.value:
        a = keyed(app)
        runtime = keyed(a.get("runtime_env", (None, None))[1])
        app_env = env + map_env(loc, runtime.get("env_vars", (None, None))[1])
        args = keyed(a.get("args", (None, None))[1])
        for key in _CONFIG_KEYS:
            configs = args.get(key, (None, None))[1]
            items = configs.value if isinstance(configs, yaml.SequenceNode) else [configs] if configs else []
            for item in items:
                if isinstance(item, yaml.MappingNode):
                    out.extend(_llm_config(loc, item, path, app_env, image))
    return out


def _llm_config(loc: Any, item: Any, path: str, env: list[Any], image: Optional[Word]) -> list[Any]:
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.readers._containers import keyed, map_env
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    c = keyed(item)
    if "engine_kwargs" not in c and "model_loading_config" not in c:
        return []
    key = c["engine_kwargs"][0] if "engine_kwargs" in c else c["model_loading_config"][0]
    at = _node_span(loc, key)
    mlc = keyed(c.get("model_loading_config", (None, None))[1])
    model_node = mlc.get("model_source", mlc.get("model_id", (None, None)))[1]
    argv = [_synth("vllm", at), _synth("serve", at)]
    if isinstance(model_node, yaml.ScalarNode):
        argv.append(_scalar_word(loc, model_node))
    kw = c.get("engine_kwargs", (None, None))[1]
    loader = yaml.SafeLoader("")
    try:
        for kn, vn in kw.value if isinstance(kw, yaml.MappingNode) else []:
            if not isinstance(kn, yaml.ScalarNode):
                continue
            name_sp = _node_span(loc, kn)
            try:
                value = loader.construct_object(vn, deep=True)
            except (yaml.YAMLError, TypeError, ValueError):
                continue
            if isinstance(value, bool):
                argv.append(_synth(("--" if value else "--no-") + kn.value, name_sp))
                continue
            if value is None:
                continue
            argv.append(_synth("--" + kn.value, name_sp))
            if isinstance(value, (dict, list)):
                argv.append(_synth(json.dumps(value), _node_span(loc, vn)))
            else:
                w = _scalar_word(loc, vn)
                shown = str(value)
                argv.append(w if w.value == shown else _synth(shown, _node_span(loc, vn)))
    finally:
        loader.dispose()
    runtime = keyed(c.get("runtime_env", (None, None))[1])
    cenv = env + map_env(loc, runtime.get("env_vars", (None, None))[1])
    found = shell.classify_argv(argv, cenv, at, path)
    return [i._replace(image=image, keywords=True) for i in found]
