"""`vcfg bench` as a CI gate (issue 17): failures, unknown counts and goodput in the
verdict, exit codes, compare regressions, other tools' outputs, broken measurements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.bench import Slos, analyze, analyze_files, loads
from vcfg.bench.compare import compare
from vcfg.cli.commands import main
from vcfg.errors import VcfgError

ROOT = Path(__file__).resolve().parent.parent
NOTES = "examples/bench/notes-1p1d.txt"
DETAILED = "examples/bench/detailed-1p1d.json"
V010 = "tests/fixtures/bench/v0.10-log.txt"


@pytest.fixture
def run(monkeypatch):
    monkeypatch.chdir(ROOT)

    def _run(*args: str, input: str | None = None):
        return CliRunner().invoke(main, list(args), input=input)

    return _run


def _one(text: str, slos: Slos = Slos()):
    [r] = loads(text.encode(), "x")
    return analyze(r, slos)


def _codes(a) -> list[str]:
    return [c.code for c in a.caveats]


# ------------------------------------------------------------------------ verdicts


def test_most_requests_failed_is_a_failing_verdict(run):
    r = run("bench", "analyze", NOTES)
    assert r.exit_code == 1
    assert "FAIL  failed requests 74.1% of sent > 0%" in r.output
    assert "Verdict: FAIL (failed requests)" in r.output
    doc = json.loads(run("bench", "analyze", NOTES, "--format", "json").output)
    assert doc["verdict"] == "fail"
    [f] = [v for v in doc["verdicts"] if v["metric"] == "failed_requests"]
    assert (f["passed"], f["unit"], f["slo"]) == (False, "%", 0.0)


def test_max_failed_pct_lets_a_run_with_few_failures_pass(run):
    # 2 of 64 failed (3.1%)
    assert run("bench", "analyze", DETAILED).exit_code == 1
    assert run("bench", "analyze", DETAILED, "--max-failed-pct", "5").exit_code == 0
    assert run("bench", "analyze", DETAILED, "--max-failed-pct", "3").exit_code == 1


def test_missing_failed_count_is_an_unknown_verdict_and_exits_1(run, tmp_path):
    text = (ROOT / NOTES).read_text().replace("Failed requests:                         1193\n", "")
    p = tmp_path / "nofail.txt"
    p.write_text(text)
    a = _one(text, Slos(max_failed_pct=100))
    [f] = [v for v in a.verdicts if v.metric == "failed_requests"]
    assert f.passed is None and "does not say how many" in f.reason
    assert a.outcome == "unknown"
    r = run("bench", "analyze", str(p))
    assert r.exit_code == 1
    assert "N/A   failed requests unknown" in r.output
    assert "Verdict: UNKNOWN (failed requests)" in r.output
    assert run("bench", "analyze", str(p), "--fail-on", "fail").exit_code == 0
    assert run("bench", "analyze", NOTES, "--fail-on", "never").exit_code == 0


def test_goodput_verdict_from_per_request_data(run):
    # 59 of 64 sent requests are good under TPOT <= 50 ms: 92.2%
    r = run("bench", "analyze", DETAILED, "--max-failed-pct", "5", "--min-goodput-pct", "95")
    assert r.exit_code == 1
    assert "FAIL  goodput 92.2% good of sent < 95%" in r.output
    r = run("bench", "analyze", DETAILED, "--max-failed-pct", "5", "--min-goodput-pct", "90")
    assert r.exit_code == 0 and "PASS  goodput 92.2% good of sent >= 90%" in r.output


def test_goodput_verdict_from_vllms_request_goodput():
    # v0.10 log: Request goodput 3.60 req/s over 52.47 s, 198 + 2 sent: 94.5%
    [r] = loads((ROOT / V010).read_bytes(), "v010")
    a = analyze(r, Slos(max_failed_pct=5, min_goodput_pct=99))
    [g] = [v for v in a.verdicts if v.metric == "goodput"]
    assert g.passed is False and round(g.value, 1) == 94.4
    assert "--goodput" in g.reason


def test_goodput_verdict_unknown_without_data():
    a = _one((ROOT / NOTES).read_text(), Slos(max_failed_pct=80, min_goodput_pct=50))
    [g] = [v for v in a.verdicts if v.metric == "goodput"]
    assert g.passed is None and a.outcome == "unknown"


def test_percentages_are_checked():
    with pytest.raises(VcfgError, match="--max-failed-pct"):
        Slos(max_failed_pct=120)
    with pytest.raises(VcfgError, match="--min-goodput-pct"):
        Slos(min_goodput_pct=-1)


def test_failures_inferred_from_num_prompts_on_the_command_line():
    # the notes' report as a release before 0.11.2 prints it: no "Failed requests" line
    block = (ROOT / NOTES).read_text().replace("Failed requests:                         1193\n", "")
    text = (
        "$ vllm bench serve --model Qwen/Qwen3-32B --dataset-name random "
        "--random-input-len 4096 --random-output-len 1024 --num-prompts 1610 --request-rate 0.6\n"
        "100%|██████████| 1610/1610 [46:51<00:00,  1.75s/it]\n" + block
    )
    [r] = loads(text.encode(), "x")
    assert r.failed_source == "num_prompts" and r.num_prompts == 1610
    assert r.summary["failed"] == 1193
    a = analyze(r, Slos())
    assert a.outcome == "fail" and "failed-count-inferred" in _codes(a)
    # the nearest command wins, and "=" spelling works
    text2 = "python bench.py --num_prompts=999\n" + text.replace("--num-prompts 1610", "--num-prompts=1600")
    [r2] = loads(text2.encode(), "x")
    assert r2.num_prompts == 1600 and r2.summary["failed"] == 1183


# ------------------------------------------------------------------------- compare


def test_compare_has_p90_e2el_and_request_goodput_rows(run):
    doc = json.loads(run("bench", "compare", V010, DETAILED, "--format", "json").output)
    rows = {row["metric"]: row for row in doc["rows"]}
    assert rows["p90_tpot_ms"]["b"] == pytest.approx(28.87, abs=0.01)  # from per-request data
    assert rows["mean_e2el_ms"]["a"] is not None and rows["p99_e2el_ms"]["b"] is not None
    assert rows["request_goodput_req_s"]["a"] == 3.6


def test_compare_exits_1_on_a_regression_past_the_threshold(run):
    r = run("bench", "compare", NOTES, DETAILED, "--max-failed-pct", "5")
    assert r.exit_code == 1
    assert "P99 TPOT (ms)" in r.output and "worse, regression" in r.output
    assert "Regressions past 10% (B against A): " in r.output
    doc = json.loads(run("bench", "compare", NOTES, DETAILED, "--max-failed-pct", "5", "--format", "json").output)
    assert "p99_tpot_ms" in doc["regressions"] and doc["max_regression_pct"] == 10.0
    # a generous threshold and a B that passes: exit 0
    r = run(
        "bench",
        "compare",
        NOTES,
        DETAILED,
        "--max-failed-pct",
        "5",
        "--max-regression-pct",
        "500",
    )
    assert r.exit_code == 0, r.output
    assert "No regression past 500%" in r.output


def test_compare_exits_1_when_b_fails_its_verdict(run):
    # B = the notes run: better on P99 TPOT, but 74% failed
    r = run("bench", "compare", DETAILED, NOTES, "--max-regression-pct", "100000")
    assert r.exit_code == 1
    assert "B  Verdict: FAIL (failed requests)" in r.output
    r = run(
        "bench",
        "compare",
        DETAILED,
        NOTES,
        "--max-regression-pct",
        "100000",
        "--fail-on",
        "never",
    )
    assert r.exit_code == 0


def test_compare_failure_rate_regresses_in_points():
    a = analyze(loads((ROOT / DETAILED).read_bytes(), "a")[0], Slos())
    b = analyze(loads((ROOT / NOTES).read_bytes(), "b")[0], Slos())
    c = compare(a, b, max_regression_pct=50)
    keys = [r.key for r in c.regressions]
    assert "failure_rate" in keys  # 3.1% -> 74.1%: 71 points
    assert "failure_rate" not in [r.key for r in compare(a, b, 80).regressions]
    with pytest.raises(VcfgError, match="--max-regression-pct"):
        compare(a, b, -1)


# ------------------------------------------------------------------ other tools


SGLANG = """\
Namespace(backend='sglang', base_url=None, host='0.0.0.0', port=30000, dataset_name='random', num_prompts=1000, random_input_len=512, random_output_len=256)
#Input tokens: 343190
#Output tokens: 218257

