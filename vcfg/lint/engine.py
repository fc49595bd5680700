"""Runs the rules over launch plans and turns their findings into a sorted list.

The target release: ``--vllm-version``, else the project config, else the installed
vLLM's version (read from its metadata, never imported), else the newest bundled
catalog.  The summary always says which one was used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional, Sequence

from vcfg.errors import VcfgError
from vcfg.lint import suppressions
from vcfg.lint.config import LintConfig, load_config
from vcfg.lint.context import FileContext, LaunchContext, RunContext, Target
from vcfg.diagnostics import SEVERITY_ORDER, Diagnostic, Span, Summary
from vcfg.lint.registry import rule_modules
from vcfg.records import field, record

SCRIPT_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ""}
YAML_SUFFIXES = {".yaml", ".yml"}
MAX_BYTES = 20 * 1024 * 1024


@record
class LintResult:
    diagnostics: list[Diagnostic]
    summary: Summary
    sources: dict[str, str] = field(default_factory=dict)
    internal_errors: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.internal_errors:
            return 2
        return 1 if any(d.severity in ("error", "warning") for d in self.diagnostics) else 0


def make_target(
    version: Optional[str], config: LintConfig, extra_knowledge: Sequence[Path] = ()
) -> Target:
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
    full_note = "; ".join(x for x in (f"from {origin}" if origin else None, note) if x)
    return Target(catalog=cat, knowledge=knowledge, config=config, version_note=full_note or None)


def expand_paths(paths: Iterable[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and f.suffix in (SCRIPT_SUFFIXES | YAML_SUFFIXES) - {""}:
                    out.append(str(f))
        elif path.exists():
            out.append(p)
        else:
            raise VcfgError(f"{p}: no such file or directory")
    return out


def _read(path: str) -> bytes:
    try:
        if path == "-":
            import sys

            return sys.stdin.buffer.read(MAX_BYTES + 1)
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise VcfgError(f"cannot read {path}: {e.strerror or e}") from e


def _is_yaml(path: str, data: bytes) -> bool:
    return Path(path).suffix.lower() in YAML_SUFFIXES


def parse_file(path: str, data: bytes, catalog=None):  # type: ignore[no-untyped-def]
    """The launch plan of one file (bash script, serve config or manifest)."""
    if _is_yaml(path, data):
        return _yaml_plan(path, data, catalog)
    from vcfg.launch.shell import parse_script

    return parse_script(data, path)


#: top-level keys that make a YAML file a manifest rather than a serve config
_MANIFEST_KEYS = {"apiVersion", "kind", "services", "spec", "containers"}


def _yaml_plan(path: str, data: bytes, catalog):  # type: ignore[no-untyped-def]
    """A serve config becomes one `vllm serve --config FILE` launch, so every rule sees
    its options (reported at their YAML lines); a manifest goes to the manifest reader;
    any other YAML (a CI workflow, a Helm chart's values) has no launch."""
    from vcfg.launch import yaml_config
    from vcfg.launch.model import SERVE, Invocation, LaunchPlan, LineIndex, literal_word

    # read as a serve config (kept for the launch's --config); anything that is not one
    # mapping (several documents, a YAML error) goes to the manifest reader, which
    # reports YAML errors with their positions
    cfg = yaml_config.load_serve_config(data, path)
    keys = [e.key for e in cfg.entries] if cfg.entries is not None else None
    if not keys or _MANIFEST_KEYS & set(keys):
        return yaml_config.parse_manifest(data, path)
    if catalog is not None and not _looks_like_serve_config(keys, catalog):
        return LaunchPlan(path, source_kind="yaml")
    li = LineIndex(data, path)
    at = li.span(0, 0)
    args = (literal_word("--config", at), literal_word(os.path.basename(path), at))
    inv = Invocation(
        kind=SERVE, entrypoint="vllm serve", command=args, args=args,
        args_complete=True, span=at, env={}, subcommand=("serve",),
    )
    return LaunchPlan(path, invocations=(inv,), source_kind="serve-config")


def _looks_like_serve_config(keys: list[str], catalog) -> bool:  # type: ignore[no-untyped-def]
    hits = sum(1 for k in keys if catalog.flag("--" + k.replace("_", "-")) is not None or k == "model")
    return hits >= max(1, len(keys) // 3)


def _resolve_args(lc: LaunchContext):  # type: ignore[no-untyped-def]
    from vcfg.launch.args import parse_invocation

    return parse_invocation(lc.inv, lc.catalog, lc.file.plan)


def lint_paths(
    paths: Sequence[str],
    version: Optional[str] = None,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    config: Optional[LintConfig] = None,
    knowledge_dirs: Sequence[Path] = (),
    contents: Optional[dict[str, bytes]] = None,
) -> LintResult:
    """``contents``: the bytes to lint for some paths instead of the files' (the fix
    loop of ``--diff`` and ``vcfg upgrade``, which change nothing on disk)."""
    config = config if config is not None else load_config()
    if select:
        config.select = [s.upper() for s in select]
    if ignore:
        config.ignore = [*config.ignore, *(s.upper() for s in ignore)]
    target = make_target(version, config, knowledge_dirs)
    files = expand_paths(paths)
    contexts: list[FileContext] = []
    sources: dict[str, str] = {}
    for path in files:
        data = contents[path] if contents is not None and path in contents else _read(path)
        shown = "<stdin>" if path == "-" else path
        text = data[:MAX_BYTES].decode("utf-8", "replace")
        sources[shown] = text
        plan = parse_file(shown, data[:MAX_BYTES], target.catalog)
        ctx = FileContext(path=shown, text=text, plan=plan, target=target, data=data[:MAX_BYTES])
        ctx.truncated = len(data) > MAX_BYTES
        contexts.append(ctx)
    if contents:
        from vcfg.launch import args as launch_args

        # a launch's --config file is read from ``contents`` too
        launch_args.OVERLAY.update({os.path.abspath(p): b for p, b in contents.items()})
        try:
            return run_rules(contexts, target, sources)
        finally:
            launch_args.OVERLAY.clear()
    return run_rules(contexts, target, sources)


def _member_loader(target: Target):  # type: ignore[no-untyped-def]
    """Reads a deployment member the user did not give (None when it cannot be read)."""

    def load(path: str) -> Optional[FileContext]:
        try:
            data = _read(path)
        except VcfgError:
            return None
        data = data[:MAX_BYTES]
        text = data.decode("utf-8", "replace")
        return FileContext(path=path, text=text, plan=parse_file(path, data, target.catalog), target=target, data=data)

    return load


def run_rules(contexts: list[FileContext], target: Target, sources: dict[str, str]) -> LintResult:
    from vcfg.launch.model import SERVE
    from vcfg.lint import deployments

    config = target.config
    # the run rules judge one deployment at a time (vcfg/lint/deployments.py); members
    # the user did not give are context: their own findings are not reported here
    given = {fc.path for fc in contexts}
    root = config.path.parent if config.path is not None else None
    runs: list[RunContext] = []
    for dep in deployments.group(contexts, _member_loader(target), config.deployments, root):
        run = RunContext(files=dep.files, target=target, hosts=dep.hosts, name=dep.name)
        for fc in dep.files:
            for inv in fc.plan.invocations:
                lc = LaunchContext(file=fc, inv=inv)
                if inv.kind == SERVE:
                    lc.args = _resolve_args(lc)
                run.launches.append(lc)
        runs.append(run)
    launches = [lc for r in runs for lc in r.launches if lc.path in given]
    context_only = {fc.path for r in runs for fc in r.files} - given

    found: list[Diagnostic] = []
    internal: list[str] = []
    modules = rule_modules()

    def guarded(mod, ctx) -> list[Diagnostic]:  # type: ignore[no-untyped-def]
        # one broken rule must not hide the others' findings, nor show a traceback
        try:
            return list(mod.check(ctx))
        except Exception as e:  # noqa: BLE001
            if os.environ.get("VCFG_DEBUG"):
                raise
            internal.append(f"rule {mod.RULE.code} failed: {type(e).__name__}: {e}")
            return []

    for mod in modules:
        rule = mod.RULE
        if rule.code == "VC900":
            continue
        if rule.scope == "file":
            for fc in contexts:
                found.extend(guarded(mod, fc))
        elif rule.scope == "launch":
            for lc in launches:
                found.extend(guarded(mod, lc))
        else:
            for run in runs:
                found.extend(d for d in guarded(mod, run) if d.span.path not in context_only)

    # suppressions, then the report of unused ones
    kept: list[Diagnostic] = []
    unused_rule = next((m for m in modules if m.RULE.code == "VC900"), None)
    for fc in contexts:
        sups = suppressions.find_suppressions(fc.path, fc.text)
        mine = [d for d in found if d.span.path == fc.path]
        kept.extend(suppressions.apply(mine, sups))
        if unused_rule is not None:
            kept.extend(unused_rule.check_suppressions(sups))
    paths = {fc.path for fc in contexts}
    kept.extend(d for d in found if d.span.path not in paths)

    kept = [d for d in kept if config.enabled(d.code, d.span.path)]
    kept = _dedupe(kept)
    kept.sort(key=lambda d: (d.span.path, d.span.line, d.span.column, SEVERITY_ORDER[d.severity], d.code))
    summary = Summary(
        files=len(contexts),
        launches=sum(1 for lc in launches if lc.inv.kind == "serve"),
        vllm_version=target.version,
        version_note=target.version_note,
    )
    for d in kept:
        summary.counts[d.severity] += 1
    return LintResult(kept, summary, sources, internal_errors=internal)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    """A finding reported by several launches of one loop, or twice, shows once."""
    seen: set[tuple[str, Span, str]] = set()
    out = []
    for d in diags:
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def cpu_count() -> int:  # for the benchmark of many files
    return os.cpu_count() or 1
