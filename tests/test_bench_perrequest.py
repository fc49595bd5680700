"""Per-request data: distributions, goodput under SLOs (vLLM's definition), violators.

tests/fixtures/bench/small-detailed.json holds five requests chosen to check by hand:

  #  out  ttft   itls (s)                 TPOT (ms)        max ITL  outcome
  0  5    0.2    .02 .02 .02 .02          80/4 = 20        20
  1  3    0.5    .06 .06                  120/2 = 60       60
  2  -    -      -                        failed ("Bad Gateway")
  3  1    1.5    -                        one token: 0     -
  4  4    0.3    .01 .10 .01              120/3 = 40       100
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.bench import Slos, analyze, load
from vcfg.bench.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "fixtures" / "bench" / "small-detailed.json"
DETAILED = ROOT / "examples" / "bench" / "detailed-1p1d.json"


def _analysis(slos: Slos):
    [r] = load(str(SMALL))
    return analyze(r, slos)


def test_percentile_matches_numpy_linear_definition():
    assert percentile([20, 40, 60], 99) == pytest.approx(59.6)
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([5], 99) == 5
    assert percentile([], 50) is None


def test_distributions():
    p = _analysis(Slos()).per_request
    assert p is not None and (p.requests, p.successful) == (5, 4)
    tpot = p.distributions["tpot"]
    assert tpot["count"] == 3  # the one-token request has no TPOT (as in vLLM)
    assert (tpot["mean"], tpot["median"], tpot["p99"], tpot["max"]) == (40, 40, 59.6, 60)
    ttft = p.distributions["ttft"]
    assert (ttft["count"], ttft["mean"], ttft["median"]) == (4, 625, 400)
    itl = p.distributions["itl"]
    assert itl["count"] == 9 and itl["median"] == 20 and itl["max"] == 100


def test_latency_falls_back_to_per_request_when_not_reported():
    a = _analysis(Slos())
    assert a.latency_source["tpot"] == "per-request"
    assert a.latency["tpot"]["mean"] == 40
    assert a.decode_speed["mean"] == 25


def test_goodput_tpot_only():
    g = _analysis(Slos(tpot_ms=50)).per_request.slo_goodput
    # good: #0 (20 ms), #3 (0: one token), #4 (40 ms); broke: #1 (60 ms)
    assert (g.good, g.successful, g.sent) == (3, 4, 5)
    assert [v.index for v in g.violations] == [1]
    assert g.violations[0].broke == ("tpot",)
    assert g.request_goodput_req_s == 1.5  # 3 / 2.0 s
    assert g.output_goodput_tok_s == 5.0  # (5 + 1 + 4) tokens / 2.0 s


def test_goodput_every_metric_must_hold():
    g = _analysis(Slos(tpot_ms=50, ttft_ms=1000, itl_ms=50)).per_request.slo_goodput
    assert g.good == 1  # only #0
    assert g.broken_by == {"ttft": 1, "tpot": 1, "itl": 2}
    # worst first: #4 (ITL 100/50 = 2.0), #3 (TTFT 1500/1000), #1 (60/50)
    assert [(v.index, v.broke) for v in g.violations] == [
        (4, ("itl",)),
        (3, ("ttft",)),
        (1, ("tpot", "itl")),
    ]
    doc = g.to_json()
    assert "vLLM's --goodput definition" in doc["definition"]
    assert doc["violations_total"] == 3 and doc["good_fraction_of_successful"] == 0.25


def test_slo_equal_to_value_is_good():
    # vLLM: good when value <= SLO
    g = _analysis(Slos(tpot_ms=60)).per_request.slo_goodput
    assert g.good == 4


def test_detailed_example_recomputes_vllm_numbers():
    [r] = load(str(DETAILED))
    a = analyze(r, Slos())
    d = a.per_request.distributions
    for metric in ("ttft", "tpot", "itl"):
        for stat in ("mean", "median", "p99"):
            assert d[metric][stat] == pytest.approx(r.latency(metric, stat), abs=1e-3)
    g = a.per_request.slo_goodput
    assert g.successful == 62 and g.good == 59
    assert {v.index for v in g.violations} == {12, 47, 55}
