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
    assert inv.image.text == "vllm/vllm-openai:v0.13.0" and inv.span.line == 3
    res = lint_paths([str(f)], "0.13.0")
    assert ("VC001", 10, 20) in [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


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
