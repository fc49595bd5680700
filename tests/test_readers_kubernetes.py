"""The Kubernetes and compose readers on small real-looking manifests."""

from vcfg.launch.model import DYNAMO, SERVE
from vcfg.launch.read import read_plan
from vcfg.launch.release import image_release, release_of


def _plan(text, name="m.yaml"):
    return read_plan(name, text.encode())


def _at(text, needle):
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


LWS = """\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: vllm
spec:
  leaderWorkerTemplate:
    size: 2
    leaderTemplate:
      spec:
        containers:
          - name: vllm-leader
            image: vllm/vllm-openai:v0.8.5
            command:
              - sh
              - -c
              - "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=$(LWS_GROUP_SIZE);
                 python3 -m vllm.entrypoints.openai.api_server --port 8080 --model m --tensor-parallel-size 8"
    workerTemplate:
      spec:
        containers:
          - name: vllm-worker
            image: vllm/vllm-openai:v0.8.5
            args: ["--headless", "--data-parallel-start-rank", "$(RANK)"]
            env:
              - name: RANK
                valueFrom:
                  fieldRef:
                    fieldPath: metadata.labels['leaderworkerset.sigs.k8s.io/worker-index']
"""


def test_lws_leader_sh_c_folded_over_lines_and_worker_template():
    p = _plan(LWS)
    assert p.source_kind == "kubernetes"
    leader, worker = p.invocations
    assert leader.entrypoint == "python -m vllm.entrypoints.openai.api_server"
    assert [w.text for w in leader.args] == ["--port", "8080", "--model", "m", "--tensor-parallel-size", "8"]
    # the folded double-quoted scalar keeps exact positions for each word
    assert (leader.args[1].span.line, leader.args[1].span.col) == _at(LWS, "8080")
    assert leader.image.text == "vllm/vllm-openai:v0.8.5" and release_of(leader).version == "0.8.5"
    # no command: the image's entrypoint (vllm serve) runs the args; valueFrom is unknown
    assert worker.kind == SERVE and worker.args[0].text == "--headless"
    assert worker.args[2].text is None and "fieldRef" in worker.args[2].describe_unknown()
    assert worker.span.line == _at(LWS, "args:")[0]


DGD = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: disagg
spec:
  services:
    VllmDecodeWorker:
      envs:
        - name: DYN_LOG
          value: debug
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.4.0
          workingDir: /workspace/components/backends/vllm
          command: [/bin/sh, -c]
          args:
            - python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --is-decode-worker
