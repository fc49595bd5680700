"""VC002 removed-flag: an option an earlier release had and the target removed."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span
from vcfg.lint.rules._flags import norm, removed_since, unknown_options

RULE = Rule(
    code="VC002",
    name="removed-flag",
    summary="an option the release removed or renamed",
    severity="error",
    why=(
        "Options are deprecated and then removed across releases; scripts, Helm values "
        "and recipes keep them. The new release refuses to start."
    ),
    when_vllm_fails="at parse time: vllm exits 2 with 'unrecognized arguments'",
    example="vllm serve intfloat/e5-small --task embed\n",
    use_instead="vllm serve intfloat/e5-small --runner pooling --convert embed\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    target = lc.target
    for ov in unknown_options(lc):
        head = norm(ov.written.split("=", 1)[0]).split(".", 1)[0]
        entry = target.knowledge.removed_flag(head, target.version)
        since = removed_since(target, head) or (entry.removed_in if entry is not None else None)
        if since is None and entry is None:
            continue
        help = None
        if entry is not None and getattr(entry, "replacement", None):
            help = f"use {entry.replacement_text()}"
            if getattr(entry, "note", None):
                help += f" ({entry.note})"
        elif entry is not None and getattr(entry, "note", None):
            help = entry.note
        else:
            help = "remove it; `vcfg catalog diff` shows what changed"
        yield RULE.diag(
            span(lc, ov.name_span),
            f"`{head}` was removed in vllm {since}" if since else f"`{head}` was removed",
            help=help,
        )
