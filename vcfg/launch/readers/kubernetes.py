"""Kubernetes manifests: every container of every object (Pod, Deployment,
StatefulSet, DaemonSet, Job, CronJob, LeaderWorkerSet leader and worker templates,
DisaggregatedSet, KServe ServingRuntime / LLMInferenceService, Dynamo
DynamoGraphDeployment ``mainContainer``, AIBrix StormService, KubeRay clusters and
``RayJob`` entrypoints; the launches the KubeAI, llmaz and production-stack operators
build from a ``Model``, a ``BackendRuntime`` or a ``VLLMRuntime``,
`vcfg.launch.readers._operators`), in multi-document
files.  A Helm chart template (Go
``{{ ... }}`` that is not YAML) is skipped with a note, never reported as invalid."""

from __future__ import annotations

import re
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan, ParseProblem
from vcfg.launch.readers import Evidence, ReadContext, Reader
from vcfg.span import source_text

READER = Reader(
    name="kubernetes",
    patterns=("*.yaml", "*.yml"),
    summary="Kubernetes manifests: every PodSpec container, LWS, KServe, Dynamo, AIBrix and KubeRay objects",
)

_API_LINE = re.compile(r"^apiVersion:[ \t]*\S", re.M)
_VLLM = re.compile("vllm", re.I)
#: a key that starts a container or gives its program (a template without one, a chart's
#: Service, Secret or PersistentVolumeClaim, holds no launch whatever it renders to)
_CONTAINER_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:containers|initContainers|command|args|image)[ \t]*:", re.M)
_KIND_LINE = re.compile(r"^kind:[ \t]*\S", re.M)
#: a ``kind:`` line indented by mistake (the YAML then does not parse): a Kubernetes kind
#: is one CamelCase word
_INDENTED_KIND = re.compile(r"^[ \t]+kind:[ \t]*[A-Z][A-Za-z0-9]*[ \t]*(?:#.*)?$", re.M)
_CONTAINER_LISTS = ("containers", "initContainers")
_RAY_GROUPS = {"headGroupSpec", "workerGroupSpecs"}


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.model import MAX_LAUNCHES
    from vcfg.launch.readers._yaml import documents, mapping, scalar

    docs = documents(path, text)
    # the first documents tell the format: as many as could hold the launches a file is
    # checked for (a manifest of 100,000 pods is not composed whole to say "Pod")
    nodes = docs.head(MAX_LAUNCHES + 1)
    if docs.error is not None:
        if "{{" in text:
            return Evidence(
                "kubernetes", 0.8, ("a Go template (a Helm chart's template), not YAML until rendered",), "template"
            )
        if _API_LINE.search(text) and _KIND_LINE.search(text):
            return Evidence("kubernetes", 0.8, ("apiVersion and kind lines, though the YAML does not parse",))
        # its kind line indented (the reason it does not parse): claimed when it names vLLM,
        # so that a broken launch is reported, not passed over in silence
        if _API_LINE.search(text) and _INDENTED_KIND.search(text) and _VLLM.search(text):
            return Evidence(
                "kubernetes", 0.8, ("an apiVersion line and an indented kind line, though the YAML does not parse",)
            )
        return None
    kinds = []
    fragment = False
    for node in nodes:
        m = mapping(node)
        if "apiVersion" in m and "kind" in m:
            kinds.append(scalar(m["kind"]) or "?")
        elif "containers" in m or "spec" in m:
            fragment = True
    if kinds:
        shown = ", ".join(dict.fromkeys(kinds))
        return Evidence("kubernetes", 1.0, (f"Kubernetes objects ({shown})",), docs)
    if fragment:
        return Evidence("kubernetes", 0.6, ("a top-level containers or spec key, as in a Kubernetes object",), docs)
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.model import MAX_LAUNCHES
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    text = source_text(data)
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    invocations: list[Any] = []
    unknowns: list[Any] = []
    # composed as read: the documents after the launch cap are not (nor their YAML errors)
    for doc in docs.stream() if docs.error is None else ():
        invocations.extend(objects_launches(loc, doc, path, unknowns))
        if len(invocations) > MAX_LAUNCHES:
            break  # read.capped notes the rest
    if docs.error is not None:
        msg, at = docs.error
        if evidence.data == "template":
            # not text.lower(): a copy of 20 MiB of random text (UCS-4: 80 MB)
            if not _VLLM.search(text) or not _CONTAINER_KEY.search(text):
                return LaunchPlan(path, source_kind="kubernetes")
            note = (
                "a Go template ({{ ... }}): vcfg reads rendered manifests only, so launches in this "
                "template are not checked (lint the output of `helm template`)"
            )
            return LaunchPlan(
                path, problems=(ParseProblem("template", note, loc.span(0, 0)),), source_kind="kubernetes"
            )
        return LaunchPlan(path, problems=(ParseProblem("yaml", msg, loc.span(at, at + 1)),), source_kind="kubernetes")
    return LaunchPlan(path, invocations=tuple(invocations), unknowns=tuple(unknowns), source_kind="kubernetes")


