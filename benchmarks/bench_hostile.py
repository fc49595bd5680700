"""Every case of issue #18 (hostile input) run once: CPU time, peak RSS, exit code.

    python benchmarks/bench_hostile.py [--only SUBSTRING]

The cases and their generators are tests/hostile_cases.py, which tests/test_hostile.py
asserts with the same bounds.  Each case is a fresh ``python -m vcfg ...`` in a
temporary folder under a 500 MB address-space limit; its files are built first by a
separate process (not timed, and not in this process's memory, which the child's
peak RSS would otherwise include).  CPU seconds are the child's user + sys time
and its peak RSS its ``ru_maxrss`` (``os.wait4``): on a machine other people load,
wall time says little.  The acceptance of #18 is at most 5 s and 500 MB per file up
to the 20 MiB size cap, exit 0, 1 or 2, never "internal error" or a traceback: the
last column says whether each case meets it.  docs/file-policy.md quotes the table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from hostile_cases import CASES, CPU_SECONDS, MEMORY, run_vcfg  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ns = ap.parse_args()
    load = os.getloadavg()
    print(f"({os.cpu_count()} cpus, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})")
    print("| case | CPU (s) | peak RSS (MB) | exit | within 5 s, 500 MB, no traceback |")
    print("|---|---:|---:|---:|---|")
    for name, (_, args) in CASES.items():
        if ns.only and ns.only not in name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            # the files are built by a child: this process stays small (see the docstring)
            subprocess.run([sys.executable, str(REPO / "tests" / "hostile_cases.py"), name, tmp], check=True)
            cwd = Path(tmp) / "repo" if (Path(tmp) / "repo").is_dir() else Path(tmp)
            r = run_vcfg(args, cwd)
        ok = r.cpu <= CPU_SECONDS and r.rss_mb * 1024 * 1024 <= MEMORY and r.code in (0, 1, 2) and r.clean
        print(f"| {name} | {r.cpu:.2f} | {r.rss_mb:.0f} | {r.code} | {'yes' if ok else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
