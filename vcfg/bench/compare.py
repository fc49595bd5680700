"""Two analyses side by side, with the ratio B / A and whether B is better."""

from __future__ import annotations

from typing import Any, Callable, Optional

from vcfg.bench.metrics import Analysis
from vcfg.bench.stats import ratio, rounded
from vcfg.records import record

#: a change within this fraction is "same"
SAME_WITHIN = 0.02

Getter = Callable[[Analysis], Optional[float]]


def _lat(metric: str, stat: str) -> Getter:
    return lambda a: a.latency.get(metric, {}).get(stat)


def _slo_fraction(a: Analysis) -> Optional[float]:
    return a.per_request.slo_goodput.good_fraction if a.per_request else None


def _slo_rate(a: Analysis) -> Optional[float]:
    return a.per_request.slo_goodput.request_goodput_req_s if a.per_request else None


def _count(value: Optional[int]) -> Optional[float]:
    return None if value is None else float(value)


# (key, label, getter, True: higher is better / False: lower / None: neither)
ROWS: list[tuple[str, str, Getter, Optional[bool]]] = [
    ("successful_requests", "successful requests", lambda a: _count(a.successful_requests), None),
    ("failed_requests", "failed requests", lambda a: _count(a.failed_requests), None),
    ("failure_rate", "failure rate", lambda a: a.failure_rate, False),
    ("duration_s", "duration (s)", lambda a: a.duration_s, None),
    ("request_throughput_req_s", "request throughput (req/s)",
     lambda a: a.request_rates["successful"], True),
    ("output_throughput_tok_s", "output throughput (tok/s)", lambda a: a.output_throughput, True),
    ("peak_output_throughput_tok_s", "peak output throughput (tok/s)",
     lambda a: a.peak_output_throughput, True),
    ("peak_concurrent_requests", "peak concurrent requests",
     lambda a: a.streams.get("peak_concurrent_requests"), None),
    ("mean_ttft_ms", "mean TTFT (ms)", _lat("ttft", "mean"), False),
    ("median_ttft_ms", "median TTFT (ms)", _lat("ttft", "median"), False),
    ("p99_ttft_ms", "P99 TTFT (ms)", _lat("ttft", "p99"), False),
    ("mean_tpot_ms", "mean TPOT (ms)", _lat("tpot", "mean"), False),
    ("median_tpot_ms", "median TPOT (ms)", _lat("tpot", "median"), False),
    ("p99_tpot_ms", "P99 TPOT (ms)", _lat("tpot", "p99"), False),
    ("mean_itl_ms", "mean ITL (ms)", _lat("itl", "mean"), False),
    ("median_itl_ms", "median ITL (ms)", _lat("itl", "median"), False),
    ("p99_itl_ms", "P99 ITL (ms)", _lat("itl", "p99"), False),
    ("decode_speed_mean_tok_s", "decode speed per request, mean (tok/s)",
     lambda a: a.decode_speed["mean"], True),
    ("decode_speed_median_tok_s", "decode speed per request, median (tok/s)",
     lambda a: a.decode_speed["median"], True),
    ("decode_speed_p99_tok_s", "decode speed per request, P99 (tok/s)",
     lambda a: a.decode_speed["p99"], True),
    ("effective_decode_streams_mean", "effective decode streams, mean",
     lambda a: a.streams["mean"], None),
    ("effective_decode_streams_peak", "effective decode streams, peak",
     lambda a: a.streams["peak"], None),
    ("goodput_input_tok_s", "input token goodput (tok/s)", lambda a: a.goodput["input"], True),
    ("goodput_output_tok_s", "output token goodput (tok/s)", lambda a: a.goodput["output"], True),
    ("goodput_total_tok_s", "total token goodput (tok/s)", lambda a: a.goodput["total"], True),
    ("slo_good_fraction", "good under SLOs, of successful", _slo_fraction, True),
    ("slo_request_goodput_req_s", "request goodput under SLOs (req/s)", _slo_rate, True),
]


@record(frozen=True)
class Row:
    key: str
    label: str
    a: Optional[float]
    b: Optional[float]
    ratio: Optional[float]
    #: "better", "worse", "same" or None (no direction, or a value missing)
    change: Optional[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.key,
            "label": self.label,
            "a": rounded(self.a),
            "b": rounded(self.b),
            "ratio": rounded(self.ratio),
            "change": self.change,
        }


@record(frozen=True)
class Comparison:
    a: Analysis
    b: Analysis
    rows: list[Row]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "ratio": "b / a",
            "rows": [r.to_json() for r in self.rows],
        }


def _change(a: Optional[float], b: Optional[float], higher_better: Optional[bool]) -> Optional[str]:
    if a is None or b is None or higher_better is None:
        return None
    if a == b or (a != 0 and abs(b - a) <= SAME_WITHIN * abs(a)):
        return "same"
    return "better" if (b > a) == higher_better else "worse"


def compare(a: Analysis, b: Analysis) -> Comparison:
    rows = []
    for key, label, get, higher_better in ROWS:
        va, vb = get(a), get(b)
        if va is None and vb is None:
            continue
        rows.append(Row(key, label, va, vb, ratio(vb, va), _change(va, vb, higher_better)))
    return Comparison(a, b, rows)
