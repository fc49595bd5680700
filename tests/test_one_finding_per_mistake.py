"""One finding per mistake, and each finding says what is true of the release.

- ``vllm serve M --model M`` on 0.9.0: that release's ``vllm serve`` registers no
  ``--model`` (only the api_server module's parser does, engine/arg_utils.py:452
  @0.9.0; vcfg/catalog/data/outside-serve-flags.json), and its FlexibleArgumentParser
  refuses ``--model`` before argparse runs (vllm/utils.py:1399-1407 @0.9.0).  That is
  VC010's error, citing where the release declares its model argument; not VC002's
  "removed in 0.9.0" (0.8.5 and 0.9.1 have it), nor argparse's ambiguity (never reached).
- A negative ``--data-parallel-rank`` is VC209 alone.
"""

from __future__ import annotations

import pytest

from vcfg.lint.engine import lint_paths


def lint(tmp_path, text, version):
    p = tmp_path / "serve.sh"
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.severity, d.span.line, d.span.col, d.help) for d in res.diagnostics]


SCRIPT = "#!/bin/bash\nMODEL=facebook/opt-125m\nvllm serve $MODEL --model $MODEL --port 8000\n"
COL = SCRIPT.splitlines()[2].index("--model") + 1


@pytest.mark.parametrize(
    ("version", "where"),
    [("0.9.0", "vllm/entrypoints/cli/serve.py:55"), ("0.8.5", "vllm/entrypoints/cli/serve.py:40")],
)
def test_model_option_under_serve_is_one_error_citing_the_model_argument(tmp_path, version, where):
    assert lint(tmp_path, SCRIPT, version) == [
        (
            "VC010",
            "error",
            3,
            COL,
            f"give the model as the first argument: `vllm serve MODEL ...` "
            f"(vllm {version} declares it as `model_tag` at {where})",
        )
    ]


def test_model_option_with_equals_on_0_9_0_is_argparses_ambiguity_alone(tmp_path):
    # `--model=M` passes the exact-word check; argparse then finds it ambiguous
    s = SCRIPT.replace("--model $MODEL", "--model=$MODEL")
    assert [(c, ln, cl) for c, _, ln, cl, _ in lint(tmp_path, s, "0.9.0")] == [("VC001", 3, COL)]


def test_the_api_server_module_has_model_on_0_9_0(tmp_path):
    s = "python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --port 8000\n"
    assert lint(tmp_path, s, "0.9.0") == []


@pytest.mark.parametrize("version", ["0.9.2", "0.13.0", "0.33.0"])
@pytest.mark.parametrize("rank", ["--data-parallel-rank -1", "--data-parallel-rank=-1", "-dpn -1"])
def test_a_negative_data_parallel_rank_is_one_finding(tmp_path, version, rank):
    s = f"vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 2 {rank} --port 8000\n"
    assert [c for c, *_ in lint(tmp_path, s, version)] == ["VC209"]


# --------------------------------------------------------------------------- removed options
# `--device` (EngineArgs.device) as the bundled catalogs have it: an option up to 0.9.2,
# gone from 0.10.0; from 0.24.0 `--device-ids` starts with it (argparse's allow_abbrev takes
# `--device` for it), from 0.31.0 `--device-memory-utilization` too (argparse: ambiguous).
# test_device_prefixes_are_the_catalogs_own checks those facts, so a catalog that changes
# them fails there first.

DEVICE = "#!/bin/bash\n" + (
    "# one Llama 3.1 8B replica on the first GPU\n"
    "set -euo pipefail\n"
    "MODEL=meta-llama/Llama-3.1-8B-Instruct\n"
    "export CUDA_VISIBLE_DEVICES=0\n"
    'vllm serve "$MODEL" \\\n'
    "  --device cuda \\\n"
    "  --dtype bfloat16 \\\n"
    "  --max-model-len 8192 \\\n"
    "  --gpu-memory-utilization 0.90 \\\n"
    "  --port 8000\n"
)
REMOVED = "`--device` was removed in vllm 0.10.0"
AMBIGUOUS = "argparse rejects it as ambiguous between `--device-ids` and `--device-memory-utilization`"
ABBREVIATION = "argparse takes it as an abbreviation of `--device-ids` and silently applies it to that option"


def findings(tmp_path, name, text, version):
    p = tmp_path / name
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return res.diagnostics


def test_device_prefixes_are_the_catalogs_own():
    from vcfg.catalog.store import load_exact

    def starting(version):
        return sorted(s for s in load_exact(version).long_options() if s.startswith("--device"))

    assert starting("0.9.2") == ["--device"]
    assert starting("0.10.0") == starting("0.23.0") == []
    assert starting("0.24.0") == starting("0.30.0") == ["--device-ids"]
    assert starting("0.31.0") == starting("0.33.0") == ["--device-ids", "--device-memory-utilization"]


