"""What changed between two catalogs: flags, environment variables, config fields and
connectors added, removed or changed, each removal with the release that removed it."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Optional

from vcfg.catalog.model import Catalog
from vcfg.records import dump, field, record

Kind = Literal["flag", "env", "config", "field", "connector", "extra_key"]
Change = Literal["added", "removed", "changed"]


@record(frozen=True)
class DiffEntry:
    kind: Kind
    name: str
    change: Change
    #: for "changed": {attribute: [old, new]}
    details: dict[str, Any] = field(default_factory=dict)
    #: the first release (from the history) where it was added / was gone
    since: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "change": self.change}
        if self.details:
            out["details"] = self.details
        if self.since:
            out["since"] = self.since
        return out


@record(frozen=True)
class CatalogDiff:
    old: str
    new: str
    entries: list[DiffEntry]

    def to_json(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "changes": [e.to_json() for e in self.entries],
        }

    def find(self, kind: str, name: str) -> Optional[DiffEntry]:
        for e in self.entries:
            if e.kind == kind and e.name == name:
                return e
        return None


# Each kind: how to list its items in a catalog as {name: {attribute: value}}.
def _flags(c: Catalog) -> dict[str, dict[str, Any]]:
    return {
        f.long_name: {
            "option_strings": f.option_strings,
            "type": f.type,
            "nargs": f.nargs,
            "choices": f.choices,
            "default": f.default,
            "deprecated": f.deprecated,
        }
        for f in c.flags
    }


def _envs(c: Catalog) -> dict[str, dict[str, Any]]:
    return {e.name: {"type": e.type, "default": e.default, "parse": e.parse, "choices": e.choices} for e in c.env_vars}


def _configs(c: Catalog) -> dict[str, dict[str, Any]]:
    return {k.name: {"extra_forbid": k.extra_forbid} for k in c.configs}


def _fields(c: Catalog) -> dict[str, dict[str, Any]]:
    return {
        f"{k.name}.{f.name}": {
            "type": f.type,
            "default": f.default,
            "choices": f.choices,
            "constraint": dump(f.constraint, exclude_none=True) if f.constraint else None,
        }
        for k in c.configs
        for f in k.fields
        if f.init and not f.name.startswith("_")
    }


def _connectors(c: Catalog) -> dict[str, dict[str, Any]]:
    return {k.name: {"module": k.module, "class": k.class_name} for k in c.connectors}


def _extra_keys(c: Catalog) -> dict[str, dict[str, Any]]:
    return {f"{k.name}.{x.name}": {"default": x.default, "type": x.type} for k in c.connectors for x in k.extra_keys}


KINDS: list[tuple[Kind, Callable[[Catalog], dict[str, dict[str, Any]]]]] = [
    ("flag", _flags),
    ("env", _envs),
    ("config", _configs),
    ("field", _fields),
    ("connector", _connectors),
    ("extra_key", _extra_keys),
]


def _first_where(history: list[Catalog], lister: Callable, name: str, present: bool) -> Optional[str]:
    for cat in history[1:]:
        if (name in lister(cat)) == present:
            return cat.vllm_version
    return None


def diff_catalogs(old: Catalog, new: Catalog, history: Iterable[Catalog] = ()) -> CatalogDiff:
    """``history``: catalogs between the two (inclusive, any order) used to date changes."""
    from vcfg.catalog.store import version_key

    hist = sorted(history, key=lambda c: version_key(c.vllm_version))
    entries: list[DiffEntry] = []
    for kind, lister in KINDS:
        a, b = lister(old), lister(new)
        cache: dict[str, dict[str, dict[str, Any]]] = {}

        def cached(cat: Catalog, _lister=lister, _cache=cache) -> dict[str, dict[str, Any]]:
            if cat.vllm_version not in _cache:
                _cache[cat.vllm_version] = _lister(cat)
            return _cache[cat.vllm_version]

        for name in sorted(a.keys() - b.keys()):
            entries.append(DiffEntry(kind, name, "removed", since=_first_where(hist, cached, name, False)))
        for name in sorted(b.keys() - a.keys()):
            entries.append(DiffEntry(kind, name, "added", since=_first_where(hist, cached, name, True)))
        for name in sorted(a.keys() & b.keys()):
            details = {k: [a[name][k], b[name][k]] for k in a[name] if a[name][k] != b[name][k]}
            if details:
                entries.append(DiffEntry(kind, name, "changed", details))
    return CatalogDiff(old.vllm_version, new.vllm_version, entries)


_TITLES = {
    "flag": "flags",
    "env": "environment variables",
    "config": "config classes",
    "field": "config fields",
    "connector": "KV connectors",
    "extra_key": "connector extra-config keys",
}


def _short(v: Any) -> str:
    import json

    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def render_diff(d: CatalogDiff) -> str:
    lines = [f"vllm {d.old} -> {d.new}"]
    for kind, _ in KINDS:
        group = [e for e in d.entries if e.kind == kind]
        if not group:
            continue
        counts = {c: sum(e.change == c for e in group) for c in ("removed", "added", "changed")}
        lines.append("")
        lines.append(
            f"{_TITLES[kind]}: {counts['removed']} removed, {counts['added']} added, {counts['changed']} changed"
        )
        for e in group:
            mark = {"removed": "-", "added": "+", "changed": "~"}[e.change]
            when = ""
            if e.since:
                when = f"  (removed in {e.since})" if e.change == "removed" else f"  (added in {e.since})"
            lines.append(f"  {mark} {e.name}{when}")
            for attr, (o, n) in e.details.items():
                lines.append(f"      {attr}: {_short(o)} -> {_short(n)}")
    return "\n".join(lines)
