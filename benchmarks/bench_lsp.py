"""Language server latency and memory, over stdio as an editor sees them.

    python benchmarks/bench_lsp.py [--changes N]

- warm diagnostics: a one-line change to a 200-line launch script
  (tests/fixtures/lsp/pd-2p2d-200.sh: 4 launches, functions, loops) until the server
  publishes the diagnostics of that version, median and p99: from the client's
  ``didChange`` to its receipt of the ``publishDiagnostics`` of that version, with
  the debounce set to 0 (so no wait is counted; the server still goes once through
  its event loop); beside it the server's own time and CPU time per lint, the same
  lint in this process from scratch (`vcfg.lint.engine.lint_text` without the
  document's memo: the server's work without the wire or the reuse between edits)
  and the cold `vcfg lint` of the file (a new process each time);
- completion: requests at a flag, a JSON key and a variable, median and p99;
- memory: the server's resident set with one document on each of three releases.

Figures depend on the machine's load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
SCRIPT = ROOT / "tests" / "fixtures" / "lsp" / "pd-2p2d-200.sh"
RELEASE = "0.13.0"

from lsp_client import Client, position_of  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:7.2f} ms"


def edits(text: str, n: int) -> list[str]:
    """``n`` versions of ``text``, each one line away from the one before (a changed
    value, a typed character in a comment, a flag's number), cycling over the file."""
    lines = text.split("\n")
    spots = [i for i, s in enumerate(lines) if "--seed" in s or "--max-num-seqs" in s or s.startswith("# note")]
    out = []
    for k in range(n):
        i = spots[k % len(spots)]
        cur = list(lines)
        s = cur[i]
        cur[i] = (
            s.replace("1024", str(1000 + k))
            if "--seed" in s
            else (s.replace("256", str(200 + k % 50)) if "--max-num-seqs" in s else s + " " + "x" * (k % 7))
        )
        out.append("\n".join(cur))
        lines = cur
    return out


def cold_lint(path: Path, repeat: int) -> float:
    exe = Path(sys.executable).with_name("vcfg")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "vcfg"]
    cmd += ["lint", "--vllm-version", RELEASE, "--format", "concise", str(path)]
    env = dict(os.environ)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="vcfg-bench-pyc-")
    subprocess.run(cmd, capture_output=True, env=env)
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, env=env)
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def in_process(texts: list[str]) -> list[float]:
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import lint_text, make_target

    target = make_target(RELEASE, LintConfig())
    lint_text(str(SCRIPT), texts[0].encode(), target)
    out, cpu = [], []
    for t in texts:
        data = t.encode()
        t0, c0 = time.perf_counter(), time.process_time()
        lint_text(str(SCRIPT), data, target)
        out.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return out, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--changes", type=int, default=300)
    ap.add_argument("--completions", type=int, default=300)
    ap.add_argument("--cold", type=int, default=11)
    a = ap.parse_args()
    text = SCRIPT.read_text()
    assert text.count("\n") == 200
    texts = edits(text, a.changes)

    work = Path(tempfile.mkdtemp(prefix="vcfg-bench-lsp-"))
    c = Client(cwd=work)
    try:
        t0 = time.perf_counter()
        c.initialize(work, options={"vcfg": {"vllmVersion": RELEASE, "debounceMs": 0}})
        uri = SCRIPT.as_uri()
        c.open(uri, text)
        first = c.diagnostics(uri)
        start = time.perf_counter() - t0
        for t in texts[:20]:  # warm-up
            c.diagnostics(uri, version=c.change(uri, t))
        warm = []
        for t in texts:
            t1 = time.perf_counter()
            v = c.change(uri, t)
            c.diagnostics(uri, version=v)
            warm.append(time.perf_counter() - t1)

        served = c.command("vcfg.stats")
        spots = [
            position_of(text, "--max-num-seqs", len("--max-n")),
            position_of(text, '"kv_role"', len('"kv_r')),
            position_of(text, "VLLM_LOGGING_LEVEL", len("VLLM_LOG")),
        ]
        comp = []
        for k in range(a.completions):
            line, col = spots[k % len(spots)]
            t1 = time.perf_counter()
            got = c.completion(uri, line, col)
            comp.append(time.perf_counter() - t1)
            assert got["items"], (line, col)

        # three releases: one document each
        for k, version in enumerate(("0.10.2", "0.13.0", "0.33.0")):
            other = (work / f"r{k}.sh").as_uri()
            c.open(other, text)
            c.command("vcfg.setRelease", {"version": version, "uri": other})
            c.diagnostics(other)
        time.sleep(0.2)
        stats = c.command("vcfg.stats")
        c.shutdown()
    finally:
        c.kill()

    mem, mem_cpu = in_process(texts)
    cold = cold_lint(SCRIPT, a.cold)
    load = os.getloadavg()
    print(
        f"vcfg lsp benchmark: {SCRIPT.name} (200 lines, 4 launches), vllm {RELEASE}, python "
        f"{sys.version.split()[0]}, {os.cpu_count()} cpus, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"  server start + first diagnostics  {ms(start)}   ({len(first)} findings)")
    print(
        f"  warm diagnostics after a change   {ms(statistics.median(warm))} median  {ms(pct(warm, 0.99))} p99"
        f"   (over stdio, {len(warm)} changes, debounce 0)"
    )
    if served.get("publish_ms"):
        lint_ms = served["lint_ms"][-len(warm) :]
        pub_ms = served["publish_ms"][-len(warm) :]
        cpu_ms = served["lint_cpu_ms"][-len(warm) :]
        print(
            f"    of which in the server: lint {statistics.median(lint_ms):6.2f} ms median "
            f"({statistics.median(cpu_ms):.2f} ms CPU), lint + publish {statistics.median(pub_ms):6.2f} ms median, "
            f"{pct(pub_ms, 0.99):6.2f} ms p99"
        )
        print(
            f"    the server's CPU time per lint    {statistics.median(cpu_ms):7.2f} ms median  {pct(cpu_ms, 0.99):7.2f} ms p99"
            "   (process time: what the load on the machine inflates least)"
        )
        reads = served.get("reads", {}).get(uri)
        rules = served.get("rules", {}).get(uri)
        if reads or rules:
            print(f"    the last change: script read {reads}, launch rule runs kept/run {rules}")
        moved = served.get("moved", {}).get(uri)
        if moved is not None:
            print(f"    lints that were the last one moved (an edit inside a comment line): {moved} since the start")
    print(
        f"  the same lint in-process          {ms(statistics.median(mem))} median  {ms(pct(mem, 0.99))} p99"
        f"   (lint_text, no wire; {statistics.median(mem_cpu) * 1000:.2f} ms CPU median)"
    )
    print(
        f"  cold `vcfg lint` of the file      {ms(cold)} median   ({a.cold} runs; "
        f"{cold / statistics.median(warm):.0f}x the warm path)"
    )
    print(
        f"  completion                        {ms(statistics.median(comp))} median  {ms(pct(comp, 0.99))} p99"
        f"   ({len(comp)} requests: a flag, a JSON key, a variable)"
    )
    print(
        f"  server memory, 3 releases loaded  {stats.get('rss_kib', 0) / 1024:7.1f} MiB resident "
        f"(peak {stats.get('max_rss_kib', 0) / 1024:.1f} MiB; releases {', '.join(stats.get('releases', []))})"
    )


if __name__ == "__main__":
    main()
