"""VC103 removed-env-var: a variable an earlier release had and the target removed."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Fix
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._env import is_serve, script_bindings
from vcfg.lint.rules._fix import assignment_line, delete_words, fix, insert_option, shell_word
from vcfg.lint.rules._util import name_absent_since, name_span

RULE = Rule(
    code="VC103",
    name="removed-env-var",
    summary="a variable the target release no longer reads",
    severity="warning",
    why=(
        "Releases drop variables regularly; a launch script written for an older vLLM "
        "keeps setting them and the setting silently stops applying (for example "
        "VLLM_RPC_TIMEOUT, removed in 0.23)."
    ),
    when_vllm_fails="never: the variable is ignored (a warning in the log since 0.20)",
    example="export VLLM_RPC_TIMEOUT=600000\nvllm serve m\n",
    use_instead="vllm serve m\n",
    fixes=(
        FixInfo(
            "safe",
            'a variable that became an option (`migrate = "rename"` in the knowledge packs) '
            "moves into every launch that read it, as that option with the same value",
        ),
        FixInfo(
            "unsafe",
            'a variable the release no longer reads (`migrate = "drop"`) is removed: '
            "vLLM ignores it, but another program started by the script may read it",
        ),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc):
        return
    target = lc.target
    for b in script_bindings(lc):
        name = b.name
        if lc.catalog.env(name) is not None:
            continue
        entry = target.knowledge.removed_env(name, target.version)
        last, removed = name_absent_since(target, "env", name)
        if entry is None and removed is None:
            continue
        when = removed or getattr(entry, "removed_in", None)
        message = f"`{name}` was removed in vllm {when}" if when else f"`{name}` was removed"
        help = None
        if entry is not None and getattr(entry, "replacement", None):
            help = f"use {entry.replacement_text()} instead"
        elif entry is not None and getattr(entry, "note", None):
            help = entry.note
        else:
            help = f"vllm {target.version} ignores it; remove it"
        yield RULE.diag(name_span(lc.file, b.span, name), message, help=help, fix=migration_fix(lc, b, entry))


def migration_fix(lc: LaunchContext, b: Any, entry: Any) -> Optional[Fix]:
    """Remove the assignment (``drop``), or move its value into each launch that sees it
    as the replacement option (``rename``): the pack entry says which."""
    if entry is None or entry.migrate is None or b.name != entry.name or b.value is None:
        return None
    removal = _removal(lc, b)
    if removal is None:
        return None
    if entry.migrate == "drop":
        return fix([removal], "unsafe", f"remove `{b.name}`, which vllm {lc.target.version} does not read")
    option = entry.replacement[0]
    flag = lc.catalog.flag(option.split(".", 1)[0])
    if flag is None or not b.value.known:
        return None
    value = b.value.raw if b.value.quoted else shell_word(b.value.value)
    inserts = []
    for other in lc.file.plan.invocations:
        ob = other.env.get(b.name)
        if other.kind != "serve" or ob is None or ob.span != b.span:
            continue
        if b.source == "prefix" and other is not lc.inv:
            continue
        names = {s.replace("_", "-") for s in flag.option_strings} if "." not in option else {option}
        if any((w.text or "").split("=", 1)[0].replace("_", "-") in names for w in other.args):
            return None  # the launch sets the option too: which one wins is for a person
        inserts.append(insert_option(LaunchContext(file=lc.file, inv=other), f"{option} {value}"))
    if not inserts:
        return None
    return fix([removal, *inserts], "safe", f"replace `{b.name}` with `{option} {value}`")


def _removal(lc: LaunchContext, b: Any) -> Any:
    """The edit deleting the binding: its whole line (``export NAME=value``), or the
    prefix word of a ``NAME=value vllm serve`` command."""
    if b.source == "prefix":
        return delete_words(lc, b.span, b.span)
    rng = assignment_line(lc.file, b.span) if b.span.file in ("", lc.path, lc.inv.span.file) else None
    if rng is None:
        return None
    from vcfg.lint.rules._fix import _edit_bytes

    return _edit_bytes(lc, lc.path, rng[0], rng[1], "")
