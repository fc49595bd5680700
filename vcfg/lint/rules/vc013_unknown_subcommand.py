"""VC013 unknown-subcommand: a `vllm` subcommand misspelt or glued to a flag."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC013",
    name="unknown-subcommand",
    summary="a vllm subcommand that does not exist: misspelt, or glued to the flag after it",
    severity="error",
    why=(
        "`vllm serv m` or `vllm bench serve--save-result` never starts a server or a "
        "benchmark: the command line rejects the subcommand. In a script that runs "
        "unattended the failure shows only in a log, and vcfg, not knowing the "
        "subcommand, checks none of its options. A word close to no known subcommand "
        "is left alone: it may come from a release newer than vcfg's data."
    ),
    when_vllm_fails="at once: the command line rejects the subcommand",
    example="vllm bench serve--save-result --model Qwen/Qwen3-8B\n",
    use_instead="vllm bench serve --save-result --model Qwen/Qwen3-8B\n",
)


def _verdict(word: str, known: list[str]) -> Optional[tuple[str, str]]:
    """(message, help) for a word that is not one of ``known``, or None."""
    if word in known or word.startswith("-"):
        return None
    from vcfg.launch.args.lookalike import lookalikes

    glued = lookalikes(word)
    if glued and glued.rsplit("`", 2)[-2].split(" ")[0] in known:
        # `vllm serve<NBSP>MODEL`: one word to bash, pasted from a page
        return (f"unknown subcommand `{word}`{glued}", "retype the space (or dash) as plain ASCII")
    for k in sorted(known, key=len, reverse=True):
        if word.startswith(k + "-") and word[len(k) :].startswith("--"):
            rest = word[len(k) :]
            return (f"unknown subcommand `{word}`", f"a space is missing: `{k} {rest}`")
    near = did_you_mean(word, known, cutoff=0.6)
    if near:
        return (f"unknown subcommand `{word}`", f"did you mean `{near[0]}`?")
    return None


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    inv = lc.inv
    if inv.kind != "vllm" or not inv.subcommand:
        return
    k = len(inv.command) - len(inv.args) - 1
    if k < 0 or inv.command[k].text != inv.subcommand[0]:
        return
    top = inv.command[k]
    knowledge = lc.target.knowledge
    words = [(top, knowledge.subcommands())]
    if top.text == "bench" and inv.args and inv.args[0].text is not None:
        words = [(inv.args[0], knowledge.subcommands("bench"))]
    for w, known in words:
        v = _verdict(w.text or "", known)
        if v is not None:
            yield RULE.diag(span(lc, w.span), v[0], help=v[1])
