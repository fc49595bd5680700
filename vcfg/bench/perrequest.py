"""What the per-request arrays of a `--save-detailed` result add: distributions of TTFT,
TPOT and ITL, goodput under SLOs, and the requests that broke them.

Goodput follows vLLM's definition (calculate_metrics, serve.py:669-692 in 0.33.0): a
successful request is good when each metric with an SLO is <= that SLO; its TPOT is
(latency - ttft) / (output_len - 1), counted as 0 for one-token outputs. vLLM's --goodput
takes ttft, tpot and e2el (serve.py:1517); vcfg adds ITL, which holds for a request when
every inter-token gap of it is <= the SLO.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.bench.model import PerRequest
from vcfg.bench.slo import Slos
from vcfg.bench.stats import ratio, rounded, summarize_ms
from vcfg.records import field, record

GOODPUT_DEFINITION = (
    "a successful request is good if each metric with an SLO is <= its SLO "
    "(vLLM's --goodput definition; TPOT of a one-token output counts as 0; "
    "ITL, a vcfg addition, means every inter-token gap of the request)"
)
MAX_VIOLATIONS = 1000


@record(frozen=True)
class Violation:
    index: int
    ttft_ms: float
    tpot_ms: float
    max_itl_ms: Optional[float]
    broke: tuple[str, ...]
    #: the largest value / SLO among the broken metrics: how badly
    excess: float

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "ttft_ms": rounded(self.ttft_ms),
            "tpot_ms": rounded(self.tpot_ms),
            "max_itl_ms": rounded(self.max_itl_ms),
            "broke": list(self.broke),
        }


@record(frozen=True)
class SloGoodput:
    slos: dict[str, float]
    sent: int
    successful: int
    good: int
    request_goodput_req_s: Optional[float]
    output_goodput_tok_s: Optional[float]
    broken_by: dict[str, int]
    #: worst first
    violations: list[Violation] = field(default_factory=list)

    @property
    def good_fraction(self) -> Optional[float]:
        return ratio(float(self.good), float(self.successful))

    def to_json(self) -> dict[str, Any]:
        return {
            "definition": GOODPUT_DEFINITION,
            "slos_ms": dict(self.slos),
            "requests_sent": self.sent,
            "successful_requests": self.successful,
            "good_requests": self.good,
            "good_fraction_of_successful": rounded(self.good_fraction),
            "good_fraction_of_sent": rounded(ratio(float(self.good), float(self.sent))),
            "request_goodput_req_s": rounded(self.request_goodput_req_s),
            "output_goodput_tok_s": rounded(self.output_goodput_tok_s),
            "broken_by": dict(self.broken_by),
            "violations_total": self.successful - self.good,
            "violations": [v.to_json() for v in self.violations[:MAX_VIOLATIONS]],
            "violations_truncated": self.successful - self.good > MAX_VIOLATIONS,
        }


@record(frozen=True)
class PerRequestAnalysis:
    requests: int
    successful: int
    #: "ttft", "tpot", "itl", "e2el" -> count, mean, median, p90, p99, max (ms)
    distributions: dict[str, dict[str, Optional[float]]]
    slo_goodput: SloGoodput
    #: seconds, per successful request (for plots)
    ttfts_s: tuple[float, ...] = ()
    tpots_s: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "successful": self.successful,
            "distributions_ms": self.distributions,
            "slo_goodput": self.slo_goodput.to_json(),
        }


def analyze_per_request(pr: PerRequest, slos: Slos, duration_s: Optional[float]) -> PerRequestAnalysis:
    ok = [i for i in range(len(pr)) if pr.succeeded(i)]
    ttfts = [pr.ttfts_s[i] for i in ok]
    # vLLM's TPOT list leaves out one-token outputs (serve.py:655-660, 0.33.0)
    tpots = [pr.tpot_s(i) for i in ok if pr.output_lens[i] > 1]
    itls = [gap for i in ok for gap in pr.itls_s[i]]
    e2els = [pr.latency_s(i) for i in ok]
    distributions: dict[str, dict[str, Optional[float]]] = {}
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        summary = summarize_ms(values)
        if summary is not None:
            distributions[name] = summary

    limits = dict(slos.items())
    broken_by = {m: 0 for m in limits}
    violations: list[Violation] = []
    good_output_tokens = 0
    for i in ok:
        at: dict[str, Optional[float]] = {
            "ttft": pr.ttfts_s[i] * 1000.0,
            "tpot": pr.tpot_s(i) * 1000.0,
            "itl": max(pr.itls_s[i]) * 1000.0 if pr.itls_s[i] else None,
        }
        broke = tuple(m for m, slo in limits.items() if (x := at[m]) is not None and x > slo)
        if not broke:
            good_output_tokens += pr.output_lens[i]
            continue
        for m in broke:
            broken_by[m] += 1
        violations.append(
            Violation(
                index=i,
                ttft_ms=at["ttft"] or 0.0,
                tpot_ms=at["tpot"] or 0.0,
                max_itl_ms=at["itl"],
                broke=broke,
                excess=max((at[m] or 0.0) / limits[m] for m in broke),
            )
        )
    violations.sort(key=lambda v: (-v.excess, v.index))
    good = len(ok) - len(violations)
    goodput = SloGoodput(
        slos=limits,
        sent=len(pr),
        successful=len(ok),
        good=good,
        request_goodput_req_s=ratio(float(good), duration_s),
        output_goodput_tok_s=ratio(float(good_output_tokens), duration_s),
        broken_by=broken_by,
        violations=violations,
    )
    return PerRequestAnalysis(
        requests=len(pr),
        successful=len(ok),
        distributions=distributions,
        slo_goodput=goodput,
        ttfts_s=tuple(ttfts),
        tpots_s=tuple(tpots),
    )