"""


def test_dynamo_main_container_with_service_envs():
    (inv,) = _plan(DGD).invocations
    assert inv.kind == DYNAMO and [w.text for w in inv.args] == ["--model", "Qwen/Qwen3-0.6B", "--is-decode-worker"]
    assert inv.env["DYN_LOG"].value.text == "debug"
    assert inv.workdir.text == "/workspace/components/backends/vllm"
    # a Dynamo runtime image: the vLLM its release pins (vcfg/catalog/data/dynamo-flags.json)
    assert release_of(inv).version == "0.10.0"


def test_rayjob_entrypoint_runs_on_the_head_image():
    text = (
        "apiVersion: ray.io/v1\nkind: RayJob\nspec:\n"
        "  entrypoint: vllm serve facebook/opt-13b --tensor-parallel-size 2\n"
        "  rayClusterSpec:\n    headGroupSpec:\n      template:\n        spec:\n          containers:\n"
        "            - name: ray-head\n              image: vllm/vllm-openai:v0.5.2\n"
    )
    (inv,) = _plan(text).invocations
    assert [w.text for w in inv.args] == ["facebook/opt-13b", "--tensor-parallel-size", "2"]
    assert (inv.args[0].span.line, inv.args[0].span.col) == _at(text, "facebook")
    assert release_of(inv).version == "0.5.2"


def test_compose_string_command_is_split_like_a_shell_with_the_image_entrypoint():
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.6.6\n    command: >\n"
        "      --model ${MODEL:-Qwen/Qwen2.5-1.5B-Instruct}\n      --port 8000\n"
        '      --kv-transfer-config \'{"kv_role":"kv_both"}\'\n'
    )
    (inv,) = _plan(text, "docker-compose.yml").invocations
    assert [w.text for w in inv.args] == [
        "--model",
        "Qwen/Qwen2.5-1.5B-Instruct",
        "--port",
        "8000",
        "--kv-transfer-config",
        '{"kv_role":"kv_both"}',
    ]
    assert inv.span.line == 4  # the command: key: the program is the image's
    assert (inv.args[3].span.line, inv.args[3].span.col) == _at(text, "8000")
    assert release_of(inv).version == "0.6.6"


def test_a_helm_template_is_skipped_with_a_note_only_when_it_may_hold_a_launch():
    tpl = (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: vllm\n          image: vllm/vllm-openai:{{ .Values.tag }}\n"
        "          {{- with .Values.args }}\n          args: {{ toYaml . | nindent 12 }}\n          {{- end }}\n"
    )
    p = _plan(tpl, "templates/deploy.yaml")
    assert [(x.code, x.span.line) for x in p.problems] == [("template", 1)] and p.invocations == ()
    p = _plan(tpl.replace("vllm", "nginx"), "templates/deploy.yaml")
    assert p.problems == () and p.invocations == ()


def test_a_chart_template_without_a_container_has_no_note_and_the_note_is_information(tmp_path):
    """The templates of a chart named vllm name it (`include "vllm.fullname"`) in every
    object: a PersistentVolumeClaim or a Service holds no launch, so no note; the note
    on a Deployment's template is information (vcfg reads rendered manifests), not an
    error of the user's (a castai/helm-charts chart, 2026-12-04)."""
    from vcfg.lint.engine import lint_paths

    pvc = (
        "{{- if .Values.persistence.enabled }}\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n"
        '  name: {{ include "vllm.fullname" . }}\nspec:\n  resources:\n    requests:\n'
        "      storage: {{ .Values.persistence.size }}\n{{- end }}\n"
    )
    assert _plan(pvc, "templates/pvc.yaml").problems == ()
    deploy = (
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "vllm.fullname" . }}\nspec:\n'
        "  template:\n    spec:\n      containers:\n        - name: server\n"
        '          image: "{{ .Values.image.repository }}"\n'
        "          args: {{- toYaml .Values.args | nindent 12 }}\n"
    )
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: vllm\nversion: 0.1.0\n")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "pvc.yaml").write_text(pvc)
    (tmp_path / "templates" / "deploy.yaml").write_text(deploy)
    r = lint_paths([str(tmp_path)], "0.33.0")
    assert [(d.code, d.severity, d.span.file.rsplit("/", 1)[-1]) for d in r.diagnostics] == [
        ("VC000", "info", "deploy.yaml")
    ]


def test_image_tags():
    assert image_release("vllm/vllm-openai:v0.13.0").version == "0.13.0"
    assert image_release("docker.io/vllm/vllm-openai:v0.13.0").version == "0.13.0"
    assert image_release("aibrix/vllm-openai:v0.7.3.self.post1").version == "0.7.3"
    assert image_release("vllm/vllm-openai-rocm:v0.10.1").version == "0.10.1"
    for image, why in (
        ("vllm/vllm-openai:latest", "'latest' names no"),
        ("vllm/vllm-openai", "no tag"),
        ("vllm/vllm-openai:nightly", "'nightly' names no"),
        ("${VLLM_IMAGE:-vllm/vllm-openai:v0.6.6}", "not known"),
    ):
        r = image_release(image)
        assert r.version is None and why in r.note, (image, r)
    for other in ("nginx:1.25", "lmsysorg/sglang:v0.4.6"):
        assert image_release(other) == image_release(other)._replace(version=None, note="")
    # Dynamo's runtime image runs the vLLM its release's wheel pins (the `vllm` extra)
    r = image_release("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0")
    assert r.version == "0.12.0" and "Dynamo 0.8.0" in r.note
    r = image_release("nvcr.io/nvidia/ai-dynamo/vllm-runtime:9.9.9")
    assert r.version is None and "does not know" in r.note


