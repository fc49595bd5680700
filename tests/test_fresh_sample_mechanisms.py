"""The reading mechanisms a fresh sample of real deployment files showed wrong (session 5,
tests/corpus/real/ annotations.toml), each on a small file of the same shape."""

from __future__ import annotations

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths


def _lint(path) -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], "0.33.0")
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


GUIDE = """\
# Benchmarks

Point the benchmark at the server:

```bash
--backend kind=openai_http,target=http://localhost:8000,model=m
```

Start the server:

```bash
vllm serve m --port 8000
```

Its options for a P/D pair:

```bash
--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' --max-num-seqz 8
```
"""


def test_a_markdown_block_of_another_programs_options_is_not_a_launch(tmp_path):
    """guidellm/docs/guides/backends.md: blocks of ``--backend ...`` lines are guidellm's
    options; a block whose options are vLLM's (one of them misspelt) still is a launch."""
    f = tmp_path / "guide.md"
    f.write_text(GUIDE)
    plan = read_plan(str(f), f.read_bytes())
    assert [i.span.line for i in plan.invocations] == [12, 18]
    assert _lint(f) == [("VC001", 18, 81)]


ENGINES = """\
#### vLLM

```bash
--reasoning-parser=qwen3
--max-model-len=32768
```

#### SGLang

```bash
--reasoning-parser=qwen3
--context-length=32768
```

#### vLLM, misspelt

```bash
--tensor-paralel-size 2
--max-model-len 4096
```
"""


def test_a_block_of_options_half_of_which_are_another_servers_is_not_a_launch(tmp_path):
    """gpustack's model guides list each engine's parameters: SGLang's block shares one of
    its two options with vLLM (no launch, no false VC001 for `--context-length`); a
    misspelt vLLM option is a near miss, not another server's, so that block still is one."""
    f = tmp_path / "guide.md"
    f.write_text(ENGINES)
    plan = read_plan(str(f), f.read_bytes())
    assert [i.span.line for i in plan.invocations] == [4, 18]
    assert _lint(f) == [("VC001", 18, 1)]


def test_an_option_with_its_json_on_a_line_of_a_block_of_options(tmp_path):
    """gpustack's Backend Parameters: `--speculative-config={"method":"mtp",...}` on a line
    of its own is the option and its JSON (a settings field passes it whole), not what
    bash would make of the unquoted braces; positions stay the file's."""
    f = tmp_path / "guide.md"
    f.write_text(
        '```bash\n--speculative-config={"method":"mtp","num_speculative_tokens":4}\n'
        '--kv-transfer-config {"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\n--max-num-seqz 4\n```\n'
    )
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert '--speculative-config={"method":"mtp","num_speculative_tokens":4}' in [w.text for w in inv.args]
    assert _lint(f) == [("VC001", 4, 1)]


def test_another_servers_block_exports_nothing_to_a_later_vllm_block(tmp_path):
    """An engine comparison (zai-org/GLM-5's ascend guide): the SGLang section's `export
    CUDA_VISIBLE_DEVICES=0` belongs to SGLang's example, not to the vLLM section's launch
    (a false VC203: tp 4 with one GPU visible); a setup block before it still reaches it."""
    f = tmp_path / "guide.md"
    f.write_text(
        "## Setup\n\n```bash\nexport VLLM_LOGGING_LEVEL=DEBUG\n```\n\n## SGLang\n\n```bash\n"
        "export CUDA_VISIBLE_DEVICES=0\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 1\n```\n\n"
        "## vLLM\n\n```bash\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size 4\n```\n"
    )
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert "CUDA_VISIBLE_DEVICES" not in inv.env and inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    assert _lint(f) == []


def test_docker_run_of_an_image_of_a_vllm_organisation_is_not_vllm(tmp_path):
    """guidellm's README: ``docker run ghcr.io/vllm-project/guidellm`` with only ``-e``
    options runs guidellm; the image's own name says whether it is a build of vLLM."""
    f = tmp_path / "run.sh"
    f.write_text(
        "#!/bin/bash\n"
        "docker run --rm -it -e GUIDELLM_TARGET=http://localhost:8000 ghcr.io/vllm-project/guidellm:latest\n"
        "docker run --rm rocm/vllm:latest --model m --port 8001\n"
    )
    plan = read_plan(str(f), f.read_bytes())
    assert [(i.kind, i.span.line) for i in plan.invocations] == [("serve", 3)]


