"""Dockerfiles and Ray Serve LLM configs on small real-looking files."""

from vcfg.launch.model import PROXY, SERVE
from vcfg.launch.read import read_plan
from vcfg.launch.release import release_of
from vcfg.lint.engine import lint_paths

DOCKERFILE = """\
ARG VLLM_VERSION=v0.21.0
FROM vllm/vllm-openai:${VLLM_VERSION} AS base
ENV VLLM_LOGGING_LEVEL=DEBUG \\
    HF_HOME="/models cache"
FROM base
WORKDIR /app
ENV VLLM_RPC_TIMEOUT 600000
ENTRYPOINT ["vllm", "serve"]
"""


def test_dockerfile_entrypoint_env_and_image_release():
    (inv,) = read_plan("Dockerfile", DOCKERFILE.encode()).invocations
    assert inv.kind == SERVE and inv.span.line == 8 and not inv.args_complete
    assert release_of(inv).version == "0.21.0"
    assert inv.env["VLLM_LOGGING_LEVEL"].value.text == "DEBUG"
    assert inv.env["HF_HOME"].value.text == "/models cache"
    assert inv.env["VLLM_RPC_TIMEOUT"].value.text == "600000"
    assert inv.workdir.text == "/app"


def test_dockerfile_cmd_after_the_vllm_image_entrypoint_and_a_router():
    text = 'FROM vllm/vllm-openai:v0.13.0\nCMD ["--model", "m", "--max-num-seqs", "8"]\n'
    (inv,) = read_plan("serve.Dockerfile", text.encode()).invocations
    assert [w.text for w in inv.args] == ["--model", "m", "--max-num-seqs", "8"]
    assert (inv.args[2].span.line, inv.args[2].span.col) == (2, 23)
    text = 'FROM python:3.12\nRUN pip install vllm-router\nENTRYPOINT ["/opt/venv/bin/vllm-router"]\nCMD []\n'
    (inv,) = read_plan("router.Dockerfile", text.encode()).invocations
    assert inv.kind == PROXY
    assert read_plan("Dockerfile", b'FROM nginx\nCMD ["nginx"]\n').invocations == ()


RAY = """\
applications:
- name: llms
  import_path: ray.serve.llm:build_openai_app
  runtime_env:
    env_vars:
      VLLM_USE_V1: "1"
  args:
    llm_configs:
    - model_loading_config:
        model_id: qwen
        model_source: Qwen/Qwen2.5-7B-Instruct
      engine_kwargs:
        max_model_len: 1024
        enable_prefix_caching: false
        gpu_memory_utilization: 0.90
        speculative_config: {method: ngram, num_speculative_tokens: 3}
"""


def test_ray_serve_llm_config():
    (inv,) = read_plan("serve.yaml", RAY.encode()).invocations
    assert inv.kind == SERVE and inv.span.line == 12
    assert [w.text for w in inv.args] == [
        "Qwen/Qwen2.5-7B-Instruct",
        "--max_model_len",
        "1024",
        "--no-enable_prefix_caching",
        "--gpu_memory_utilization",
        "0.9",
        "--speculative_config",
        '{"method": "ngram", "num_speculative_tokens": 3}',
    ]
    assert inv.args[1].span.line == 13 and inv.env["VLLM_USE_V1"].value.text == "1"


def test_ray_service_serve_config_v2_positions_in_the_manifest():
    body = "\n".join("    " + line for line in RAY.splitlines())
    text = (
        "apiVersion: ray.io/v1\nkind: RayService\nspec:\n  serveConfigV2: |\n" + body + "\n"
        "  rayClusterConfig:\n    headGroupSpec:\n      template:\n        spec:\n          containers:\n"
        "          - name: head\n            image: rayproject/ray-llm:2.52.0\n"
    )
    (inv,) = read_plan("rayservice.yaml", text.encode()).invocations
    assert (inv.args[1].span.line, inv.args[1].span.col) == (17, 13)
    assert inv.image.text == "rayproject/ray-llm:2.52.0" and release_of(inv).version is None


SERVING_DOCKERFILE = """\
# Serving image for the chat model
ARG VLLM_VERSION=v0.10.1
FROM vllm/vllm-openai:${VLLM_VERSION}

ARG MODEL_ID
ARG MODEL_ROOT=/models
ENV HF_HOME=${MODEL_ROOT}/.cache/huggingface \\
    MODEL_PATH=${MODEL_ROOT}/Qwen2.5-7B-Instruct
ENV SERVED_NAME=${MODEL_ID:-qwen} \\
    MAX_SEQS=${MAX_NUM_SEQS:-sixty-four} \\
    GPU_UTIL=0.9 TAG=${MODEL_ROOT:+set}${NOPE:+x} SELF=$MAX_SEQS-$GPU_UTIL
ENV LIT='$MODEL_ROOT' ESC=\\$MODEL_ROOT QUOTED="cache: ${HF_HOME}"
WORKDIR ${MODEL_ROOT}

ENTRYPOINT ["/bin/sh", "-c", "exec vllm serve $MODEL_PATH --served-model-name $SERVED_NAME --max-num-seqs $MAX_SEQS --gpu-memory-utilization $GPU_UTIL"]
"""


