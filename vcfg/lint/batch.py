"""A lint of many files split over the machine's cores.

A folder of launch scripts is linted in ``jobs`` processes forked from this one (the
catalog, the knowledge packs and the rule modules are loaded once, before the fork).
The files are cut into contiguous chunks (`_slices`: about 16 per process), and each
process, this one too, lints the next chunk no one has taken (a pipe of chunk numbers)
until none is left, so that the processes finish together however the slow files
fall; the chunks' results are merged, in file order, into what one process would have
printed.  That holds because:

- a file's findings never depend on which other files are linted with it: the
  run-scope rules judge one deployment at a time, and a member of a file's deployment
  that is in another chunk is read there as context (docs/launch.md, "Deployments and
  hosts"), its own findings reported by the chunk that has it;
- a serve-config YAML is read differently when a script of the same run names it with
  ``--config`` (vcfg/launch/read.py): a batch with a file a serve-config reader may
  take is not split;
- the merge deduplicates and sorts the findings as `run_rules` does, and orders the
  summary's per-launch releases by each launch's place (its deployment's first member,
  its file, its index) as one run would.

Only a plain lint with at least `MIN_FILES` files is split (not ``--fix``/``--diff``,
which lint from memory, nor standard input), only where ``os.fork`` exists, and not
when ``VCFG_JOBS=1``.  The chunks of a process that fails are linted again in this one.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Sequence

#: fewer files than this are linted in one process: forking and merging cost a few
#: milliseconds, a file about 2-4 ms of CPU
MIN_FILES = 64


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def jobs(files: Sequence[str], contents: Optional[dict[str, bytes]], stdin_filename: Optional[str]) -> int:
    """How many processes lint ``files`` (1: this one alone)."""
    if contents or stdin_filename or len(files) < MIN_FILES or not hasattr(os, "fork"):
        return 1
    want = os.environ.get("VCFG_JOBS", "")
    n = int(want) if want.isdigit() and int(want) > 0 else _cores()
    if n <= 1 or "-" in files:
        return 1
    from vcfg.launch.read import candidates

    if any("serve_config" in candidates(p) for p in files):
        return 1
    return min(n, len(files) // (MIN_FILES // 2))


def _slices(n_files: int, n: int) -> list[tuple[int, int]]:
    """``n_files`` cut into contiguous chunks, about `CHUNKS_PER_JOB` for each of ``n``
    processes (at least `MIN_CHUNK` files each): the processes take the next chunk
    when they finish one, so a slow file (a script that unrolls a loop of launches)
    does not leave the other cores idle at the end."""
    size = max(MIN_CHUNK, -(-n_files // (n * CHUNKS_PER_JOB)))
    return [(a, min(a + size, n_files)) for a in range(0, n_files, size)]


#: chunks per process, and the fewest files in a chunk (each chunk is a run of its own:
#: its deployment grouping, rule selection and result cost well under a file's lint)
CHUNKS_PER_JOB = 16
MIN_CHUNK = 8


def _work(
    queue: int,
    cuts: Sequence[tuple[int, int]],
    files: Sequence[str],
    named: Sequence[bool],
    target: Any,
    lint_files: Callable[..., Any],
) -> list[tuple[int, tuple[Any, ...]]]:
    """Lint the chunks this process takes from ``queue`` (a pipe of 4-byte chunk
    numbers, written whole before the fork: a 4-byte read takes one number, never
    part of one), until it is empty."""
    done: list[tuple[int, tuple[Any, ...]]] = []
    while True:
        got = os.read(queue, 4)
        if len(got) < 4:
            return done
        k = int.from_bytes(got, "little")
        a, b = cuts[k]
        done.append((k, _parts(lint_files(files[a:b], named[a:b], target, keyed=True))))


def _child(
    queue: int,
    cuts: Sequence[tuple[int, int]],
    files: Sequence[str],
    named: Sequence[bool],
    target: Any,
    w: int,
    lint_files: Callable[..., Any],
) -> None:
    """In the forked process: lint chunks, send their results, exit without running
    the parent's clean-up (``os._exit``)."""
    import pickle  # imported by the parent before the fork

    code = 0
    try:
        done = _work(queue, cuts, files, named, target, lint_files)
        sent = []
        for k, p in done:
            shown = {d.span.file for d in p[0]}
            sent.append((k, (*p[:3], {f: v for f, v in p[3].items() if f in shown}, *p[4:])))
        payload = pickle.dumps(sent, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(w, "wb") as fh:
            fh.write(payload)
    except BaseException:  # noqa: BLE001 - the parent lints its chunks itself
        code = 1
    finally:
        os._exit(code)


def lint_split(
    files: Sequence[str],
    named: Sequence[bool],
    target: Any,
    n: int,
    lint_files: Callable[..., Any],
    merge: Callable[..., Any],
) -> Any:
    """``lint_files`` (vcfg.lint.engine's) over ``files`` in ``n`` processes, the
    results merged with ``merge`` (`vcfg.lint.engine.merge_results`)."""
    import gc
    import pickle  # here, before the fork: the children reuse it

    from vcfg.lint.registry import rule_modules

    rule_modules()  # imported once, before the fork
    gc.collect()
    gc.freeze()  # the children's collectors do not walk (and copy) the parent's heap
    cuts = _slices(len(files), n)
    queue, wq = os.pipe()
    os.write(wq, b"".join(k.to_bytes(4, "little") for k in range(len(cuts))))  # far under a pipe's buffer
    os.close(wq)
    children: list[tuple[int, int]] = []
    for _ in range(n - 1):
        r, w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            continue
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            os.close(r)
            _child(queue, cuts, files, named, target, w, lint_files)
        os.close(w)
        children.append((pid, r))
    parts: dict[int, tuple[Any, ...]] = dict(_work(queue, cuts, files, named, target, lint_files))
    os.close(queue)
    for pid, r in children:
        with os.fdopen(r, "rb") as fh:
            data = fh.read()
        _, status = os.waitpid(pid, 0)
        if status == 0 and data:
            try:
                parts.update(pickle.loads(data))
            except Exception:  # noqa: BLE001 - a truncated result: its chunks are linted here
                pass
    for k, (a, b) in enumerate(cuts):  # a chunk whose process failed
        if k not in parts:
            parts[k] = _parts(lint_files(files[a:b], named[a:b], target, keyed=True))
    return merge([parts[k] for k in range(len(cuts))], target)


def _parts(r: Any) -> tuple[Any, ...]:
    return (
        r.diagnostics,
        r.summary.files,
        r.summary.launches,
        r.sources,
        r.internal_errors,
        r.path_errors,
        r.launch_releases,
        r.path_notes,
    )
