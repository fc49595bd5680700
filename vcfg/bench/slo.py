"""The service-level objectives a result is judged against."""

from __future__ import annotations

from typing import Optional

from vcfg.errors import VcfgError
from vcfg.records import record

#: the acceptance the user's notes use: mean TPOT within 50 ms
DEFAULT_TPOT_MS = 50.0


@record(frozen=True)
class Slos:
    tpot_ms: float = DEFAULT_TPOT_MS
    ttft_ms: Optional[float] = None
    itl_ms: Optional[float] = None

    def __post_init__(self) -> None:
        for name, value in (("tpot", self.tpot_ms), ("ttft", self.ttft_ms), ("itl", self.itl_ms)):
            if value is not None and not value > 0:
                raise VcfgError(f"--slo-{name}-ms must be a positive number, got {value:g}")

    def items(self) -> list[tuple[str, float]]:
        """(metric, SLO in ms) for each objective set, TTFT first (the request's order)."""
        out = []
        for metric, value in (("ttft", self.ttft_ms), ("tpot", self.tpot_ms), ("itl", self.itl_ms)):
            if value is not None:
                out.append((metric, value))
        return out

    def describe(self) -> str:
        return ", ".join(f"{m.upper()} <= {v:g} ms" for m, v in self.items())
