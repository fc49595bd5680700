"""Derived metrics, verdicts and warnings: the reading of a benchmark result that the
user's notes teach (docs/bench.md has the formulas and the why).

- per-request decode speed = 1000 / TPOT_ms (mean, median, P99): one request's speed;
- effective decode streams = output throughput / that speed (mean), and the peak output
  throughput / that speed, to hold against the peak concurrent requests;
- token goodput = tokens of the successful requests / duration (input + output = the
  "Total token throughput" vLLM prints; it is no decode speed);
- failure rate = failed / (successful + failed);
- verdicts: the mean of each metric with an SLO against it; TTFT is the prefill node's,
  TPOT and ITL the decode node's in a disaggregated (PD) deployment.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from vcfg.bench.model import LATENCY_METRICS, BenchResult
from vcfg.bench.perrequest import PerRequestAnalysis, analyze_per_request
from vcfg.bench.sanity import broken_measurement
from vcfg.bench.slo import Slos
from vcfg.bench.stats import ratio, rounded
from vcfg.records import field, record, replace

SCHEMA_VERSION = 1

NODE = {"ttft": "prefill", "tpot": "decode", "itl": "decode"}

FORMULAS = {
    "decode_speed_per_request_tok_s": "1000 / TPOT_ms  (mean, median, p99 of TPOT)",
    "effective_decode_streams.mean": "output_throughput / decode_speed.mean",
    "effective_decode_streams.peak": "peak_output_throughput / decode_speed.mean",
    "goodput_tok_s.input": "total_input_tokens / duration_s",
    "goodput_tok_s.output": "total_output_tokens / duration_s",
    "goodput_tok_s.total": "goodput.input + goodput.output",
    "failure_rate": "failed / (successful + failed)",
    "request_throughput_req_s.attempted": "(successful + failed) / duration_s",
}

# Thresholds of the measurement smells (docs/bench.md, "Warnings").
MANY_FAILED = 0.05
ITL_FAR_BELOW_TPOT = 0.75
ITL_ABOVE_TPOT = 1.5
TTFT_TAIL_RATIO = 5.0
TTFT_TAIL_MIN_GAP_MS = 500.0
FEW_REQUESTS = 20
PEAK_OVER_CONCURRENCY = 1.1


@record(frozen=True)
class Verdict:
    #: "ttft", "tpot", "itl" (latency SLOs), "failed_requests", "goodput", "measurement"
    metric: str
    statistic: str
    slo: float
    value: Optional[float]
    #: None when the result does not report what the verdict needs
    passed: Optional[bool]
    #: the node of a PD deployment the metric belongs to; "" for whole-run verdicts
    node: str
    unit: str = "ms"
    #: "<=": the value must not exceed the SLO; ">=": must reach it
    bound: str = "<="
    #: why the verdict is unknown or failed, when the numbers do not say it
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "statistic": self.statistic,
            "slo": self.slo,
            "value": rounded(self.value),
            "unit": self.unit,
            "bound": self.bound,
            "passed": self.passed,
            "node": self.node or None,
            "reason": self.reason or None,
        }


@record(frozen=True)
class Caveat:
    code: str
    severity: str  # "warning" or "note"
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "message": self.message}


@record(frozen=True)
class Analysis:
    result: BenchResult
    slos: Slos
    successful_requests: Optional[int]
    failed_requests: Optional[int]
    failure_rate: Optional[float]
    duration_s: Optional[float]
    #: mean, median, p99 in tok/s
    decode_speed: dict[str, Optional[float]]
    #: mean, peak, peak_concurrent_requests
    streams: dict[str, Optional[float]]
    #: input, output, total, reported_total in tok/s
    goodput: dict[str, Optional[float]]
    #: successful, attempted, configured in req/s
    request_rates: dict[str, Optional[float]]
    #: metric -> stat -> ms ("mean", "median", "p99", ...)
    latency: dict[str, dict[str, float]]
    #: metric -> "reported" or "per-request"
    latency_source: dict[str, str]
    output_throughput: Optional[float]
    peak_output_throughput: Optional[float]
    verdicts: list[Verdict]
    caveats: list[Caveat] = field(default_factory=list)
    per_request: Optional[PerRequestAnalysis] = None

    @property
    def failed(self) -> bool:
        return any(v.passed is False for v in self.verdicts)

    @property
    def outcome(self) -> str:
        """ "fail" when a verdict fails, "unknown" when one cannot be decided, else "pass"."""
        if self.failed:
            return "fail"
        return "unknown" if any(v.passed is None for v in self.verdicts) else "pass"

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "schema_version": SCHEMA_VERSION,
            "source": r.source,
            "input_format": r.kind,
            "model_id": r.model_id,
            "successful_requests": self.successful_requests,
            "failed_requests": self.failed_requests,
            "failed_requests_source": r.failed_source,
            "failure_rate": rounded(self.failure_rate),
            "duration_s": self.duration_s,
            "decode_speed_per_request_tok_s": _rounded(self.decode_speed),
            "effective_decode_streams": _rounded(self.streams),
            "goodput_tok_s": _rounded(self.goodput),
            "request_throughput_req_s": _rounded(self.request_rates),
            "output_throughput_tok_s": rounded(self.output_throughput),
            "peak_output_throughput_tok_s": rounded(self.peak_output_throughput),
            "latency_ms": {m: _rounded(s) for m, s in self.latency.items()},
            "latency_source": dict(self.latency_source),
            "verdict": self.outcome,
            "verdicts": [v.to_json() for v in self.verdicts],
            "warnings": [c.to_json() for c in self.caveats],
            "error_samples": list(r.error_samples),
            "per_request": self.per_request.to_json() if self.per_request else None,
            "formulas": dict(FORMULAS),
            "reported": {k: _json_number(k, v) for k, v in r.summary.items()},
            "unmapped_labels": dict(r.extras),
        }


# counts vLLM saves as integers (serve.py:1319-1341, 0.33.0); the text report reads
# them back as numbers, and "Peak concurrent requests" is printed as "27.00"
COUNT_KEYS = frozenset(
    {
        "completed",
        "failed",
        "total_input_tokens",
        "total_output_tokens",
        "max_concurrency",
        "max_concurrent_requests",
        "probe_completed",
        "probe_failed",
    }
)


def _json_number(key: str, value: float) -> Optional[float | int]:
    if not math.isfinite(value):
        return None  # strict JSON has no Infinity
    if key in COUNT_KEYS and float(value).is_integer():
        return int(value)
    return value


def _rounded(d: dict[str, Any]) -> dict[str, Any]:
    return {k: rounded(v) if isinstance(v, float) else v for k, v in d.items()}


def _count(value: Optional[float]) -> Optional[int]:
    return None if value is None or not math.isfinite(value) else int(round(value))


def _fmt(v: float) -> str:
    return f"{v:.2f}"


def analyze(result: BenchResult, slos: Slos) -> Analysis:
    s = result.summary
    duration = s.get("duration")
    if duration is not None and duration <= 0:
        duration = None
    completed = _count(s.get("completed"))
    failed = _count(s.get("failed"))
    failure_rate = None
    if completed is not None and failed is not None and completed + failed > 0:
        failure_rate = failed / (completed + failed)

    per_request = analyze_per_request(result.per_request, slos, duration) if result.per_request is not None else None

    latency: dict[str, dict[str, float]] = {}
    latency_source: dict[str, str] = {}
    for metric in LATENCY_METRICS:
        stats = {}
        suffix = f"_{metric}_ms"
        for key, value in s.items():
            if key.endswith(suffix) and not key.startswith("probe_"):
                stat = key[: -len(suffix)]
                if stat in ("mean", "median", "std") or (stat[:1] == "p" and stat[1:2].isdigit()):
                    stats[stat] = value
        if stats:
            latency[metric] = _ordered_stats(stats)
            latency_source[metric] = "reported"
        elif per_request is not None and metric in per_request.distributions:
            dist = per_request.distributions[metric]
            known = {k: v for k in ("mean", "median", "p99") if (v := dist[k]) is not None}
            if known:
                latency[metric] = known
                latency_source[metric] = "per-request"

    nothing_succeeded = completed == 0
    tpot = latency.get("tpot", {})
    decode_speed: dict[str, Optional[float]] = {}
    for stat in ("mean", "median", "p99"):
        tv = tpot.get(stat)
        decode_speed[stat] = None if nothing_succeeded or not tv or tv <= 0 else 1000.0 / tv

    out_tokens, in_tokens = s.get("total_output_tokens"), s.get("total_input_tokens")
    output_tput = ratio(out_tokens, duration)
    if output_tput is None:
        output_tput = s.get("output_throughput")
    input_tput = ratio(in_tokens, duration)
    if input_tput is None:
        input_tput = s.get("input_throughput")
    total = None
    if input_tput is not None and output_tput is not None:
        total = input_tput + output_tput
    goodput = {
        "input": input_tput,
        "output": output_tput,
        "total": total,
        "reported_total": s.get("total_token_throughput"),
    }

    peak_tput = s.get("max_output_tokens_per_s")
    streams = {
        "mean": ratio(output_tput, decode_speed["mean"]),
        "peak": ratio(peak_tput, decode_speed["mean"]),
        "peak_concurrent_requests": _count(s.get("max_concurrent_requests")),
    }

    successful_rate = ratio(float(completed), duration) if completed is not None else None
    if successful_rate is None:
        successful_rate = s.get("request_throughput")
    attempted = None
    if completed is not None and failed is not None:
        attempted = ratio(float(completed + failed), duration)
    configured = result.request_rate
    if configured is not None and not math.isfinite(configured):
        configured = None
    request_rates = {
        "successful": successful_rate,
        "attempted": attempted,
        "configured": configured,
    }

    verdicts = []
    for metric, slo in slos.items():
        mean = latency.get(metric, {}).get("mean")
        passed = None if mean is None or nothing_succeeded else mean <= slo
        verdicts.append(Verdict(metric, "mean", slo, mean, passed, NODE[metric]))
    verdicts.append(_failure_verdict(failure_rate, slos))
    if slos.min_goodput_pct is not None:
        verdicts.append(_goodput_verdict(slos.min_goodput_pct, per_request, s, completed, failed, duration))
    speculative = any("accept" in label.lower() for label in result.extras) or any("accept" in k for k in s)
    broken = broken_measurement(latency, s, result.model_id, speculative=speculative)
    if broken:
        verdicts.append(measurement_verdict(broken))

    analysis = Analysis(
        result=result,
        slos=slos,
        successful_requests=completed,
        failed_requests=failed,
        failure_rate=failure_rate,
        duration_s=duration,
        decode_speed=decode_speed,
        streams=streams,
        goodput=goodput,
        request_rates=request_rates,
        latency=latency,
        latency_source=latency_source,
        output_throughput=output_tput,
        peak_output_throughput=peak_tput,
        verdicts=verdicts,
        per_request=per_request,
    )
    return replace(analysis, caveats=_caveats(analysis))


def _failure_verdict(failure_rate: Optional[float], slos: Slos) -> Verdict:
    limit = slos.max_failed_pct
    if failure_rate is None:
        return Verdict(
            "failed_requests",
            "of sent",
            limit,
            None,
            None,
            "",
            unit="%",
            reason="the result does not say how many requests failed",
        )
    pct = 100 * failure_rate
    return Verdict("failed_requests", "of sent", limit, pct, pct <= limit + 1e-9, "", unit="%")


def _goodput_verdict(
    minimum: float,
    per_request: Optional[PerRequestAnalysis],
    s: Any,
    completed: Optional[int],
    failed: Optional[int],
    duration: Optional[float],
) -> Verdict:
    """The share of sent requests that were good: from the per-request data under these
    SLOs, else from vLLM's own "Request goodput" (under the run's --goodput SLOs)."""
    value: Optional[float] = None
    reason = ""
    if per_request is not None and per_request.requests:
        g = per_request.slo_goodput
        value = 100.0 * g.good / g.sent
    elif s.get("request_goodput") is not None and completed is not None and failed is not None:
        sent = completed + failed
        if duration and sent:
            value = 100.0 * s["request_goodput"] * duration / sent
            reason = "from the request goodput vLLM reported under the run's own --goodput SLOs"
    else:
        reason = (
            "needs per-request data (--save-result --save-detailed) or vLLM's request "
            "goodput (--goodput) with a failed count"
        )
    passed = None if value is None else value + 1e-9 >= minimum
    return Verdict("goodput", "good of sent", minimum, value, passed, "", unit="%", bound=">=", reason=reason)


def measurement_verdict(reasons: list[str]) -> Verdict:
    return Verdict(
        "measurement",
        "checks",
        0.0,
        float(len(reasons)),
        False,
        "",
        unit="",
        reason="; ".join(reasons),
    )


def _ordered_stats(stats: dict[str, float]) -> dict[str, float]:
    def key(stat: str) -> tuple[int, float]:
        fixed = {"mean": (0, 0.0), "median": (1, 0.0), "std": (3, 0.0)}
        return fixed.get(stat) or (2, float(stat[1:]))

    return {k: stats[k] for k in sorted(stats, key=key)}


def _tail_stat(stats: dict[str, float]) -> Optional[str]:
    """p99 when reported, else the highest percentile >= 90."""
    if "p99" in stats:
        return "p99"
    tails = [k for k in stats if k[:1] == "p" and k[1:2].isdigit() and float(k[1:]) >= 90]
    return max(tails, key=lambda k: float(k[1:])) if tails else None


def _caveats(a: Analysis) -> list[Caveat]:
    r = a.result
    out: list[Caveat] = []
    for note in r.notes:
        out.append(Caveat("input", "note", note))
    ok, failed = a.successful_requests, a.failed_requests

    if ok == 0:
        out.append(
            Caveat(
                "all-requests-failed",
                "warning",
                "no request succeeded: the latency and throughput figures are empty "
                "(vLLM prints 0 for them); look at the errors of the run",
            )
        )
    elif a.failure_rate is not None and failed and ok is not None:
        pct = 100 * a.failure_rate
        total = ok + failed
        if a.failure_rate >= MANY_FAILED:
            rate = a.request_rates["successful"]
            rate_text = f" ({rate:.2f} req/s)" if rate is not None else ""
            out.append(
                Caveat(
                    "many-failed-requests",
                    "warning",
                    f"{failed} of {total} requests failed ({pct:.1f}%): the latency "
                    f"figures describe only the {ok} that succeeded, and the failures "
                    f"stretched the wall time, so the request throughput{rate_text} "
                    "understates what the deployment can serve",
                )
            )
        else:
            out.append(
                Caveat(
                    "some-failed-requests",
                    "note",
                    f"{failed} of {total} requests failed ({pct:.1f}%)",
                )
            )
    if a.failed_requests is None:
        out.append(
            Caveat(
                "failed-count-unknown",
                "note",
                "the result does not say how many requests failed (vLLM before 0.11.2 "
                "does not report it); the failure rate is unknown",
            )
        )
    elif r.failed_source == "num_prompts":
        out.append(
            Caveat(
                "failed-count-inferred",
                "note",
                f"failed requests inferred as num_prompts - successful = {r.num_prompts} - {ok}",
            )
        )

    if r.num_warmups and ok is not None and ok == r.num_warmups:
        out.append(
            Caveat(
                "successful-equals-warmups",
                "warning",
                f"the successful count ({ok}) equals the warm-up count "
                f"(--num-warmups {r.num_warmups}): check that the server still answered "
                "after the warm-up and that these numbers are the measured run's",
            )
        )

    broken = [v for v in a.verdicts if v.metric == "measurement"]
    for v in broken:
        for reason in v.reason.split("; "):
            out.append(Caveat("broken-measurement", "error", reason))

    tpot_mean = a.latency.get("tpot", {}).get("mean")
    itl_median = a.latency.get("itl", {}).get("median")
    # a broken measurement explains the gap; no PD or scheduling story for it
    if ok and tpot_mean and itl_median is not None and tpot_mean > 0 and not broken:
        if itl_median <= ITL_FAR_BELOW_TPOT * tpot_mean:
            out.append(
                Caveat(
                    "itl-far-below-tpot",
                    "warning",
                    f"median ITL {_fmt(itl_median)} ms is far below mean TPOT "
                    f"{_fmt(tpot_mean)} ms: most tokens come fast, a few long pauses "
                    "inflate TPOT (in a PD deployment often the wait for the KV transfer "
                    "before the decode node's first token; else preemption or "
                    "scheduling stalls)",
                )
            )
        elif itl_median >= ITL_ABOVE_TPOT * tpot_mean:
            out.append(
                Caveat(
                    "itl-above-tpot",
                    "note",
                    f"median ITL {_fmt(itl_median)} ms is above mean TPOT "
                    f"{_fmt(tpot_mean)} ms: stream chunks carry several tokens "
                    "(speculative decoding or a stream interval), so ITL is per chunk, "
                    "not per token",
                )
            )

    ttft = a.latency.get("ttft", {})
    tail = _tail_stat(ttft)
    median = ttft.get("median")
    if ok and tail and median and median > 0:
        high = ttft[tail]
        if high >= TTFT_TAIL_RATIO * median and high - median >= TTFT_TAIL_MIN_GAP_MS:
            out.append(
                Caveat(
                    "ttft-tail-queueing",
                    "warning",
                    f"{tail.upper()} TTFT {_fmt(high)} ms is {high / median:.1f}x the "
                    f"median {_fmt(median)} ms: a tail of requests waited before their "
                    "first token, most likely queueing on the prefill node (or in the "
                    "proxy), not slow prefill compute",
                )
            )

    for v in a.verdicts:
        tail_stat = _tail_stat(a.latency.get(v.metric, {}))
        if v.passed and tail_stat:
            high = a.latency[v.metric][tail_stat]
            if high > v.slo:
                out.append(
                    Caveat(
                        f"{v.metric}-tail-over-slo",
                        "note",
                        f"mean {v.metric.upper()} passes, but {tail_stat.upper()} "
                        f"{_fmt(high)} ms is over the {v.slo:g} ms SLO",
                    )
                )

    peak, conc = a.streams.get("peak"), a.streams.get("peak_concurrent_requests")
    if peak is not None and conc and peak > PEAK_OVER_CONCURRENCY * conc:
        out.append(
            Caveat(
                "peak-streams-above-concurrency",
                "note",
                f"{peak:.1f} effective decode streams at peak exceed the {conc:g} peak "
                "concurrent requests: at the peak, requests decoded faster than the "
                "mean TPOT says (or tokens arrived in bursts); read the peak as a bound",
            )
        )

    gp_total, reported = a.goodput.get("total"), a.goodput.get("reported_total")
    if gp_total and reported and abs(gp_total - reported) > 0.02 * reported + 0.01:
        out.append(
            Caveat(
                "total-throughput-mismatch",
                "note",
                f"input + output token goodput is {gp_total:.2f} tok/s but the result "
                f"reports a total token throughput of {reported:.2f} tok/s",
            )
        )

    if ok and 0 < ok < FEW_REQUESTS:
        out.append(
            Caveat(
                "few-requests",
                "note",
                f"only {ok} successful requests: tail percentiles are not reliable",
            )
        )
    return out
