"""Launches an operator builds from a resource of its own, with no container in the
file: the argv and environment are the ones the operator's controller writes into the
pod it creates (each function cites the controller's source).  Read by the Kubernetes
reader for these kinds only."""

from __future__ import annotations

from typing import Any, Optional

import yaml

from vcfg.launch.model import Hole, Run, Span, Word


def _synth(t: str, at: Span) -> Word:
    return Word(t, at, t, (Run(0, len(t), at, False),))


def kubeai_model(loc: Any, top: dict[str, Any], path: str) -> list[Any]:
    """A KubeAI ``Model`` (kubeai.org) with ``engine: VLLM``: the controller runs
    ``python3 -m vllm.entrypoints.openai.api_server --model=REF --served-model-name=NAME``
    (``--load-format=runai_streamer`` for an ``s3://`` URL), then ``spec.args``, then
    ``--enable-lora`` and ``VLLM_ALLOW_RUNTIME_LORA_UPDATING=True`` when the model has
    adapters; ``spec.env`` is the container's environment (kubeai@2f32ef4
    internal/modelcontroller/engine_vllm.go:20-62).  REF is the URL without its scheme
    (``hf://org/model`` gives ``org/model``), ``/model`` for a ``pvc://`` URL, and the
    cache folder (unknown here) with a ``cacheProfile`` (model_source.go:229-266)."""
    from vcfg.launch import shell
    from vcfg.launch.readers._containers import keyed, list_words
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    spec = keyed(top.get("spec", (None, None))[1])
    engine = spec.get("engine", (None, None))
    if not isinstance(engine[1], yaml.ScalarNode) or engine[1].value != "VLLM":
        return []
    at = _node_span(loc, engine[0])
    argv = [_synth(t, at) for t in ("python3", "-m", "vllm.entrypoints.openai.api_server")]
    url = spec.get("url", (None, None))[1]
    model: Optional[Word] = None
    streamer = False
    if isinstance(url, yaml.ScalarNode) and "://" in url.value:
        w = _scalar_word(loc, url)
        scheme, _, ref = w.value.partition("://")
        ref = ref.split("?", 1)[0]
        if "cacheProfile" in spec:
            model = Word("", at, "", (), (Hole(0, "the model's folder in KubeAI's cache", at),))
        elif scheme == "pvc":
            model = _synth("/model", at)
        elif scheme == "s3":
            model, streamer = w, True
        else:
            k = len(scheme) + 3
            model = w.slice(k, k + len(ref))
    if model is not None:
        argv += [_synth("--model", at), model]
    name = keyed(top.get("metadata", (None, None))[1]).get("name", (None, None))[1]
    if isinstance(name, yaml.ScalarNode):
        argv += [_synth("--served-model-name", at), _scalar_word(loc, name)]
    if streamer:
        argv.append(_synth("--load-format=runai_streamer", at))
    if "args" in spec:
        argv += list_words(loc, spec["args"][1]) or []
    env: list[tuple[str, Word, Span]] = []
    if "adapters" in spec:
        argv.append(_synth("--enable-lora", at))
        env.append(("VLLM_ALLOW_RUNTIME_LORA_UPDATING", _synth("True", at), at))
    envs = spec.get("env", (None, None))[1]
    if isinstance(envs, yaml.MappingNode):
        for kn, vn in envs.value:
            if isinstance(kn, yaml.ScalarNode) and isinstance(vn, yaml.ScalarNode):
                env.append((kn.value, _scalar_word(loc, vn), _node_span(loc, kn)))
    return list(shell.classify_argv(argv, env, at, path))


def llmaz_backend_runtime(loc: Any, top: dict[str, Any], path: str, unknowns: list[Any]) -> list[Any]:
    """An llmaz ``BackendRuntime`` (inference.llmaz.io): a Playground runs
    ``spec.command`` with the ``args`` of one of ``spec.recommendedConfigs`` in the
    image ``spec.image:spec.version``, with ``spec.envs``; one launch per recommended
    config, each at its ``args`` key.  The ``{{ .ModelPath }}`` templates are filled by
    the operator (unknown here)."""
    from vcfg.launch import shell
    from vcfg.launch.readers._containers import container_env, keyed, list_words, mask_expressions
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    spec = keyed(top.get("spec", (None, None))[1])
    command = list_words(loc, spec.get("command", (None, None))[1])
    configs = spec.get("recommendedConfigs", (None, None))[1]
    if not command or not isinstance(configs, yaml.SequenceNode):
        return []
    image: Optional[Word] = None
    im, ver = spec.get("image", (None, None))[1], spec.get("version", (None, None))[1]
    if isinstance(im, yaml.ScalarNode):
        image = _scalar_word(loc, im)
        if isinstance(ver, yaml.ScalarNode):
            t = f"{im.value}:{ver.value}"
            image = _synth(t, _node_span(loc, im))
    env = container_env(loc, spec, unknowns, keys=("envs",))
    out: list[Any] = []
    for item in configs.value:
        c = keyed(item)
        if "args" not in c:
            continue
        args = list_words(loc, c["args"][1]) or []
        argv = [mask_expressions(w, "go") if "{{" in w.value else w for w in [*command, *args]]
        found: list[Any] = shell.classify_argv(argv, env, _node_span(loc, c["args"][0]), path)
        out.extend(i._replace(image=image) for i in found)
    return out
