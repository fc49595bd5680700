"""Two analyses side by side, with the ratio B / A and whether B is better."""

from __future__ import annotations

from typing import Any, Callable, Optional

from vcfg.bench.metrics import Analysis
from vcfg.bench.stats import ratio, rounded
from vcfg.errors import VcfgError
from vcfg.records import record

#: a change within this fraction is "same"
SAME_WITHIN = 0.02
#: a change for the worse beyond this many percent is a regression (--max-regression-pct)
DEFAULT_MAX_REGRESSION_PCT = 10.0
#: rows that are shares (0..1): their change is counted in percentage points
SHARES = frozenset({"failure_rate", "slo_good_fraction"})

Getter = Callable[[Analysis], Optional[float]]


def _lat(metric: str, stat: str) -> Getter:
    """The reported statistic, else the one from the per-request data (P90 and E2EL
    are there even when the run did not print them)."""

    def get(a: Analysis) -> Optional[float]:
        value = a.latency.get(metric, {}).get(stat)
        if value is None and a.per_request is not None:
            value = a.per_request.distributions.get(metric, {}).get(stat)
        return value

    return get


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
    ("request_throughput_req_s", "request throughput (req/s)", lambda a: a.request_rates["successful"], True),
    ("output_throughput_tok_s", "output throughput (tok/s)", lambda a: a.output_throughput, True),
    ("peak_output_throughput_tok_s", "peak output throughput (tok/s)", lambda a: a.peak_output_throughput, True),
    ("peak_concurrent_requests", "peak concurrent requests", lambda a: a.streams.get("peak_concurrent_requests"), None),
    *(
        (f"{stat}_{metric}_ms", f"{label_stat} {label} (ms)", _lat(metric, stat), False)
        for metric, label in (("ttft", "TTFT"), ("tpot", "TPOT"), ("itl", "ITL"), ("e2el", "E2EL"))
        for stat, label_stat in (("mean", "mean"), ("median", "median"), ("p90", "P90"), ("p99", "P99"))
    ),
    ("decode_speed_mean_tok_s", "decode speed per request, mean (tok/s)", lambda a: a.decode_speed["mean"], True),
    ("decode_speed_median_tok_s", "decode speed per request, median (tok/s)", lambda a: a.decode_speed["median"], True),
    ("decode_speed_p99_tok_s", "decode speed per request, P99 (tok/s)", lambda a: a.decode_speed["p99"], True),
    ("effective_decode_streams_mean", "effective decode streams, mean", lambda a: a.streams["mean"], None),
    ("effective_decode_streams_peak", "effective decode streams, peak", lambda a: a.streams["peak"], None),
    ("goodput_input_tok_s", "input token goodput (tok/s)", lambda a: a.goodput["input"], True),
    ("goodput_output_tok_s", "output token goodput (tok/s)", lambda a: a.goodput["output"], True),
    ("goodput_total_tok_s", "total token goodput (tok/s)", lambda a: a.goodput["total"], True),
    (
        "request_goodput_req_s",
        "request goodput, as vLLM reports it (req/s)",
        lambda a: a.result.get("request_goodput"),
        True,
    ),
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
    max_regression_pct: float = DEFAULT_MAX_REGRESSION_PCT

    @property
    def regressions(self) -> list[Row]:
        """Rows where B is worse than A by more than the threshold."""
        return [r for r in self.rows if regressed(r, self.max_regression_pct)]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "ratio": "b / a",
            "rows": [r.to_json() for r in self.rows],
            "max_regression_pct": self.max_regression_pct,
            "regressions": [r.key for r in self.regressions],
        }


def regression_pct(r: Row) -> Optional[float]:
    """How much worse B is, in percent of A (percentage points for shares); None when
    B is not worse or the row has no direction."""
    if r.change != "worse" or r.a is None or r.b is None:
        return None
    if r.key in SHARES:
        return 100.0 * abs(r.b - r.a)
    if r.a == 0:
        return float("inf")
    return 100.0 * abs(r.b - r.a) / abs(r.a)


def regressed(r: Row, threshold_pct: float) -> bool:
    pct = regression_pct(r)
    return pct is not None and pct > threshold_pct


def _change(a: Optional[float], b: Optional[float], higher_better: Optional[bool]) -> Optional[str]:
    if a is None or b is None or higher_better is None:
        return None
    if a == b or (a != 0 and abs(b - a) <= SAME_WITHIN * abs(a)):
        return "same"
    return "better" if (b > a) == higher_better else "worse"


def compare(a: Analysis, b: Analysis, max_regression_pct: float = DEFAULT_MAX_REGRESSION_PCT) -> Comparison:
    if not max_regression_pct >= 0:
        raise VcfgError(f"--max-regression-pct must be 0 or more, got {max_regression_pct:g}")
    rows = []
    for key, label, get, higher_better in ROWS:
        va, vb = get(a), get(b)
        if va is None and vb is None:
            continue
        rows.append(Row(key, label, va, vb, ratio(vb, va), _change(va, vb, higher_better)))
    return Comparison(a, b, rows, max_regression_pct)