def test_device_is_an_option_of_0_9_2(tmp_path):
    assert findings(tmp_path, "serve.sh", DEVICE, "0.9.2") == []


@pytest.mark.parametrize(
    ("version", "taken"),
    [
        ("0.10.0", "argparse rejects it as unrecognized"),
        ("0.23.0", "argparse rejects it as unrecognized"),
        ("0.24.0", ABBREVIATION),
        ("0.30.0", ABBREVIATION),
        ("0.31.0", AMBIGUOUS),
        ("0.33.0", AMBIGUOUS),
    ],
)
def test_a_removed_option_is_one_finding_saying_what_argparse_does(tmp_path, version, taken):
    got = findings(tmp_path, "serve.sh", DEVICE, version)
    assert [(d.code, d.span.line, d.span.col, d.span.end_col) for d in got] == [("VC002", 7, 3, 11)]
    (d,) = got
    assert d.severity == "error"
    assert d.message == f"{REMOVED}; vllm {version}'s {taken}"
    assert d.help == "remove it; `vcfg catalog diff` shows what changed"
    assert d.fix is None  # never turned into --device-ids (nor into anything else)


@pytest.mark.parametrize("version", ["0.24.0", "0.33.0"])
def test_a_removed_option_with_its_value_attached(tmp_path, version):
    s = DEVICE.replace("--device cuda", "--device=cuda")
    assert [(d.code, d.span.col, d.span.end_col) for d in findings(tmp_path, "serve.sh", s, version)] == [
        ("VC002", 3, 11)
    ]


def test_diff_leaves_the_removed_option_as_written(tmp_path):
    # 0.24.0 used to offer VC012's safe fix `--device` -> `--device-ids`: another option
    from cli_run import run_vcfg

    p = tmp_path / "serve.sh"
    p.write_text(DEVICE)
    r = run_vcfg("lint", "--vllm-version", "0.24.0", "--diff", "--unsafe-fixes", str(p))
    assert (r.stdout, r.stderr) == ("", "vcfg: would fix 0 findings in 0 files\n")
    assert p.read_text() == DEVICE


def test_the_image_tag_gives_the_release_and_its_argparse(tmp_path):
    # a Deployment's container args; the image names 0.24.0, so its argparse is the one
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llama-8b\nspec:\n  replicas: 1\n"
        "  selector:\n    matchLabels: {app: llama-8b}\n  template:\n    metadata:\n"
        "      labels: {app: llama-8b}\n    spec:\n      containers:\n      - name: vllm\n"
        "        image: vllm/vllm-openai:v0.24.0\n"
        '        args: ["meta-llama/Llama-3.1-8B-Instruct", "--device", "cuda", "--port", "8000"]\n'
        "        resources:\n          limits:\n            nvidia.com/gpu: 1\n"
    )
    got = findings(tmp_path, "deploy.yaml", manifest, None)
    assert [(d.code, d.span.line, d.message) for d in got] == [
        ("VC002", 16, f"{REMOVED}; vllm 0.24.0's {ABBREVIATION}")
    ]


# Ray Serve: engine_kwargs are AsyncEngineArgs(**engine_kwargs), keyword arguments: no
# argparse, no abbreviation, no ambiguity; a name that is no field is a TypeError.
RAY = """\
applications:
- name: llms
  import_path: ray.serve.llm:build_openai_app
  route_prefix: /
  args:
    llm_configs:
    - model_loading_config:
        model_id: qwen2.5-7b-instruct
        model_source: Qwen/Qwen2.5-7B-Instruct
      engine_kwargs:
        dtype: bfloat16
        max_model_len: 1024
        device: auto
        gpu_memory_utilization: 0.75
      deployment_config:
        autoscaling_config:
          min_replicas: 1
          max_replicas: 2
"""


def _rayservice(config):
    inner = "".join("    " + line + "\n" for line in config.splitlines())
    return (
        "apiVersion: ray.io/v1\nkind: RayService\nmetadata:\n  name: ray-serve-llm\nspec:\n"
        "  serveConfigV2: |\n" + inner + "  rayClusterConfig:\n    rayVersion: '2.52.0'\n"
        "    headGroupSpec:\n      rayStartParams: {}\n      template:\n        spec:\n"
        "          containers:\n          - name: ray-head\n"
        "            image: rayproject/ray-llm:2.52.0-py311-cu128\n"
    )


