"""Helm values of charts that run vLLM, read as the chart's templates render them.

- vLLM production-stack (``servingEngineSpec.modelSpec[]``): one ``vllm serve`` per
  model, its options from ``vllmConfig`` (+ ``extraArgs``), ``lmcacheConfig`` and the
  model's ``env``, as the chart's ``helm/templates/deployment-vllm-multi.yaml``
  writes them (vllm-project/production-stack at f1f9822, Apache-2.0); an entry with
  ``raySpec.enabled`` true is a KubeRay RayCluster instead, whose head runs the
  chart's entrypoint script's ``vllm serve ... --distributed-executor-backend ray``
  (``helm/templates/ray-cluster.yaml`` at a6c01db; the launch's wrapper says so);
- llm-d modelservice (``decode``/``prefill`` ``containers[]``): ``modelCommand:
  vllmServe`` runs ``vllm serve <modelArtifacts.name> --port P --served-model-name
  <name>`` + ``args`` (decode: vLLM behind the routing sidecar, ``routing.proxy.
  targetPort``, 8200 by default; prefill: ``routing.servicePort``, 8000);
  ``custom`` runs ``command`` + ``args``; ``imageDefault`` the image's entrypoint;
- vLLM's own example chart (examples/online_serving/chart-helm): the container runs
  ``image.command`` in ``image.repository:image.tag`` with ``image.env``, and the
  ``configs``/``secrets`` config maps as ``envFrom`` (templates/deployment.yaml at
  vllm-project/vllm@c669178);
- OPEA's vllm chart (opea-project/GenAIInfra helm-charts/common/vllm), alone or as the
  ``vllm:`` subchart of an OPEA example's values (ChatQnA ...): the image's entrypoint
  (or ``extraCmd.command``) with ``extraCmdArgs`` then ``--model LLM_MODEL_ID --host
  0.0.0.0 --port PORT --download-dir /data``, and the variables its config map takes
  from the values (templates/deployment.yaml, configmap.yaml at GenAIInfra@9200b37);
  ``enabled: false`` runs nothing.

Every word points at the values file: an option at its key, a value at its value,
options the chart adds on its own at the model's entry.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan, Word
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="helm_values",
    patterns=("*.yaml", "*.yml"),
    summary="Helm values of vLLM production-stack (modelSpec) and llm-d modelservice (decode/prefill containers)",
)

#: production-stack ``vllmConfig`` keys -> the option the chart writes (a value follows)
_PS_VALUED = (
    ("maxModelLen", "--max-model-len"),
    ("dtype", "--dtype"),
    ("tensorParallelSize", "--tensor-parallel-size"),
    ("maxNumSeqs", "--max-num-seqs"),
    ("gpuMemoryUtilization", "--gpu_memory_utilization"),
    ("maxLoras", "--max_loras"),
)
#: the same keys in a RayCluster's vllm-entrypoint.sh (ray-cluster.yaml:704-730 at a6c01db)
_PS_RAY_VALUED = (
    ("maxModelLen", "--max-model-len"),
    ("dtype", "--dtype"),
    ("tensorParallelSize", "--tensor-parallel-size"),
    ("pipelineParallelSize", "--pipeline-parallel-size"),
    ("maxNumSeqs", "--max-num-seqs"),
    ("gpuMemoryUtilization", "--gpu-memory-utilization"),
    ("maxLoras", "--max-loras"),
)


#: keys only OPEA's vllm chart reads from its values (templates/deployment.yaml)
_OPEA_KEYS = ("LLM_MODEL_ID", "extraCmdArgs")
#: values OPEA's vllm chart passes to the container's environment (templates/configmap.yaml)
_OPEA_ENV = (
    "VLLM_CPU_KVCACHE_SPACE",
    "VLLM_SKIP_WARMUP",
    "PT_HPU_ENABLE_LAZY_COLLECTIVES",
    "OMPI_MCA_btl_vader_single_copy_mechanism",
    "VLLM_TORCH_PROFILER_DIR",
    "PT_HPUGRAPH_DISABLE_TENSOR_CACHE",
)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents

    docs = documents(path, text)
    doc = docs.single()
    if doc is None:
        return None
    kind = _kind(doc)
    return None if kind is None else Evidence("helm_values", 0.9, (kind[1],), kind[0])


def _kind(doc: Any) -> Optional[tuple[str, str]]:
    """Which chart's values the document is (the reading's key, the reason), or None."""
    from vcfg.launch.readers._containers import is_vllm_image
    from vcfg.launch.readers._yaml import mapping, scalar

    top = mapping(doc)
    if "modelSpec" in mapping(top.get("servingEngineSpec")):
        return "ps", "vLLM production-stack values (servingEngineSpec.modelSpec)"
    image = mapping(top.get("image"))
    if "command" in image and is_vllm_image(scalar(image.get("repository"))):
        return "vllm", "values of vLLM's example chart (image.command of a vLLM image)"
    sub = mapping(top.get("vllm"))
    if (
        sub
        and any(k in sub for k in _OPEA_KEYS)
        or ("extraCmdArgs" in top and is_vllm_image(scalar(mapping(top.get("image")).get("repository"))))
    ):
        return "opea", "values of OPEA's vllm chart (LLM_MODEL_ID, extraCmdArgs)"
    roles = [r for r in ("decode", "prefill") if "containers" in mapping(top.get(r))]
    if roles and ("modelArtifacts" in top or "routing" in top or "multinode" in top):
        return "llmd", f"llm-d modelservice values ({', '.join(roles)} containers)"
    return None


def block_launches(path: str, text: str, a: int, b: int) -> list[Any]:
    """The launches of chart values in lines ``a``..``b`` (1-based) of a Markdown file
    (a tutorial's ```yaml block, applied with ``helm install -f``), with positions in
    that file; [] for any other YAML."""
    import yaml

    from vcfg.launch.yaml_bounds import BoundedLoader
    from vcfg.launch.yaml_config import _TextLoc

    lines = text.splitlines(keepends=True)
    body = "".join(lines[a - 1 : b])
    if not any(k in body for k in ("modelSpec", "command", "vllm", "extraCmdArgs", "containers")):
        return []
    # every character outside the block becomes a space: indexes stay the file's own
    blanked = "".join(
        ln if a <= n <= b else "".join(ch if ch in "\r\n" else " " for ch in ln) for n, ln in enumerate(lines, 1)
    )
    try:
        doc = yaml.compose(blanked, Loader=BoundedLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    kind = _kind(doc)
    if kind is None:
        return []
    return _launches(_TextLoc(text, path), doc, path, kind[0], [])


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    unknowns: list[Any] = []
    first = docs.head(1)
    if not first:
        return LaunchPlan(path, source_kind="helm-values")
    invs = _launches(loc, first[0], path, evidence.data, unknowns)
    return LaunchPlan(path, invocations=tuple(invs), unknowns=tuple(unknowns), source_kind="helm-values")


def _launches(loc: Any, root: Any, path: str, kind: Any, unknowns: list[Any]) -> list[Any]:
    if kind == "ps":
        return _production_stack(loc, root, path, unknowns)
    if kind == "vllm":
        return _vllm_chart(loc, root, path, unknowns)
    if kind == "opea":
        return _opea_vllm(loc, root, path)
    return _llmd(loc, root, path, unknowns)


# --------------------------------------------------------------------------- words


def _synth(text: str, span: Any) -> Word:
    from vcfg.launch.model import Run

    return Word(text, span, text, (Run(0, len(text), span, False),) if text else ())


def _value(loc: Any, node: Any) -> Optional[Word]:
    """A scalar as the chart's ``| quote`` writes it (a YAML boolean as true/false)."""
    import yaml

    from vcfg.launch.yaml_config import _scalar_word

    if not isinstance(node, yaml.ScalarNode):
        return None
    return _scalar_word(loc, node)


def _truthy(node: Any) -> bool:
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        return node is not None
    return node.value.lower() not in ("", "false", "no", "off", "0", "null", "~")


# --------------------------------------------------------------------------- production-stack


def _production_stack(loc: Any, root: Any, path: str, unknowns: list[Any]) -> list[Any]:
    """Every ``modelSpec`` entry: a Deployment's ``vllm serve`` (deployment-vllm-multi.yaml),
    or, with ``raySpec.enabled`` true, the ``vllm serve`` the Ray head of a KubeRay
    RayCluster runs (ray-cluster.yaml: its vllm-entrypoint.sh, run in the background
    once the ``replicaCount`` workers joined); ``enabled: false`` renders neither
    (both templates' line 3 at vllm-project/production-stack@a6c01db)."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.readers._containers import container_env, keyed
    from vcfg.launch.yaml_config import _node_span

    spec = keyed(keyed(root)["servingEngineSpec"][1])
    port_node = spec.get("containerPort", (None, None))[1]
    models = spec["modelSpec"][1]
    out: list[Any] = []
    if not isinstance(models, yaml.SequenceNode):
        return out
    for item in models.value:
        m = keyed(item)
        if not m:
            continue
        enabled = m.get("enabled", (None, None))[1]
        if (
            isinstance(enabled, yaml.ScalarNode)
            and enabled.tag.endswith(":bool")
            and enabled.value.lower() in ("false", "no", "off")
        ):
            continue
        ray = _truthy(keyed(m.get("raySpec", (None, None))[1]).get("enabled", (None, None))[1])
        at = _node_span(loc, item)
        repo = _value(loc, m.get("repository", (None, None))[1])
        tag = _value(loc, m.get("tag", (None, None))[1])
        image = None
        if repo is not None and repo.text and tag is not None and tag.text:
            image = _synth(f"{repo.text}:{tag.text}", repo.span)
        argv = _ps_argv(loc, m, port_node, at, ray)
        vc = keyed(m.get("vllmConfig", (None, None))[1])
        lm = keyed(m.get("lmcacheConfig", (None, None))[1])
        env = _ps_ray_env(loc, m, vc, lm, at) if ray else _ps_env(loc, m, vc, lm, at, unknowns)
        env += container_env(loc, m, unknowns, keys=("env",))
        found = shell.classify_argv(argv, env, at, path)
        wrappers = (_RAY_HEAD,) if ray else ()
        out.extend(i._replace(image=image, wrappers=wrappers + i.wrappers) for i in found)
    return out


#: how a raySpec entry's launch is started (`Invocation.wrappers`; `vcfg launch show`)
_RAY_HEAD = "KubeRay RayCluster head (the chart's vllm-entrypoint.sh, in the background)"


def _ps_argv(loc: Any, m: dict[str, Any], port_node: Any, at: Any, ray: bool) -> list[Word]:
    """The ``vllm serve`` argv of one ``modelSpec`` entry: the Deployment's container
    args (deployment-vllm-multi.yaml, as read at f1f9822) or, ``ray``, the ``ARGS`` array
    of the RayCluster's vllm-entrypoint.sh (helm/templates/ray-cluster.yaml:669-759 at
    a6c01db): always ``vllm``, ``--distributed-executor-backend ray`` after the port,
    ``--enable-prefix-caching`` only when on, ``--pipeline-parallel-size``, dashed
    ``--gpu-memory-utilization``/``--max-loras``, ``modelRevision`` as ``--revision``,
    the LMCache connector from ``vllmConfig.v1`` (V1 only when it is 1), and
    ``chatTemplate`` as written."""
    import yaml

    from vcfg.launch.readers._containers import keyed
    from vcfg.launch.yaml_config import _node_span

    def key_word(key: str, text: str) -> Word:
        return _synth(text, _node_span(loc, m[key][0])) if key in m else _synth(text, at)

    repo = _value(loc, m.get("repository", (None, None))[1])
    lmcache_image = not ray and repo is not None and repo.text == "lmcache/vllm-openai"
    argv = [_synth("/opt/venv/bin/vllm" if lmcache_image else "vllm", at), _synth("serve", at)]
    model = _value(loc, m.get("modelURL", (None, None))[1])
    argv.append(model if model is not None else _synth("", at))
    port = _value(loc, port_node) if port_node is not None else None
    argv += [_synth("--host", at), _synth("0.0.0.0", at), _synth("--port", at), port or _synth("8000", at)]
    if ray:
        argv += [_synth("--distributed-executor-backend", at), _synth("ray", at)]
    if _truthy(m.get("enableLoRA", (None, None))[1]):
        argv.append(key_word("enableLoRA", "--enable-lora"))
    if _truthy(m.get("enableTool", (None, None))[1]):
        argv.append(key_word("enableTool", "--enable-auto-tool-choice"))
    if "toolCallParser" in m and (not ray or _truthy(m["toolCallParser"][1])):
        argv += [
            key_word("toolCallParser", "--tool-call-parser"),
            _value(loc, m["toolCallParser"][1]) or _synth("", at),
        ]
    vc = keyed(m.get("vllmConfig", (None, None))[1])
    if "vllmConfig" in m:
        if "enableChunkedPrefill" in vc:
            on = _truthy(vc["enableChunkedPrefill"][1])
            argv.append(
                _synth(
                    "--enable-chunked-prefill" if on else "--no-enable-chunked-prefill",
                    _node_span(loc, vc["enableChunkedPrefill"][0]),
                )
            )
        on = "enablePrefixCaching" in vc and _truthy(vc["enablePrefixCaching"][1])
        sp = (
            _node_span(loc, vc["enablePrefixCaching"][0])
            if "enablePrefixCaching" in vc
            else _node_span(loc, m["vllmConfig"][0])
        )
        if on or not ray:
            argv.append(_synth("--enable-prefix-caching" if on else "--no-enable-prefix-caching", sp))
        for key, option in _PS_RAY_VALUED if ray else _PS_VALUED:
            if key in vc:
                argv += [
                    _synth(option, _node_span(loc, vc[key][0])),
                    _value(loc, vc[key][1]) or _synth("", _node_span(loc, vc[key][1])),
                ]
        extra = vc.get("extraArgs", (None, None))[1]
        if isinstance(extra, yaml.SequenceNode):
            argv += [w for w in (_value(loc, n) for n in extra.value) if w is not None]
    if ray and _truthy(m.get("modelRevision", (None, None))[1]):
        argv += [key_word("modelRevision", "--revision"), _value(loc, m["modelRevision"][1]) or _synth("", at)]
    lm = keyed(m.get("lmcacheConfig", (None, None))[1])
    if lm and _truthy(lm.get("enabled", (None, None))[1]):
        role_node = lm.get("kvRole", (None, None))[1]
        role = role_node.value if role_node is not None and _truthy(role_node) else "kv_both"
        cfg: dict[str, Any]
        if ray:
            v1 = "v1" in vc and getattr(vc["v1"][1], "value", None) == "1"
            cfg = {"kv_connector": "LMCacheConnectorV1" if v1 else "LMCacheConnector", "kv_role": "kv_both"}
        elif "enablePD" in lm:
            nr = lm.get("nixlRole", (None, None))[1]
            cfg = {
                "kv_connector": "LMCacheConnectorV1",
                "kv_role": role,
                "kv_connector_extra_config": {
                    "discard_partial_chunks": False,
                    "lmcache_rpc_port": nr.value if nr is not None else "",
                },
            }
        elif "v0" in vc and getattr(vc["v0"][1], "value", None) == "1":
            cfg = {"kv_connector": "LMCacheConnector", "kv_role": role}
        else:
            cfg = {"kv_connector": "LMCacheConnectorV1", "kv_role": role}
        sp = _node_span(loc, m["lmcacheConfig"][0])
        argv += [_synth("--kv-transfer-config", sp), _synth(json.dumps(cfg, separators=(",", ":")), sp)]
    if "chatTemplate" in m and (not ray or _truthy(m["chatTemplate"][1])):
        tpl = _value(loc, m["chatTemplate"][1])
        if ray:
            argv += [key_word("chatTemplate", "--chat-template"), tpl or _synth("", at)]
        else:
            argv += [key_word("chatTemplate", "--chat-template"), _synth(f"/templates/{tpl.text if tpl else ''}", at)]
    return argv


def _ps_ray_env(
    loc: Any, m: dict[str, Any], vc: dict[str, Any], lm: dict[str, Any], at: Any
) -> list[tuple[str, Word, Any]]:
    """The variables the chart gives the Ray head container (ray-cluster.yaml:100-205 at
    a6c01db); the secrets (HF_TOKEN, VLLM_API_KEY) and LMCache's own are left out, as for
    the Deployment."""
    from vcfg.launch.model import Hole
    from vcfg.launch.yaml_config import _node_span

    rc = _value(loc, m.get("replicaCount", (None, None))[1])
    try:
        nodes = str(int(rc.text if rc is not None and rc.text else "0") + 1)
        expected = _synth(nodes, rc.span if rc is not None else at)
    except ValueError:
        expected = Word("", at, "", (), (Hole(0, "replicaCount + 1", at),))
    env: list[tuple[str, Word, Any]] = [
        ("VLLM_HOST_IP", Word("", at, "", (), (Hole(0, "VLLM_HOST_IP comes from a fieldRef", at),)), at),
        ("EXPECTED_NODES", expected, at),
        ("HF_HOME", _synth("/data" if "pvcStorage" in m else "/tmp", at), at),
    ]
    if vc:
        if "v1" in vc:
            w = _value(loc, vc["v1"][1])
            if w is not None:
                env.append(("VLLM_USE_V1", w, _node_span(loc, vc["v1"][0])))
        else:
            env.append(("VLLM_USE_V1", _synth("0", _node_span(loc, m["vllmConfig"][0])), at))
    if lm and _truthy(lm.get("enabled", (None, None))[1]):
        env += [("LMCACHE_USE_EXPERIMENTAL", _synth("True", at), at), ("VLLM_RPC_TIMEOUT", _synth("1000000", at), at)]
    return env


def _ps_env(
    loc: Any, m: dict[str, Any], vc: dict[str, Any], lm: dict[str, Any], at: Any, unknowns: list[Any]
) -> list[tuple[str, Word, Any]]:
    """The variables the chart sets itself (deployment-vllm-multi.yaml's env list)."""
    from vcfg.launch.model import Hole
    from vcfg.launch.yaml_config import _node_span

    env: list[tuple[str, Word, Any]] = [
        ("PYTHONHASHSEED", _synth("123", at), at),
        ("HF_HOME", _synth("/data" if "pvcStorage" in m else "/tmp", at), at),
        ("POD_IP", Word("", at, "", (), (Hole(0, "POD_IP comes from a fieldRef", at),)), at),
    ]
    if "vllmConfig" in m:
        env.append(("LMCACHE_LOG_LEVEL", _synth("DEBUG", at), at))
        if "v0" in vc and getattr(vc["v0"][1], "value", None) == "1":
            env.append(("VLLM_USE_V1", _synth("0", _node_span(loc, vc["v0"][0])), at))
        else:
            d = _value(loc, vc.get("prometheusMultiprocDir", (None, None))[1])
            env.append(("PROMETHEUS_MULTIPROC_DIR", d or _synth("/tmp", at), at))
    if lm:
        if _truthy(lm.get("enabled", (None, None))[1]):
            env += [
                ("LMCACHE_USE_EXPERIMENTAL", _synth("True", at), at),
                ("VLLM_RPC_TIMEOUT", _synth("1000000", at), at),
            ]
        if "cudaVisibleDevices" in lm:
            w = _value(loc, lm["cudaVisibleDevices"][1])
            if w is not None:
                env.append(("CUDA_VISIBLE_DEVICES", w, _node_span(loc, lm["cudaVisibleDevices"][0])))
    return env


# --------------------------------------------------------------------------- llm-d modelservice


def _llmd(loc: Any, root: Any, path: str, unknowns: list[Any]) -> list[Any]:
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.readers._containers import container_env, container_launches, keyed, list_words
    from vcfg.launch.yaml_config import _node_span

    top = keyed(root)
    art = keyed(top.get("modelArtifacts", (None, None))[1])
    name = _value(loc, art.get("name", (None, None))[1])
    routing = keyed(top.get("routing", (None, None))[1])
    proxy = keyed(routing.get("proxy", (None, None))[1])
    out: list[Any] = []
    for role in ("decode", "prefill"):
        section = keyed(top.get(role, (None, None))[1])
        containers = section.get("containers", (None, None))[1]
        if not isinstance(containers, yaml.SequenceNode):
            continue
        for item in containers.value:
            c = keyed(item)
            mc = c.get("modelCommand", (None, None))[1]
            mode = mc.value if isinstance(mc, yaml.ScalarNode) else None
            if mode != "vllmServe":
                # custom: command + args as written; imageDefault / none: the image's entrypoint
                out.extend(container_launches(loc, item, path, unknowns))
                continue
            at = _node_span(loc, c["args"][0] if "args" in c else c["modelCommand"][0])
            if role == "decode":
                pw = _value(loc, proxy.get("targetPort", (None, None))[1])
                port = pw or _synth("8200", at)
            else:
                pw = _value(loc, routing.get("servicePort", (None, None))[1])
                port = pw or _synth("8000", at)
            model = name or _synth("", at)
            argv = [
                _synth("vllm", at),
                _synth("serve", at),
                model,
                _synth("--port", at),
                port,
                _synth("--served-model-name", at),
                model,
            ]
            if "args" in c:
                argv += list_words(loc, c["args"][1]) or []
            env = container_env(loc, c, unknowns)
            image = _value(loc, c.get("image", (None, None))[1])
            found = shell.classify_argv(argv, env, at, path)
            out.extend(i._replace(image=image) for i in found)
    return out


def _vllm_chart(loc: Any, doc: Any, path: str, unknowns: list[Any]) -> list[Any]:
    """vLLM's example chart: ``image.command`` is the container's command, in the image
    ``repository:tag``, with ``image.env``; ``configs``, ``secrets`` and
    ``externalConfigs`` reach it as ``envFrom`` (unknown here)."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.model import Unknown
    from vcfg.launch.readers._containers import container_env, keyed, list_words
    from vcfg.launch.yaml_config import _node_span

    top = keyed(doc)
    image = keyed(top.get("image", (None, None))[1])
    kn, vn = image["command"]
    argv = list_words(loc, vn)
    if not argv:
        return []
    env = container_env(loc, image, unknowns, keys=("env",))
    for key in ("configs", "secrets", "externalConfigs"):
        node = top.get(key, (None, None))[1]
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value:
            unknowns.append(Unknown("container", f"environment loaded from {key} (envFrom)", _node_span(loc, node)))
    repo, tag = image.get("repository", (None, None))[1], image.get("tag", (None, None))[1]
    word = None
    if isinstance(repo, yaml.ScalarNode):
        text = repo.value + (f":{tag.value}" if isinstance(tag, yaml.ScalarNode) and tag.value else "")
        word = _synth(text, _node_span(loc, repo))
    found: list[Any] = shell.classify_argv(argv, env, _node_span(loc, kn), path)
    return [i._replace(image=word) for i in found]


def _opea_vllm(loc: Any, doc: Any, path: str) -> list[Any]:
    """OPEA's vllm chart: its container runs ``extraCmd.command`` (else the image's
    entrypoint) with ``extraCmdArgs``, ``--model LLM_MODEL_ID --host 0.0.0.0 --port PORT
    --download-dir /data`` (port 2080 and opea/vllm:latest by default, values.yaml), and
    the values its config map exports; every word the chart adds points at the ``vllm:``
    key (or the file's first key for the chart's own values)."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.model import Hole, Span
    from vcfg.launch.readers._containers import image_entrypoint_words, keyed, list_words
    from vcfg.launch.yaml_config import _node_span

    top = keyed(doc)
    key, node = top.get("vllm", (None, None))
    if node is None:  # the chart's own values
        key, node = next(iter(top.values()), (None, None))[0], doc
    values = keyed(node)
    at = _node_span(loc, key)
    enabled = values.get("enabled", (None, None))[1]
    if enabled is not None and not _truthy(enabled):
        return []
    image = keyed(values.get("image", (None, None))[1])
    repo, tag = image.get("repository", (None, None))[1], image.get("tag", (None, None))[1]
    if isinstance(repo, yaml.ScalarNode):
        text = repo.value + (f":{tag.value}" if isinstance(tag, yaml.ScalarNode) and tag.value else ":latest")
        image_word = _synth(text, _node_span(loc, repo))
    else:
        image_word = _synth("opea/vllm:latest", at)
    command = list_words(loc, keyed(values.get("extraCmd", (None, None))[1]).get("command", (None, None))[1])
    argv = command or image_entrypoint_words(image_word)
    argv += list_words(loc, values.get("extraCmdArgs", (None, None))[1]) or []
    model = _value(loc, values.get("LLM_MODEL_ID", (None, None))[1])
    if model is None:
        model = Word("", at, "", (), (Hole(0, "the chart's LLM_MODEL_ID", at),))
    port = _value(loc, values.get("port", (None, None))[1]) or _synth("2080", at)
    argv += [_synth("--model", at), model, _synth("--host", at), _synth("0.0.0.0", at), _synth("--port", at), port]
    argv += [_synth("--download-dir", at), _synth("/data", at)]
    env: list[tuple[str, Word, Span]] = []
    for name in _OPEA_ENV:
        kn, vn = values.get(name, (None, None))
        w = _value(loc, vn)
        if w is not None and _truthy(vn):
            env.append((name, w, _node_span(loc, kn)))
    extra = values.get("env", (None, None))[1]
    if isinstance(extra, yaml.MappingNode):
        for kn, vn in extra.value:
            w = _value(loc, vn)
            if isinstance(kn, yaml.ScalarNode) and w is not None:
                env.append((kn.value, w, _node_span(loc, kn)))
    found: list[Any] = shell.classify_argv(argv, env, at, path)
    return [i._replace(image=image_word) for i in found]
