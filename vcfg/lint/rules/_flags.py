"""What the flag rules share: where an option existed across releases, and what the
target release's parser does with an option it removed."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

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


class Removed(NamedTuple):
    """An option of the launch that an earlier bundled release had and the target
    removed (or the knowledge packs call removed), and what the target's parser does
    with the word: VC002 says it, VC001 and VC012 say nothing more about it."""

    #: the occurrence: an unknown option's, or the one argparse took the word for
    ov: Any
    #: the option as vLLM normalises it, without ``=value`` or ``.key``
    head: str
    since: Optional[str]
    #: the knowledge packs' entry, if any
    entry: Any
    #: ``unrecognized``, ``ambiguous``, ``abbreviation`` (argv through argparse, whose
    #: allow_abbrev takes a prefix of exactly one option as that option), or
    #: ``keyword`` (an engine constructor's keyword argument: no parser)
    taken: str
    #: the options the word is a prefix of: the abbreviation's one, the ambiguity's
    options: tuple[str, ...] = ()

    @property
    def at(self) -> tuple[int, int]:
        return (self.ov.name_span.start, self.ov.name_span.end)


def removed_options(lc: LaunchContext) -> list[Removed]:
    """The launch's removed options (once per launch: VC001, VC002 and VC012 ask)."""
    hit = lc.memo.get("flags.removed")
    if hit is None:
        hit = lc.memo["flags.removed"] = _removed_options(lc)
    return hit  # type: ignore[no-any-return]


def removed_at(lc: LaunchContext) -> set[tuple[int, int]]:
    """The (start, end) of each removed option's name: VC002's words."""
    return {r.at for r in removed_options(lc)}


def _removed_options(lc: LaunchContext) -> list[Removed]:
    pa = lc.args if lc.inv.kind in ENGINE_KINDS else None
    if pa is None:
        return []
    target = lc.target
    ambiguous = {(p.span.start, p.span.end) for p in pa.problems if p.code == "ambiguous-option"}
    out = []
    options: tuple[str, ...]
    for ov in (*pa.unknown_options, *(o for o in pa.occurrences if o.match == "abbrev")):
        head = norm(ov.written_name).split(".", 1)[0]
        if outside_serve_only(lc, head) or refused_model_option(lc, ov.name_span):
            continue  # not removed: the release has it outside `vllm serve` (VC010, VC001)
        entry = target.knowledge.removed_flag(head, target.version)
        since = removed_since(target, head) or (entry.removed_in if entry is not None else None)
        if since is None and entry is None:
            continue
        if lc.inv.keywords:
            taken, options = "keyword", ()
        elif ov.flag is not None:
            taken, options = "abbreviation", (ov.option,)
        elif (ov.name_span.start, ov.name_span.end) in ambiguous:
            taken, options = "ambiguous", tuple(sorted(s for s in lc.catalog.long_options() if s.startswith(ov.option)))
        else:
            taken, options = "unrecognized", ()
        out.append(Removed(ov, head, since, entry, taken, options))
    return out
