"""Lint speed, as ratios against named baselines, in one run.

    python benchmarks/bench_lint.py

- cold `vcfg lint` of one script (the seed example), against a bare interpreter start
  (`python -c pass`) and, when the oracle venv exists (tests/oracle/setup_env.sh),
  vLLM's own `vllm serve --help` (what finding the same mistakes by starting vLLM costs
  at the very least);
- one `vcfg lint` run over 1,000 launch scripts (copies of the test corpus), in files
  per second.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VCFG = [sys.executable, "-m", "vcfg"]


def median_time(cmd: list[str], repeat: int, env=None) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, env=env)
        runs.append(time.perf_counter() - t)
        if proc.returncode not in (0, 1):  # 1: findings
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    return statistics.median(runs)


def main() -> None:
    example = ROOT / "examples" / "pd-decode-p2p.sh"
    bare = median_time([sys.executable, "-c", "pass"], 10)
    one = median_time([*VCFG, "lint", "--vllm-version", "0.33.0", str(example)], 10)
    print(f"vcfg lint benchmark ({os.cpu_count()} cpus)")
    print(f"  python -c pass                     {bare * 1000:8.1f} ms  (baseline)")
    print(f"  vcfg lint, one script, cold        {one * 1000:8.1f} ms  = {one / bare:.1f}x the bare interpreter")

    sources = sorted((ROOT / "tests" / "corpus").rglob("*.sh")) or [example]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(1000):
            src = sources[i % len(sources)]
            shutil.copy(src, Path(tmp) / f"{i:04d}-{src.name}")
        t = time.perf_counter()
        proc = subprocess.run([*VCFG, "lint", "--vllm-version", "0.33.0", "--format", "concise", tmp],
                              capture_output=True, text=True)
        batch = time.perf_counter() - t
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-300:]
        if "in 1000 files" not in last:
            raise SystemExit(f"the batch run did not lint 1000 files: {last}")
    print(f"  vcfg lint, 1000 scripts, one run   {batch:8.2f} s   = {1000 / batch:.0f} files/s")

    cache = Path(os.environ.get("VCFG_CACHE_DIR", Path.home() / ".cache" / "vcfg"))
    oracle = cache / "oracle-venv" / "bin" / "vllm"
    if oracle.exists():
        env = dict(os.environ, VLLM_TARGET_DEVICE="cpu")
        vllm_help = median_time([str(oracle), "serve", "--help"], 1, env=env)
        print(f"  vllm serve --help (vLLM 0.33.0)    {vllm_help * 1000:8.1f} ms  (baseline)")
        print(f"  vcfg lint is {vllm_help / one:.0f}x faster than vLLM merely parsing its arguments")
    else:
        print("  (no oracle venv: tests/oracle/setup_env.sh adds the `vllm serve --help` baseline)")


if __name__ == "__main__":
    main()
