"""Catalog speed: build from an extracted vLLM source tree, and load a bundled catalog.

    python benchmarks/bench_catalog.py [VERSION]     (default 0.33.0; downloads it once)

Baselines, printed as ratios in the same run:
- a bare interpreter start (`python -c pass`), the floor of any command;
- importing vLLM's own argument module (`vllm.engine.arg_utils`) when an oracle venv
  exists (tests/oracle/setup_env.sh): what reading the surface by importing costs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def process(cmd: list[str], repeat: int = 5, env=None) -> float:  # type: ignore[no-untyped-def]
    return timed(lambda: subprocess.run(cmd, check=True, capture_output=True, env=env), repeat)


def main() -> None:
    version = sys.argv[1] if len(sys.argv) > 1 else "0.33.0"
    from vcfg.catalog import store
    from vcfg.catalog.extract.build import build_catalog
    from vcfg.catalog.extract.source import from_version

    from_version(version)  # downloaded and extracted once, into the cache
    # a fresh VllmSource each time: its parse cache would make later builds cheaper
    build = timed(lambda: build_catalog(from_version(version)), 3)
    from vcfg.catalog import packed

    path = store.BUNDLED_DIR / f"vllm-{version}.json"
    text = path.read_text(encoding="utf-8")
    facts = store.BUNDLED_DIR / packed.FACTS_FILE

    def load_packed():  # type: ignore[no-untyped-def]
        packed._table.cache_clear()  # the shared table read again, as a fresh lint does
        return store.parse(text, "bench", trusted=True, facts=facts)

    load = timed(load_packed, 20)
    plain = store.dumps(load_packed(), compact=True)  # a user's catalog is plain JSON
    checked = timed(lambda: store.parse(plain, "bench"), 20)
    bare = process([sys.executable, "-c", "pass"])
    cold_load = process([sys.executable, "-c", f"from vcfg.catalog import store; store.load({version!r})"])

    print(f"vcfg catalog benchmark, vllm {version}, {os.cpu_count()} cpus")
    print(f"  build from extracted source   {build * 1000:8.1f} ms (median of 3)")
    print(
        f"  load bundled catalog (warm)   {load * 1000:8.1f} ms (median of 20, {len(text) // 1024} KiB of rows "
        f"+ the {facts.stat().st_size // 1024} KiB facts table; unchecked, entries built when read)"
    )
    print(f"  load it checked, as a user's  {checked * 1000:8.1f} ms (median of 20)")
    print(f"  python -c pass                {bare * 1000:8.1f} ms   (baseline)")
    print(
        f"  python: import + load catalog {cold_load * 1000:8.1f} ms   = {cold_load / bare:.1f}x the bare interpreter"
    )
    oracle = Path(os.environ.get("VCFG_CACHE_DIR", Path.home() / ".cache" / "vcfg")) / "oracle-venv" / "bin" / "python"
    if oracle.exists():
        env = dict(os.environ, VLLM_TARGET_DEVICE="cpu")
        vllm_import = process([str(oracle), "-c", "import vllm.engine.arg_utils"], repeat=1, env=env)
        print(f"  import vllm.engine.arg_utils  {vllm_import * 1000:8.1f} ms   (baseline: vLLM's own code)")
        print(f"  build from source is {vllm_import / build:.1f}x faster than importing vLLM's arg module")
    else:
        print("  (no oracle venv: run tests/oracle/setup_env.sh for the vLLM import baseline)")


if __name__ == "__main__":
    main()
