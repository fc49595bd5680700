"""Small statistics without numpy: the same definitions vLLM's benchmark uses.

vLLM computes its percentiles with numpy's default, linear interpolation between the two
nearest ranks (np.percentile, serve.py:787-793 in 0.33.0); `percentile` below follows it
so the numbers vcfg derives from per-request arrays match the ones vLLM printed.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence


def mean(values: Sequence[float]) -> Optional[float]:
    return sum(values) / len(values) if values else None


def percentile(values: Sequence[float], p: float) -> Optional[float]:
    """Linear interpolation between closest ranks: rank = p/100 * (n - 1)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100.0
    lo = math.floor(rank)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo)


def summarize_ms(values_s: Sequence[float]) -> Optional[dict[str, Optional[float]]]:
    """count, mean, median, p90, p99, max of values given in seconds, reported in ms."""
    if not values_s:
        return None
    ms = [v * 1000.0 for v in values_s]
    return {
        "count": len(ms),
        "mean": rounded(mean(ms)),
        "median": rounded(percentile(ms, 50)),
        "p90": rounded(percentile(ms, 90)),
        "p99": rounded(percentile(ms, 99)),
        "max": rounded(max(ms)),
    }


def ratio(num: Optional[float], den: Optional[float]) -> Optional[float]:
    """num / den, or None when either is unknown or den is 0 or not finite."""
    if num is None or den is None or den == 0 or not math.isfinite(den):
        return None
    if not math.isfinite(num):
        return None
    return num / den


def rounded(value: Optional[float], digits: int = 4) -> Optional[float]:
    """Rounded for output; None for unknown and for what strict JSON cannot hold."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)
