"""VC002 removed-flag: an option an earlier release had and the target removed."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Fix
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import span
from vcfg.lint.rules._fix import delete_words, delete_yaml_entry, replace, text_of
from vcfg.lint.rules._flags import norm, removed_options

RULE = Rule(
    code="VC002",
    name="removed-flag",
    summary="an option the release removed or renamed",
    severity="error",
    why=(
        "Options are deprecated and then removed across releases; scripts, Helm values "
        "and recipes keep them. The new release refuses to start, or worse: argparse takes "
        "a prefix of exactly one option as that option, so a removed option that starts a "
        "newer one's name (`--device`, `--device-ids` from 0.24.0) is silently given to the "
        "newer one. The finding says which, and is the one finding for that word: not also "
        "an unknown (VC001) or abbreviated (VC012) option, and never fixed into the option "
        "argparse picked. A Ray Serve config's `engine_kwargs` are keyword arguments of the "
        "engine, which no parser abbreviates."
    ),
    when_vllm_fails=(
        "at parse time: vllm exits 2 with 'unrecognized arguments', or 'ambiguous option' when "
        "several options start with the word; when exactly one does, vLLM starts with the "
        "word's value given to that option (Ray Serve: a TypeError for the unexpected keyword argument)"
    ),
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


#: what the target release does with the word, said after "`--x` was removed in vllm A"
#: (`_flags.Removed.taken`); keyword arguments (Ray Serve's engine_kwargs) meet no parser
TAKEN = {
    "unrecognized": "vllm {version}'s argparse rejects it as unrecognized",
    "ambiguous": "vllm {version}'s argparse rejects it as ambiguous between {options}",
    "abbreviation": (
        "vllm {version}'s argparse takes it as an abbreviation of {options} and silently applies it to that option"
    ),
    "keyword": "",
}


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    target = lc.target
    for r in removed_options(lc):
        entry = r.entry
        if entry is not None and getattr(entry, "replacement", None):
            help = f"use {entry.replacement_text()}"
            if getattr(entry, "note", None):
                help += f" ({entry.note})"
        elif entry is not None and getattr(entry, "note", None):
            help = entry.note
        else:
            help = "remove it; `vcfg catalog diff` shows what changed"
        message = f"`{r.head}` was removed in vllm {r.since}" if r.since else f"`{r.head}` was removed"
        taken = TAKEN[r.taken].format(version=target.version, options=_listed(r.options))
        yield RULE.diag(
            span(lc, r.ov.name_span),
            f"{message}; {taken}" if taken else message,
            help=help,
            fix=migration_fix(lc, r.ov, r.head, entry),
        )


def _listed(options: tuple[str, ...]) -> str:
    """```--a``, ``--b`` and ``--c```."""
    shown = [f"`{o}`" for o in options]
    return " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " and " + shown[-1]


def migration_fix(lc: LaunchContext, ov: Any, head: str, entry: Any) -> Optional[Fix]:
    """The fix the pack entry allows for the option as written (its name, not an alias)."""
    if entry is None or entry.migrate is None or norm(head) != norm(entry.name):
        return None
    if entry.migrate == "drop":
        if ov.origin == "config":
            return _or_none(delete_yaml_entry(lc, ov.name_span), f"remove `{head}`")
        at = ov.name_span.start  # an unknown option's words: the one its name is in
        named = tuple(w for w in lc.inv.args if w.span.start <= at < w.span.end)
        # an abbreviation's words are its values: the word of its name goes too
        words = named + ov.words if ov.match == "abbrev" else ov.words or named
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
