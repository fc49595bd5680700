"""VC002 removed-flag: an option an earlier release had and the target removed."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Fix
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import span
from vcfg.lint.rules._fix import delete_words, delete_yaml_entry, replace, text_of
from vcfg.lint.rules._flags import norm, outside_serve_only, refused_model_option, removed_since, unknown_options

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
    fixes=(
        FixInfo(
            "safe",
            'an option the knowledge packs call renamed (`migrate = "rename"`: same value, '
            "same meaning) gets its new name",
        ),
        FixInfo("safe", 'an option the packs say the release no longer needs (`migrate = "drop"`) is removed'),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    target = lc.target
    for ov in unknown_options(lc):
        head = norm(ov.written_name).split(".", 1)[0]
        if outside_serve_only(lc, head) or refused_model_option(lc, ov.name_span):
            continue  # not removed: the release has it outside `vllm serve` (VC010, VC001)
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
            fix=migration_fix(lc, ov, head, entry),
        )


def migration_fix(lc: LaunchContext, ov: Any, head: str, entry: Any) -> Optional[Fix]:
    """The fix the pack entry allows for the option as written (its name, not an alias)."""
    if entry is None or entry.migrate is None or norm(head) != norm(entry.name):
        return None
    if entry.migrate == "drop":
        if ov.origin == "config":
            return _or_none(delete_yaml_entry(lc, ov.name_span), f"remove `{head}`")
        at = ov.name_span.start  # an unknown option's words: the one its name is in
        words = ov.words or tuple(w for w in lc.inv.args if w.span.start <= at < w.span.end)
        if not words:
            return None
        return _or_none(delete_words(lc, words[0].span, words[-1].span), f"remove `{head}`")
    new = entry.replacement[0]
    if lc.catalog.flag(new.split(".", 1)[0]) is None:
        return None
    written = text_of(lc, ov.name_span)
    if written is None:
        return None
    bare = written.lstrip("-")
    if written.startswith("--"):
        prefix = "--"
    elif ov.origin == "config" and norm("--" + bare) == norm(head):
        prefix = ""  # a --config YAML key: no dashes
    else:
        return None
    name, dot, rest = new[2:].partition(".")
    if "_" in bare and "-" not in bare:  # keep the user's spelling
        name = name.replace("-", "_")
    content = prefix + name + dot + rest
    return replace(lc, ov.name_span, content, "safe", f"rename `{head}` to `{new}`")


def _or_none(edit: Any, description: str) -> Optional[Fix]:
    from vcfg.lint.rules._fix import fix

    return fix([edit], "safe", description)
