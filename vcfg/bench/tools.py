"""Which benchmark tool wrote a file, so that another tool's output is never read as
`vllm bench serve`'s.

- SGLang's `python -m sglang.bench_serving` prints the same "Serving Benchmark Result"
  banner as vLLM, with other lines inside it ("Backend:", "Traffic request rate:",
  "Total generated tokens (retokenized):", "Mean E2E Latency (ms):", "Concurrency:") and no
  failed count; its JSON lines carry "total_output_tokens_retokenized" and
  "{stat}_e2e_latency_ms" (sglang/bench_serving.py, sglang 0.5.x). vcfg reads it, under
  its own labels, and says so.
- GuideLLM (benchmarks.json / .yaml / .csv and its console tables), AIPerf and its
  predecessor GenAI-Perf (profile_export*.json / .csv and the "NVIDIA AIPerf | LLM
  Metrics" table), and LiteLLM's Locust load tests (Locust's statistics table and
  `--csv` files) measure other things under other definitions (GuideLLM compares a
  "tpot" SLO with ITL; GenAI-Perf's goodput uses `<` where vLLM uses `<=`): vcfg refuses
  them with the name of the tool rather than guess.
"""

from __future__ import annotations

import re
from typing import Any, Optional

#: labels that only SGLang's report has inside the banner (lowercase)
SGLANG_LABELS = frozenset(
    {
        "backend",
        "traffic request rate",
        "max request concurrency",
        "total generated tokens (retokenized)",
        "total throughput (tok/s)",
        "concurrency",
        "accept length",
        "mean e2e latency (ms)",
        "median e2e latency (ms)",
    }
)
#: keys that only SGLang's result JSON has
SGLANG_KEYS = frozenset({"total_output_tokens_retokenized", "mean_e2e_latency_ms", "median_e2e_latency_ms"})

# Console output of the others; each pattern is a line only that tool prints.
_TEXT_SIGNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AIPerf", re.compile(r"NVIDIA AIPerf\s*\|", re.I)),
    ("GenAI-Perf", re.compile(r"NVIDIA GenAI-Perf\s*\|", re.I)),
    ("GuideLLM", re.compile(r"^\W*(Benchmarks (Metadata|Info|Stats)|guidellm\b)", re.I | re.M)),
    (
        "Locust (LiteLLM's load test)",
        re.compile(r"^\s*Type\s+Name\s+# reqs\s+# fails\s*\|", re.M),
    ),
    (
        "Locust (LiteLLM's load test)",
        re.compile(r"^\"?Type\"?,\"?Name\"?,\"?Request Count\"?,\"?Failure Count\"?", re.M),
    ),
    (
        "AIPerf or GenAI-Perf",
        re.compile(r"^\"?Metric\"?,\"?(avg|Avg)\"?,.*\b(p99|P99)\b", re.M),
    ),
)

_HINTS = {
    "GuideLLM": "GuideLLM reports its own statistics; read them with `guidellm` "
    "itself, or run `vllm bench serve` for vcfg to judge",
    "AIPerf": "AIPerf reports its own statistics (profile_export_aiperf.json); "
    "run `vllm bench serve` for vcfg to judge",
}


def foreign_text_tool(text: str) -> Optional[str]:
    """The name of the benchmark tool (not vLLM, not SGLang) that printed ``text``."""
    head = text[:200_000]
    for name, sign in _TEXT_SIGNS:
        if sign.search(head):
            return name
    return None


def foreign_json_tool(obj: Any) -> Optional[str]:
    """The tool (not vLLM, not SGLang) whose JSON export ``obj`` is."""
    if isinstance(obj, dict):
        benches = obj.get("benchmarks")
        if isinstance(benches, list) and (
            "args" in obj
            or "metadata" in obj
            or any(isinstance(b, dict) and ("type_" in b or "run_stats" in b) for b in benches)
        ):
            return "GuideLLM"
        # AIPerf: {"records": {metric: {"unit", "avg", ...}}, "input_config": ...};
        # GenAI-Perf: the same metric objects at the top level
        records = obj.get("records")
        metrics = records if isinstance(records, dict) else obj
        if any(isinstance(v, dict) and "unit" in v and ("avg" in v or "p99" in v) for v in metrics.values()):
            return "AIPerf" if records is not None else "AIPerf or GenAI-Perf"
    if isinstance(obj, list) and obj and all(isinstance(r, dict) for r in obj):
        if any("metadata" in r and isinstance(r.get("metrics"), dict) for r in obj):
            return "AIPerf"  # profile_export.jsonl: one record per request
    return None


def refusal_hint(tool: str) -> str:
    return _HINTS.get(
        tool,
        f"{tool} measures under its own definitions; vcfg reads `vllm bench serve` "
        "(and SGLang bench_serving) results only",
    )


def is_sglang_labels(labels: set[str]) -> bool:
    return bool(labels & SGLANG_LABELS)


def is_sglang_json(obj: dict[str, Any]) -> bool:
    return bool(SGLANG_KEYS & obj.keys())
