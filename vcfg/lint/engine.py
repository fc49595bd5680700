"""Runs the rules over launch plans and turns their findings into a sorted list.

The target release: ``--vllm-version``, else the project config, else the installed
vLLM's version (read from its metadata, never imported), else the newest bundled
catalog.  The summary always says which one was used.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from vcfg.diagnostics import SEVERITY_ORDER, Diagnostic, Summary
from vcfg.errors import VcfgError
from vcfg.launch.read import MAX_BYTES
from vcfg.lint import suppressions
from vcfg.lint.config import LintConfig, load_config
from vcfg.lint.context import FileContext, LaunchContext, Run, RunContext, Target
from vcfg.lint.paths import path_groups
from vcfg.lint.paths import reconcile as reconcile_paths
from vcfg.lint.rule import Rule
from vcfg.lint.rule_select import modules_for
from vcfg.records import field, record


@record
class LintResult:
    diagnostics: list[Diagnostic]
    summary: Summary
    sources: dict[str, str] = field(default_factory=dict)
    internal_errors: list[str] = field(default_factory=list)
    #: paths given that could not be linted (missing, a FIFO, ...): exit 2 at the end
    path_errors: list[str] = field(default_factory=list)
    #: what the user should know about the paths (an empty folder, a FIFO skipped)
    path_notes: list[str] = field(default_factory=list)
    #: ``lint_files(keyed=True)``: (place, what the summary needs) of each launch
    launch_releases: list[Any] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.internal_errors or self.path_errors:
            return 2
        return 1 if any(d.severity in ("error", "warning") for d in self.diagnostics) else 0


def make_target(version: Optional[str], config: LintConfig, extra_knowledge: Sequence[Path] = ()) -> Target:
    from vcfg.catalog import store
    from vcfg.catalog.knowledge import load_packs
    from vcfg.catalog.local import installed_version

    chosen = version or config.vllm_version
    origin = "--vllm-version" if version else ("project config" if chosen else None)
    if chosen is None:
        chosen = installed_version()
        origin = "installed vllm" if chosen else None
    if chosen is None:
        chosen = store.newest_bundled()
        origin = "newest bundled catalog; pass --vllm-version to choose"
    cat, note = store.load(chosen)
    knowledge = load_packs([*config.knowledge, *extra_knowledge])
    plugins: tuple = ()  # type: ignore[type-arg]
    if config.plugins:
        from vcfg.catalog.plugins import find

        plugins = tuple(find(p) for p in config.plugins)
    with_plugins = "plus " + ", ".join(p.label for p in plugins) if plugins else None
    full_note = "; ".join(x for x in (cat.label, with_plugins, f"from {origin}" if origin else None, note) if x)
    return Target(
        catalog=cat,
        knowledge=knowledge,
        config=config,
        version_note=full_note or None,
        pinned=origin in ("--vllm-version", "project config"),
        plugins=plugins,
    )


def _launch_target(inv, target: Target, cache: dict[str, Target]):  # type: ignore[no-untyped-def]
    """The release a launch's image names (vcfg/launch/release.py), unless the user
    pinned one; None: the run's target.  ``cache``: the run's (`Run.releases`)."""
    if target.pinned or (getattr(inv, "image", None) is None and getattr(inv, "pin", None) is None):
        return None
    from vcfg.launch.release import release_of

    rel = release_of(inv)
    if rel.version is None or rel.version == target.version:
        return None
    hit = cache.get(rel.version)
    if hit is None:
        from vcfg.catalog import store

        try:
            cat, note = store.load(rel.version)
        except VcfgError:
            # older than every bundled catalog: the oldest is far nearer to it than the
            # run's release (a 0.9.2 image checked against 0.33.0 reports flags and
            # variables removed years later); the note says what was used
            from vcfg.catalog.versions import parse_version

            oldest = store.bundled_versions()[0]
            try:
                older = parse_version(rel.version) < parse_version(oldest)
            except VcfgError:
                older = False
            if not older:
                return None
            cat, _ = store.load(oldest)
            note = (
                f"{rel.source()} names vllm {rel.version}, older than every bundled catalog: "
                f"checked against the oldest, {oldest}"
            )
        full = "; ".join(x for x in (rel.note, note) if x)
        hit = cache[rel.version] = Target(
            catalog=cat,
            knowledge=target.knowledge,
            config=target.config,
            version_note=full,
            pinned=False,
            plugins=target.plugins,
        )
    return hit


def expand_paths(paths: Iterable[str], config: Optional[LintConfig] = None) -> list[str]:
    """The files to lint: each path named, and in each folder the files a reader may
    take, minus what .gitignore and the project's ``exclude`` leave out
    (`vcfg.launch.walk`)."""
    from vcfg.launch.walk import expand

    if config is None and any(os.path.isdir(p) for p in paths):
        config = load_config()
    exclude = config.exclude if config is not None else []
    base = config.path.parent if config is not None and config.path is not None else None
    return expand(paths, exclude, base)


def expand_paths_report(
    paths: Iterable[str], config: Optional[LintConfig] = None
) -> tuple[list[str], list[str], list[str]]:
    """(files to lint, errors, notes): a missing path or a FIFO, socket or device named
    is an error (the rest is still linted); in a folder such an entry is skipped, never
    opened, and a folder with nothing to lint says so."""
    from vcfg.launch.read import special_kind
    from vcfg.launch.walk import walk

    if config is None and any(os.path.isdir(p) for p in paths):
        config = load_config()
    exclude = config.exclude if config is not None else []
    base = config.path.parent if config is not None and config.path is not None else None
    out: list[str] = []
    errors: list[str] = []
    notes: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
        elif os.path.isdir(p):
            found = walk(p, exclude, base, skipped=notes)
            if not found:
                notes.append(
                    f"{p}: no file in this folder is one vcfg reads (launch scripts, "
                    "serve-config YAML, container and Kubernetes manifests)"
                )
            out.extend(found)
        elif kind := special_kind(p):
            errors.append(f"{p}: {kind}, not a regular file; not read")
        elif os.path.exists(p):
            out.append(p)
        else:
            errors.append(f"{p}: no such file or directory")
    return out, errors, notes


#: (catalog, the launch's words and folder) -> vLLM's view of them: a resident linter
#: (the language server) re-resolves only the launches a change touched.  Across runs,
#: since the key holds all the answer depends on (the catalog by identity, checked on
#: a hit: a plugin overlay or another release is another catalog); a launch that reads
#: a --config file (the run's buffers, the disk) is resolved anew
_ARGS: dict[tuple[Any, ...], Any] = {}
_ARGS_MAX = 256


def _resolve_args(lc: LaunchContext):  # type: ignore[no-untyped-def]
    from vcfg.launch.args import parse_invocation

    plan = lc.file.plan
    inv = lc.inv
    # a --config file (on disk, in a heredoc or an editor's buffer) is read anew each time
    if plan.written_files or any(w.text is not None and w.text.startswith("--config") for w in inv.args):
        run = lc.file.run
        return parse_invocation(
            inv,
            lc.catalog,
            plan,
            buffers=lc.file.buffers,
            names=run.names if run else None,
            configs=run.configs if run else None,
        )
    key: tuple[Any, ...] = (
        id(lc.catalog),
        inv.kind,
        inv.subcommand,
        inv.args,
        inv.keywords,
        os.path.dirname(os.path.abspath(plan.path)),
    )
    if inv.kind == "dynamo":  # a worker's own options are its image's Dynamo release's
        from vcfg.launch.release import dynamo_release

        key += (dynamo_release(inv),)
    hit = _ARGS.get(key)
    if hit is not None and hit[0] is lc.catalog:
        return hit[1]
    out = parse_invocation(inv, lc.catalog, plan)
    _ARGS[key] = (lc.catalog, out)
    if len(_ARGS) > _ARGS_MAX:
        del _ARGS[next(iter(_ARGS))]
    return out


def lint_paths(
    paths: Sequence[str],
    version: Optional[str] = None,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    config: Optional[LintConfig] = None,
    knowledge_dirs: Sequence[Path] = (),
    contents: Optional[dict[str, bytes]] = None,
    stdin_filename: Optional[str] = None,
) -> LintResult:
    """``contents``: the bytes to lint for some paths instead of the files' (the fix
    loop of ``--diff`` and ``vcfg upgrade``, which change nothing on disk);
    ``stdin_filename``: the name standard input ('-') is read, shown and configured as
    (its format follows the name, as ruff's and actionlint's do)."""
    config = config if config is not None else load_config()
    if select:
        config.select = [s.upper() for s in select]
    if ignore:
        config.ignore = [*config.ignore, *(s.upper() for s in ignore)]
    target = make_target(version, config, knowledge_dirs)
    files, path_errors, path_notes = expand_paths_report(paths, config)
    named = set(paths)
    given = [p in named for p in files]
    from vcfg.lint import batch

    jobs = batch.jobs(files, contents, stdin_filename)
    if jobs > 1:
        result: LintResult = batch.lint_split(files, given, target, jobs, lint_files, merge_results)
    else:
        result = lint_files(files, given, target, contents, stdin_filename)
    result.path_errors = path_errors + result.path_errors
    result.path_notes = path_notes + result.path_notes
    return result


def lint_files(
    files: Sequence[str],
    named: Sequence[bool],
    target: Target,
    contents: Optional[dict[str, bytes]] = None,
    stdin_filename: Optional[str] = None,
    keyed: bool = False,
) -> LintResult:
    """Read and lint ``files`` (``named[k]``: the user named ``files[k]`` itself, not
    a folder holding it); ``path_errors`` of the result: the files that could not be
    read.  ``keyed``: keep what the summary needs of each launch, with the order a
    run over more files would give it (`vcfg.lint.batch` merges such results)."""
    from vcfg.launch.read import read_bytes, read_files

    path_errors: list[str] = []
    read: list[tuple[str, bytes]] = []
    truncated: list[bool] = []
    kept_named: list[bool] = []
    for path, was_named in zip(files, named):
        try:
            data = contents[path] if contents is not None and path in contents else read_bytes(path)
        except VcfgError as e:  # unreadable: reported, the rest is linted
            path_errors.append(e.message)
            continue
        kept_named.append(was_named)
        read.append(((stdin_filename or "<stdin>") if path == "-" else path, data[:MAX_BYTES]))
        truncated.append(len(data) > MAX_BYTES)
        if path == "-" and stdin_filename:
            # a serve config read from stdin: its launch's --config reads these bytes
            contents = {**(contents or {}), stdin_filename: data}
    configs: dict[Any, Any] = {}
    plans = read_files(read, target.catalog, named=kept_named, configs=configs)
    # a launch's --config file is read from ``contents`` too
    run = Run(
        target,
        buffers={os.path.abspath(p): b for p, b in (contents or {}).items()},
        names={os.path.abspath(shown): shown for shown, _ in read if not shown.startswith("<")},
        configs=configs,
    )
    contexts: list[FileContext] = []
    sources: dict[str, str] = {}
    for (shown, data), plan, cut in zip(read, plans, truncated):
        text = data.decode("utf-8", "replace")
        sources[shown] = text
        ctx = FileContext(path=shown, text=text, plan=plan, target=target, data=data, run=run)
        ctx.truncated = cut
        contexts.append(ctx)
    result = run_rules(contexts, run, sources, keyed)
    result.path_errors = path_errors
    return result


def lint_text(
    path: str, data: bytes, target: Target, others: Optional[dict[str, bytes]] = None, reuse: Any = None
) -> LintResult:
    """Lint ``data`` as the contents of ``path`` against a target built once (the
    language server: an editor's unsaved buffer, linted as it is typed).  ``path`` is
    not read, nor need it exist; a serve config's own ``--config`` reads ``data``, and a
    launch's ``--config`` file reads ``others`` (absolute path -> bytes: the editor's
    other buffers) before the disk.  Each call is a run of its own (`Run`): nothing
    one call is given is seen by the next, except through ``reuse``
    (`vcfg.lint.rule_reuse.Reuse`): the document's last read, resumed where the text
    changed, and the launch rules' findings of launches that did not change, which
    give what a lint from scratch gives."""
    from vcfg.launch.read import read_files

    body = data[:MAX_BYTES]
    if reuse is not None and len(data) <= MAX_BYTES:
        # an edit inside a comment line: the last lint, moved (vcfg/lint/comment_reuse.py)
        got = reuse.comments.lint(path, body, target, others, reuse)
        if got is not None:
            return got  # type: ignore[no-any-return]
    text = body.decode("utf-8", "replace")
    configs: dict[Any, Any] = {}
    plan = read_files(
        [(path, body)], target.catalog, named=[True], reuse=reuse.shell if reuse else None, configs=configs
    )[0]
    run = Run(
        target,
        buffers={**(others or {}), os.path.abspath(path): body},
        names={os.path.abspath(path): path},
        configs=configs,
    )
    run.rule_memo = reuse.rules if reuse else None
    ctx = FileContext(path=path, text=text, plan=plan, target=target, data=body, run=run)
    ctx.truncated = len(data) > MAX_BYTES
    result = run_rules([ctx], run, {path: text})
    if reuse is not None:
        reuse.comments.remember(path, body, target, others, ctx, result, reuse)
    return result


def _member_loader(run: Run):  # type: ignore[no-untyped-def]
    """Reads a deployment member the user did not give (None when it cannot be read)."""
    target = run.target

    def load(path: str) -> Optional[FileContext]:
        from vcfg.launch.read import read_bytes, read_plan
        from vcfg.launch.readers import ReadContext

        # an editor's open buffer (the language server) before the disk
        data = run.buffer(path)
        if data is None:
            try:
                data = read_bytes(path)
            except VcfgError:
                return None
        data = data[:MAX_BYTES]
        text = data.decode("utf-8", "replace")
        plan = read_plan(path, data, ReadContext(catalog=target.catalog))
        return FileContext(path=path, text=text, plan=plan, target=target, data=data, run=run)

    return load


def _reading_failures(
    contexts: Sequence[FileContext], launches: Sequence[LaunchContext], found: list[Diagnostic], internal: list[str]
) -> None:
    """What vcfg failed to read is never "no problems": an exception in the shell
    interpreter or in the replay of vLLM's argv handling (a vcfg bug; both catch it so
    that the other files and launches are still linted) is an internal error (exit 2)
    with its position; a launch whose arguments nest too deeply to follow is a VC000
    note there (a limit, as for the script)."""
    for fc in contexts:
        for p in fc.plan.problems:
            if p.code == "internal":
                sp = p.span.for_finding(fc.path)
                internal.append(f"{sp.file}:{sp.line}:{sp.col}: {p.message}")
    for lc in launches:
        pa = lc.args
        if pa is None:
            continue
        for p in pa.problems:
            if p.code in ("internal", "too-deep"):
                sp = p.span.for_finding(lc.path if not p.span.file else p.span.file)
                if p.code == "internal":
                    internal.append(f"{sp.file}:{sp.line}:{sp.col}: {p.message}")
                else:
                    from vcfg.lint.rules.vc000_parse_error import RULE as VC000

                    found.append(VC000.diag(sp, p.message, severity="info"))


def run_rules(contexts: list[FileContext], run: Run, sources: dict[str, str], keyed: bool = False) -> LintResult:
    from vcfg.launch.model import ENGINE_KINDS
    from vcfg.lint import deployments

    target = run.target
    config = target.config
    # the run rules judge one deployment at a time (vcfg/lint/deployments.py); members
    # the user did not give are context: their own findings are not reported here
    given = {fc.path for fc in contexts}
    root = config.path.parent if config.path is not None else None
    runs: list[RunContext] = []
    #: each launch's place in the order of a run over any superset of these files
    #: (its deployment's first member, its file in the deployment, its own index)
    places: list[tuple[str, int, int]] = []
    for dep_key, dep in deployments.group_keyed(contexts, _member_loader(run), config.deployments, root, run.buffers):
        rc = RunContext(files=dep.files, target=target, hosts=dep.hosts, name=dep.name)
        for k, fc in enumerate(dep.files):
            for j, inv in enumerate(fc.plan.invocations):
                if keyed and fc.path in given:
                    places.append((dep_key, k, j))
                lc = LaunchContext(file=fc, inv=inv, own_target=_launch_target(inv, target, run.releases))
                if inv.kind in ENGINE_KINDS:  # `vllm serve`, Dynamo's vLLM worker
                    lc.args = _resolve_args(lc)
                rc.launches.append(lc)
        runs.append(rc)
    launches = [lc for r in runs for lc in r.launches if lc.path in given]
    if run.rule_memo is not None:
        run.rule_memo.alone = all(len(r.files) == 1 for r in runs)
    context_only = {fc.path for r in runs for fc in r.files} - given

    found: list[Diagnostic] = []
    internal: list[str] = []
    _reading_failures(contexts, launches, found, internal)

    def guarded(mod, ctx) -> list[Diagnostic]:  # type: ignore[no-untyped-def]
        # one broken rule must not hide the others' findings, nor show a traceback
        try:
            return list(mod.check(ctx))
        except Exception as e:  # noqa: BLE001
            if os.environ.get("VCFG_DEBUG"):
                raise
            internal.append(f"rule {mod.RULE.code} failed: {type(e).__name__}: {e}")
            return []

    # launches of one command on several paths (computed once, not per rule), and
    # each launch's release (a rule's range is checked per release, not per launch)
    check_launch = guarded if run.rule_memo is None else run.rule_memo.checker(launches, guarded, internal)
    # after the checker: it gives each launch equal to one of the last lint (the
    # language server) that launch's option lookups, which the index reads
    modules = modules_for(launches)
    groups = path_groups(launches)
    versions = [lc.target.version for lc in launches]
    one_version = versions[0] if versions and all(v == versions[0] for v in versions) else None
    for mod in modules:
        rule = mod.RULE
        if rule.scope == "file":
            for fc in contexts:
                if applies(rule, fc.target.version):
                    found.extend(guarded(mod, fc))
        elif rule.scope == "launch":
            if rule.versions is None or (one_version is not None and _in_range(rule.versions, one_version)):
                per_launch = [check_launch(mod, lc) for lc in launches]
            elif one_version is not None:
                continue
            else:
                per_launch = [
                    check_launch(mod, lc) if _in_range(rule.versions, v) else [] for lc, v in zip(launches, versions)
                ]
            if groups:
                found.extend(reconcile_paths(launches, per_launch, groups))
            else:  # no launch runs on some paths only: nothing to reconcile
                for diags in per_launch:
                    found.extend(diags)
        elif rule.scope == "run":
            for rc in runs:
                if rc.target is None or applies(rule, rc.target.version):
                    found.extend(d for d in guarded(mod, rc) if d.span.file not in context_only)

    # suppressions, then the rules that judge the suppressions themselves (VC900)
    kept: list[Diagnostic] = []
    on_suppressions = [m for m in modules if m.RULE.scope == "suppressions"]
    by_path: dict[str, list[Diagnostic]] = {}
    for d in found:  # one pass: a batch of a thousand files has thousands of findings
        by_path.setdefault(d.span.file, []).append(d)
    for fc in contexts:
        sups = suppressions.find_suppressions(fc.path, fc.text)
        mine = by_path.get(fc.path, [])
        kept.extend(suppressions.apply(mine, sups))
        for mod in on_suppressions:
            if applies(mod.RULE, fc.target.version):
                kept.extend(guarded(mod, sups))
    paths = {fc.path for fc in contexts}
    kept.extend(d for d in found if d.span.file not in paths)

    kept = [d for d in kept if config.enabled(d.code, d.span.file)]
    kept = _dedupe(kept)
    kept.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, SEVERITY_ORDER[d.severity], d.code))
    summary = Summary(
        files=len(contexts),
        # vLLM engines: `vllm serve` and Dynamo's vLLM workers (`python -m dynamo.vllm`)
        launches=sum(1 for lc in launches if lc.inv.kind in ("serve", "dynamo")),
        vllm_version=target.version,
        version_note=target.version_note,
    )
    images = any(lc.inv.image is not None or lc.inv.pin is not None for lc in launches)
    infos = _release_infos(launches) if images or keyed else []
    _release_summary(summary, infos, target)
    for d in kept:
        summary.counts[d.severity] += 1
    out = LintResult(kept, summary, sources, internal_errors=internal, path_notes=list(run.notes))
    if keyed:
        out.launch_releases = list(zip(places, infos))
    return out


def merge_results(parts: Sequence[tuple[Any, ...]], target: Target) -> LintResult:
    """One result from the results of slices of a run's files, in file order (each
    ``(diagnostics, files, launches, sources, internal errors, path errors, launch
    releases, notes)`` of a ``lint_files(keyed=True)``), as `run_rules` over all the files
    would give it: findings deduplicated and sorted, the summary's releases in the
    launches' order (vcfg/lint/batch.py)."""
    kept = _dedupe([d for p in parts for d in p[0]])
    kept.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, SEVERITY_ORDER[d.severity], d.code))
    summary = Summary(
        files=sum(p[1] for p in parts),
        launches=sum(p[2] for p in parts),
        vllm_version=target.version,
        version_note=target.version_note,
    )
    infos = sorted((x for p in parts for x in p[6]), key=lambda x: x[0])
    _release_summary(summary, [info for _, info in infos], target)
    for d in kept:
        summary.counts[d.severity] += 1
    sources: dict[str, str] = {}
    for p in parts:
        sources.update(p[3])
    return LintResult(
        kept,
        summary,
        sources,
        internal_errors=[e for p in parts for e in p[4]],
        path_errors=[e for p in parts for e in p[5]],
        path_notes=list(dict.fromkeys(n for p in parts for n in p[7])),
    )


