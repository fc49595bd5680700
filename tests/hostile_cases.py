"""The adversarial inputs of issue #18 (hostile input), shared by tests/test_hostile.py
and benchmarks/bench_hostile.py: one generator per class of input, the cases (files
built in a folder, the vcfg arguments), and how one case is run and measured.

A case runs ``python -m vcfg ARGS`` in a fresh process under a 500 MB address-space
limit (``RLIMIT_AS``, the issue's memory bound: more is a MemoryError, which vcfg
reports as an error, so a test sees it) and reports the child's own CPU seconds and
peak RSS from ``os.wait4``: CPU time, not wall time, is the issue's 5 s, since six
other people's work on the shared machine stretches wall time several-fold.
"""

from __future__ import annotations

import contextlib
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple, Optional

REPO = Path(__file__).resolve().parents[1]
#: the issue's bounds per file up to the size cap
CPU_SECONDS = 5.0
MEMORY = 500 * 1024 * 1024

MiB = 1024 * 1024
NINES = "9" * 100_000


def laughs(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def pods(n: int) -> str:
    return "---\n".join(
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{i}\nspec:\n  containers:\n  - name: v\n"
        '    image: vllm/vllm-openai:v0.10.2\n    args: ["m", "--port", "8000"]\n'
        for i in range(n)
    )


def services(n: int, ports: bool = False) -> str:
    return "services:\n" + "".join(
        f'  s{i}:\n    image: vllm/vllm-openai:v0.10.2\n    command: ["m", "--port", "8000"]\n'
        + ('    ports: ["8000:8000"]\n' if ports else "")
        for i in range(n)
    )


def configmaps(n: int) -> str:
    """Kubernetes objects with no container: read to the YAML reader's 2 MiB note."""
    return "---\n".join(
        f'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\ndata:\n  a: "1"\n  b: two\n' for i in range(n)
    )


def fill(path: Path, unit: bytes, size: int = 20 * MiB - 4096) -> None:
    with open(path, "wb") as fh:
        n = size // len(unit)
        for _ in range(0, n, 4096):
            fh.write(unit * min(4096, n))
            n -= 4096


def random_file(path: Path, size: int = 20 * MiB - 4096) -> None:
    rng = random.Random(18)
    path.write_bytes(rng.randbytes(size))


#: name -> (build the files in the folder, the vcfg arguments)
Case = tuple[Callable[[Path], None], list[str]]


def _w(name: str, text: str | bytes) -> Callable[[Path], None]:
    def build(d: Path) -> None:
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode() if isinstance(text, str) else text)

    return build


def _all(*builds: Callable[[Path], None]) -> Callable[[Path], None]:
    def build(d: Path) -> None:
        for b in builds:
            b(d)

    return build


def _special(d: Path) -> None:
    os.mkfifo(d / "fifo.sh")
    os.mkfifo(d / "fifo.yaml")
    (d / "zero.sh").symlink_to("/dev/zero")
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(d / "sock.sh"))


def _outside(d: Path) -> None:
    (d / "repo" / ".git").mkdir(parents=True)
    (d / "out").mkdir()
    os.mkfifo(d / "out" / "fifo.yaml")
    (d / "repo" / "s.sh").write_text(f"vllm serve --config {d}/out/fifo.yaml\nvllm serve --config ../out/x.yaml\n")


