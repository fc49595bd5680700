"""VC308 dp-rank-coverage: data-parallel ranks that two nodes both run, or that no node runs."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import launch_span
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _dp, _hosts
from vcfg.lint.rules._args import span

RULE = Rule(
    code="VC308",
    name="dp-rank-coverage",
    summary="nodes of one data-parallel group whose ranks overlap, or leave ranks that no node runs",
    severity="error",
    scope="run",
    why=(
        "Over all nodes of a data-parallel group, every rank from 0 to "
        "`--data-parallel-size` - 1 must run exactly once: node i runs "
        "`--data-parallel-start-rank` .. + `--data-parallel-size-local` - 1 (or the ranks "
        "`--node-rank` implies with `--nnodes`, or its one `--data-parallel-rank`). Two nodes "
        "that claim the same rank register twice with the head; a rank nobody runs keeps the "
        "head waiting. vLLM checks neither across nodes. vcfg checks the launches of one "
        "deployment whose ranks it knows; a rank that no node runs is a warning (another "
        "file may start it)."
    ),
    when_vllm_fails="at start-up: the head waits for a missing rank until it times out, or two engines claim one rank",
    example=(
        'case "$NODE" in\n'
        "  0) vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --data-parallel-address 10.0.0.1 ;;\n"
        "  1) vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --data-parallel-start-rank 4 \\\n"
        "       --data-parallel-address 10.0.0.1 --headless ;;\n"
        "esac\n"
    ),
    use_instead=(
        'case "$NODE" in\n'
        "  0) vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --data-parallel-address 10.0.0.1 ;;\n"
        "  1) vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --data-parallel-start-rank 8 \\\n"
        "       --data-parallel-address 10.0.0.1 --headless ;;\n"
        "esac\n"
    ),
    sources=(
        "vllm@0.33.0:vllm/engine/arg_utils.py:2507",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2422",
    ),
)


def _spot(lc: LaunchContext):  # type: ignore[no-untyped-def]
    for dest in ("data_parallel_rank", "data_parallel_start_rank", "node_rank"):
        ov = option(lc, dest).ov
        if ov is not None:
            return span(lc, ov.value_span or ov.span)
    return launch_span(lc)


def _fmt(ranks: set[int]) -> str:
    xs = sorted(ranks)
    out, start = [], xs[0]
    for a, b in zip(xs, [*xs[1:], None]):
        if b != a + 1:
            out.append(str(start) if start == a else f"{start}..{a}")
            if b is not None:
                start = b
    return ", ".join(out)


def _ranks(xs: set[int]) -> str:
    return ("rank " if len(xs) == 1 else "ranks ") + _fmt(xs)


def check(run: RunContext) -> Iterator[Diagnostic]:
    for group in _dp.groups(run):
        if len(group) < 2 or len({v.size for _, v in group}) != 1:
            continue  # one node alone is a partial view; different sizes: VC307
        spans = [(lc, v.local_ranks()) for lc, v in group]
        if any(r is None for _, r in spans):
            continue
        size = group[0][1].size
        seen: dict[int, LaunchContext] = {}
        clashed = False
        for lc, r in spans:
            mine = set(r)  # type: ignore[arg-type]
            clash = sorted(x for x in mine if x in seen)
            if clash:
                clashed = True
                other = seen[clash[0]]
                yield RULE.diag(
                    _spot(lc),
                    f"data-parallel {_ranks(set(clash))} also {'runs' if len(clash) == 1 else 'run'} on the node at "
                    f"{_hosts.where(lc, other)}",
                    help="give each node its own ranks: start ranks 0, local size, 2 x local size, ...",
                )
            for x in mine:
                seen.setdefault(x, lc)
        missing = set(range(size)) - set(seen)
        if missing and not clashed and not any(set(r) - set(range(size)) for _, r in spans):  # type: ignore[arg-type]
            lc = group[-1][0]
            yield RULE.diag(
                _spot(lc),
                f"no node of this deployment runs data-parallel {_ranks(missing)} of {size}",
                help="start a node for those ranks, or lower `--data-parallel-size`",
                severity="warning",
            )
