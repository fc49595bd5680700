"""vcfg/cli/__init__.py's `end`: a `vcfg lint` process ends with ``os._exit`` once its
output is written, and loses nothing by it: the same bytes on stdout and stderr and
the same exit code as the interpreter's normal exit, and the normal exit whenever
something still needs it (an atexit handler, another thread)."""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"
SEEDED = ROOT / "tests" / "corpus" / "seeded"
#: 40 of the seeded scripts: statistics of some 35 rules, 1.5 KB
SOME = tuple(str(p) for p in sorted(SEEDED.glob("*.sh"))[:40])

#: runs `vcfg lint` with sys.argv[2:], through the console script's function; sys.argv[1]
#: says what else the process holds when the lint ends
DRIVER = """
import atexit, os, sys, threading
extra, sys.argv = sys.argv[1], ["vcfg", "lint", *sys.argv[2:]]
if extra == "atexit":
    atexit.register(lambda: os.write(2, b"atexit handler ran\\n"))
if extra == "thread":  # a thread that writes after the report is out
    import time
    import vcfg.cli.lint as cli_lint
    written = threading.Event()
    def write(*a, **k):
        original(*a, **k)
        written.set()
    original, cli_lint.write = cli_lint.write, write
    def late():
        written.wait(60)
        time.sleep(0.2)
        os.write(2, b"thread finished\\n")
    threading.Thread(target=late).start()
from vcfg.cli import program
program()
"""


def _lint(extra: str, *args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", DRIVER, extra, *args], stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT)


@lru_cache(maxsize=None)
def _normal_exit(*args: str) -> subprocess.CompletedProcess[bytes]:
    """`vcfg lint` with an atexit handler (the interpreter's normal exit), piped: one
    process per command line in a worker (two tests compare against the same one)."""
    return _lint("atexit", *args)


@pytest.mark.parametrize(
    "args",
    [
        ("--vllm-version", "0.33.0", str(SEED)),
        ("--format", "json", str(SEEDED)),
        ("--vllm-version", "0.13.0", "--statistics", *SOME),
    ],
)
def test_the_quick_exit_writes_what_the_normal_exit_writes(args: tuple[str, ...], tmp_path: Path) -> None:
    fast = _lint("none", *args)
    normal = _normal_exit(*args)  # an atexit handler: the normal exit
    assert normal.stderr.endswith(b"atexit handler ran\n")
    assert fast.returncode == normal.returncode == 1
    assert fast.stdout == normal.stdout and len(fast.stdout) > 1000
    assert fast.stderr == normal.stderr[: -len(b"atexit handler ran\n")]
    # stdout a file (block-buffered, not a pipe): every byte is there too
    out = tmp_path / "out.txt"
    with open(out, "wb") as fh:
        to_file = _lint("none", *args, stdout=fh)
    assert to_file.returncode == 1
    assert out.read_bytes() == fast.stdout


def test_exit_zero() -> None:
    done = _lint("none", "--exit-zero", *SOME)
    assert done.returncode == 0 and b"VC0" in done.stdout


def test_output_file_is_complete(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = _lint("none", "--format", "json", "--output-file", str(out), str(SEEDED))
    assert done.returncode == 1 and done.stdout == b""
    assert out.read_bytes() == _normal_exit("--format", "json", str(SEEDED)).stdout


def test_a_running_thread_gets_the_normal_exit() -> None:
    done = _lint("thread", "--vllm-version", "0.33.0", str(SEED))
    assert done.returncode == 1
    assert done.stderr.endswith(b"thread finished\n")


def test_a_usage_error_still_ends_with_two() -> None:
    done = _lint("none", "--no-such-option", str(SEED))
    assert done.returncode == 2 and b"--no-such-option" in done.stderr