def test_dockerfile_env_values_expand_earlier_env_and_arg_as_docker_does(tmp_path):
    """ENV values read the stage's earlier ENV and ARG (an ARG's default; an ARG without
    one is unknown until the build, a variable never set is empty; one ENV's values all
    read the variables before it), and keep each character's place in the file."""
    (inv,) = read_plan("Dockerfile", SERVING_DOCKERFILE.encode()).invocations
    env = {k: b.value for k, b in inv.env.items()}
    assert env["HF_HOME"].text == "/models/.cache/huggingface"
    assert env["MODEL_PATH"].text == "/models/Qwen2.5-7B-Instruct"
    assert env["SERVED_NAME"].text is None and "MODEL_ID has no default" in env["SERVED_NAME"].holes[0].reason
    assert env["MAX_SEQS"].text == "sixty-four" and env["TAG"].text == "set"
    assert "MAX_NUM_SEQS taken as unset" in env["MAX_SEQS"].assumptions[0]
    # MAX_SEQS is set by this same ENV, so $MAX_SEQS reads the one before it: the base image's
    assert env["SELF"].text is None and env["SELF"].value == "-"
    assert "MAX_SEQS is not set in this Dockerfile (its base image may set it)" == env["SELF"].holes[0].reason
    assert (env["LIT"].text, env["ESC"].text) == ("$MODEL_ROOT", "$MODEL_ROOT")
    assert env["QUOTED"].text == "cache: /models/.cache/huggingface"
    assert inv.workdir.text == "/models"
    assert inv.args[0].text == "/models/Qwen2.5-7B-Instruct"
    # /models came from ARG MODEL_ROOT's default (line 6), the rest from line 8
    first, last = env["MODEL_PATH"].char_span(0), env["MODEL_PATH"].char_span(len("/models"))
    assert (first.line, first.col, last.line, last.col) == (6, 16, 8, 29)
    path = tmp_path / "Dockerfile"
    path.write_text(SERVING_DOCKERFILE)
    res = lint_paths([str(path)], "0.10.1")
    bad = SERVING_DOCKERFILE.splitlines()[9]
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics] == [("VC004", 10, bad.index("sixty") + 1)]
    # FROM scratch has no variables but the Dockerfile's own
    text = 'FROM scratch\nENV A=x${B}y\nENTRYPOINT ["vllm", "serve", "m"]\n'
    (inv,) = read_plan("Dockerfile", text.encode()).invocations
    assert inv.env["A"].value.text == "xy"


def test_comment_and_empty_lines_inside_a_continued_instruction_are_skipped(tmp_path):
    """Docker drops the comment lines and empty lines inside a continued instruction:
    they neither end it nor continue it, and a `NAME=value` in such a comment sets
    nothing. The words after them keep their own lines and columns."""
    text = (
        "FROM vllm/vllm-openai:v0.10.2\n"
        "ARG TP=2 \\\n"
        "  # PP=4 is for the big nodes\n"
        "  SEED=7\n"
        "ENV VLLM_LOGGING_LEVEL=INFO \\\n"
        "    # VLLM_USE_V1=0 was for 0.8\n"
        "    HF_HOME=/models/$SEED PP=${PP:-1}\n"
        "ENTRYPOINT vllm serve m \\\n"
        "  # the port the router expects\n"
        "  --port 8000 \\\n"
        "\n"
        "  --max-num-seqz 64 \\\n"
        "  --tensor-parallel-size 2\n"
    )
    (inv,) = read_plan("Dockerfile", text.encode()).invocations
    assert [w.text for w in inv.args] == ["m", "--port", "8000", "--max-num-seqz", "64", "--tensor-parallel-size", "2"]
    assert sorted(inv.env) == ["HF_HOME", "PP", "VLLM_LOGGING_LEVEL"]
    assert (inv.env["HF_HOME"].value.text, inv.env["PP"].value.text) == ("/models/7", "1")
    assert (inv.args[3].span.line, inv.args[3].span.col) == (12, 3)
    path = tmp_path / "Dockerfile"
    path.write_text(text)
    res = lint_paths([str(path)], None)
    assert [(d.code, d.span.line, d.span.col) for d in res.diagnostics] == [("VC001", 12, 3)]
    # the exec form: a comment line between the JSON strings gives no word
    text = 'FROM vllm/vllm-openai:v0.13.0\nCMD ["--model", "m", \\\n  # "--enforce-eager",\n  "--max-num-seqs", "8"]\n'
    (inv,) = read_plan("Dockerfile", text.encode()).invocations
    assert [w.text for w in inv.args] == ["--model", "m", "--max-num-seqs", "8"]
    assert (inv.args[2].span.line, inv.args[2].span.col) == (4, 4)
