"""Reading `vllm bench serve` results: text reports of several releases, logs around
them, the --save-result JSON (old and new keys, per-request arrays), and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vcfg.bench.parse import load, loads
from vcfg.errors import VcfgError

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "bench"
NOTES = ROOT / "examples" / "bench" / "notes-1p1d.txt"
DETAILED = ROOT / "examples" / "bench" / "detailed-1p1d.json"


def test_notes_report_every_label_mapped():
    [r] = load(str(NOTES))
    assert r.kind == "text"
    assert r.summary == {
        "completed": 417,
        "failed": 1193,
        "request_rate": 0.60,
        "duration": 2811.39,
        "total_input_tokens": 1702144,
        "total_output_tokens": 407575,
        "request_throughput": 0.15,
        "output_throughput": 144.97,
        "max_output_tokens_per_s": 840.00,
        "max_concurrent_requests": 27.00,
        "total_token_throughput": 750.42,
        "mean_ttft_ms": 788.59,
        "median_ttft_ms": 500.98,
        "p99_ttft_ms": 11254.71,
        "mean_tpot_ms": 27.55,
        "median_tpot_ms": 26.85,
        "p99_tpot_ms": 33.03,
        "mean_itl_ms": 27.39,
        "median_itl_ms": 26.53,
        "p99_itl_ms": 32.01,
    }
    assert r.failed_source == "reported"
    assert r.request_rate == 0.60
    assert r.extras == {} and r.notes == ()


def test_v010_log_without_failed_and_peaks():
    [r] = load(str(FIX / "v0.10-log.txt"))
    # "Total Token throughput" (capital T, vLLM < 0.13) maps like the lowercase label
    assert r.get("total_token_throughput") == 4347.17
    assert r.get("request_goodput") == 3.60
    assert r.get("max_output_tokens_per_s") is None
    assert r.latency("e2el", "p99") == 8511.90
    # context from the log: the Namespace and the traffic line
    assert r.num_prompts == 200
    assert r.model_id == "meta-llama/Llama-3.1-8B-Instruct"
    assert r.request_rate == 4.0
    # no "Failed requests" line: inferred from num_prompts
    assert r.get("failed") == 2 and r.failed_source == "num_prompts"


def test_prefixed_log_lines_and_unmapped_labels():
    [r] = load(str(FIX / "v0.33-kubectl.log"))
    assert r.get("completed") == 8 and r.get("failed") == 0
    assert r.get("max_concurrency") == 8 and r.max_concurrency == 8
    assert r.get("mean_tpot_ms") == 56.31
    assert r.num_warmups == 8
    assert r.extras["Acceptance rate (%)"] == "61.20"
    assert r.extras["Position 2"] == "45.00"
    assert r.notes == ()


def test_old_benchmark_serving_labels():
    [r] = load(str(FIX / "old-benchmark-serving.txt"))
    assert r.get("input_throughput") == 4448.96
    assert r.get("total_token_throughput") is None
    assert "itl" not in {k.split("_")[1] for k in r.summary if k.endswith("_ms")}


def test_two_reports_in_one_log_second_truncated():
    first, second = load(str(FIX / "two-runs.log"))
    assert first.source.endswith("two-runs.log#1")
    assert second.source.endswith("two-runs.log#2")
    assert first.get("completed") == 100 and second.get("completed") == 61
    assert first.notes == ()
    assert second.notes and "closing" in second.notes[0]
    # the error lines printed before the second report belong to it
    assert first.error_samples == ()
    assert len(second.error_samples) == 2
    assert "ClientPayloadError" in second.error_samples[0]
    assert first.request_rate == 1.0 and second.request_rate == 8.0


def test_crlf_ansi_and_bom():
    text = NOTES.read_text()
    data = ("\ufeff" + "\x1b[32m" + text.replace("\n", "\r\n")).encode()
    [r] = loads(data, "x.txt")
    assert r.get("completed") == 417 and r.get("p99_itl_ms") == 32.01


def test_non_utf8_bytes_around_the_report_are_harmless():
    data = "日志".encode("gbk") + b"\n" + NOTES.read_bytes()
    [r] = loads(data, "gbk.log")
    assert r.get("failed") == 1193


def test_percentile_with_decimals():
    text = NOTES.read_text().replace("P99 TPOT (ms):", "P99.9 TPOT (ms):")
    [r] = loads(text.encode(), "x")
    assert r.get("p99.9_tpot_ms") == 33.03


def test_json_old_goodput_key_and_inferred_failed():
    [r] = load(str(FIX / "v0.10-result.json"))
    assert r.kind == "save-result-json"
    assert r.get("request_goodput") == 2.1  # from "request_goodput:"
    assert r.get("failed") == 5 and r.failed_source == "num_prompts"
    assert r.request_rate == float("inf")
    assert r.max_concurrency == 32
    assert r.per_request is None


def test_json_append_result_holds_two():
    a, b = load(str(FIX / "append.jsonl"))
    assert a.source.endswith("#1") and b.source.endswith("#2")
    assert a.get("completed") == 100 and b.max_concurrency == 64


def test_json_per_request_arrays():
    [r] = load(str(FIX / "small-detailed.json"))
    pr = r.per_request
    assert pr is not None and len(pr) == 5
    assert [pr.succeeded(i) for i in range(5)] == [True, True, False, True, True]
    # failed count from the errors array (no "failed" key)
    assert r.get("failed") == 1 and r.failed_source == "errors"
    assert r.error_samples == ("Bad Gateway",)
    # no "latencies": latency = ttft + sum(itl)
    assert pr.latency_s(0) == pytest.approx(0.28)
    assert pr.tpot_s(1) == pytest.approx(0.06)
    assert pr.tpot_s(3) == 0.0  # one token: vLLM counts TPOT 0


def test_json_detailed_example_uses_latencies():
    [r] = load(str(DETAILED))
    pr = r.per_request
    assert pr is not None and pr.latencies_s is not None
    assert len(pr) == 64 and r.get("failed") == 2 and r.failed_source == "reported"
    assert r.model_id == "Qwen/Qwen3-32B"


def test_json_malformed_arrays_are_ignored_with_a_note(tmp_path):
    obj = json.loads((FIX / "small-detailed.json").read_text())
    obj["ttfts"] = obj["ttfts"][:3]
    p = tmp_path / "r.json"
    p.write_text(json.dumps(obj))
    [r] = load(str(p))
    assert r.per_request is None
    assert "different lengths" in r.notes[0]
    obj["ttfts"] = ["x"] * 5
    p.write_text(json.dumps(obj))
    [r] = load(str(p))
    assert r.per_request is None and "non-number" in r.notes[0]


@pytest.mark.parametrize(
    "name, message",
    [
        ("empty.txt", "empty file"),
        ("invalid.json", "invalid JSON at line 2 column 24"),
        ("not-a-result.json", "not a vllm bench serve --save-result file"),
        ("pytorch-format.json", "PyTorch-benchmark-format companion"),
        ("no-report.log", "no 'Serving Benchmark Result' block"),
    ],
)
def test_bad_input_is_one_clear_error(name, message):
    with pytest.raises(VcfgError) as e:
        load(str(FIX / name))
    assert message in e.value.message
    assert "\n" not in e.value.message


def test_binary_directory_missing_header_only(tmp_path):
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x7fELF\x00\x00\x01" * 100)
    with pytest.raises(VcfgError, match="binary file"):
        load(str(binary))
    with pytest.raises(VcfgError, match="is a directory"):
        load(str(tmp_path))
    with pytest.raises(VcfgError, match="no such file"):
        load(str(tmp_path / "missing.txt"))
    header_only = tmp_path / "cut.log"
    header_only.write_text("============ Serving Benchmark Result ============\n")
    with pytest.raises(VcfgError, match="without a 'Successful requests' line"):
        load(str(header_only))


def test_deeply_nested_json_is_an_error_not_a_crash():
    with pytest.raises(VcfgError):
        loads(b"[" * 100000 + b"]" * 100000, "deep.json")
