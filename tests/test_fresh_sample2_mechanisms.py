"""The reading mechanisms the second fresh sample of real deployment files showed wrong
(session 6, tests/corpus/real/ annotations.toml), each on a small file of the same shape."""

from __future__ import annotations

from vcfg.launch.read import read_plan
from vcfg.lint.engine import lint_paths


def _lint(path, version: str = "0.33.0") -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], version)
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics if d.severity in ("error", "warning")]


ALTERNATIVES = """\
# Serving

On H100:

```bash
vllm serve m --max-num-seqs 8 &
```

On DGX Spark:

```bash
vllm serve m --max-num-seqs 8 --port 8000
```

Both on one machine:

```bash
vllm serve a &
vllm serve b
```
"""


def test_launches_of_two_markdown_blocks_never_run_at_once(tmp_path):
    """vllm-project/recipes NVIDIA/Nemotron-3-Nano-30B-A3B.md: an H100 block starts its
    server in the background; the DGX Spark block is another machine, not a second server
    beside it (no port or GPU clash).  Two launches in one block still clash."""
    f = tmp_path / "recipe.md"
    f.write_text(ALTERNATIVES)
    assert _lint(f) == [("VC302", 19, 6), ("VC306", 19, 6)]


OPTIONS = """\
Append to the command:

```bash
--hf-overrides '{"num_nextn_predict_layers": 1}' \\
--speculative-config '{"method": "mtp", "num_speculative_tokens": 1}' \\
--max-num-seqz 8
```
"""


def test_an_options_block_with_continuation_backslashes_is_one_argument_list(tmp_path):
    """vllm-project/recipes StepFun/Step-3.5-Flash.md: the block's lines end with ``\\``;
    each one continues the list (the backslash did escape the blank that joins the lines,
    giving `' --speculative-config'` and a stray JSON word).  A typo keeps its position."""
    f = tmp_path / "mtp.md"
    f.write_text(OPTIONS)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    texts = [w.text for w in inv.args][1:]  # after the model, which the block does not give
    assert texts[:2] == ["--hf-overrides", '{"num_nextn_predict_layers": 1}']
    assert texts[2:4] == ["--speculative-config", '{"method": "mtp", "num_speculative_tokens": 1}']
    assert _lint(f) == [("VC001", 6, 1)]


PLACEHOLDER = """\
```bash
vllm serve <path_to_your_model>/Qwen2.5-72B-Instruct/ \\
--served-model-name qwen \\
--port 8002
```

```bash
vllm serve --served-model-name qwen --port 8003
```
"""


def test_a_model_a_placeholder_took_is_not_reported_missing_again(tmp_path):
    """vllm-ascend pd_colocated_mooncake_multi_instance.md: the placeholder's redirections
    take the model word; VC000 names the placeholder, and VC010 does not report the model
    it swallowed as missing.  A launch without a model still gets VC010."""
    f = tmp_path / "guide.md"
    f.write_text(PLACEHOLDER)
    assert _lint(f) == [("VC000", 2, 12), ("VC010", 8, 12)]


def test_the_tag_of_vllms_cpu_release_image_is_its_release(tmp_path):
    """OPEA's ChatQnA compose: public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.10.1 is
    the CPU image vLLM's release pipeline publishes for 0.10.1 (VLLM_TORCH_PROFILER_DIR
    exists there; 0.16.0 removed it); `latest` names none."""
    from vcfg.launch.release import image_release

    assert image_release("public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.10.1").version == "0.10.1"
    assert image_release("public.ecr.aws/q9t5s3a7/vllm-arm64-cpu-release-repo:v0.20.1").version == "0.20.1"
    assert image_release("public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:latest").version is None
    f = tmp_path / "compose.yaml"
    f.write_text(
        "services:\n"
        "  vllm-service:\n"
        "    image: public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.10.1\n"
        "    environment:\n"
        '      VLLM_TORCH_PROFILER_DIR: "/mnt"\n'
        "    command: --model m --host 0.0.0.0 --port 80\n"
    )
    res = lint_paths([str(f)], None)
    assert [(d.code, d.span.line) for d in res.diagnostics if d.severity != "info"] == []
    f.write_text(f.read_text().replace(":v0.10.1", ":latest"))
    assert _lint(f) == [("VC103", 5, 7)]


def test_a_dockerfile_named_with_a_dash_or_underscore_is_a_dockerfile(tmp_path):
    """LMDeploy's docker/Dockerfile_dev (and names such as Dockerfile-cuda,
    InternVL_Dockerfile): read as a Dockerfile, not as a shell script (its RUN line's
    ``then``/``fi`` were two false VC000)."""
    body = 'FROM ubuntu:22.04\nRUN if [ -n "$X" ]; then \\\n    echo x; \\\n    fi\n'
    for name in ("Dockerfile_dev", "Dockerfile-cuda", "InternVL_Dockerfile", "cpu-Dockerfile", "Containerfile-gpu"):
        f = tmp_path / name
        f.write_text(body)
        assert read_plan(str(f), f.read_bytes()).source_kind == "dockerfile", name
        assert _lint(f) == [], name
    f = tmp_path / "Dockerfiles.txt"
    f.write_text(body)
    assert read_plan(str(f), f.read_bytes()).source_kind != "dockerfile"