============ Serving Benchmark Result ============
Backend:                                 sglang    
Traffic request rate:                    4.0       
Successful requests:                     996       
Benchmark duration (s):                  260.14    
Total input tokens:                      342460    
Total generated tokens:                  218257    
Total generated tokens (retokenized):    95297     
Request throughput (req/s):              3.83      
Input token throughput (tok/s):          1316.45   
Output token throughput (tok/s):         839.00    
Total throughput (tok/s):                2155.45   
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   2113.52   
Median E2E Latency (ms):                 611.20    
---------------Time to First Token----------------
Mean TTFT (ms):                          2089.71   
Median TTFT (ms):                        611.04    
P99 TTFT (ms):                           15120.33  
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          1.81      
Median TPOT (ms):                        -0.00     
P99 TPOT (ms):                           29.02     
---------------Inter-token Latency----------------
Mean ITL (ms):                           0.00      
Median ITL (ms):                         0.00      
P99 ITL (ms):                            0.00      
==================================================
"""


def test_sglang_text_is_read_under_its_own_labels():
    [r] = loads(SGLANG.encode(), "sglang.log")
    assert r.kind == "sglang-text"
    assert r.summary["mean_e2el_ms"] == 2113.52
    assert r.summary["total_token_throughput"] == 2155.45
    assert r.request_rate == 4.0
    # SGLang prints no failed count: inferred from the namespace, and said so
    assert r.failed_source == "num_prompts" and r.summary["failed"] == 4
    assert any("SGLang" in n for n in r.notes)
    assert "mean_e2e_latency_ms" not in r.summary


def test_sglang_zero_itl_and_negative_median_are_a_broken_measurement(run, tmp_path):
    a = _one(SGLANG, Slos(max_failed_pct=1))
    broken = [c for c in a.caveats if c.code == "broken-measurement"]
    assert len(broken) == 2
    assert "negative latency (median TPOT -0.00 ms)" in broken[0].message
    assert "every ITL statistic is 0.00 ms" in broken[1].message
    # the gap is not explained as a PD (KV transfer) effect
    assert "itl-far-below-tpot" not in _codes(a)
    assert a.outcome == "fail"
    [m] = [v for v in a.verdicts if v.metric == "measurement"]
    assert m.passed is False
    p = tmp_path / "sglang.log"
    p.write_text(SGLANG)
    out = run("bench", "analyze", str(p), "--max-failed-pct", "1")
    assert out.exit_code == 1
    assert "(SGLang bench_serving text report)" in out.output
    assert "Verdict: FAIL (broken measurement)" in out.output
    assert "PD" not in out.output and "KV transfer" not in out.output


def test_sglang_json_is_read_with_e2e_mapped():
    obj = {
        "backend": "sglang",
        "dataset_name": "random",
        "request_rate": 8.0,
        "max_concurrency": 64,
        "duration": 120.5,
        "completed": 500,
        "total_input_tokens": 256000,
        "total_output_tokens": 64000,
        "total_output_tokens_retokenized": 63990,
        "request_throughput": 4.15,
        "input_throughput": 2124.5,
        "output_throughput": 531.1,
        "mean_e2e_latency_ms": 5012.3,
        "median_e2e_latency_ms": 4870.0,
        "p99_e2e_latency_ms": 9120.4,
        "mean_ttft_ms": 310.2,
        "median_ttft_ms": 280.1,
        "p99_ttft_ms": 950.3,
        "mean_tpot_ms": 36.8,
        "median_tpot_ms": 35.9,
        "p99_tpot_ms": 52.2,
        "mean_itl_ms": 36.5,
        "median_itl_ms": 34.1,
        "p99_itl_ms": 80.2,
        "concurrency": 20.8,
    }
    [r] = loads(json.dumps(obj).encode(), "sglang.jsonl")
    assert r.kind == "sglang-json"
    assert r.summary["p99_e2el_ms"] == 9120.4
    assert r.failed_source is None


GUIDELLM_JSON = {
    "metadata": {"version": 1, "guidellm_version": "0.3.0"},
    "args": {"target": "http://localhost:8000", "profile": "sweep"},
    "benchmarks": [
        {
            "type_": "generative_benchmark",
            "run_stats": {"requests_made": {"successful": 120, "incomplete": 3, "errored": 1}},
            "metrics": {"time_to_first_token_ms": {"successful": {"mean": 88.1}}},
        }
    ],
}
AIPERF_JSON = {
    "records": {
        "request_throughput": {"tag": "request_throughput", "unit": "requests/sec", "avg": 9.6},
        "time_to_first_token": {"tag": "ttft", "unit": "ms", "avg": 41.2, "p99": 88.0},
    },
    "input_config": {"endpoint": {"model_names": ["Qwen/Qwen3-8B"]}},
}
GENAI_PERF_JSON = {
    "request_throughput": {"unit": "requests/sec", "avg": 9.6},
    "time_to_first_token": {"unit": "ms", "avg": 41.2, "p99": 88.0, "min": 20.0},
}
AIPERF_TEXT = """\
                          NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