LINT = ["lint", "--format", "concise"]
SHARED_SH = "".join("CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\n" for _ in range(10_000))
CASES: dict[str, Case] = {
    # numbers
    "flag int of 100,000 digits": (_w("s.sh", f"vllm serve m --tensor-parallel-size {NINES}\n"), LINT + ["s.sh"]),
    "JSON int of 100,000 digits": (
        _w(
            "s.sh",
            'vllm serve m --kv-transfer-config \'{"kv_connector":"NixlConnector",'
            f'"kv_role":"kv_both","kv_port":{NINES}}}\'\n',
        ),
        LINT + ["s.sh"],
    ),
    "YAML int of 5,000 digits (--config)": (
        _all(_w("c.yaml", "model: m\nmax_model_len: " + "9" * 5000 + "\n"), _w("s.sh", "vllm serve --config c.yaml\n")),
        LINT + ["s.sh"],
    ),
    "bench JSON int of 5,000 digits": (
        _w("r.json", '{"completed": ' + "9" * 5000 + "}"),
        ["bench", "analyze", "r.json"],
    ),
    "gpu-memory of 5,000 digits": (
        _all(_w(".vcfg.toml", 'gpu-memory = "' + "9" * 5000 + ' GiB"\n'), _w("s.sh", "vllm serve m\n")),
        LINT + ["s.sh"],
    ),
    "version of 5,000 digits": (_w("s.sh", "vllm serve m\n"), LINT + ["--vllm-version", "0." + "9" * 5000, "s.sh"]),
    "TOML nested 100,000 deep": (
        _all(_w(".vcfg.toml", "x = " + "[" * 100_000 + "]" * 100_000 + "\n"), _w("s.sh", "vllm serve m\n")),
        LINT + ["s.sh"],
    ),
    # YAML
    "billion laughs via --config": (
        _all(_w("lol.yaml", "model: m\n" + laughs()), _w("s.sh", "vllm serve --config lol.yaml\n")),
        LINT + ["s.sh"],
    ),
    "billion laughs as a manifest": (
        _w(
            "deploy.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    "
            + laughs().replace("\n", "\n    ")
            + "\nspec:\n  containers:\n  - name: v\n"
            '    image: vllm/vllm-openai\n    args: ["m"]\n',
        ),
        LINT + ["deploy.yaml"],
    ),
    "billion laughs to launch show": (
        _w("serve-config.yaml", "model: m\nmax_model_len: 1\nhf_overrides:\n  " + laughs().replace("\n", "\n  ")),
        ["launch", "show", "serve-config.yaml"],
    ),
    "YAML !!python/object tag": (
        _all(_w("t.yaml", "model: !!python/object:os.system m\n"), _w("s.sh", "vllm serve --config t.yaml\n")),
        LINT + ["s.sh"],
    ),
    "invalid UTF-8 in YAML": (
        _all(_w("c.yaml", b"model: m\nserved_model_name: x\xffy\n"), _w("s.sh", "vllm serve --config c.yaml\n")),
        LINT + ["s.sh"],
    ),
    "20 MiB /dev/urandom as YAML": (lambda d: random_file(d / "deploy.yaml"), LINT + ["deploy.yaml"]),
    "20 MiB /dev/urandom as bash": (lambda d: random_file(d / "r.sh"), LINT + ["r.sh"]),
    "20 MiB of Kubernetes pods (1 port)": (
        lambda d: (d / "pods.yaml").write_text(pods(125_000)),
        LINT + ["pods.yaml"],
    ),
    "20 MiB of bash launches": (lambda d: fill(d / "big.sh", b"vllm serve m --port 8000 &\n"), LINT + ["big.sh"]),
    "20 MiB of bash comments": (lambda d: fill(d / "c.sh", b"# " + b"x" * 77 + b"\n"), LINT + ["c.sh"]),
    "21 MiB file (over the cap)": (lambda d: fill(d / "c.sh", b"# " + b"x" * 77 + b"\n", 21 * MiB), LINT + ["c.sh"]),
    # work per script
    "nested loops 64 x 64 x 64": (
        _w(
            "l.sh",
            "".join(f"for {v} in {' '.join(map(str, range(64)))}; do\n" for v in "abc")
            + "vllm serve m --port $((8000+c))\n"
            + "done\n" * 3,
        ),
        LINT + ["l.sh"],
    ),
    "10,000 launches, distinct ports": (
        _w("m.sh", "".join(f"vllm serve m --port {8000 + i} &\n" for i in range(10_000))),
        LINT + ["m.sh"],
    ),
    "100,000 launches": (
        _w("m.sh", "".join(f"vllm serve m --port {8000 + i} &\n" for i in range(100_000))),
        LINT + ["m.sh"],
    ),
    "10,000 launches on one port and GPU": (_w("same.sh", SHARED_SH), LINT + ["same.sh"]),
    "100,000 commands, no launch": (_w("e.sh", "echo hello world $X > /dev/null\n" * 100_000), LINT + ["e.sh"]),
    "20 MiB of launches in one function": (
        lambda d: (d / "fn.sh").write_text("main() {\n" + "vllm serve m --port 8000 &\n" * 776_000 + "}\nmain\n"),
        LINT + ["fn.sh"],
    ),
    "20 MiB of launches on one line": (
        lambda d: (d / "line.sh").write_text("vllm serve m --port 8000 & " * 776_000 + "\n"),
        LINT + ["line.sh"],
    ),
    "2,000 launches each in its own if": (
        _w("ifs.sh", "".join(f'if [ "$X" = {i} ]; then\n  vllm serve m --port 8000 &\nfi\n' for i in range(2000))),
        LINT + ["ifs.sh"],
    ),
    "10,000 pods on one port (k8s)": (_w("pods.yaml", pods(10_000)), LINT + ["pods.yaml"]),
    "20 MiB of ConfigMaps (no launch)": (
        lambda d: (d / "cm.yaml").write_text(configmaps(20 * MiB // 85)),
        LINT + ["cm.yaml"],
    ),
    "10,000 compose services on one port": (
        _w("docker-compose.yaml", services(10_000)),
        LINT + ["docker-compose.yaml"],
    ),
    "20,000 own-line suppressions": (
        _w("supp.sh", "vllm serve m --port 1 &\n" + "# vcfg: disable=VC302\n" * 20_000 + "vllm serve m --port 1 &\n"),
        LINT + ["supp.sh"],
    ),
    "30 KB of NUL after a launch": (_w("n.sh", b"vllm serve m\n" + b"\0" * 30_000), LINT + ["n.sh"]),
    "30 KB of ')' after a launch": (_w("p.sh", b"vllm serve m\n" + b")" * 30_000), LINT + ["p.sh"]),
    "NUL then 30 KB of ')'": (_w("p.sh", b"vllm serve m\n" + b"\0" * 100 + b")" * 30_000), LINT + ["p.sh"]),
    "a stray fi": (_w("f.sh", "vllm serve m\nfi\n"), LINT + ["f.sh"]),
    # files that are not regular, reads beyond the project
    "lint a FIFO": (_special, LINT + ["fifo.sh"]),
    "lint /dev/zero": (_special, LINT + ["/dev/zero"]),
    "lint a symlink to /dev/zero": (_special, LINT + ["zero.sh"]),
    "lint a socket": (_special, LINT + ["sock.sh"]),
    "--config naming a FIFO": (_all(_special, _w("s.sh", "vllm serve --config fifo.yaml\n")), LINT + ["s.sh"]),
    "bench analyze /dev/zero": (_special, ["bench", "analyze", "/dev/zero"]),
    'knowledge = ["/"]': (_all(_w(".vcfg.toml", 'knowledge = ["/"]\n'), _w("s.sh", "vllm serve m\n")), LINT + ["s.sh"]),
    "--config outside the repository": (_outside, LINT + ["s.sh"]),
    # clear findings and output
    "a BOM before the launch": (_w("b.sh", b"\xef\xbb\xbfvllm serve m --tensor-parallel-sise 2\n"), LINT + ["b.sh"]),
    "CR-only line endings": (_w("cr.sh", b"#!/bin/bash\rvllm serve m\r"), LINT + ["cr.sh"]),
    "en dash and NBSP look-alikes": (
        _w("d.sh", "vllm serve m \u2013tensor-parallel-size 2\nvllm serve\u00a0m\n"),
        LINT + ["d.sh"],
    ),
    "workflow command in a JSON value (github)": (
        _w("e.sh", 'vllm serve m --kv-transfer-config \'{"kv_connector":"x\\n::error file=a::owned\\u001b[31m"}\'\n'),
        ["lint", "--format", "github", "e.sh"],
    ),
    "NaN and Infinity to launch show --format json": (
        _w("n.sh", "vllm serve m --gpu-memory-utilization nan --swap-space 1e999\n"),
        ["launch", "show", "--format", "json", "n.sh"],
    ),
}


class Result(NamedTuple):
    """One run of vcfg: exit code, output, the child's CPU seconds (user + sys) and peak
    RSS in MB (which, on Linux, includes the parent's at the fork: 20-30 MB from the
    benchmark, more from pytest), and its wall seconds."""

    code: int
    out: str
    err: str
    cpu: float
    rss_mb: float
    wall: float

    @property
    def clean(self) -> bool:
        """No traceback, internal error or MemoryError in the output."""
        text = self.out + self.err
        return "Traceback" not in text and "internal error" not in text and "MemoryError" not in text


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_vcfg(
    args: list[str], cwd: Path, *, timeout: float = 120.0, stdin: bytes = b"", limit_memory: bool = True
) -> Result:
    """``python -m vcfg ARGS`` in ``cwd`` (under `MEMORY` of address space unless told
    otherwise); None-free: a run past ``timeout`` wall seconds is killed (code -9)."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    env.pop("FORCE_COLOR", None)
    env.pop("VCFG_DEBUG", None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
        inp.write(stdin)
        inp.seek(0)
        t0 = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "vcfg", *args],
            cwd=cwd,
            env=env,
            stdin=inp,
            stdout=out,
            stderr=err,
            preexec_fn=_limits if limit_memory else None,
        )
        status, usage = _wait(proc, timeout)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        text_out = out.read().decode("utf-8", "replace")
        text_err = err.read().decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status) if status is not None else -9
    cpu = usage.ru_utime + usage.ru_stime if usage is not None else float("inf")
    rss = usage.ru_maxrss / 1024 if usage is not None else float("inf")
    return Result(code, text_out, text_err, cpu, rss, wall)


def _wait(proc: subprocess.Popen, timeout: float) -> tuple[Optional[int], Optional[resource.struct_rusage]]:
    """The child's status and its own resource usage (`os.wait4`); a hang is killed
    after ``timeout`` seconds by a timer, so the wait blocks and returns the moment the
    child ends (polling with a growing sleep kept each run waiting up to 0.1 s more)."""
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if killed.is_set():
        proc.returncode = -9
        return None, None
    return status, usage


def build(name: str, folder: Path) -> Path:
    """The files of case ``name`` in ``folder``; the folder vcfg runs in."""
    CASES[name][0](folder)
    return folder / "repo" if (folder / "repo").is_dir() else folder


if __name__ == "__main__":  # build one case's files: python tests/hostile_cases.py NAME FOLDER
    build(sys.argv[1], Path(sys.argv[2]))
