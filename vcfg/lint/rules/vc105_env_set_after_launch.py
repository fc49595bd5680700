"""VC105 env-set-after-launch: a vLLM variable set after the last vLLM launch."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import FileContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._fix import _edit_bytes, assignment_line, fix
from vcfg.lint.rules._util import name_span

RULE = Rule(
    code="VC105",
    name="env-set-after-launch",
    summary="a vLLM variable set after the launch it was probably meant for",
    severity="warning",
    scope="file",
    why=(
        "A process receives the environment as it is when it starts. A variable exported "
        "after the last `vllm serve` of a script reaches no vLLM server: the line was "
        "most likely meant to come before the launch."
    ),
    when_vllm_fails="never: the server runs with the default",
    example="vllm serve m &\nexport VLLM_ENGINE_READY_TIMEOUT_S=1200\n",
    use_instead="export VLLM_ENGINE_READY_TIMEOUT_S=1200\nvllm serve m &\n",
    fixes=(
        FixInfo(
            "safe",
            "the assignment's line moves to just before the last launch, when it is a line "
            "of its own and the launch starts its line",
        ),
    ),
)


def check(fc: FileContext) -> Iterator[Diagnostic]:
    serves = [i for i in fc.plan.invocations if i.kind == "serve"]
    if not serves:
        return
    last = max(serves, key=lambda i: i.span.end)
    if last.in_loop or last.function:
        return  # a later call or iteration may still see it
    cat, knowledge = fc.catalog, fc.target.knowledge
    for ev in fc.plan.timeline:
        if ev.span.start <= last.span.end or ev.conditional or ev.function:
            continue
        if ev.kind not in ("export", "assign") or not ev.name:
            continue
        if ev.kind == "assign" and not ev.exported:
            continue
        name = ev.name
        if cat.env(name) is None and knowledge.plugin_env(name) is None:
            continue
        yield RULE.diag(
            name_span(fc, ev.span, name),
            f"`{name}` is set after the last vllm launch (line {last.span.line}): no vllm sees it",
            help="move it before the `vllm serve` it is meant for",
            fix=_move(fc, ev, last),
        )


def _move(fc: FileContext, ev, last):  # type: ignore[no-untyped-def]
    rng = assignment_line(fc, ev.span)
    data = fc.data
    at = data.rfind(b"\n", 0, last.span.start) + 1
    if rng is None or data[at : last.span.start].strip() or last.span.file not in ("", fc.path, fc.plan.path):
        return None
    line = data[rng[0] : rng[1]].decode("utf-8", "surrogateescape")
    if not line.endswith("\n"):
        line += "\n"
    indent = data[at : last.span.start].decode("utf-8", "surrogateescape")
    return fix(
        [_edit_bytes(fc, fc.path, at, at, indent + line.lstrip(" \t")), _edit_bytes(fc, fc.path, rng[0], rng[1], "")],
        "safe",
        f"move `{ev.name}` before the launch",
    )
