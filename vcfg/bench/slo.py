"""The service-level objectives a result is judged against."""

from __future__ import annotations

from typing import Optional

from vcfg.errors import VcfgError
from vcfg.records import record

#: the acceptance the user's notes use: mean TPOT within 50 ms
DEFAULT_TPOT_MS = 50.0
#: a benchmark in which requests failed measured the survivors only: none may fail
DEFAULT_MAX_FAILED_PCT = 0.0


@record(frozen=True)
class Slos:
    tpot_ms: float = DEFAULT_TPOT_MS
    ttft_ms: Optional[float] = None
    itl_ms: Optional[float] = None
    #: the most failed requests a passing run may have, in percent of those sent
    max_failed_pct: float = DEFAULT_MAX_FAILED_PCT
    #: the least share of sent requests that must be good under the latency SLOs
    #: (vLLM's goodput definition), in percent; None: no goodput verdict
    min_goodput_pct: Optional[float] = None

    def __post_init__(self) -> None:
        for name, value in (("tpot", self.tpot_ms), ("ttft", self.ttft_ms), ("itl", self.itl_ms)):
            if value is not None and not value > 0:
                raise VcfgError(f"--slo-{name}-ms must be a positive number, got {value:g}")
        for name, value in (
            ("--max-failed-pct", self.max_failed_pct),
            ("--min-goodput-pct", self.min_goodput_pct),
        ):
            if value is not None and not 0 <= value <= 100:
                raise VcfgError(f"{name} must be a percentage from 0 to 100, got {value:g}")

    def items(self) -> list[tuple[str, float]]:
        """(metric, SLO in ms) for each objective set, TTFT first (the request's order)."""
        out = []
        for metric, value in (("ttft", self.ttft_ms), ("tpot", self.tpot_ms), ("itl", self.itl_ms)):
            if value is not None:
                out.append((metric, value))
        return out

    def describe(self) -> str:
        parts = [f"{m.upper()} <= {v:g} ms" for m, v in self.items()]
        parts.append(f"failed <= {self.max_failed_pct:g}%")
        if self.min_goodput_pct is not None:
            parts.append(f"goodput >= {self.min_goodput_pct:g}%")
        return ", ".join(parts)
