"""Numbers a real benchmark cannot produce: a broken measurement, not a deployment effect.

Each check names what it saw. They come from real published results
(docs/bench.md, "Broken measurements"): an SGLang-format block with "Median TPOT -0.00"
and every ITL 0.00 (the client measured no gaps: a non-streaming backend, or a stream
that delivered the whole answer in one chunk), the same numbers at request rates 2, 4
and 8 (the rate never reached the server, or one result was copied), and a TPOT of about
1 ms on a 70B model (tokens counted that were never generated, or the answer cached).
"""

from __future__ import annotations

import math
import re
from typing import Mapping, Optional, Sequence

#: A decode step reads every weight of a dense model once. At 1 byte per weight (FP8)
#: on 8 GPUs of 8 TB/s HBM each (B200, tensor parallel 8) that takes at least
#: size_B * 1e9 / 64e12 s = size_B / 64 ms; a mean TPOT below it was not measured on a
#: real decode. Speculative decoding emits several tokens per step: a result that
#: reports acceptance (vLLM's "Acceptance rate", SGLang's "Accept length") is left alone.
FLOOR_MS_PER_B = 1 / 64
#: models smaller than this are left alone: their floor is below timer noise
LARGE_MODEL_B = 30.0

# "Llama-3.3-70B-Instruct", "Qwen2.5-72B", "gpt-oss-120b"; MoE names that give the
# active size ("Qwen3-30B-A3B", "Mixtral-8x7B") are not dense and are left alone
_SIZE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[bB](?![a-zA-Z0-9])")
_MOE = re.compile(r"\d\s*x\s*\d+(?:\.\d+)?\s*[bB]|[-_]A\d+(?:\.\d+)?[bB]\b|\bMoE\b", re.I)


def dense_model_size_b(model_id: Optional[str]) -> Optional[float]:
    """Billions of parameters a model id names, for dense models only."""
    if not model_id or _MOE.search(model_id):
        return None
    sizes = [float(m.group(1)) for m in _SIZE.finditer(model_id.rsplit("/", 1)[-1])]
    return max(sizes) if sizes else None


def _negative(value: float) -> bool:
    # "-0.00" is a small negative number rounded for print: still impossible
    return value < 0 or (value == 0 and math.copysign(1.0, value) < 0)


def broken_measurement(
    latency: Mapping[str, Mapping[str, float]],
    summary: Mapping[str, float],
    model_id: Optional[str],
    speculative: bool = False,
) -> list[str]:
    """What cannot be real in one result, one sentence each; [] when nothing."""
    out: list[str] = []
    completed = summary.get("completed") or 0
    if completed <= 0:
        return out  # nothing succeeded: the zeros are vLLM's "no data", said elsewhere
    for metric, stats in latency.items():
        bad = [stat for stat, v in stats.items() if stat != "std" and _negative(v)]
        if bad:
            shown = ", ".join(f"{s} {metric.upper()} {stats[s]:.2f} ms" for s in bad)
            out.append(f"a negative latency ({shown}): no clock measures that")
    itl = latency.get("itl", {})
    tokens = summary.get("total_output_tokens")
    if itl and all(v == 0 for s, v in itl.items() if s != "std") and tokens is not None and tokens > 2 * completed:
        out.append(
            "every ITL statistic is 0.00 ms although requests generated "
            f"{tokens / completed:.0f} tokens each on average: the client saw no gaps "
            "between tokens (a non-streaming backend, or one chunk per answer)"
        )
    size = dense_model_size_b(model_id)
    tpot = latency.get("tpot", {}).get("mean")
    if size is not None and size >= LARGE_MODEL_B and tpot is not None and not speculative:
        floor = size * FLOOR_MS_PER_B
        if 0 < tpot < floor:
            out.append(
                f"a mean TPOT of {tpot:.2f} ms on a {size:g}B model is below the "
                f"{floor:.2f} ms that reading its weights once per token takes on 8 of "
                "the fastest GPUs: tokens were counted that were not generated (check "
                "the tokenizer and --ignore-eos), or answers came from a cache "
                "(speculative decoding can go below it: then ignore this)"
            )
    return out


def identical_across_rates(rates: Sequence[Optional[float]], summaries: Sequence[Mapping[str, float]]) -> bool:
    """Several results at different request rates with the same numbers."""
    known = [(r, s) for r, s in zip(rates, summaries) if r is not None]
    if len(known) < 2 or len({r for r, _ in known}) < 2:
        return False

    def measured(s: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
        skip = {"request_rate", "max_concurrency"}
        return tuple(sorted((k, v) for k, v in s.items() if k not in skip))

    first = measured(known[0][1])
    return len(first) >= 3 and all(measured(s) == first for _, s in known[1:])
