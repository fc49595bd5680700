"""What the flag rules share: where an option existed across releases."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import DYNAMO, ENGINE_KINDS
from vcfg.lint.context import LaunchContext, Target
from vcfg.lint.rules._util import name_absent_since, name_present_after


def norm(option: str) -> str:
    """vLLM's spelling rule: underscores are dashes before the first '.'."""
    if option.startswith("--"):
        head, dot, tail = option.partition(".")
        return head.replace("_", "-") + dot + tail
    return option


def removed_since(target: Target, option: str) -> Optional[str]:
    """The release that removed ``option`` (<= target), if a bundled release had it."""
    return name_absent_since(target, "flag", option)[1]


def added_in(target: Target, option: str) -> Optional[str]:
    return name_present_after(target, "flag", option)


def long_options(lc: LaunchContext) -> list[str]:
    """The long options the launch's parser has: the release's, and those of its entry
    point (an api_server module's ``--model`` in 0.9.0, Dynamo's worker options)."""
    opts = lc.catalog.long_options()
    serve = lc.inv.subcommand[:1] == ("serve",)
    if not serve or any(w.text == "--omni" for w in lc.inv.args):
        from vcfg.launch.args.entry import extra_flags

        extra = extra_flags(lc.inv.kind, serve, lc.catalog.vllm_version, dynamo_of(lc), omni=serve)
        if extra:
            opts = list(opts) + [s for f in extra for s in f.option_strings if s.startswith("--")]
    return opts


def outside_serve_only(lc: LaunchContext, option: str) -> bool:
    """Whether the target release registers ``option`` outside ``vllm serve`` only
    (0.9.0's ``--model``, `vcfg.launch.args.entry.outside_serve_flags`): it was not
    removed, ``vllm serve`` just does not have it there."""
    if lc.inv.subcommand[:1] != ("serve",):
        return False
    from vcfg.launch.args.entry import outside_serve_flags

    return any(option in f.option_strings for f in outside_serve_flags(lc.catalog.vllm_version))


def refused_model_option(lc: LaunchContext, at: Any) -> bool:
    """Whether the parser's "vllm serve refuses --model" error (VC010) sits at ``at``:
    vLLM raises it before argparse reads the option (vllm/utils.py:1399-1407 @0.9.0),
    so nothing else is said about that word."""
    from vcfg.lint.rules._args import problems

    return at is not None and any(
        p.severity == "error" and (p.span.start, p.span.end) == (at.start, at.end) for p in problems(lc, "model-option")
    )


def dynamo_of(lc: LaunchContext) -> Optional[str]:
    """A Dynamo worker's Dynamo release, when its image names one of the table's."""
    if lc.inv.kind != DYNAMO:
        return None
    from vcfg.launch.release import dynamo_release

    return dynamo_release(lc.inv)


def unknown_options(lc: LaunchContext):  # type: ignore[no-untyped-def]
    pa = lc.args if lc.inv.kind in ENGINE_KINDS else None
    return [] if pa is None else list(pa.unknown_options)
