"""The reading of a result that the user's notes teach, as numbers, verdicts, warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.bench import Slos, analyze, load, loads
from vcfg.errors import VcfgError

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "bench"
NOTES = ROOT / "examples" / "bench" / "notes-1p1d.txt"


def _one(path: Path, slos: Slos = Slos()):
    [r] = load(str(path))
    return analyze(r, slos)


def _codes(a) -> list[str]:
    return [c.code for c in a.caveats]


def test_notes_acceptance_numbers():
    a = _one(NOTES)
    # 1000 / 27.55 ms = 36.3 tok/s per request; 1000 / 33.03 = 30.3 at P99
    assert round(a.decode_speed["mean"], 1) == 36.3
    assert round(a.decode_speed["p99"], 1) == 30.3
    assert round(a.decode_speed["median"], 1) == 37.2
    # 144.97 / 36.3 = about 4 streams; 840 / 36.3 = about 23 at peak, vs 27 concurrent
    assert round(a.streams["mean"]) == 4
    assert round(a.streams["peak"]) == 23
    assert a.streams["peak_concurrent_requests"] == 27
    assert a.streams["peak"] <= a.streams["peak_concurrent_requests"]
    # 1702144 / 2811.39 = 605 input + 407575 / 2811.39 = 145 output = 750 total
    assert round(a.goodput["input"]) == 605
    assert round(a.goodput["output"]) == 145
    assert round(a.goodput["total"]) == 750
    assert a.goodput["total"] == pytest.approx(a.goodput["reported_total"], abs=0.01)
    # 1193 / 1610 = 74% failed, with the warning
    assert a.failure_rate == pytest.approx(1193 / 1610)
    assert round(100 * a.failure_rate) == 74
    assert "many-failed-requests" in _codes(a)
    # 417 / 2811.39 = 0.15 req/s
    assert round(a.request_rates["successful"], 2) == 0.15
    assert round(a.request_rates["attempted"], 2) == 0.57
    # mean TPOT 27.55 <= 50 ms passes, on the decode node; but 74% of the requests
    # failed, so the run does not pass (it did, judged on TPOT alone)
    v, f = a.verdicts
    assert (v.metric, v.statistic, v.slo, v.value, v.passed, v.node) == (
        "tpot",
        "mean",
        50.0,
        27.55,
        True,
        "decode",
    )
    assert (f.metric, f.unit, f.slo, f.passed) == ("failed_requests", "%", 0.0, False)
    assert round(f.value, 1) == 74.1
    assert a.failed and a.outcome == "fail"


def test_notes_warnings_exactly():
    a = _one(NOTES)
    assert _codes(a) == ["many-failed-requests", "ttft-tail-queueing"]
    many = a.caveats[0]
    assert many.severity == "warning"
    assert "describe only the 417" in many.message
    assert "22.5x" in a.caveats[1].message


def test_json_contract_keys():
    doc = _one(NOTES).to_json()
    for key in (
        "successful_requests",
        "failed_requests",
        "failure_rate",
        "duration_s",
        "decode_speed_per_request_tok_s",
        "effective_decode_streams",
        "goodput_tok_s",
        "verdicts",
    ):
        assert key in doc
    assert set(doc["decode_speed_per_request_tok_s"]) == {"mean", "median", "p99"}
    assert {"mean", "peak"} <= set(doc["effective_decode_streams"])
    assert {"input", "output", "total"} <= set(doc["goodput_tok_s"])
    assert {"metric", "slo", "value", "passed", "node"} <= set(doc["verdicts"][0])
    assert doc["successful_requests"] == 417 and doc["failed_requests"] == 1193
    assert doc["duration_s"] == 2811.39
    assert doc["reported"]["completed"] == 417  # counts stay integers


def test_ttft_and_itl_slos_give_verdicts_per_node():
    a = _one(NOTES, Slos(tpot_ms=25, ttft_ms=500, itl_ms=30))
    got = [(v.metric, v.passed, v.node) for v in a.verdicts]
    assert got == [
        ("ttft", False, "prefill"),
        ("tpot", False, "decode"),
        ("itl", True, "decode"),
        ("failed_requests", False, ""),
    ]
    assert a.failed


def test_old_report_lacks_failed_and_peak():
    a = _one(FIX / "old-benchmark-serving.txt")
    assert a.streams["peak"] is None
    assert a.verdicts[0].passed is False  # 63.89 ms
    assert "failed-count-inferred" in _codes(a)


def test_failed_count_unknown_when_nothing_tells():
    text = NOTES.read_text().replace("Failed requests:                         1193\n", "")
    [r] = loads(text.encode(), "x")
    a = analyze(r, Slos())
    assert a.failed_requests is None and a.failure_rate is None
    assert "failed-count-unknown" in _codes(a)
    assert "many-failed-requests" not in _codes(a)


def test_warmup_itl_and_peak_smells():
    a = _one(FIX / "v0.33-kubectl.log")
    codes = _codes(a)
    assert "successful-equals-warmups" in codes
    assert "itl-far-below-tpot" in codes  # median ITL 24.87 vs mean TPOT 56.31
    assert "peak-streams-above-concurrency" in codes
    assert "few-requests" in codes
    assert "ttft-tail-queueing" not in codes  # 640 vs 405: no tail
    assert a.verdicts[0].passed is False


def test_itl_above_tpot_is_a_note():
    text = NOTES.read_text().replace(
        "Median ITL (ms):                         26.53", "Median ITL (ms):                         80.00"
    )
    [r] = loads(text.encode(), "x")
    a = analyze(r, Slos())
    [c] = [c for c in a.caveats if c.code == "itl-above-tpot"]
    assert c.severity == "note"


def test_all_failed():
    text = """============ Serving Benchmark Result ============
Successful requests:                     0
Failed requests:                         50
Benchmark duration (s):                  3.10
Total input tokens:                      0
Total generated tokens:                  0
Request throughput (req/s):              0.00
Output token throughput (tok/s):         0.00
Total token throughput (tok/s):          0.00
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          0.00
Median TPOT (ms):                        0.00
P99 TPOT (ms):                           0.00
==================================================
"""
    [r] = loads(text.encode(), "x")
    a = analyze(r, Slos())
    assert a.failure_rate == 1.0
    assert a.decode_speed == {"mean": None, "median": None, "p99": None}
    assert a.verdicts[0].passed is None  # 0 ms of nothing is no pass
    assert _codes(a)[0] == "all-requests-failed"


def test_slos_must_be_positive():
    with pytest.raises(VcfgError, match="--slo-tpot-ms"):
        Slos(tpot_ms=0)
    with pytest.raises(VcfgError, match="--slo-ttft-ms"):
        Slos(ttft_ms=-5)


def test_total_mismatch_note():
    text = NOTES.read_text().replace("750.42", "900.00")
    [r] = loads(text.encode(), "x")
    assert "total-throughput-mismatch" in _codes(analyze(r, Slos()))