def applies(rule: Rule, version: str) -> bool:
    """Whether ``rule`` runs for a launch of ``version`` (its ``versions`` range)."""
    return rule.versions is None or _in_range(rule.versions, version)


@lru_cache(maxsize=None)
def _in_range(versions: str, version: str) -> bool:
    from vcfg.catalog.versions import parse_range, parse_version

    try:
        return parse_version(version) in parse_range(versions)
    except VcfgError:  # a release number vcfg cannot read: the rule stays silent
        return False


#: what the summary needs of one launch (picklable: a batch split over processes
#: sends these back): (path, line, its release record or None when neither an image
#: nor a pin names one, whether it runs its own release, its release, that note)
_LaunchRelease = tuple[str, int, Any, bool, str, Optional[str]]


def _release_infos(launches: list[LaunchContext]) -> list[_LaunchRelease]:
    from vcfg.launch.release import release_of

    return [
        (
            lc.path,
            lc.inv.span.line,
            release_of(lc.inv) if lc.inv.image is not None or lc.inv.pin is not None else None,
            lc.own_target is not None,
            lc.target.version,
            lc.target.version_note,
        )
        for lc in launches
    ]


def _release_summary(summary: Summary, infos: list[_LaunchRelease], target: Target) -> None:
    """The summary names the release of each launch when their images make them
    differ, and says when a vLLM image's tag names no release."""
    if not any(rel is not None for _, _, rel, _, _, _ in infos):
        return
    from vcfg.launch.release import Release

    none = Release(None)
    notes = []
    if not target.pinned:
        unmapped = [
            (
                path,
                line,
                rel
                if rel.version is None
                else rel._replace(  # type: ignore[union-attr]
                    note=f"{rel.source()} names vllm {rel.version}, which has no bundled catalog"
                ),
            )
            for path, line, r, own, _, _ in infos
            for rel in [r if r is not None else none]
            if (rel.version is None and rel.note)
            or (rel.version is not None and not own and rel.version != target.version)
        ]
        if len(unmapped) == 1:
            path, line, rel = unmapped[0]
            notes.append(f"{path}:{line}: {rel.note}, checked against {target.version}")
        elif unmapped:
            images = ", ".join(dict.fromkeys(rel.image or rel.pin or "?" for _, _, rel in unmapped))
            notes.append(
                f"{len(unmapped)} launches' images name no release vcfg has a catalog for ({images}), "
                f"checked against {target.version}"
            )
    others = [x for x in infos if x[3]]
    versions = {x[4] for x in infos}
    if others and len(versions) == 1:
        summary.vllm_version = others[0][4]
        summary.version_note = others[0][5]
    elif others:
        summary.releases = [
            {"path": path, "line": line, "vllm_version": version, "note": note}
            for path, line, _, _, version, note in infos
        ]
        shown = ", ".join(f"{path}:{line} on {version}" for path, line, _, _, version, _ in others[:4])
        more = f" and {len(others) - 4} more" if len(others) > 4 else ""
        notes.insert(0, f"from their images or pins: {shown}{more}")
    if notes:
        summary.version_note = "; ".join(x for x in (summary.version_note, *notes[:4]) if x)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    """A finding reported by several launches of one loop, or twice, shows once."""
    seen: set[tuple[str, tuple[str, int, int, int, int], str]] = set()
    out = []
    for d in diags:
        key = (d.code, d.span.position(), d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def cpu_count() -> int:  # for the benchmark of many files
    return os.cpu_count() or 1
