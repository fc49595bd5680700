"""vcfg's table of report labels and result keys against real vLLM releases (slow).

Reads vllm/benchmarks/serve.py of several releases with `ast` and checks that every
label the report prints with the "{:<40} ..." format, every metric name of the latency
sections, and every key of the result dictionary is one vcfg knows (mapped, or
deliberately left as an unmapped extra).
"""

from __future__ import annotations

import ast

import pytest

from vcfg.bench.saveresult import ALIASES, SUMMARY_KEYS
from vcfg.bench.textreport import LABEL_KEYS, METRIC_NAMES
from vcfg.catalog.extract.source import from_version

VERSIONS = ["0.10.0", "0.11.0", "0.11.2", "0.13.0", "0.20.0", "0.33.0"]

# printed, not used by the analysis: kept in BenchResult.extras
UNMAPPED_LABELS = {
    "input throughput (inputs/s)",  # pooling models
    "acceptance rate (%)",
    "acceptance length",
    "drafts",
    "draft tokens",
    "accepted tokens",
    "committed throughput (tok/s)",
    "denoising steps per canvas",
    "committed per denoising step",
    "committed tokens",
    "denoising steps",
    "canvas positions evaluated",
}
# per-request arrays (read by saveresult._per_request or ignored) and pooling-only keys
NON_SUMMARY_KEYS = {
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "latencies",
    "start_times",
    "queue_times",
    "generated_texts",
    "errors",
    "total_input_sequences",
    "input_sequence_throughput",
}


def _serve_tree(version: str) -> ast.Module:
    src = from_version(version)
    text = src.read("vllm/benchmarks/serve.py")
    assert text is not None, f"{version}: no vllm/benchmarks/serve.py"
    return ast.parse(text)


def _printed_labels(tree: ast.Module) -> set[str]:
    labels = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
            and str(node.func.value.value).startswith("{:<40}")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            labels.add(node.args[0].value.strip().rstrip(":").strip())
    return labels


def _metric_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "process_one_metric"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
        ):
            names.add(node.args[1].value)
    return names


def _result_keys(tree: ast.Module) -> set[str]:
    keys: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            ks = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if "completed" in ks and "duration" in ks:
                keys |= {k for k in ks if isinstance(k, str)}
    return keys


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_every_printed_label_is_known(version):
    tree = _serve_tree(version)
    labels = _printed_labels(tree)
    assert "Successful requests" in labels and "Mean TTFT (ms)" not in labels
    unknown = {lab for lab in labels if lab.lower() not in LABEL_KEYS and lab.lower() not in UNMAPPED_LABELS}
    assert not unknown, f"vllm {version} prints labels vcfg does not know: {unknown}"


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_every_latency_metric_name_is_known(version):
    names = _metric_names(_serve_tree(version))
    assert {"TTFT", "TPOT", "ITL"} <= names
    unknown = {n for n in names if n.lower() not in METRIC_NAMES}
    assert not unknown, f"vllm {version}: unknown latency metric names {unknown}"


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_every_result_key_is_known(version):
    keys = _result_keys(_serve_tree(version))
    assert {"completed", "duration", "total_output_tokens"} <= keys
    unknown = {k for k in keys if k not in SUMMARY_KEYS and k not in NON_SUMMARY_KEYS and k not in ALIASES}
    assert not unknown, f"vllm {version}: result keys vcfg does not know: {unknown}"
