"""VC010 model-option: `--model` given to `vllm serve`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic, Severity
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span

RULE = Rule(
    code="VC010",
    name="model-option",
    summary="the model given with --model instead of as the first argument",
    severity="warning",
    why=(
        "`vllm serve` takes the model as its first argument. Older releases reject "
        "`--model` outright; newer ones move it with a deprecation warning, and combined "
        "with a positional model the launch fails."
    ),
    when_vllm_fails=(
        "at parse time on 0.10; later releases warn, and fail at parse time when the model is "
        "also given first (argparse rejects it as an unrecognized argument)"
    ),
    example="vllm serve --model facebook/opt-125m\n",
    use_instead="vllm serve facebook/opt-125m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    # a `<path_to_your_model>/M` placeholder's redirections take the model word: VC000
    # names the placeholder, and the model it swallowed is not reported missing again
    held = [x.span.start for x in lc.file.plan.problems if x.code == "placeholder"]
    for p in problems(lc, "model-option", "model-missing", "model-twice"):
        if p.code == "model-missing" and lc.file.plan.source_kind == "serve-config":
            continue  # a config file linted alone: the model comes with the command line
        if p.code == "model-missing" and any(
            lc.inv.span.start <= at <= max(p.span.start, lc.inv.span.end) for at in held
        ):
            continue
        sev: Severity = "error" if p.severity == "error" else "warning"
        yield RULE.diag(
            span(lc, p.span),
            p.message,
            severity=sev,
            help=(
                "give the model once, as the first argument: remove `--model` and its value"
                if p.code == "model-twice"
                else "give the model as the first argument: `vllm serve MODEL ...`"
            )
            + _positional(lc),
        )


def _positional(lc: LaunchContext) -> str:
    """Where the release's `vllm serve` parser declares its model argument."""
    for f in lc.catalog.flags:
        if f.positional:
            if f.loc is None:  # a catalog built without source positions
                return ""
            return f" (vllm {lc.catalog.vllm_version} declares it as `{f.dest}` at {f.loc.file}:{f.loc.line})"
    return ""