def objects_launches(loc: Any, doc: Any, path: str, unknowns: list[Any]) -> list[Any]:
    """The launches of one document: every container found under it."""
    from vcfg.launch.readers._containers import container_env, container_launches, keyed
    from vcfg.launch.readers._yaml import scalar

    out: list[Any] = []

    def visit(node: Any, env: list[Any], depth: int, ray: bool) -> None:
        if depth > 40:
            return
        m = keyed(node)
        if not m:
            if hasattr(node, "value") and isinstance(node.value, list):
                for it in node.value:
                    visit(it, env, depth + 1, ray)
            return
        if "envs" in m and "extraPodSpec" in m:  # Dynamo: a service's envs reach its main container
            env = env + container_env(loc, m, unknowns, keys=("envs",))
        for key, (_, vn) in m.items():
            if key in _CONTAINER_LISTS and hasattr(vn, "value") and isinstance(vn.value, list):
                for item in vn.value:
                    if id(item) in own:
                        out.extend(own[id(item)])
                    elif keyed(item):
                        out.extend(
                            container_launches(loc, item, path, unknowns, extra_env=env, image_entrypoint=not ray)
                        )
                continue
            if key == "mainContainer" and keyed(vn):
                out.extend(container_launches(loc, vn, path, unknowns, extra_env=env))
                continue
            # KubeRay starts Ray in head and worker group pods: not the image's entrypoint
            visit(vn, env, depth + 1, ray or key in _RAY_GROUPS)

    top = keyed(doc)
    kind = scalar(top.get("kind", (None, None))[1])
    own: dict[int, list[Any]] = {}  # containers a kind's own reading replaces
    if kind == "LLMInferenceService":
        own = _llmisvc(loc, top, path, unknowns)
    visit(doc, [], 0, False)
    if kind == "RayJob":
        out.extend(_rayjob(loc, top, path))
    if kind == "RayService":
        out.extend(_rayservice(loc, top, path, unknowns))
    api = scalar(top.get("apiVersion", (None, None))[1]) or ""
    if kind == "Model" and api.startswith("kubeai.org/"):
        from vcfg.launch.readers._operators import kubeai_model

        out.extend(kubeai_model(loc, top, path))
    if kind == "VLLMRuntime" and api.startswith("production-stack.vllm.ai/"):
        from vcfg.launch.readers._operators import production_stack_runtime

        out.extend(production_stack_runtime(loc, top, path))
    if kind == "BackendRuntime" and api.startswith("inference.llmaz.io/"):
        from vcfg.launch.readers._operators import llmaz_backend_runtime

        out.extend(llmaz_backend_runtime(loc, top, path, unknowns))
    return out


def _rayservice(loc: Any, top: dict[str, Any], path: str, unknowns: list[Any]) -> list[Any]:
    """A RayService's ``serveConfigV2`` (a Ray Serve config in a string): its LLM
    engines, with the head container's image and env."""
    import yaml

    from vcfg.launch.readers._containers import container_env, keyed
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.readers.ray_serve import serve_config_launches
    from vcfg.launch.yaml_config import _scalar_word, _TextLoc

    spec = keyed(top.get("spec", (None, None))[1])
    node = spec.get("serveConfigV2", (None, None))[1]
    if not isinstance(node, yaml.ScalarNode):
        return []
    head = spec.get("rayClusterConfig", (None, None))[1]
    for key in ("headGroupSpec", "template", "spec"):
        head = keyed(head).get(key, (None, None))[1]
    containers = keyed(head).get("containers", (None, None))[1]
    image, env = None, []
    if isinstance(containers, yaml.SequenceNode) and containers.value:
        c = keyed(containers.value[0])
        if isinstance(c.get("image", (None, None))[1], yaml.ScalarNode):
            image = _scalar_word(loc, c["image"][1])
        env = container_env(loc, c, unknowns)
    w = _scalar_word(loc, node)
    inner = _TextLoc(w.value, path, w)
    docs = documents(path + "#serveConfigV2", w.value)
    first = docs.head(1)
    if docs.error is not None or not first:
        return []
    return serve_config_launches(inner, first[0], path, env, image)


