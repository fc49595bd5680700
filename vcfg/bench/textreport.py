"""Reads the report `vllm bench serve` prints, from a bare copy or from a whole log.

The report is a block that opens with a 50-column "=== Serving Benchmark Result ===" line
and closes with a line of 50 "=" (serve.py:1220 and :1498 in 0.33.0; :501 and :577 in
0.10.0). Inside: "Label:  value" lines and "---Section---" lines. Releases differ:
0.10.x prints no "Failed requests" (first at serve.py:754 in 0.11.2) and no peak lines
(first at serve.py:709-711 in 0.11.0); before 0.13.0 the label is "Total Token
throughput" (serve.py:792 in 0.12.0, lowercase from serve.py:793 in 0.13.0). Labels are
therefore matched case-insensitively, and unknown ones are kept, not rejected.

Lines before a report (the log of the run) give context: the warm-up count, the
Namespace of arguments, the "Error N: ..." lines of failed requests. A log prefix in front
of every line (timestamps, pod names) is stripped using the prefix of the header line.
"""

from __future__ import annotations

import math
import re
from typing import Optional

from vcfg.bench.model import BenchResult, InputKind
from vcfg.bench.tools import is_sglang_labels

# Text label (lowercase) -> vLLM's result-JSON key (serve.py:1221-1275 and :1319-1341,
# 0.33.0; the input-throughput label is from the older benchmarks/benchmark_serving.py).
LABEL_KEYS: dict[str, str] = {
    "successful requests": "completed",
    "failed requests": "failed",
    "maximum request concurrency": "max_concurrency",
    "request rate configured (rps)": "request_rate",
    "benchmark duration (s)": "duration",
    "total input tokens": "total_input_tokens",
    "total generated tokens": "total_output_tokens",
    "request throughput (req/s)": "request_throughput",
    "request goodput (req/s)": "request_goodput",
    "input token throughput (tok/s)": "input_throughput",
    "output token throughput (tok/s)": "output_throughput",
    "peak output token throughput (tok/s)": "max_output_tokens_per_s",
    "peak concurrent requests": "max_concurrent_requests",
    "total token throughput (tok/s)": "total_token_throughput",
    "rtfx (inverse real-time factor)": "rtfx",
    "probe requests completed": "probe_completed",
    "probe requests failed": "probe_failed",
    "median probe e2el (ms)": "probe_median_e2el_ms",
    "p99 probe e2el (ms)": "probe_p99_e2el_ms",
    "max probe e2el (ms)": "probe_max_e2el_ms",
}

# The display name in "Mean TTFT (ms):" -> the attribute in "mean_ttft_ms"
# (process_one_metric calls, serve.py:1435-1452, 0.33.0).
METRIC_NAMES: dict[str, str] = {
    "ttft": "ttft",
    "tpot": "tpot",
    "itl": "itl",
    "e2el": "e2el",
    "client queue time": "client_queue_time",
    "e2el incl. client queue": "e2el_including_client_queue",
    # SGLang's bench_serving ("Mean E2E Latency (ms)")
    "e2e latency": "e2el",
}

# SGLang's labels for what vLLM calls otherwise (sglang/bench_serving.py, 0.5.x)
SGLANG_LABEL_KEYS: dict[str, str] = {
    "traffic request rate": "request_rate",
    "max request concurrency": "max_concurrency",
    "total throughput (tok/s)": "total_token_throughput",
}

_HEADER = re.compile(r"^(?P<prefix>.*?)=+\s*Serving Benchmark Result\s*=+\s*$", re.I)
_CLOSE = re.compile(r"^\s*={20,}\s*$")
_SECTION = re.compile(r"^\s*-{2,}.*-{2,}\s*$")
_VALUE_LINE = re.compile(r"^\s*(?P<label>[^:]+?):\s+(?P<value>\S+)\s*$")
# "Mean TTFT (ms)", "P99.9 ITL (ms)"; p_word is str(int(p)) or str(p) (serve.py:1430)
_LATENCY_LABEL = re.compile(r"^(?P<stat>mean|median|std|p(?P<p>\d+(?:\.\d+)?))\s+(?P<name>.+?)\s+\(ms\)$", re.I)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# Context lines of the run's log (serve.py:927, :989, :992, :710-712, 0.33.0; the
# argument Namespace printed at serve.py:908 in 0.10.0).
_WARMUP = re.compile(r"Warming up with (\d+) requests")
_NS_WARMUPS = re.compile(r"\bnum_warmups=(\d+)")
_NS_PROMPTS = re.compile(r"\bnum_prompts=(\d+)")
# the command line itself, echoed by the script or the shell: `--num-prompts 1610`
_CMD_PROMPTS = re.compile(r"(?:^|\s)--num[-_]prompts(?:=|\s+)['\"]?(\d+)")
_NS_MODEL = re.compile(r"\bmodel='([^']*)'")
_RATE = re.compile(r"Traffic request rate:\s*(\S+)")
_CONCURRENCY = re.compile(r"Maximum request concurrency:\s*(\d+)\s*$")
_ERROR_LINE = re.compile(r"^\s*Error \d+:\s*(.*\S)\s*$")

MAX_ERROR_SAMPLES = 10


