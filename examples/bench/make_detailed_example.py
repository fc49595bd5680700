"""Writes detailed-1p1d.json: a synthetic result in the shape `vllm bench serve
--save-result --save-detailed` writes (vLLM 0.33: keys of vllm/benchmarks/serve.py
1319-1341 and 2306-2335), for a simulated 1P1D deployment. Not a real run: the numbers
come from a small seeded simulation so that the example is reproducible.

    python examples/bench/make_detailed_example.py
"""

from __future__ import annotations

import heapq
import json
import math
import random
from pathlib import Path

SEED = 7
NUM_PROMPTS = 64
REQUEST_RATE = 2.0
MAX_CONCURRENCY = 16
PERCENTILES = (99,)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    lo = math.floor(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def stats(values_s: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values_s]
    mean = sum(ms) / len(ms)
    std = math.sqrt(sum((v - mean) ** 2 for v in ms) / len(ms))
    out = {"mean": mean, "median": pct(ms, 50), "std": std}
    for p in PERCENTILES:
        out[f"p{p}"] = pct(ms, p)
    return out


def simulate() -> dict:
    rng = random.Random(SEED)
    t0 = 84213.402117  # a perf_counter() reading, as vLLM's start_time is
    arrivals, t = [], t0
    for _ in range(NUM_PROMPTS):
        t += rng.expovariate(REQUEST_RATE)
        arrivals.append(t)
    busy: list[float] = []  # end times of requests holding a concurrency slot
    rows = []
    for i, arrive in enumerate(arrivals):
        while len(busy) >= MAX_CONCURRENCY:
            heapq.heappop(busy)
        start = max(arrive, min(busy) if len(busy) >= MAX_CONCURRENCY else arrive)
        in_flight = sum(1 for e in busy if e > start)
        prompt = rng.randint(700, 3200)
        if i in (23, 41):  # the decode node dropped two connections
            rows.append(
                (
                    prompt,
                    0,
                    0.0,
                    [],
                    0.0,
                    start,
                    start - arrive,
                    "ServerDisconnectedError: decode instance closed the stream",
                )
            )
            continue
        out_len = rng.randint(32, 160)
        # prefill: compute grows with the prompt, queueing with the requests in flight
        ttft = 0.09 + prompt * 0.00011 + in_flight * rng.uniform(0.004, 0.02)
        if i in (30, 31, 32):
            ttft += rng.uniform(1.5, 2.6)  # a burst queued on the prefill node
        # first decode gap waits for the KV transfer from prefill to decode
        gaps = [rng.uniform(0.06, 0.12)]
        base = 0.022 + in_flight * 0.0006
        for _ in range(out_len - 2):
            gaps.append(max(0.012, rng.gauss(base, 0.003)))
        if i in (12, 47, 55):  # preempted on the decode node: a long stall
            gaps[rng.randint(5, len(gaps) - 1)] += rng.uniform(3.0, 4.5)
        gaps = [round(g, 6) for g in gaps]
        ttft = round(ttft, 6)
        latency = round(ttft + sum(gaps), 6)
        rows.append((prompt, out_len, ttft, gaps, latency, start, start - arrive, ""))
        heapq.heappush(busy, start + latency)
    return assemble(rows, arrivals[0])


def assemble(rows: list, first_arrival: float) -> dict:
    ok = [r for r in rows if not r[7]]
    end = max(r[5] + r[4] for r in ok)
    duration = end - first_arrival + 0.003
    total_in = sum(r[0] for r in ok)
    total_out = sum(r[1] for r in ok)
    ttfts = [r[2] for r in ok]
    tpots = [(r[4] - r[2]) / (r[1] - 1) for r in ok if r[1] > 1]
    itls = [g for r in ok for g in r[3]]

    # peak tokens per second and concurrent requests, in one-second buckets
    t_min = min(r[5] for r in ok)
    buckets = int(math.ceil(end - t_min)) + 1
    tokens, concurrent = [0] * buckets, [0] * buckets
    for _prompt, _out_len, ttft, gaps, latency, start, _, _ in ok:
        t = start + ttft
        times = [t]
        for g in gaps:
            t += g
            times.append(t)
        for tt in times:
            tokens[int(tt - t_min)] += 1
        for sec in range(int(start - t_min), int(start + latency - t_min) + 1):
            concurrent[sec] += 1

    result = {
        "date": "20250611-142208",
        "endpoint_type": "vllm",
        "backend": "vllm",
        "label": None,
        "model_id": "Qwen/Qwen3-32B",
        "tokenizer_id": "Qwen/Qwen3-32B",
        "num_prompts": NUM_PROMPTS,
        "request_rate": REQUEST_RATE,
        "burstiness": 1.0,
        "max_concurrency": MAX_CONCURRENCY,
        "duration": duration,
        "completed": len(ok),
        "failed": len(rows) - len(ok),
        "total_input_tokens": total_in,
        "total_output_tokens": total_out,
        "request_throughput": len(ok) / duration,
        "request_goodput": None,
        "output_throughput": total_out / duration,
        "total_token_throughput": (total_in + total_out) / duration,
        "input_lens": [r[0] for r in rows],
        "output_lens": [r[1] for r in rows],
        "ttfts": [r[2] for r in rows],
        "itls": [r[3] for r in rows],
        "latencies": [r[4] for r in rows],
        "start_times": [round(r[5], 6) for r in rows],
        "queue_times": [round(r[6], 6) for r in rows],
        "generated_texts": ["" for _ in rows],
        "errors": [r[7] for r in rows],
        "max_output_tokens_per_s": float(max(tokens)),
        "max_concurrent_requests": max(concurrent),
        "rtfx": 0.0,
    }
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("itl", itls)):
        for stat, value in stats(values).items():
            result[f"{stat}_{name}_ms"] = value
    return result


if __name__ == "__main__":
    out = Path(__file__).with_name("detailed-1p1d.json")
    out.write_text(json.dumps(simulate()) + "\n", encoding="utf-8")
    print(f"wrote {out}")