def test_compose_interpolates_and_splits_like_compose():
    text = (
        "services:\n  v:\n    image: ${REGISTRY:-opea}/vllm:${TAG:-latest}\n"
        "    environment:\n      PORT: ${PORT}\n      LEVEL: ${LEVEL:-DEBUG}\n"
        '    entrypoint: /bin/bash -c " cd / && python3 -m vllm.entrypoints.openai.api_server --model ${MODEL}'
        ' --port 80"\n'
        "  w:\n    image: ${VLLM_IMAGE:-vllm/vllm-openai:v0.13.0}\n"
        '    command: "m --dtype float16 --distributed-executor-backend \\"mp\\""\n'
    )
    a, b = _plan(text, "compose.yaml").invocations
    assert a.entrypoint == "python -m vllm.entrypoints.openai.api_server"
    assert a.args[1].text is None and [w.text for w in a.args[2:]] == ["--port", "80"]
    assert a.env["PORT"].value.text is None and a.env["LEVEL"].value.text == "DEBUG"
    assert a.image.text == "opea/vllm:latest"
    assert [w.text for w in b.args] == ["m", "--dtype", "float16", "--distributed-executor-backend", "mp"]
    assert (b.args[2].span.line, b.args[2].span.col) == _at(text, "float16")
    assert release_of(b).version == "0.13.0"


LLMISVC = """\
apiVersion: serving.kserve.io/v1alpha1
kind: LLMInferenceService
metadata:
  name: qwen
spec:
  model:
    uri: hf://Qwen/Qwen2.5-7B-Instruct
    name: Qwen/Qwen2.5-7B-Instruct
  template:
    containers:
      - name: main
        env:
          - name: VLLM_ADDITIONAL_ARGS
            value: "--max-model-len 4096 --max-num-seqz 8"
          - name: VLLM_LOGGING_LEVEL
            value: DEBUG
"""


def test_kserve_llm_inference_service_additional_args():
    (inv,) = _plan(LLMISVC).invocations
    assert inv.kind == SERVE and inv.span.line == 11
    texts = [w.text for w in inv.args]
    assert texts[:5] == ["/mnt/models", "--served-model-name", "Qwen/Qwen2.5-7B-Instruct", "--port", "8000"]
    assert texts[5:9] == ["--max-model-len", "4096", "--max-num-seqz", "8"] and texts[9] is None
    assert (inv.args[7].span.line, inv.args[7].span.col) == _at(LLMISVC, "--max-num-seqz")
    assert not inv.args_complete and inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"


def test_another_servers_router_is_not_a_vllm_proxy():
    text = (
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: router\n      image: lmsysorg/sglang:v0.4.6\n"
        "      command: [python3, -m, sglang_router.launch_router, --policy, random]\n"
    )
    assert _plan(text).invocations == ()
    text = text.replace("sglang_router.launch_router", "vllm_router.router")
    assert [i.kind for i in _plan(text).invocations] == ["proxy"]


def test_a_vllm_build_run_without_arguments_runs_its_own_cmd():
    """A container of another vLLM build with neither command nor args runs that image's
    own CMD (ghcr.io/substratusai/vllm passes --model $MODEL from a script): its arguments
    are not known, so nothing is claimed of them; vLLM's own image runs `vllm serve` alone."""
    pod = (
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: vllm\n"
        "      image: {image}\n      env:\n        - name: MODEL\n          value: mistralai/Mistral-7B-Instruct-v0.1\n"
    )
    (inv,) = _plan(pod.format(image="ghcr.io/substratusai/vllm:latest")).invocations
    assert [w.text for w in inv.args] == [None] and inv.args[0].may_split
    (inv,) = _plan(pod.format(image="vllm/vllm-openai:v0.10.0")).invocations
    assert inv.args == ()
    # given args replace the CMD: they are what runs
    (inv,) = _plan(pod.format(image="ghcr.io/substratusai/vllm:latest") + "      args: [--model, m]\n").invocations
    assert [w.text for w in inv.args] == ["--model", "m"]
