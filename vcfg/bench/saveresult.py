"""Reads the JSON `vllm bench serve --save-result` writes.

The file is one JSON object (serve.py:2457, 0.33.0), or several on separate lines with
`--append-result`. Its keys are the run's arguments (serve.py:2306-2335: "date",
"backend", "model_id", "num_prompts", "request_rate" -- the string "inf" for no limit --,
"max_concurrency", ...) merged with the benchmark's result (serve.py:1319-1341:
"duration", "completed", "failed", "total_input_tokens", ..., and "{stat}_{metric}_ms"
from serve.py:1426-1432). Per-request arrays ("input_lens", "output_lens", "ttfts",
"itls", "errors", ...) are kept only with `--save-detailed` (serve.py:2428-2444), except
"latencies" (0.30+), which stays.

Older writers differ: "failed" first appears in 0.11.2 (serve.py:800), the peak keys in
0.11.0 (serve.py:733-734), and the repository's benchmarks/benchmark_serving.py saved the
goodput under the key "request_goodput:" (with the colon; vllm-project/vllm#20274).
"""

from __future__ import annotations

import math
import re
from typing import Any, Optional

from vcfg.bench.model import BenchResult, PerRequest
from vcfg.bench.tools import is_sglang_json

# Numeric keys copied into BenchResult.summary as they are.
SUMMARY_KEYS = (
    "duration",
    "completed",
    "failed",
    "total_input_tokens",
    "total_output_tokens",
    "request_throughput",
    "request_goodput",
    "input_throughput",
    "output_throughput",
    "total_token_throughput",
    "max_output_tokens_per_s",
    "max_concurrent_requests",
    "rtfx",
    "probe_completed",
    "probe_failed",
    "probe_median_e2el_ms",
    "probe_p99_e2el_ms",
    "probe_max_e2el_ms",
)
ALIASES = {"request_goodput:": "request_goodput"}
# SGLang's result JSON (tools.py): its end-to-end latency under vLLM's name
SGLANG_ALIASES = {
    f"{stat}_e2e_latency_ms": f"{stat}_e2el_ms" for stat in ("mean", "median", "std", "p90", "p95", "p99")
}
_LATENCY_KEY = re.compile(r"^(mean|median|std|p\d+(?:\.\d+)?)_(.+)_ms$")

MAX_ERROR_SAMPLES = 10


def is_result(obj: Any) -> bool:
    return isinstance(obj, dict) and "completed" in obj and "duration" in obj


def is_pytorch_format(obj: Any) -> bool:
    """The companion file written next to the result (save_to_pytorch_benchmark_format,
    serve.py:1552, 0.33.0): a list of records with "benchmark" and "metric"."""
    return (
        isinstance(obj, list)
        and bool(obj)
        and all(isinstance(r, dict) and "benchmark" in r and "metric" in r for r in obj)
    )


