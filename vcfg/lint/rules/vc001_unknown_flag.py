"""VC001 unknown-flag: an option the target release's `vllm serve` does not register."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import problems, span
from vcfg.lint.rules._fix import replace, text_of
from vcfg.lint.rules._flags import (
    added_in,
    dynamo_of,
    long_options,
    norm,
    refused_model_option,
    removed_at,
    unknown_options,
)
from vcfg.lint.rules._util import did_you_mean
from vcfg.lint.rules.vc000_parse_error import crlf_ended

RULE = Rule(
    code="VC001",
    name="unknown-flag",
    summary="an option the release's vllm serve does not have",
    severity="error",
    why=(
        "argparse rejects an option it does not know, so vLLM exits at once; in a "
        "background launch or a container that is easy to miss, and a tutorial's flag may "
        "belong to another release."
    ),
    when_vllm_fails="at parse time: vllm exits 2 with 'unrecognized arguments'",
    example="vllm serve facebook/opt-125m --max-num-seqz 64\n",
    use_instead="vllm serve facebook/opt-125m --max-num-seqs 64\n",
    fixes=(FixInfo("unsafe", "the one close option name is written instead (a guess at what was meant)"),),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    target = lc.target
    # a removed option is VC002's alone, whatever argparse does with the word; an
    # ambiguous prefix is argparse's one error (below), not also an unknown option.
    # (A Ray Serve config's engine_kwargs meet no parser: never ambiguous.)
    ambiguous = list(problems(lc, "ambiguous-option"))
    removed = removed_at(lc)
    seen = removed | {(p.span.start, p.span.end) for p in ambiguous}
    for ov in unknown_options(lc):
        if ov.name_span is not None and (ov.name_span.start, ov.name_span.end) in seen:
            continue
        if refused_model_option(lc, ov.name_span):
            continue  # VC010: vLLM refuses it before argparse reads it
        name = norm(ov.written_name)
        head = name.split(".", 1)[0]
        other = _other_dynamo(lc, head, ov.name_span)
        if other is not None:
            yield other
            continue
        later = added_in(target, head)
        if later:
            yield RULE.diag(
                span(lc, ov.name_span),
                f"`{head}` does not exist in vllm {target.version}",
                help=f"it was added in {later}; this script targets {target.version}",
            )
            continue
        near = did_you_mean(head, long_options(lc), cutoff=0.7)
        fx = None
        if near and text_of(lc, ov.name_span) == head:
            fx = replace(lc, ov.name_span, near[0], "unsafe", f"write `{near[0]}`")
        yield RULE.diag(
            span(lc, ov.name_span),
            f"unknown option `{head}`",
            help=f"did you mean `{near[0]}`?" if near else f"`vcfg explain` lists what vllm {target.version} has",
            fix=fx,
        )
    for p in ambiguous:
        if (p.span.start, p.span.end) not in removed and not refused_model_option(lc, p.span):
            yield RULE.diag(span(lc, p.span), p.message, help="write the option in full")
    # a `<model path>` placeholder's `>` takes the next word as its file: VC000 names the
    # placeholder, and the word that was that option's value is not reported again
    held = [x.span.start for x in lc.file.plan.problems if x.code == "placeholder"]
    # the carriage return a `\` keeps as a word of its own: VC000 names the Windows line ends
    ended = crlf_ended(lc.file)
    for p in problems(lc, "extra-argument"):
        if any(lc.inv.span.start <= at <= p.span.start for at in held):
            continue
        if p.span.line in ended and text_of(lc, p.span) == "\r":
            continue
        if not _after_boolean(lc, p):
            yield RULE.diag(span(lc, p.span), p.message, help="vLLM takes one positional argument, the model")


def _other_dynamo(lc: LaunchContext, head: str, at: Any) -> Optional[Diagnostic]:
    """A Dynamo worker's option that its image's Dynamo release lacks and another has."""
    dyn = dynamo_of(lc)
    if dyn is None:
        return None
    from vcfg.launch.args.entry import nearest_dynamo_with

    near = nearest_dynamo_with(dyn, head)
    if near is None:
        return None
    rel, loc = near
    image = lc.inv.image.text if lc.inv.image is not None else None
    return RULE.diag(
        span(lc, at),
        f"`{head}` is not an option of Dynamo {dyn}'s vLLM worker",
        help=f"Dynamo {rel} has it ({loc.file}:{loc.line} in ai-dynamo {rel}); the image {image} runs Dynamo {dyn}",
    )


def _after_boolean(lc: LaunchContext, p) -> bool:  # type: ignore[no-untyped-def]
    """VC009 reports a stray word right after a boolean option."""
    from vcfg.lint.rules.vc009_flag_takes_no_value import boolean_before

    return boolean_before(lc, p) is not None