def _number(raw: str) -> Optional[float]:
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _prefix_pattern(prefix: str) -> Optional[re.Pattern[str]]:
    """The header's log prefix as a pattern in which every digit may vary, so that
    "2025-06-11T14:22:10.010Z " also strips "2025-06-11T14:22:11.523Z "."""
    if not prefix:
        return None
    return re.compile(re.sub(r"\\?\d", r"\\d", re.escape(prefix)))


def _strip(line: str, prefix: Optional[re.Pattern[str]]) -> str:
    line = _ANSI.sub("", line)
    if prefix is not None and (m := prefix.match(line)):
        return line[m.end() :]
    return line


def _latency_key(label: str) -> Optional[str]:
    m = _LATENCY_LABEL.match(label)
    if not m:
        return None
    name = m.group("name").lower()
    metric = METRIC_NAMES.get(name) or re.sub(r"[^a-z0-9]+", "_", name).strip("_")
    stat = m.group("stat").lower()
    return f"{stat}_{metric}_ms"


def parse_text(text: str, source: str) -> list[BenchResult]:
    """Every report in `text` that has a "Successful requests" line, in order."""
    lines = text.splitlines()
    results: list[BenchResult] = []
    context_start = 0
    starts: list[int] = [n for n, line in enumerate(lines) if _HEADER.match(_ANSI.sub("", line))]
    for k, start in enumerate(starts):
        header = _HEADER.match(_ANSI.sub("", lines[start]))
        assert header is not None
        prefix = _prefix_pattern(header.group("prefix"))
        # a later header ends this block even if the closing line is missing
        limit = starts[k + 1] if k + 1 < len(starts) else len(lines)
        summary: dict[str, float] = {}
        extras: dict[str, str] = {}
        notes: list[str] = []
        labels: set[str] = set()
        closed = False
        i = start + 1
        while i < limit:
            body = _strip(lines[i], prefix)
            if _CLOSE.match(body):
                closed = True
                break
            i += 1
            if _SECTION.match(body):
                continue
            m = _VALUE_LINE.match(body)
            if not m:
                continue
            label = " ".join(m.group("label").split())
            raw = m.group("value")
            labels.add(label.lower())
            key = LABEL_KEYS.get(label.lower()) or SGLANG_LABEL_KEYS.get(label.lower()) or _latency_key(label)
            value = _number(raw)
            if key is None or value is None:
                extras[label] = raw
            else:
                summary[key] = value
        if not closed:
            notes.append("the report has no closing '=====' line (truncated log?)")
        context = [_strip(line, prefix) for line in lines[context_start:start]]
        context_start = i + 1
        if "completed" not in summary:
            continue  # a header with nothing under it: a run killed mid-print
        sglang = is_sglang_labels(labels)
        if sglang:
            notes.append(
                "read as SGLang bench_serving output (its labels mapped to vLLM's; SGLang reports no failed count)"
            )
        results.append(
            _result(
                source,
                summary,
                extras,
                notes,
                context=context,
                kind="sglang-text" if sglang else "text",
            )
        )
    if len(results) > 1:
        results = [_renamed(r, f"{source}#{n}") for n, r in enumerate(results, start=1)]
    return results


def _renamed(r: BenchResult, source: str) -> BenchResult:
    from vcfg.records import replace

    return replace(r, source=source)


def _result(
    source: str,
    summary: dict[str, float],
    extras: dict[str, str],
    notes: list[str],
    context: list[str],
    kind: InputKind = "text",
) -> BenchResult:
    num_warmups: Optional[int] = None
    ns_warmups: Optional[int] = None
    num_prompts: Optional[int] = None
    model: Optional[str] = None
    rate: Optional[float] = None
    concurrency: Optional[int] = None
    errors: list[str] = []
    for line in context:
        if m := _WARMUP.search(line):
            num_warmups = int(m.group(1))
        if m := _NS_WARMUPS.search(line):
            ns_warmups = int(m.group(1))
        if m := _NS_PROMPTS.search(line) or _CMD_PROMPTS.search(line):
            num_prompts = int(m.group(1))
        if m := _NS_MODEL.search(line):
            model = m.group(1) or None
        if m := _RATE.search(line):
            # "inf" when no rate was set (serve.py:989, 0.33.0)
            rate = math.inf if m.group(1) == "inf" else _number(m.group(1))
        if m := _CONCURRENCY.search(line):
            concurrency = int(m.group(1))
        if (m := _ERROR_LINE.match(line)) and len(errors) < MAX_ERROR_SAMPLES:
            errors.append(m.group(1)[:300])
    if num_warmups is None:
        num_warmups = ns_warmups
    if "request_rate" in summary:
        rate = summary["request_rate"]
    elif extras.get("Traffic request rate") == "inf":
        rate = math.inf
    if "max_concurrency" in summary:
        concurrency = int(summary["max_concurrency"])
    failed_source = "reported" if "failed" in summary else None
    if failed_source is None and num_prompts is not None and "completed" in summary:
        if num_prompts >= summary["completed"]:
            summary["failed"] = num_prompts - summary["completed"]
            failed_source = "num_prompts"
    return BenchResult(
        source=source,
        kind=kind,
        summary=summary,
        failed_source=failed_source,
        num_prompts=num_prompts,
        num_warmups=num_warmups,
        request_rate=rate,
        max_concurrency=concurrency,
        model_id=model,
        error_samples=tuple(errors),
        extras=extras,
        notes=tuple(notes),
    )
