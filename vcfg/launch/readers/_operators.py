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


def production_stack_runtime(loc: Any, top: dict[str, Any], path: str) -> list[Any]:
    """A production-stack ``VLLMRuntime`` (production-stack.vllm.ai): the operator runs
    ``/opt/venv/bin/vllm serve MODEL_URL --host 0.0.0.0 --port PORT`` (8000 by default)
    and adds the options its ``spec.model`` and ``spec.vllmConfig`` fields map to, then
    ``extraArgs``; ``VLLM_USE_V1`` from ``v1``, LMCache's variables and
    ``--kv-transfer-config`` when ``lmCacheConfig.enabled``, then ``vllmConfig.env``; the
    image is ``deploymentConfig.image`` ``registry/name`` (production-stack@a6c01db
    operator/internal/controller/vllmruntime_controller.go:440-615, :653, :782; the port
    default api/v1alpha1/vllmruntime_types.go:203)."""
    from vcfg.launch import shell
    from vcfg.launch.readers._containers import keyed, list_words
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    spec = keyed(top.get("spec", (None, None))[1])
    model = keyed(spec.get("model", (None, None))[1])
    conf = keyed(spec.get("vllmConfig", (None, None))[1])
    url_key, url = model.get("modelURL", (None, None))
    if not isinstance(url, yaml.ScalarNode):
        return []
    at = _node_span(loc, url_key)

    def value(fields: dict[str, Any], key: str) -> Optional[Word]:
        node = fields.get(key, (None, None))[1]
        if not isinstance(node, yaml.ScalarNode) or node.value in ("", "0", "null", "~"):
            return None
        return _scalar_word(loc, node)

    def on(fields: dict[str, Any], key: str) -> bool:
        w = value(fields, key)
        return w is not None and w.value.lower() == "true"

    argv = [_synth("/opt/venv/bin/vllm", at), _synth("serve", at), _scalar_word(loc, url)]
    argv += [_synth("--host", at), _synth("0.0.0.0", at), _synth("--port", at)]
    argv.append(value(conf, "port") or _synth("8000", at))
    if on(model, "enableLoRA"):
        argv.append(_synth("--enable-lora", at))
    if on(model, "enableTool"):
        argv.append(_synth("--enable-auto-tool-choice", at))

    def valued(fields: dict[str, Any], key: str, option: str) -> None:
        w = value(fields, key)
        if w is not None:
            argv.extend((_synth(option, at), w))

    valued(model, "toolCallParser", "--tool-call-parser")
    for key, name in (
        ("enableChunkedPrefill", "enable-chunked-prefill"),
        ("enablePrefixCaching", "enable-prefix-caching"),
    ):
        argv.append(_synth(f"--{name}" if on(conf, key) else f"--no-{name}", at))
    valued(model, "maxModelLen", "--max-model-len")
    valued(model, "dtype", "--dtype")
    valued(conf, "tensorParallelSize", "--tensor-parallel-size")
    valued(model, "maxNumSeqs", "--max-num-seqs")
    valued(conf, "gpuMemoryUtilization", "--gpu_memory_utilization")
    valued(conf, "maxLoras", "--max_loras")
    if "extraArgs" in conf:
        argv += list_words(loc, conf["extraArgs"][1]) or []
    if value(model, "chatTemplate") is not None:
        argv += [_synth("--chat-template", at), _synth("/etc/chat-template.json", at)]

    def key_span(fields: dict[str, Any], key: str) -> Span:
        """Where the field that makes the operator write a setting is (else the model's)."""
        node = fields.get(key, (None, None))[0]
        return _node_span(loc, node) if node is not None else at

    v1 = key_span(conf, "v1")
    env: list[tuple[str, Word, Span]] = [("VLLM_USE_V1", _synth("1" if on(conf, "v1") else "0", v1), v1)]
    if on(model, "enableLoRA"):
        env.append(("VLLM_ALLOW_RUNTIME_LORA_UPDATING", _synth("True", at), at))
    cache = keyed(spec.get("lmCacheConfig", (None, None))[1])
    if on(cache, "enabled"):
        lm = key_span(cache, "enabled")
        for name, text in (("LMCACHE_LOG_LEVEL", "DEBUG"), ("LMCACHE_USE_EXPERIMENTAL", "True")):
            env.append((name, _synth(text, lm), lm))
        env.append(("VLLM_RPC_TIMEOUT", _synth("1000000", lm), lm))
        connector = "LMCacheConnectorV1" if on(conf, "v1") else "LMCacheConnector"
        argv += [
            _synth("--kv-transfer-config", at),
            _synth(f'{{"kv_connector":"{connector}","kv_role":"kv_both"}}', at),
        ]
        for key, flag, size in (
            ("cpuOffloadingBufferSize", "LMCACHE_LOCAL_CPU", "LMCACHE_MAX_LOCAL_CPU_SIZE"),
            ("diskOffloadingBufferSize", "LMCACHE_LOCAL_DISK", "LMCACHE_MAX_LOCAL_DISK_SIZE"),
        ):
            node = cache.get(key, (None, None))[1]
            if isinstance(node, yaml.ScalarNode) and node.value != "":
                env += [(flag, _synth("True", at), at), (size, _scalar_word(loc, node), at)]
        remote = value(cache, "remoteUrl")
        if remote is not None:
            env.append(("LMCACHE_REMOTE_URL", remote, at))
            serde = value(cache, "remoteSerde")
            env.append(("LMCACHE_REMOTE_SERDE", serde or _synth("", at), at))
    envs = conf.get("env", (None, None))[1]
    if isinstance(envs, yaml.SequenceNode):
        for item in envs.value:
            e = keyed(item)
            name, val = e.get("name", (None, None))[1], e.get("value", (None, None))[1]
            if isinstance(name, yaml.ScalarNode) and isinstance(val, yaml.ScalarNode):
                env.append((name.value, _scalar_word(loc, val), _node_span(loc, name)))
    token = keyed(model.get("hfTokenSecret", (None, None))[1])
    if value(token, "hfTokenSecretName") is not None:
        env.append(("HF_TOKEN", Word("", at, "", (), (Hole(0, "the Secret's HF token", at),)), at))
    image: Optional[Word] = None
    im = keyed(keyed(spec.get("deploymentConfig", (None, None))[1]).get("image", (None, None))[1])
    reg, repo = value(im, "registry"), value(im, "name")
    if repo is not None:
        image = _synth(f"{reg.value}/{repo.value}" if reg is not None else repo.value, repo.span)
    found: list[Any] = shell.classify_argv(argv, env, at, path)
    return [i._replace(image=image) for i in found]