def test_ray_job_submit_runs_its_command_on_the_cluster(tmp_path):
    """open-r1's Slurm jobs: ``ray job submit ... -- vllm serve ...`` starts vLLM on the Ray
    head node, in the job's environment (not the client's ``RAY_ADDRESS`` nor the
    script's exports); its host is not the script's machine."""
    f = tmp_path / "serve.slurm"
    f.write_text(
        "#!/bin/bash\n"
        "export VLLM_LOGGING_LEVEL=DEBUG\n"
        'RAY_ADDRESS="http://10.0.0.1:8265" ray job submit --working-dir src --no-wait --job-id vllm-server \\\n'
        "    -- vllm serve m --tensor-parallel-size 8 --pipeline-parallel-size 4 \\\n"
        "    --swap-space 16\n"
        "ray job submit --address http://10.0.0.1:8265 python3 -m vllm.entrypoints.openai.api_server --model m\n"
    )
    plan = read_plan(str(f), f.read_bytes())
    a, b = plan.invocations
    assert [w.text for w in a.args] == [
        "m",
        "--tensor-parallel-size",
        "8",
        "--pipeline-parallel-size",
        "4",
        "--swap-space",
        "16",
    ]
    assert (a.span.line, a.wrappers[0], a.inherits_env) == (3, "ray job submit", False)
    assert [w.span.line for w in a.command if w.text == "vllm"] == [4]
    assert "VLLM_LOGGING_LEVEL" not in a.env and "RAY_ADDRESS" not in a.env
    assert [w.text for w in b.args] == ["--model", "m"] and b.entrypoint.startswith("python")
    # the removed option is found where it is written
    assert _lint(f) == [("VC002", 5, 5)]


KUBEAI = """\
apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: llama-8b
spec:
  features: [TextGeneration]
  url: hf://meta-llama/Llama-3.1-8B-Instruct
  engine: VLLM
  args:
    - --max-model-len=8192
    - --max-num-seqz=16
  env:
    VLLM_LOGGING_LEVEL: DEBUG
  adapters:
    - name: colorist
      url: hf://jashing/tinyllama-colorist-lora
  resourceProfile: nvidia-gpu-l4:1
---
apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: qwen-s3
spec:
  url: s3://bucket/models/qwen
  engine: VLLM
---
apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: tei
spec:
  url: hf://BAAI/bge-small-en-v1.5
  engine: Infinity
"""


def test_a_kubeai_model_is_the_launch_its_controller_writes(tmp_path):
    """KubeAI's controller runs the API server module with --model (the URL's reference),
    --served-model-name (the Model's name), the Model's args, --enable-lora for
    adapters; a Model of another engine is not a vLLM launch."""
    f = tmp_path / "models.yaml"
    f.write_text(KUBEAI)
    plan = read_plan(str(f), f.read_bytes())
    a, b = plan.invocations
    assert a.entrypoint == "python -m vllm.entrypoints.openai.api_server" and a.span.line == 8
    assert [w.text for w in a.args] == [
        "--model",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--served-model-name",
        "llama-8b",
        "--max-model-len=8192",
        "--max-num-seqz=16",
        "--enable-lora",
    ]
    assert (a.args[1].span.line, a.args[1].span.col) == (7, 13)  # inside the url, after hf://
    assert a.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    assert a.env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"].value.text == "True"
    assert [w.text for w in b.args] == [
        "--model",
        "s3://bucket/models/qwen",
        "--served-model-name",
        "qwen-s3",
        "--load-format=runai_streamer",
    ]
    assert _lint(f) == [("VC001", 11, 7)]


LLMAZ = """\
apiVersion: inference.llmaz.io/v1alpha1
kind: BackendRuntime
metadata:
  name: vllm
spec:
  command:
    - python3
    - -m
    - vllm.entrypoints.openai.api_server
  image: vllm/vllm-openai
  version: v0.10.1
  recommendedConfigs:
    - name: default
      args:
        - --model
        - "{{ .ModelPath }}"
        - --port
        - "8080"
    - name: long
      args:
        - --model
        - "{{ .ModelPath }}"
        - --max-model-lenn
        - "65536"
"""


def test_an_llmaz_backend_runtime_is_one_launch_per_recommended_config(tmp_path):
    """llmaz runs spec.command with one recommendedConfig's args in image:version; the
    operator's templates are unknown values."""
    f = tmp_path / "backend.yaml"
    f.write_text(LLMAZ)
    plan = read_plan(str(f), f.read_bytes())
    a, b = plan.invocations
    assert (a.span.line, b.span.line) == (14, 20)
    assert [w.text for w in a.args] == ["--model", None, "--port", "8080"]
    assert a.image is not None and a.image.text == "vllm/vllm-openai:v0.10.1"
    res = lint_paths([str(f)], None)
    assert res.summary.vllm_version == "0.10.1"
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity != "info"] == [("VC001", 23, 11)]


CHART_VALUES = """\
image:
  repository: "vllm/vllm-openai"
  tag: "v0.20.2"
  command: ["vllm", "serve", "/data/", "--served-model-name", "opt-125m", "--max-num-seqz", "16", "--port", "8000"]
  env:
    - name: VLLM_LOGGING_LEVEL
      value: DEBUG
containerPort: 8000
configs: {}
"""


def test_the_values_of_vllms_example_chart_are_its_containers_launch(tmp_path):
    """vLLM's examples/online_serving/chart-helm: the container runs image.command in
    repository:tag with image.env; the tag chooses the release."""
    f = tmp_path / "values.yaml"
    f.write_text(CHART_VALUES)
    plan = read_plan(str(f), f.read_bytes())
    (inv,) = plan.invocations
    assert plan.source_kind == "helm-values" and inv.span.line == 4
    assert [w.text for w in inv.args][:3] == ["/data/", "--served-model-name", "opt-125m"]
    assert inv.image is not None and inv.image.text == "vllm/vllm-openai:v0.20.2"
    assert inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    res = lint_paths([str(f)], None)
    assert res.summary.vllm_version == "0.20.2"
    assert [(d.code, d.span.line) for d in res.diagnostics if d.severity != "info"] == [("VC001", 4)]