VLLM_RUNTIME = """\
apiVersion: production-stack.vllm.ai/v1alpha1
kind: VLLMRuntime
metadata:
  name: sample
spec:
  model:
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    enableLoRA: true
    maxModelLen: 4096
  vllmConfig:
    enableChunkedPrefill: false
    tensorParallelSize: 2
    gpuMemoryUtilization: "0.8"
    maxLoras: 4
    v1: true
    extraArgs: ["--max-num-seqz", "8"]
  lmCacheConfig:
    enabled: true
    cpuOffloadingBufferSize: "15"
  deploymentConfig:
    image:
      registry: "docker.io"
      name: "vllm/vllm-openai:v0.9.2"
"""


def test_a_production_stack_vllmruntime_is_the_launch_its_operator_writes(tmp_path):
    """production-stack's operator/config/samples VLLMRuntime: the controller runs
    ``vllm serve MODEL --host 0.0.0.0 --port 8000`` with the options its fields map to,
    extraArgs, LMCache's --kv-transfer-config and VLLM_USE_V1, in registry/name."""
    f = tmp_path / "runtime.yaml"
    f.write_text(VLLM_RUNTIME)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    texts = [w.text for w in inv.command]
    assert texts[:8] == [
        "/opt/venv/bin/vllm",
        "serve",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--enable-lora",
    ]
    assert texts[8:] == [
        "--no-enable-chunked-prefill",
        "--no-enable-prefix-caching",
        "--max-model-len",
        "4096",
        "--tensor-parallel-size",
        "2",
        "--gpu_memory_utilization",
        "0.8",
        "--max_loras",
        "4",
        "--max-num-seqz",
        "8",
        "--kv-transfer-config",
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}',
    ]
    assert inv.env["VLLM_USE_V1"].value.text == "1" and inv.env["LMCACHE_MAX_LOCAL_CPU_SIZE"].value.text == "15"
    assert inv.image is not None and inv.image.text == "docker.io/vllm/vllm-openai:v0.9.2"
    # linted at the image's release: the typo in extraArgs at its own position
    assert _lint(f, None) == [("VC001", 16, 18)]


OPEA_VALUES = """\
tgi:
  enabled: false
vllm:
  enabled: true
  image:
    repository: opea/vllm-gaudi
  PT_HPU_ENABLE_LAZY_COLLECTIVES: "true"
  extraCmdArgs: [
    "--tensor-parallel-size", "1",
    "--max-num-seqz", "256"
  ]
"""


def test_opea_vllm_chart_values_are_the_container_the_chart_renders(tmp_path):
    """OPEA ChatQnA's gaudi-values.yaml: the vllm subchart runs the image's API server
    with extraCmdArgs, then --model LLM_MODEL_ID --host 0.0.0.0 --port 2080
    --download-dir /data (GenAIInfra helm-charts/common/vllm); `vllm: enabled: false`
    (the TGI values) runs nothing."""
    f = tmp_path / "gaudi-values.yaml"
    f.write_text(OPEA_VALUES)
    (inv,) = read_plan(str(f), f.read_bytes()).invocations
    assert [w.text for w in inv.args] == [
        "--tensor-parallel-size",
        "1",
        "--max-num-seqz",
        "256",
        "--model",
        None,
        "--host",
        "0.0.0.0",
        "--port",
        "2080",
        "--download-dir",
        "/data",
    ]
    assert inv.span.line == 3 and inv.env["PT_HPU_ENABLE_LAZY_COLLECTIVES"].value.text == "true"
    assert _lint(f) == [("VC001", 10, 6)]
    f.write_text("vllm:\n  enabled: false\n  LLM_MODEL_ID: m\ntgi:\n  enabled: true\n")
    assert read_plan(str(f), f.read_bytes()).invocations == ()


def test_a_launch_in_a_string_ending_with_a_variable_is_where_the_string_is(tmp_path):
    """tpu-inference's run_disagg_multi_host.sh: ``docker exec -d C /bin/bash -c "vllm bench
    serve ... --seed ${RANDOM_SEED} > log"``: the launch was placed at the line that
    assigns RANDOM_SEED (its last word's origin, earlier in the file), not at the string."""
    f = tmp_path / "run.sh"
    f.write_text(
        "#!/bin/bash\n"
        "SEED=${SEED:=10}\n"
        'docker exec c /bin/bash -c "vllm bench serve --model m --seed ${SEED} > b.txt 2>&1"\n'
        'bash -c "vllm serve m --seed ${SEED}"\n'
        'bash -c "vllm serve m --seed ${SEED} --port 8001"\n'
    )
    plan = read_plan(str(f), f.read_bytes())
    assert [(i.kind, i.span.line, i.span.end_line) for i in plan.invocations] == [
        ("bench-serve", 3, 3),
        ("serve", 4, 4),
        ("serve", 5, 5),
    ]
    assert [w.span.line for w in plan.invocations[1].args] == [4, 4, 2]  # the value is SEED's
