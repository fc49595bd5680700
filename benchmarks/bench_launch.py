"""Launch-script front end speed: parse a 30-line launch script, and import cost.

    python benchmarks/bench_launch.py

Baselines, printed as ratios in the same run:
- ``bashlex`` parsing the same script, when it is installed (the pure-Python bash
  parser other tools use); otherwise ``shlex.split`` of the script with its line
  continuations joined (a tokenizer only: no variables, no environment, no
  positions), the floor of any argv reading in Python;
- a bare interpreter start (``python -c pass``), the floor of any command;
  importing the front end (``vcfg.launch.shell``) is shown on top of it.

Measured (2 shared CPUs, python 3.11, tree-sitter 0.25; other jobs running):
a 30-line script (the user's decode script plus a prefill launch and a proxy)
parses in about 0.4 ms of CPU time, 1.1-1.7x a bare ``shlex.split`` of its
lines, while also resolving variables, the environment and every position;
resolving both launches' argv against the bundled 0.33.0 catalog takes another
0.3-0.4 ms.  Importing the front end adds about 9 ms to a 24 ms interpreter
start (1.36x), 10 ms with the first parse (1.41x); tree-sitter-bash's own
package ``__init__`` is skipped (see shell._bash_language).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "tests" / "fixtures" / "launch" / "seed_decode.sh"

#: The user's decode script (19 lines) plus a prefill launch and a proxy: 30+ lines.
EXTRA = """\
# prefill node and proxy (same host, for the benchmark)
set -e
PREFILL_PORT=${PREFILL_PORT:-20001}
CUDA_VISIBLE_DEVICES=0,1,2,3 \\
  VLLM_LOGGING_LEVEL=INFO \\
  vllm serve /models/DeepSeek-V3.2 --port "$PREFILL_PORT" -tp 4 \\
  --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer"}' \\
  > prefill.log 2>&1 &
python3 disagg_proxy_p2p_nccl_xpyd.py --port 30002 \\
  --prefill http://127.0.0.1:$PREFILL_PORT --decode http://127.0.0.1:20002 &
wait
"""


def timed(fn, repeat: int, inner: int = 1, clock=time.perf_counter) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t = clock()
        for _ in range(inner):
            fn()
        runs.append((clock() - t) / inner)
    return statistics.median(runs)


def cpu_timed(fn, repeat: int, inner: int) -> float:  # type: ignore[no-untyped-def]
    """CPU time of this process (other load on the machine does not count)."""
    return timed(fn, repeat, inner, time.process_time)


def process(cmd: list[str], env: dict[str, str], repeat: int = 15) -> float:
    # one warm-up run fills the OS file cache and writes the bytecode
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return timed(lambda: subprocess.run(cmd, check=True, capture_output=True, env=env), repeat)


def main() -> None:
    script = SEED.read_text() + EXTRA
    nlines = script.count("\n")
    from vcfg.launch.shell import parse_script

    plan = parse_script(script, "bench.sh")  # warm-up: builds the tree-sitter parser
    assert len(plan.invocations) == 3, plan.invocations
    ours = cpu_timed(lambda: parse_script(script, "bench.sh"), repeat=21, inner=50)

    args_time = None
    try:
        from vcfg.catalog import store
        from vcfg.launch.args import parse_invocation

        cat = store.load_exact("0.33.0")
        launches = [i for i in plan.invocations if i.kind == "serve"]
        args_time = cpu_timed(lambda: [parse_invocation(i, cat, plan) for i in launches], repeat=21, inner=20)
    except Exception as e:  # noqa: BLE001 - no bundled catalog: skip that line
        print(f"(no vLLM 0.33.0 catalog for the argv line: {e})")

    try:
        import bashlex  # type: ignore[import-not-found]

        base_name = "bashlex.parse"
        base = cpu_timed(lambda: bashlex.parse(script), repeat=7, inner=5)
    except ImportError:
        import shlex

        base_name = "shlex.split, no bashlex"
        joined = script.replace("\\\n", " ")
        base = cpu_timed(
            lambda: [shlex.split(line, comments=True) for line in joined.splitlines()], repeat=21, inner=50
        )

    # start-up as an installed package has it: bytecode cached (kept out of the repo)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="vcfg-bench-pyc-")
    bare = process([sys.executable, "-c", "pass"], env)
    front = process([sys.executable, "-c", "import vcfg.launch.shell"], env)
    first = process(
        [
            sys.executable,
            "-c",
            f"from vcfg.launch.shell import parse_script; parse_script(open({str(SEED)!r}, 'rb').read())",
        ],
        env,
    )

    print(
        f"vcfg launch front end benchmark, {nlines}-line script, python {sys.version.split()[0]}, {os.cpu_count()} cpus"
    )
    print(f"  parse_script (warm)             {ours * 1e6:8.0f} us   (CPU time, median of 21 x 50)")
    print(f"  {base_name:<31} {base * 1e6:8.0f} us   (baseline: parse_script takes {ours / base:.2f}x its time)")
    if args_time is not None:
        print(
            f"  + vLLM argv semantics, 2 serves {args_time * 1e6:8.0f} us   (parse_invocation, bundled 0.33.0 catalog)"
        )
    print(f"  python -c pass                  {bare * 1000:8.1f} ms   (baseline)")
    print(
        f"  python -c 'import shell'        {front * 1000:8.1f} ms   = {front / bare:.2f}x the bare interpreter "
        f"(+{(front - bare) * 1000:.1f} ms)"
    )
    print(
        f"  import + first parse (cold)     {first * 1000:8.1f} ms   = {first / bare:.2f}x the bare interpreter "
        f"(+{(first - bare) * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