def test_lmcache_vllm_is_vllms_command_line(tmp_path):
    """LMCache 0.1's README: ``lmcache_vllm serve`` and its API server module run vLLM's
    own parser (LMCache patched in)."""
    f = tmp_path / "run.sh"
    f.write_text(
        "#!/bin/bash\n"
        "LMCACHE_CONFIG_FILE=example.yaml CUDA_VISIBLE_DEVICES=0 lmcache_vllm serve m --port 8000 --max-num-seqz 4\n"
        "python3 -m lmcache_vllm.vllm.entrypoints.openai.api_server --model m --port 8001\n"
    )
    plan = read_plan(str(f), f.read_bytes())
    a, b = plan.invocations
    assert (a.entrypoint, a.subcommand, [w.text for w in a.args][:3]) == (
        "lmcache_vllm serve",
        ("serve",),
        ["m", "--port", "8000"],
    )
    assert b.kind == "serve" and b.entrypoint.endswith("lmcache_vllm.vllm.entrypoints.openai.api_server")
    assert _lint(f) == [("VC001", 2, 90)]


def test_a_placeholder_of_several_words_is_a_placeholder(tmp_path):
    """MiniMax-M1's guide: ``--model <model storage path> \\`` is read by bash as ``<model``
    and ``>--tensor-parallel-size`` redirections; that is the problem to report, not the
    words it leaves stray (the ``8``)."""
    f = tmp_path / "run.sh"
    f.write_text(
        "#!/bin/bash\n"
        "python3 -m vllm.entrypoints.openai.api_server \\\n"
        "--model <model storage path> \\\n"
        "--tensor-parallel-size 8 \\\n"
        "--max-model-len 4096\n"
    )
    assert _lint(f) == [("VC000", 3, 9)]


def test_a_callers_variable_the_script_exits_on_when_empty_is_not_empty_after(tmp_path):
    """vLLM's wide_ep/launch_server.sh: ``START_RANK=${START_RANK:-}`` then ``if [[ -z
    "$COORDINATOR_IP" || -z "$START_RANK" ]]; then ... exit 1; fi``: the launch after it
    never gets '' (unknown, not an invalid int); without the guard it does."""
    guarded = tmp_path / "node.sh"
    guarded.write_text(
        "#!/bin/bash\n"
        "START_RANK=${START_RANK:-}\n"
        "COORDINATOR_IP=${COORDINATOR_IP:-}\n"
        'if [[ -z "$COORDINATOR_IP" || -z "$START_RANK" ]]; then\n'
        '    echo "set COORDINATOR_IP and START_RANK"\n'
        "    exit 1\n"
        "fi\n"
        'vllm serve m --data-parallel-start-rank "$START_RANK" --data-parallel-address "$COORDINATOR_IP"\n'
    )
    (inv,) = read_plan(str(guarded), guarded.read_bytes()).invocations
    assert [w.text for w in inv.args] == ["m", "--data-parallel-start-rank", None, "--data-parallel-address", None]
    assert _lint(guarded) == []
    bare = tmp_path / "bare.sh"
    bare.write_text('#!/bin/bash\nSTART_RANK=${START_RANK:-}\nvllm serve m --data-parallel-start-rank "$START_RANK"\n')
    assert [c for c, _, _ in _lint(bare)] == ["VC004"]


INDENTED_KIND = """\
# [START gke_aiml_infw_gw_vllm_llama3_8b_instruct]
apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: vllm-llama3-8b-instruct
    spec:
      template:
        spec:
          containers:
            - name: vllm
              image: "vllm/vllm-openai:latest"
              command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
              args: ["--model", "meta-llama/Llama-3.1-8B-Instruct"]
"""


def test_a_manifest_whose_kind_line_is_indented_reports_its_yaml_error(tmp_path):
    """GoogleCloudPlatform/kubernetes-engine-samples ai-ml/infw-gw/examples/getting-started/
    vllm-llama3-8b-instruct.yaml (2b503651): ``kind:`` indented under ``apiVersion:`` does not
    parse; vcfg was silent (0 launches, no finding) instead of naming the YAML error."""
    p = tmp_path / "vllm-llama3-8b-instruct.yaml"
    p.write_text(INDENTED_KIND)
    assert _lint(p) == [("VC000", 3, 9)]


def test_broken_yaml_with_an_indented_kind_but_no_vllm_is_not_claimed(tmp_path):
    """Without vLLM in it, a broken file of that shape is not vcfg's to report."""
    p = tmp_path / "hpa.yaml"
    p.write_text(INDENTED_KIND.replace("vllm", "tgi"))
    assert _lint(p) == []
    q = tmp_path / "other.yaml"
    q.write_text("apiVersion: 2\n    kind: notes\nvllm: [\n")
    assert _lint(q) == []