┃                       Metric ┃    avg ┃    min ┃    p99 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩
│     Time to First Token (ms) │  41.20 │  20.00 │  88.00 │
│   Request Throughput (req/s) │   9.60 │    N/A │    N/A │
└──────────────────────────────┴────────┴────────┴────────┘
"""
GUIDELLM_TEXT = """\
Benchmarks Metadata:
    Args: {"profile": "sweep", "max_seconds": 30}
    Worker: type_='generative_requests_worker'
Benchmarks Stats:
=======================================================
Metadata  | Request Stats  | Out Tok/sec | TTFT (ms)
Benchmark | Per Second     | mean        | mean
----------|----------------|-------------|----------
synchronous| 1.05          | 230.1       | 41.3
"""
LOCUST_TEXT = """\
Type     Name                                                # reqs      # fails |    Avg     Min     Max    Med |   req/s  failures/s
--------|--------------------------------------------------|-------|-------------|-------|-------|-------|-------|--------|-----------
POST     /chat/completions                                    1200     0(0.00%) |    142      61    1980     96 |   11.74        0.00
--------|--------------------------------------------------|-------|-------------|-------|-------|-------|-------|--------|-----------
         Aggregated                                           1200     0(0.00%) |    142      61    1980     96 |   11.74        0.00
"""
LOCUST_CSV = """\
Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time
POST,/chat/completions,1200,0,96,142.18,61,1980
"""


@pytest.mark.parametrize(
    "data, tool",
    [
        (json.dumps(GUIDELLM_JSON), "GuideLLM"),
        (json.dumps(AIPERF_JSON), "AIPerf"),
        (json.dumps(GENAI_PERF_JSON), "AIPerf or GenAI-Perf"),
        (AIPERF_TEXT, "AIPerf"),
        (GUIDELLM_TEXT, "GuideLLM"),
        (LOCUST_TEXT, "Locust (LiteLLM's load test)"),
        (LOCUST_CSV, "Locust (LiteLLM's load test)"),
    ],
)
def test_other_tools_are_refused_by_name(data, tool):
    with pytest.raises(VcfgError) as e:
        loads(data.encode(), "out")
    assert e.value.message.startswith(f"out: this is {tool} output, not a vllm bench serve result")


def test_other_tool_refused_at_the_cli_exit_2(run, tmp_path):
    p = tmp_path / "benchmarks.json"
    p.write_text(json.dumps(GUIDELLM_JSON))
    r = run("bench", "analyze", str(p))
    assert r.exit_code == 2 and "GuideLLM output" in r.output and "Traceback" not in r.output


# --------------------------------------------------------------- broken numbers


def _sweep(rate: str) -> str:
    # the rate as the log before the block says it (the block itself does not)
    body = (ROOT / NOTES).read_text().replace("Request rate configured (RPS):           0.60\n", "")
    return f"Traffic request rate: {rate}\n{body}"


def test_identical_results_at_every_request_rate_are_broken():
    text = _sweep("2.0") + _sweep("4.0") + _sweep("8.0")
    results = loads(text.encode(), "sweep.log")
    analyses = [analyze(r, Slos(max_failed_pct=100)) for r in results]
    from vcfg.bench import flag_identical_sweeps

    flagged = flag_identical_sweeps(analyses)
    for a in flagged:
        assert "broken-measurement" in _codes(a)
        assert a.outcome == "fail"
    assert "request rates 2, 4, 8 hold the same numbers" in flagged[0].caveats[-1].message
    # different numbers at different rates: nothing
    changed = _sweep("2.0") + _sweep("4.0").replace("2811.39", "1405.70")
    assert all(
        "broken-measurement" not in _codes(a)
        for a in flag_identical_sweeps([analyze(r, Slos()) for r in loads(changed.encode(), "s")])
    )


def test_identical_sweep_flagged_through_analyze_files(tmp_path):
    p = tmp_path / "sweep.log"
    p.write_text(_sweep("2.0") + _sweep("4.0"))
    assert all("broken-measurement" in _codes(a) for a in analyze_files([str(p)], Slos()))


def _with_model(model: str, tpot: str) -> str:
    body = (ROOT / NOTES).read_text().replace("27.55", tpot)
    return f"Namespace(model='{model}', num_prompts=1610)\n{body}"


def test_tpot_near_1ms_on_a_large_model_is_broken():
    a = _one(_with_model("meta-llama/Llama-3.3-70B-Instruct", "0.95"), Slos(max_failed_pct=100))
    [c] = [c for c in a.caveats if c.code == "broken-measurement"]
    assert "mean TPOT of 0.95 ms on a 70B model" in c.message
    assert a.outcome == "fail"


@pytest.mark.parametrize(
    "model, tpot",
    [
        ("meta-llama/Llama-3.1-8B-Instruct", "0.95"),  # small model: possible
        ("meta-llama/Llama-3.3-70B-Instruct", "8.40"),  # a real 70B TPOT
        ("Qwen/Qwen3-30B-A3B", "0.95"),  # MoE with 3B active: not dense
    ],
)
def test_plausible_tpot_is_not_flagged(model, tpot):
    a = _one(_with_model(model, tpot), Slos(max_failed_pct=100))
    assert "broken-measurement" not in _codes(a)


def test_real_results_are_not_broken(run):
    for path in (NOTES, DETAILED, V010, "tests/fixtures/bench/v0.33-kubectl.log"):
        for a in analyze_files([str(ROOT / path)], Slos()):
            assert "broken-measurement" not in _codes(a), path
