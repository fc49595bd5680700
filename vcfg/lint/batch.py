"""A lint of many files split over the machine's cores.

A folder of launch scripts is linted in ``jobs`` processes forked from this one (the
catalog, the knowledge packs and the rule modules are loaded once, before the fork),
each over a contiguous slice of the files; the results are merged into what one
process would have printed.  That holds because:

- a file's findings never depend on which other files are linted with it: the
  run-scope rules judge one deployment at a time, and a member of a file's deployment
  that is in another slice is read there as context (docs/launch.md, "Deployments and
  hosts"), its own findings reported by the slice that has it;
- a serve-config YAML is read differently when a script of the same run names it with
  ``--config`` (vcfg/launch/read.py): a batch with a file a serve-config reader may
  take is not split;
- the merge deduplicates and sorts the findings as `run_rules` does, and orders the
  summary's per-launch releases by each launch's place (its deployment's first member,
  its file, its index) as one run would.

Only a plain lint with at least `MIN_FILES` files is split (not ``--fix``/``--diff``,
which lint from memory, nor standard input), only where ``os.fork`` exists, and not
when ``VCFG_JOBS=1``.  A slice whose process fails is linted again in this one.
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
    step, extra = divmod(n_files, n)
    out, a = [], 0
    for k in range(n):
        b = a + step + (1 if k < extra else 0)
        out.append((a, b))
        a = b
    return out


def _child(files: Sequence[str], named: Sequence[bool], target: Any, w: int, lint_files: Callable[..., Any]) -> None:
    """In the forked process: lint, send the result, exit without running the
    parent's clean-up (``os._exit``)."""
    import pickle  # imported by the parent before the fork

    code = 0
    try:
        r = lint_files(files, named, target, keyed=True)
        shown = {d.span.file for d in r.diagnostics}
        payload = pickle.dumps(
            (
                r.diagnostics,
                r.summary.files,
                r.summary.launches,
                {k: v for k, v in r.sources.items() if k in shown},
                r.internal_errors,
                r.path_errors,
                r.launch_releases,
                r.path_notes,
            ),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        with os.fdopen(w, "wb") as fh:
            fh.write(payload)
    except BaseException:  # noqa: BLE001 - the parent lints this slice itself
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
    import pickle  # here, not at the top: a lint that is not split never needs it (6M instructions)

    from vcfg.lint.registry import rule_modules

    rule_modules()  # imported once, before the fork
    gc.collect()
    gc.freeze()  # the children's collectors do not walk (and copy) the parent's heap
    cuts = _slices(len(files), n)
    children: list[tuple[int, int, tuple[int, int]]] = []
    for a, b in cuts[:-1]:
        r, w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            children.append((-1, -1, (a, b)))
            continue
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            os.close(r)
            _child(files[a:b], named[a:b], target, w, lint_files)
        os.close(w)
        children.append((pid, r, (a, b)))
    a, b = cuts[-1]
    mine = lint_files(files[a:b], named[a:b], target, keyed=True)
    parts: list[Any] = []
    for pid, r, (a, b) in children:
        got = None
        if r >= 0:
            with os.fdopen(r, "rb") as fh:
                data = fh.read()
            _, status = os.waitpid(pid, 0)
            if status == 0 and data:
                try:
                    got = pickle.loads(data)
                except Exception:  # noqa: BLE001 - a truncated result: linted here
                    got = None
        if got is None:
            again = lint_files(files[a:b], named[a:b], target, keyed=True)
            got = _parts(again)
        parts.append(got)
    parts.append(_parts(mine))
    return merge(parts, target)


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
