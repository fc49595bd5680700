"""Shell scripts inside YAML (GitHub Actions run: steps, SkyPilot run:) and srt-slurm
recipes, on small real-looking files."""

from vcfg.launch.model import DYNAMO, SERVE
from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths


def _at(text, needle):
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


WORKFLOW = """\
name: e2e
on: [push]
env:
  VLLM_LOGGING_LEVEL: DEBUG
jobs:
  test:
    runs-on: gpu
    env:
      MODEL: facebook/opt-125m
    steps:
      - uses: actions/checkout@v4
      - name: serve
        env:
          PORT: ${{ matrix.port }}
        run: |
          export VLLM_RPC_TIMEOUT=100
          CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --port $PORT --max-num-seqz ${{ inputs.seqs }} &
          echo "${{ github.sha }}"
"""


def test_github_actions_run_steps_with_env_and_expressions(tmp_path):
    f = tmp_path / "e2e.yml"
    f.write_text(WORKFLOW)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert inv.kind == SERVE and [w.text for w in inv.args][:1] == ["facebook/opt-125m"]
    assert inv.args[2].text is None  # ${{ matrix.port }}: unknown
    assert inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG" and inv.env["CUDA_VISIBLE_DEVICES"].value.text == "0"
    assert (inv.args[3].span.line, inv.args[3].span.col) == _at(WORKFLOW, "--max-num-seqz")
    res = lint_paths([str(f)], "0.33.0")
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity != "info"] == [
        ("VC103", *_at(WORKFLOW, "VLLM_RPC_TIMEOUT")),
        ("VC001", *_at(WORKFLOW, "--max-num-seqz")),
    ]


SKY = """\
envs:
  MODEL_NAME: meta-llama/Llama-3.2-1B-Instruct
secrets:
  HF_TOKEN: null
resources:
  accelerators: L4:1
  image_id: docker:vllm/vllm-openai:v0.13.0
run: |
  vllm serve $MODEL_NAME \\
    --port 8000 --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE
"""


def test_a_github_actions_env_expression_is_the_envs_value():
    """`${{ env.VLLM_MODEL }}` in a run: step is the text of the workflow's, job's or
    step's env value (deepset-ai/haystack-core-integrations' workflow); another
    expression, or an env value that is itself one, stays unknown."""
    wf = (
        "on: push\nenv:\n  VLLM_MODEL: Qwen/Qwen3-0.6B\n  PORT: ${{ matrix.port }}\njobs:\n  t:\n    steps:\n"
        "      - run: vllm serve ${{ env.VLLM_MODEL }} --port ${{ env.PORT }} --max-model-len ${{ inputs.len }}\n"
    )
    (inv,) = read_plan("ci.yml", wf.encode()).invocations
    assert [w.text for w in inv.args] == ["Qwen/Qwen3-0.6B", "--port", None, "--max-model-len", None]
    assert inv.args[0].span.line == 8


def test_skypilot_run_with_envs_and_docker_image():
    (inv,) = read_plan("task.yaml", SKY.encode()).invocations
    assert [w.text for w in inv.args][:3] == ["meta-llama/Llama-3.2-1B-Instruct", "--port", "8000"]
    # SkyPilot's GPUs per node from `accelerators: L4:1`; a secret is given at launch
    assert inv.args[4].text == "1" and inv.env["HF_TOKEN"].value.text is None
    assert inv.image.text == "vllm/vllm-openai:v0.13.0"
    assert inv.span.line == 9


def test_skypilots_own_variables_come_from_the_task():
    """`${SKYPILOT_NUM_GPUS_PER_NODE:-1}` is the task's GPU count (nebius/nebius-ps-services'
    task with `accelerators: H200:8`), not the default of an unset variable; what only the
    running cluster knows (the node IPs, a multi-node task's rank) is unknown."""
    task = (
        "resources:\n  accelerators: {acc}\nnum_nodes: {nodes}\nrun: |\n"
        "  vllm serve m -tp ${{SKYPILOT_NUM_GPUS_PER_NODE:-1}} --nnodes $SKYPILOT_NUM_NODES"
        ' --node-rank $SKYPILOT_NODE_RANK --master-addr $(echo "$SKYPILOT_NODE_IPS" | head -n1)\n'
    )
    for acc, nodes, want in (
        ("H200:8", 1, ["m", "-tp", "8", "--nnodes", "1", "--node-rank", "0", "--master-addr", None]),
        ("[A100:4, H100:4]", 2, ["m", "-tp", "4", "--nnodes", "2", "--node-rank", None, "--master-addr", None]),
        ("{A100: 8}", 1, ["m", "-tp", "8", "--nnodes", "1", "--node-rank", "0", "--master-addr", None]),
        ("[A100:4, H100:8]", 1, ["m", "-tp", None, "--nnodes", "1", "--node-rank", "0", "--master-addr", None]),
    ):
        (inv,) = read_plan("task.yaml", task.format(acc=acc, nodes=nodes).encode()).invocations
        assert [w.text for w in inv.args] == want, acc


