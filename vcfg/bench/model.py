"""A parsed `vllm bench serve` result, whatever it was read from.

Both readers (the printed text report and the `--save-result` JSON) produce the same
`BenchResult`: a `summary` keyed by the names vLLM itself uses in its result JSON
(vllm/benchmarks/serve.py:1319-1341 in 0.33.0: "completed", "failed", "duration",
"max_output_tokens_per_s", "mean_tpot_ms", "p99_ttft_ms", ...), so the text labels are
mapped once, in textreport.py, and everything downstream speaks one vocabulary.
"""

from __future__ import annotations

from typing import Literal, Mapping, Optional

from vcfg.records import field, record

#: vLLM's text report or --save-result JSON, or SGLang bench_serving's (tools.py)
InputKind = Literal["text", "save-result-json", "sglang-text", "sglang-json"]

# The latency metrics vLLM reports, by the attribute name it uses in JSON keys
# (serve.py:1435-1438 and the client-queue ones after it, 0.33.0).
LATENCY_METRICS = (
    "ttft",
    "tpot",
    "itl",
    "e2el",
    "client_queue_time",
    "e2el_including_client_queue",
)


@record(frozen=True)
class PerRequest:
    """The per-request arrays of a `--save-result --save-detailed` JSON, one entry per
    request sent (failed ones included), times in seconds as vLLM stores them."""

    input_lens: tuple[int, ...]
    output_lens: tuple[int, ...]
    ttfts_s: tuple[float, ...]
    itls_s: tuple[tuple[float, ...], ...]
    #: end-to-end latency; saved since vLLM 0.30 ("latencies"), else ttft + sum(itl)
    latencies_s: Optional[tuple[float, ...]]
    #: "" for a request that succeeded (RequestFuncOutput.error defaults to "")
    errors: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.ttfts_s)

    def succeeded(self, i: int) -> bool:
        if self.errors:
            return not self.errors[i]
        return self.output_lens[i] > 0

    def latency_s(self, i: int) -> float:
        if self.latencies_s is not None:
            return self.latencies_s[i]
        # vLLM rebuilds a latency the same way for its timeline plot
        # (serve.py:2362, 0.33.0): the stream's last token comes sum(itl) after the first.
        return self.ttfts_s[i] + sum(self.itls_s[i])

    def tpot_s(self, i: int) -> float:
        """vLLM's per-request TPOT (serve.py:655-660, 0.33.0): (latency - ttft) /
        (output_len - 1), and 0 for a request of one token or less."""
        n = self.output_lens[i]
        if n <= 1:
            return 0.0
        return (self.latency_s(i) - self.ttfts_s[i]) / (n - 1)


@record(frozen=True)
class BenchResult:
    #: file name, with "#N" appended when the file holds several results
    source: str
    kind: InputKind
    #: numbers under vLLM's own result-JSON key names; absent when not reported
    summary: Mapping[str, float]
    #: where the failed count came from: "reported", "errors" (counted from the
    #: per-request errors), "num_prompts" (num_prompts - completed) or None (unknown)
    failed_source: Optional[str] = None
    num_prompts: Optional[int] = None
    num_warmups: Optional[int] = None
    request_rate: Optional[float] = None
    max_concurrency: Optional[int] = None
    model_id: Optional[str] = None
    #: error messages vLLM printed or saved for failed requests (a few)
    error_samples: tuple[str, ...] = ()
    #: labels of the text report that vcfg does not map, with their raw values
    extras: Mapping[str, str] = field(default_factory=dict)
    per_request: Optional[PerRequest] = None
    #: things the reader noticed about the input itself (truncated report, bad arrays)
    notes: tuple[str, ...] = ()

    def get(self, key: str) -> Optional[float]:
        return self.summary.get(key)

    def latency(self, metric: str, stat: str) -> Optional[float]:
        """`latency("tpot", "p99")` -> summary["p99_tpot_ms"]."""
        return self.summary.get(f"{stat}_{metric}_ms")
