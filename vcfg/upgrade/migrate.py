"""One ``vcfg upgrade`` run: what was migrated, what could not be, what changed meaning."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Optional, Sequence

from vcfg.errors import VcfgError
from vcfg.records import field, record

#: the rules whose findings are migrations (their fixes come from the packs'
#: ``migrate`` facts) and, when no fix is possible, what could not be migrated
MIGRATION_CODES = ("VC002", "VC023", "VC027", "VC103")


@record
class Item:
    """One line of the report."""

    path: str
    line: int
    column: int
    code: str
    message: str
    #: what was done, or why not / what to do
    detail: str = ""
    #: where to read about it: pack sources, vllm@release:file:line
    sources: list[str] = field(default_factory=list)
    #: what could take the place of a removed name without a replacement, each with
    #: where the newer release defines it
    alternatives: list[tuple[str, str]] = field(default_factory=list)
    severity: str = "error"

    def to_json(self) -> dict[str, Any]:
        out = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "detail": self.detail,
            "sources": list(self.sources),
        }
        if self.alternatives:
            out["alternatives"] = [{"name": n, "source": s} for n, s in self.alternatives]
        return out


@record
class DefaultChange:
    """A default that changed between the releases, for an option a launch leaves unset."""

    path: str
    name: str  # --option or Class.field
    old: Any
    new: Any
    #: where the newer release defines it
    source: str = ""
    since: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "old": self.old,
            "new": self.new,
            "source": self.source,
            "since": self.since,
        }


@record
class Upgrade:
    old: str
    new: str
    run: Any  # vcfg.fix.run.FixRun
    migrated: list[Item] = field(default_factory=list)
    not_migrated: list[Item] = field(default_factory=list)
    #: findings the files already had for the older release (not the upgrade's doing)
    preexisting: list[Item] = field(default_factory=list)
    defaults: list[DefaultChange] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.old,
            "to": self.new,
            "files": [{"path": f.path, "changed": f.changed} for f in self.run.files],
            "migrated": [i.to_json() for i in self.migrated],
            "not_migrated": [i.to_json() for i in self.not_migrated],
            "preexisting": [i.to_json() for i in self.preexisting],
            "changed_defaults": [d.to_json() for d in self.defaults],
        }


def resolve_versions(old: Optional[str], new: Optional[str], config: Any, paths: Sequence[str]) -> tuple[str, str]:
    """``--from`` (else the release in effect for the files: the project config's, else
    the installed vLLM's) and ``--to`` (else the newest bundled), both bundled."""
    from vcfg.catalog import store
    from vcfg.catalog.local import installed_version

    if old is None:
        old = config.vllm_version or installed_version()
        if old is None:
            raise VcfgError(
                f"cannot tell which vLLM release {paths[0]} was written for",
                hint="pass --from VERSION (or set vllm-version in [tool.vcfg])",
            )
    new = new or store.newest_bundled()
    bundled = store.bundled_versions()
    for v, opt in ((old, "--from"), (new, "--to")):
        if v not in bundled:
            raise VcfgError(f"{opt} {v}: no bundled catalog for it", hint="`vcfg catalog list` shows the releases")
    if store.version_key(new) <= store.version_key(old):
        raise VcfgError(f"--to {new} is not newer than --from {old}")
    return old, new


def upgrade(
    paths: Sequence[str],
    old: str,
    new: str,
    *,
    config: Any = None,
    knowledge_dirs: Sequence[Path] = (),
    report_defaults: bool = True,
) -> Upgrade:
    """Migrate ``paths`` (files or folders) from release ``old`` to ``new`` in memory."""
    from vcfg.fix.run import fix_files
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import expand_paths, lint_paths

    config = config if config is not None else LintConfig()
    files = expand_paths(paths)

    def lint_for(version: str):  # type: ignore[no-untyped-def]
        def lint(fs: Sequence[str], contents: dict[str, bytes]):  # type: ignore[no-untyped-def]
            return lint_paths(fs, version, config=config, knowledge_dirs=knowledge_dirs, contents=contents)

        return lint

    from vcfg.fix.run import read_bytes

    original = {f: read_bytes(f) for f in files}
    before = lint_for(old)(files, original)
    run = fix_files(files, lint_for(new), unsafe=True, select=lambda d: d.code in MIGRATION_CODES, contents=original)
    out = Upgrade(old, new, run)
    knowledge = _knowledge(knowledge_dirs)
    for ff in run.files:
        for d in ff.fixed:
            out.migrated.append(_item(d, new, knowledge, done=d.fix.description))
    # a mistake the file had for the older release too (perhaps only a warning then)
    had = {_same(d) for d in before.diagnostics}
    for d in run.result.diagnostics:
        if d.code not in MIGRATION_CODES and d.severity != "error":
            continue
        if _same(d) in had:
            out.preexisting.append(_item(d, new, knowledge))
        else:
            out.not_migrated.append(_item(d, new, knowledge))
    if report_defaults:
        out.defaults = changed_defaults(files, run, old, new, lint_for(new))
    return out


def _same(d: Any) -> tuple[str, str, tuple[str, ...]]:
    """What makes two findings (of two releases, lines apart) the same mistake: the
    code, the file and the names the message quotes (the wording may differ)."""
    import re

    names = tuple(re.findall(r"`([^`]+)`", d.message)) or (d.message,)
    return d.code, d.span.file, names


def _knowledge(dirs: Sequence[Path]) -> Any:
    from vcfg.catalog.knowledge import load_packs

    return load_packs(dirs)


def _item(d: Any, new: str, knowledge: Any, done: str = "") -> Item:
    """A report line for finding ``d``, with the sources of the pack entry behind it."""
    s = d.span
    notes = [n for n in d.notes if not n.startswith("in-tree alternatives:")]
    detail = done or "; ".join(x for x in (d.help, *notes) if x)
    entry = _entry(d, new, knowledge)
    sources = list(entry.sources) if entry is not None else _history_source(d.code, _name(d))
    alts: list[tuple[str, str]] = []
    if entry is not None and entry.alternatives and not done:
        from vcfg.catalog import store

        cat, _ = store.load(new)
        for a in entry.alternatives:
            k = cat.connector(a) if entry.kind == "connector" else cat.flag(a)
            loc = getattr(k, "loc", None)
            alts.append((a, f"vllm@{new}:{loc.file}:{loc.line}" if loc else ""))
    return Item(s.file, s.line, s.col, d.code, d.message, detail, sources, alts, d.severity)


def _name(d: Any) -> str:
    import re

    m = re.match(r"`([^`]+)`", d.message)
    return m.group(1) if m else ""


def _entry(d: Any, new: str, knowledge: Any) -> Any:
    """The pack entry behind a removed-name finding, if any."""
    import re

    name = _name(d)
    if not name:
        return None
    kind = {"VC002": "flag", "VC103": "env", "VC027": "connector"}.get(d.code)
    entry = None
    if kind is not None:
        entry = knowledge.removed(kind, name, new)
    elif d.code == "VC023":
        cls = re.search(r"removed from (\w+)", d.message)
        if cls:
            entry = knowledge.removed_config_field(f"{cls.group(1)}.{name}", new)
    return entry


def _history_source(code: str, name: str) -> list[str]:
    """Where the last release that had ``name`` defines it (from the bundled catalogs):
    the place a person reads to migrate by hand."""
    from vcfg.catalog import store
    from vcfg.catalog.history import load_index

    kind = {"VC002": "flag", "VC103": "env", "VC027": "connector"}.get(code)
    if kind is None:
        return []
    index = load_index()
    mask = index.get(kind, {}).get(name)
    if not mask or "1" not in mask:
        return []
    last = index["versions"][mask.rindex("1")]
    cat, _ = store.load(last)
    obj = cat.flag(name) if kind == "flag" else (cat.env(name) if kind == "env" else cat.connector(name))
    loc = getattr(obj, "loc", None)
    return [f"vllm@{last}:{loc.file}:{loc.line}"] if loc is not None else []


def changed_defaults(files: Sequence[str], run: Any, old: str, new: str, lint: Any) -> list[DefaultChange]:
    """Options whose default differs between the releases and that a serve launch of the
    migrated files leaves unset: the launch behaves differently without a word changed."""
    import os

    from vcfg.catalog import store
    from vcfg.launch.args import parse_invocation
    from vcfg.launch.read import read_plan
    from vcfg.launch.readers import ReadContext

    b, _ = store.load(new)
    flag_changes, field_changes = _default_changes(old, new)
    history = (
        [
            store.load(v)[0]
            for v in store.bundled_versions()
            if store.version_key(old) <= store.version_key(v) <= store.version_key(new)
        ]
        if flag_changes
        else []
    )
    out: list[DefaultChange] = []
    seen: set[tuple[str, str]] = set()
    for ff in run.files:
        shown = "<stdin>" if ff.path == "-" else ff.path
        plan = read_plan(shown, ff.after, ReadContext(catalog=b))
        for inv in plan.invocations:
            if inv.kind != "serve":
                continue
            # a serve config reads itself as --config
            pa = parse_invocation(inv, b, plan, buffers={os.path.abspath(ff.path): ff.after})
            for name, e in flag_changes.items():
                flag = b.flag(name)
                if flag is None or pa.get(flag.dest) is not None:
                    continue
                old_v, new_v = e.details["default"]
                if not _meaningful(old_v) or not _meaningful(new_v) or (shown, name) in seen:
                    continue
                seen.add((shown, name))
                loc = flag.loc
                out.append(
                    DefaultChange(
                        shown,
                        name,
                        old_v,
                        new_v,
                        f"vllm@{new}:{loc.file}:{loc.line}" if loc else "",
                        _changed_in(history, name, old_v),
                    )
                )
            for _ov, cls_name, value in _json_objects(pa, b):
                for fname, e in field_changes.items():
                    cname, _, key = fname.partition(".")
                    if cname != cls_name or key in value or (shown, fname) in seen:
                        continue
                    old_v, new_v = e.details["default"]
                    if not _meaningful(old_v) or not _meaningful(new_v):
                        continue
                    seen.add((shown, fname))
                    cls = b.config(cname)
                    fld = cls.field(key) if cls is not None else None
                    loc = getattr(fld, "loc", None)
                    out.append(
                        DefaultChange(shown, fname, old_v, new_v, f"vllm@{new}:{loc.file}:{loc.line}" if loc else "")
                    )
    return out


@lru_cache(maxsize=8)
def _default_changes(old: str, new: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The flags and config fields whose default differs between the two releases."""
    from vcfg.catalog import store
    from vcfg.catalog.diff import diff_catalogs

    diff = diff_catalogs(store.load(old)[0], store.load(new)[0])
    return (
        {e.name: e for e in diff.entries if e.kind == "flag" and "default" in e.details},
        {e.name: e for e in diff.entries if e.kind == "field" and "default" in e.details},
    )


def _json_objects(pa: Any, cat: Any) -> list[tuple[Any, str, dict[str, Any]]]:
    out = []
    for ov in pa.options.values():
        f = ov.flag
        if f is None or not f.config_class_of_value or not isinstance(ov.value, dict):
            continue
        out.append((ov, f.config_class_of_value, ov.value))
    return out


def _meaningful(v: Any) -> bool:
    """Not a placeholder the catalog records for a default computed elsewhere."""
    return not (isinstance(v, dict) and any(k.startswith("$") for k in v)) and v != "==SUPPRESS=="


def _changed_in(history: list[Any], name: str, old_v: Any) -> Optional[str]:
    """The first release in ``history`` whose default for ``name`` is not ``old_v``."""
    for cat in history:
        f = cat.flag(name)
        if f is not None and f.default != old_v:
            return cat.vllm_version
    return None