RECIPE = """\
name: test
model:
  path: "hf:Qwen/Qwen3-0.6B"
  container: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.0"
backend:
  type: vllm
  decode_environment:
    VLLM_SKIP_P2P_CHECK: "1"
  vllm_config:
    decode:
      tensor-parallel-size: 2
      gpu-memory-utilization: 0.90
      enforce-eager: true
      disable-log-stats: false
      hf-overrides: {"max_model_len": 4096}
"""


def test_srt_slurm_roles_are_dynamo_workers():
    (inv,) = read_plan("recipe.yaml", RECIPE.encode()).invocations
    assert inv.kind == DYNAMO and inv.span.line == 10
    assert [w.text for w in inv.args] == [
        "--model",
        "Qwen/Qwen3-0.6B",
        "--tensor-parallel-size",
        "2",
        "--gpu-memory-utilization",
        "0.9",
        "--enforce-eager",
        "--hf-overrides",
        '{"max_model_len": 4096}',
    ]
    assert inv.args[2].span.line == 11 and inv.env["VLLM_SKIP_P2P_CHECK"].value.text == "1"
    other = RECIPE.replace("type: vllm", "type: sglang")
    assert read_plan("recipe.yaml", other.encode()).invocations == ()


def test_dynamo_workers_count_as_vllm_launches_in_the_summary(tmp_path):
    """A Dynamo vLLM worker is a vLLM engine: the summary counts it, in a recipe and in
    a script."""
    f = tmp_path / "recipe.yaml"
    f.write_text(RECIPE)
    assert lint_paths([str(f)], "0.33.0").summary.launches == 1
    s = tmp_path / "workers.sh"
    s.write_text(
        "python3 -m dynamo.vllm --model m --is-prefill-worker &\n"
        "python3 -m dynamo.vllm --model m &\npython3 -m dynamo.frontend --http-port 8000 &\nwait\n"
    )
    assert lint_paths([str(s)], "0.33.0").summary.launches == 2


def test_an_expression_inside_single_quotes_is_unknown_not_text(tmp_path):
    """`'{"kv_port": ${{ inputs.port }}}'`: the runner fills the expression in before bash
    reads the quotes: the JSON's value is unknown, its key still checked."""
    wf = WORKFLOW.replace(
        'echo "${{ github.sha }}"',
        'vllm serve m --kv-transfer-config \'{"kv_role": "kv_both", "kv_port": ${{ inputs.port }}}\'',
    )
    f = tmp_path / "e2e.yml"
    f.write_text(wf)
    invs = read_plan(str(f), f.read_bytes()).invocations
    kv = invs[1].args[2]
    assert kv.text is None and kv.value == '{"kv_role": "kv_both", "kv_port": }'
    assert kv.describe_unknown() == "'${{ inputs.port }}': a GitHub Actions expression, known when the workflow runs"


KSERVE = """\
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata:
  name: t
spec:
  template:
    containers:
      - name: main
        image: vllm/vllm-openai:v0.13.0
        command: ["/bin/bash", "-c"]
        args:
          - |
            EXTRA=""
            if [ -n "$LORA" ]; then EXTRA="--enable-lora"; fi
            eval "exec vllm serve /mnt/models \\
              --served-model-name "{{ .Spec.Model.Name }}" \\
              --port 8000 --max-num-seqz 4 ${EXTRA} \\
              {{- if .Spec.Parallelism }} --tensor-parallel-size {{ .Spec.Parallelism.Tensor }}{{- end }} \\
              ${VLLM_ADDITIONAL_ARGS}"
"""


def test_go_templates_in_a_container_script_are_placeholders(tmp_path):
    """A KServe config template: the eval'd launch is read on each path, each `{{ ... }}`
    an unknown value (never a word `{{`), and its real mistake is found once."""
    f = tmp_path / "config-llm-template.yaml"
    f.write_text(KSERVE)
    invs = read_plan(str(f), f.read_bytes()).invocations
    assert len(invs) == 2 and all(i.kind == SERVE for i in invs)
    words = [w.text for w in max(invs, key=lambda i: len(i.args)).args]
    assert words[:5] == ["/mnt/models", "--served-model-name", None, "--port", "8000"]
    assert "--enable-lora" in words and not any(w and "{{" in w for w in words)
    res = lint_paths([str(f)], "0.13.0")
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity != "info"] == [
        ("VC001", *_at(KSERVE, "--max-num-seqz"))
    ]


def test_a_removed_variable_exported_in_a_run_step_is_reported(tmp_path):
    """VC103 inside a workflow's `run:` script, at the export's line and column, as in a
    shell script (the step's shell is what starts vLLM)."""
    wf = WORKFLOW.replace("export VLLM_RPC_TIMEOUT=100", "export VLLM_RPC_TIMEOUT=100\n          export VLLM_USE_V1=0")
    # (the same workflow without VLLM_USE_V1: test_github_actions_run_steps_with_env_and_expressions)
    f = tmp_path / "e2e.yml"
    f.write_text(wf)
    res = lint_paths([str(f)], "0.33.0")
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.code == "VC103"] == [
        ("VC103", *_at(wf, "VLLM_RPC_TIMEOUT")),
        ("VC103", *_at(wf, "VLLM_USE_V1")),
    ]
