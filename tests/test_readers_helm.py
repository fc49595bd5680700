"""Helm values of production-stack and llm-d modelservice, read as their charts render them."""

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths

PS = """\
servingEngineSpec:
  modelSpec:
  - name: "llama3"
    repository: "vllm/vllm-openai"
    tag: "v0.13.0"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    vllmConfig:
      enablePrefixCaching: false
      maxModelLen: 4096
      extraArgs: ["--max-num-seqz", "8"]
    lmcacheConfig:
      enabled: true
      kvRole: kv_producer
    env:
      - name: VLLM_LOGGING_LEVEL
        value: DEBUG
"""


def test_production_stack_model_spec(tmp_path):
    f = tmp_path / "values.yaml"
    f.write_text(PS)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    texts = [w.text for w in inv.args]
    assert texts[:5] == ["meta-llama/Llama-3.1-8B-Instruct", "--host", "0.0.0.0", "--port", "8000"]
    assert texts[5:] == [
        "--no-enable-prefix-caching",
        "--max-model-len",
        "4096",
        "--max-num-seqz",
        "8",
        "--kv-transfer-config",
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_producer"}',
    ]
    assert (inv.args[0].span.line, inv.args[6].span.line, inv.args[7].span.line) == (6, 9, 9)
    assert inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG" and inv.env["VLLM_RPC_TIMEOUT"].value.text
    assert inv.image.text == "vllm/vllm-openai:v0.13.0" and inv.span.line == 3 and inv.wrappers == ()
    res = lint_paths([str(f)], "0.13.0")
    assert ("VC001", 10, 20) in [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


RAY = """\
servingEngineSpec:
  containerPort: 8080
  modelSpec:
  - name: "pp"
    repository: "lmcache/vllm-openai"
    tag: "latest"
    modelURL: "distilbert/distilgpt2"
    modelRevision: "main"
    replicaCount: 2
    enableLoRA: true
    enableTool: true
    toolCallParser: "hermes"
    chatTemplate: "tool.jinja"
    vllmConfig:
      v1: 1
      enableChunkedPrefill: false
      enablePrefixCaching: false
      maxModelLen: 4096
      tensorParallelSize: 2
      pipelineParallelSize: 3
      gpuMemoryUtilization: 0.9
      maxLoras: 2
      extraArgs: ["--enforce-eager"]
    lmcacheConfig:
      enabled: true
    raySpec:
      enabled: RAY
      headNode:
        requestGPU: 2
"""

#: what the RayCluster head's vllm-entrypoint.sh runs for RAY (ARGS in
#: helm/templates/ray-cluster.yaml:669-759 of vllm-project/production-stack@a6c01db)
RAY_ARGV = [
    "vllm",
    "serve",
    "distilbert/distilgpt2",
    "--host",
    "0.0.0.0",
    "--port",
    "8080",
    "--distributed-executor-backend",
    "ray",
    "--enable-lora",
    "--enable-auto-tool-choice",
    "--tool-call-parser",
    "hermes",
    "--no-enable-chunked-prefill",
    "--max-model-len",
    "4096",
    "--tensor-parallel-size",
    "2",
    "--pipeline-parallel-size",
    "3",
    "--gpu-memory-utilization",
    "0.9",
    "--max-loras",
    "2",
    "--enforce-eager",
    "--revision",
    "main",
    "--kv-transfer-config",
    '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}',
    "--chat-template",
    "tool.jinja",
]


def test_production_stack_ray_spec_is_the_ray_head_launch(tmp_path):
    f = tmp_path / "values.yaml"
    f.write_text(RAY.replace("RAY", "true"))
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert [w.text for w in inv.command] == RAY_ARGV
    assert inv.wrappers and "RayCluster head" in inv.wrappers[0]
    env = {k: b.value.text for k, b in inv.env.items()}
    assert env["VLLM_USE_V1"] == "1" and env["EXPECTED_NODES"] == "3" and env["HF_HOME"] == "/tmp"
    assert env["VLLM_HOST_IP"] is None and "PYTHONHASHSEED" not in env and "POD_IP" not in env
    assert inv.image.text == "lmcache/vllm-openai:latest" and inv.span.line == 4


def test_production_stack_ray_spec_defaults(tmp_path):
    # vllmConfig without v1: the head gets VLLM_USE_V1=0 (ray-cluster.yaml:117-119);
    # no replicaCount: EXPECTED_NODES is 1; prefix caching off adds nothing
    f = tmp_path / "values.yaml"
    f.write_text(
        "servingEngineSpec:\n  modelSpec:\n  - name: a\n    modelURL: m\n"
        "    vllmConfig:\n      enablePrefixCaching: false\n    raySpec:\n      enabled: true\n"
    )
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert [w.text for w in inv.command] == [
        "vllm",
        "serve",
        "m",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--distributed-executor-backend",
        "ray",
    ]
    assert inv.env["VLLM_USE_V1"].value.text == "0" and inv.env["EXPECTED_NODES"].value.text == "1"


def test_production_stack_ray_spec_disabled_is_the_deployment(tmp_path):
    # deployment-vllm-multi.yaml:4 renders a Deployment unless raySpec.enabled is true
    f = tmp_path / "values.yaml"
    for enabled in ("false", '""'):
        f.write_text(RAY.replace("RAY", enabled))
        (inv,) = read_plan(str(f), f.read_bytes()).invocations
        texts = [w.text for w in inv.command]
        assert texts[0] == "/opt/venv/bin/vllm" and "--distributed-executor-backend" not in texts
        assert "--gpu_memory_utilization" in texts and "--pipeline-parallel-size" not in texts
        assert inv.wrappers == () and inv.env["PYTHONHASHSEED"].value.text == "123"
    f.write_text(RAY.replace("    raySpec:\n      enabled: RAY\n      headNode:\n        requestGPU: 2\n", ""))
    (plain,) = read_plan(str(f), f.read_bytes()).invocations
    assert [w.text for w in plain.command] == texts and plain.wrappers == ()


def test_production_stack_disabled_model_renders_nothing(tmp_path):
    # both templates skip an entry with enabled: false (line 3 of each)
    f = tmp_path / "values.yaml"
    for ray in ("true", "false"):
        f.write_text(RAY.replace("RAY", ray).replace('  - name: "pp"\n', '  - name: "pp"\n    enabled: false\n'))
        assert read_plan(str(f), f.read_bytes()).invocations == ()


LLMD = """\
modelArtifacts:
  name: facebook/opt-125m
routing:
  servicePort: 8000
decode:
  containers:
  - name: "vllm"
    image: "ghcr.io/llm-d/llm-d-cuda:latest"
    modelCommand: vllmServe
    args:
      - "--enforce-eager"
    env:
      - name: VLLM_NIXL_SIDE_CHANNEL_PORT
        value: "5600"
prefill:
  containers:
  - name: "vllm"
    image: "ghcr.io/llm-d/llm-d-cuda:latest"
    modelCommand: custom
    command: ["vllm", "serve", "facebook/opt-125m"]
    args: ["--port", "8000"]
"""


def test_llmd_modelservice_containers():
    decode, prefill = read_plan("values.yaml", LLMD.encode()).invocations
    assert [w.text for w in decode.args] == [
        "facebook/opt-125m",
        "--port",
        "8200",
        "--served-model-name",
        "facebook/opt-125m",
        "--enforce-eager",
    ]
    assert decode.span.line == 10 and decode.env["VLLM_NIXL_SIDE_CHANNEL_PORT"].value.text == "5600"
    assert [w.text for w in prefill.args] == ["facebook/opt-125m", "--port", "8000"]
    assert prefill.span.line == 20


def test_other_charts_values_are_silent():
    text = "replicaCount: 1\nimage:\n  repository: nginx\ncontainers:\n  - name: x\n"
    assert read_plan("values.yaml", text.encode()).invocations == ()