@pytest.mark.parametrize("version", ["0.23.0", "0.24.0", "0.30.0", "0.31.0", "0.33.0"])
@pytest.mark.parametrize(("name", "make", "line"), [("serve.yaml", str, 13), ("rayservice.yaml", _rayservice, 19)])
def test_a_removed_keyword_argument_is_plain_vc002(tmp_path, version, name, make, line):
    got = findings(tmp_path, name, make(RAY), version)
    assert [(d.code, d.span.line, d.message) for d in got] == [("VC002", line, REMOVED)]
    assert got[0].fix is None


def test_keyword_arguments_are_never_abbreviations(tmp_path):
    # argv would take --max-num-seq for --max-num-seqs (VC012); the constructor raises
    s = RAY.replace("device: auto", "max_num_seq: 64")
    got = findings(tmp_path, "serve.yaml", s, "0.33.0")
    assert [(d.code, d.span.line, d.message, d.help) for d in got] == [
        ("VC001", 13, "unknown option `--max-num-seq`", "did you mean `--max-num-seqs`?")
    ]


def test_the_launch_is_marked_keywords_by_the_ray_serve_readers(tmp_path):
    from vcfg.launch.read import read_plan

    for name, text in (("serve.yaml", RAY), ("rayservice.yaml", _rayservice(RAY))):
        p = tmp_path / name
        p.write_text(text)
        (inv,) = read_plan(str(p), p.read_bytes()).invocations
        assert inv.keywords
    p = tmp_path / "serve.sh"
    p.write_text(DEVICE)
    assert not read_plan(str(p), p.read_bytes()).invocations[0].keywords


# what is not a removed option keeps its findings
@pytest.mark.parametrize(
    ("version", "options"),
    [  # the options of each catalog that start with --max-num
        ("0.13.0", "--max-num-batched-tokens, --max-num-partial-prefills, --max-num-seqs"),
        (
            "0.33.0",
            "--max-num-active-seqs, --max-num-batched-tokens, --max-num-queued-reqs, "
            "--max-num-queued-tokens, --max-num-scheduled-tokens, --max-num-seqs",
        ),
    ],
)
def test_an_ambiguous_prefix_that_was_never_an_option_is_vc001(tmp_path, version, options):
    s = DEVICE.replace("--device cuda", "--max-num 64")
    got = findings(tmp_path, "serve.sh", s, version)
    assert [(d.code, d.span.line, d.message) for d in got] == [
        ("VC001", 7, f"ambiguous option '--max-num' could match {options}")
    ]


def test_an_abbreviation_that_was_never_removed_is_vc012_with_its_fix(tmp_path):
    s = DEVICE.replace("--device cuda", "--max-num-seq 64")
    got = findings(tmp_path, "serve.sh", s, "0.33.0")
    assert [(d.code, d.span.line) for d in got] == [("VC012", 7)]
    assert got[0].fix is not None and got[0].fix.applicability == "safe"


# --------------------------------------------------------------------------- the model twice
# From 0.10.0 vLLM's FlexibleArgumentParser moves `--model M` to the front
# (vllm/utils/argparse_utils.py:324-356 @0.33.0): with a model already written first, that
# one is left over and argparse rejects it. One error, at --model: not also VC001's
# "unrecognized argument" at the model written first.


@pytest.mark.parametrize("version", ["0.13.0", "0.20.0", "0.33.0"])
@pytest.mark.parametrize("model", ["--model $MODEL", "--model=$MODEL"])
def test_a_model_written_first_and_with_model_is_one_error(tmp_path, version, model):
    s = SCRIPT.replace("--model $MODEL", model)
    got = lint(tmp_path, s, version)
    assert [(c, sev, ln, cl) for c, sev, ln, cl, _ in got] == [("VC010", "error", 3, COL)]
    assert got[0][4].startswith("give the model once, as the first argument: remove `--model` and its value")


@pytest.mark.parametrize("version", ["0.13.0", "0.33.0"])
def test_model_option_alone_is_still_the_deprecation_warning(tmp_path, version):
    s = "#!/bin/bash\nvllm serve --port 8000 --model facebook/opt-125m\n"
    assert [(c, sev) for c, sev, *_ in lint(tmp_path, s, version)] == [("VC010", "warning")]


def test_two_positional_models_without_model_option_are_still_vc001(tmp_path):
    s = "#!/bin/bash\nvllm serve facebook/opt-125m facebook/opt-350m --port 8000\n"
    assert [(c, ln, cl) for c, _, ln, cl, _ in lint(tmp_path, s, "0.33.0")] == [("VC001", 2, 30)]