def _rayjob(loc: Any, top: dict[str, Any], path: str) -> list[Any]:
    """A RayJob's ``entrypoint`` runs through a shell on the head node's image."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.readers._containers import keyed
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    spec = keyed(top.get("spec", (None, None))[1])
    if "entrypoint" not in spec or not isinstance(spec["entrypoint"][1], yaml.ScalarNode):
        return []
    kn, vn = spec["entrypoint"]
    image = None
    head = spec.get("rayClusterSpec", (None, None))[1]
    for key in ("headGroupSpec", "template", "spec"):
        head = keyed(head).get(key, (None, None))[1]
    containers = keyed(head).get("containers", (None, None))[1]
    if isinstance(containers, yaml.SequenceNode) and containers.value:
        im = keyed(containers.value[0]).get("image", (None, None))[1]
        if isinstance(im, yaml.ScalarNode):
            image = _scalar_word(loc, im)
    found = shell.classify_argv([], [], _node_span(loc, kn), path, script=_scalar_word(loc, vn))
    return [i._replace(image=image) for i in found]


def _llmisvc(loc: Any, top: dict[str, Any], path: str, unknowns: list[Any]) -> dict[int, list[Any]]:
    """KServe LLMInferenceService: the ``main`` container of ``spec.template``,
    ``spec.prefill.template`` and ``spec.worker`` runs what the controller's config
    template writes, ``vllm serve /mnt/models --served-model-name NAME --port 8000``,
    then the words of its ``VLLM_ADDITIONAL_ARGS`` and its ``args`` (kserve
    config/llmisvcconfig/config-llm-template.yaml); the options the template adds on
    its own conditions are unknown.  Containers with a ``command`` are read as written."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.model import Hole, Run, Word
    from vcfg.launch.readers._containers import container_env, keyed, list_words, split_words
    from vcfg.launch.yaml_config import _node_span, _scalar_word

    spec = keyed(top.get("spec", (None, None))[1])
    model = keyed(spec.get("model", (None, None))[1])
    name = model.get("name", (None, None))[1]
    templates = [
        spec.get("template", (None, None))[1],
        spec.get("worker", (None, None))[1],
        keyed(spec.get("prefill", (None, None))[1]).get("template", (None, None))[1],
    ]
    out: dict[int, list[Any]] = {}
    for tpl in templates:
        containers = keyed(tpl).get("containers", (None, None))[1]
        if not isinstance(containers, yaml.SequenceNode):
            continue
        for item in containers.value:
            c = keyed(item)
            if getattr(c.get("name", (None, None))[1], "value", None) != "main" or "command" in c:
                continue
            at = _node_span(loc, c["name"][0])

            def synth(t: str, at: Any = at) -> Word:
                return Word(t, at, t, (Run(0, len(t), at, False),))

            argv = [synth("vllm"), synth("serve"), synth("/mnt/models")]
            if isinstance(name, yaml.ScalarNode):
                argv += [synth("--served-model-name"), _scalar_word(loc, name)]
            argv += [synth("--port"), synth("8000")]
            env = container_env(loc, c, unknowns)
            for k, w, _ in env:
                if k == "VLLM_ADDITIONAL_ARGS":
                    argv += split_words(w) if w.known else [w]
            if "args" in c:
                argv += list_words(loc, c["args"][1]) or []
            argv.append(Word("", at, "", (), (Hole(0, "options the KServe config template adds", at, True),)))
            image = (
                _scalar_word(loc, c["image"][1])
                if isinstance(c.get("image", (None, None))[1], yaml.ScalarNode)
                else None
            )
            found = shell.classify_argv(argv, env, at, path)
            out[id(item)] = [i._replace(image=image) for i in found]
    return out