def _num(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _int(value: Any) -> Optional[int]:
    v = _num(value)
    return int(v) if v is not None and math.isfinite(v) else None


def parse_result(obj: dict[str, Any], source: str) -> BenchResult:
    summary: dict[str, float] = {}
    sglang = is_sglang_json(obj)
    for key, value in obj.items():
        key = ALIASES.get(key, key)
        if sglang:
            key = SGLANG_ALIASES.get(key, key)
        v = _num(value)
        if v is None:
            continue
        if key in SUMMARY_KEYS or _LATENCY_KEY.match(key):
            summary[key] = v
    notes: list[str] = []
    if sglang:
        notes.append("read as SGLang bench_serving output (its keys mapped to vLLM's; SGLang saves no failed count)")
    per_request, problem = _per_request(obj)
    if problem:
        notes.append(f"per-request arrays ignored: {problem}")

    failed_source: Optional[str] = "reported" if "failed" in summary else None
    num_prompts = _int(obj.get("num_prompts"))
    if failed_source is None and per_request is not None and per_request.errors:
        summary["failed"] = float(sum(1 for e in per_request.errors if e))
        failed_source = "errors"
    if failed_source is None and num_prompts is not None and "completed" in summary:
        if num_prompts >= summary["completed"]:
            summary["failed"] = num_prompts - summary["completed"]
            failed_source = "num_prompts"

    rate_raw = obj.get("request_rate")
    rate = math.inf if rate_raw == "inf" else _num(rate_raw)
    errors: list[str] = []
    raw_errors = obj.get("errors")
    if isinstance(raw_errors, list):
        for e in raw_errors:
            if isinstance(e, str) and e.strip() and len(errors) < MAX_ERROR_SAMPLES:
                errors.append(" ".join(e.split())[:300])
    model = obj.get("model_id")
    return BenchResult(
        source=source,
        kind="sglang-json" if sglang else "save-result-json",
        summary=summary,
        failed_source=failed_source,
        num_prompts=num_prompts,
        # not saved by vLLM; present when the user recorded it with --metadata
        num_warmups=_int(_metadata_number(obj.get("num_warmups"))),
        request_rate=rate,
        max_concurrency=_int(obj.get("max_concurrency")),
        model_id=model if isinstance(model, str) else None,
        error_samples=tuple(errors),
        per_request=per_request,
        notes=tuple(notes),
    )


def _metadata_number(value: Any) -> Any:
    # --metadata KEY=VALUE stores strings (serve.py:2315-2319, 0.33.0)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return value


def _floats(value: Any, name: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise ValueError(f"'{name}' is not a list")
    out = []
    for x in value:
        v = 0.0 if x is None else _num(x)
        if v is None:
            raise ValueError(f"'{name}' holds a non-number")
        out.append(v)
    return tuple(out)


def _counts(value: Any, name: str) -> tuple[int, ...]:
    out = []
    for v in _floats(value, name):
        if not 0 <= v < 1e12:
            raise ValueError(f"'{name}' holds {v:g}, not a token count")
        out.append(int(v))
    return tuple(out)


def _per_request(obj: dict[str, Any]) -> tuple[Optional[PerRequest], Optional[str]]:
    """The arrays, or (None, why) when they are missing or malformed."""
    if not all(k in obj for k in ("ttfts", "itls", "output_lens")):
        return None, None
    try:
        ttfts = _floats(obj["ttfts"], "ttfts")
        output_lens = _counts(obj["output_lens"], "output_lens")
        raw_itls = obj["itls"]
        if not isinstance(raw_itls, list):
            raise ValueError("'itls' is not a list")
        itls = tuple(_floats(x if x is not None else [], "itls[]") for x in raw_itls)
        n = len(ttfts)
        input_lens: tuple[int, ...] = ()
        if "input_lens" in obj:
            input_lens = _counts(obj["input_lens"], "input_lens")
        latencies = _floats(obj["latencies"], "latencies") if "latencies" in obj else None
        errors: tuple[str, ...] = ()
        if isinstance(obj.get("errors"), list):
            errors = tuple(e if isinstance(e, str) else "" for e in obj["errors"])
        lengths = {
            "ttfts": n,
            "itls": len(itls),
            "output_lens": len(output_lens),
            "input_lens": len(input_lens) if input_lens else n,
            "latencies": len(latencies) if latencies is not None else n,
            "errors": len(errors) if errors else n,
        }
        if len(set(lengths.values())) != 1:
            shown = ", ".join(f"{k} {v}" for k, v in lengths.items())
            raise ValueError(f"arrays of different lengths ({shown})")
        if n == 0:
            return None, None
    except ValueError as e:
        return None, str(e)
    return (
        PerRequest(
            input_lens=input_lens,
            output_lens=output_lens,
            ttfts_s=ttfts,
            itls_s=itls,
            latencies_s=latencies,
            errors=errors,
        ),
        None,
    )
