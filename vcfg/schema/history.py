"""In which releases a flag, field, variable or connector exists: from catalogs only.

A `History` is built from catalogs of several releases (normally every bundled one)
and answers "which of these releases has X".  Descriptions say it as ranges over
those releases ("0.10.2-0.23.0, 0.26.0-0.33.0"); a release between two bundled ones
is not claimed either way.
"""

from __future__ import annotations

from typing import Iterable, Optional

from vcfg.catalog.model import Catalog
from vcfg.catalog.store import version_key
from vcfg.records import field, record


@record
class History:
    versions: list[str] = field(default_factory=list)  # oldest first
    _has: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    _known: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> name -> last version

    @classmethod
    def of(cls, catalogs: Iterable[Catalog]) -> "History":
        h = cls()
        cats = sorted({c.vllm_version: c for c in catalogs}.values(), key=lambda c: version_key(c.vllm_version))
        for cat in cats:
            h._add(cat)
        return h

    @classmethod
    def from_index(cls, index: dict, extra: Optional[Catalog] = None) -> "History":  # type: ignore[type-arg]
        """The same from the bundled name index (vcfg/catalog/history.py), without
        loading every catalog; ``extra`` (a user-built catalog) is added to it."""
        h = cls()
        h.versions = list(index["versions"])
        kinds = {
            "flag": "flag",
            "env": "env",
            "config": "class",
            "field": "field",
            "connector": "connector",
            "extra_key": "extra",
        }
        for src, kind in kinds.items():
            entries = index.get(src, {})
            # the index keeps names in order of first appearance, as `of` inserts them
            for name in entries:
                if src == "flag" and not name.startswith("--"):
                    continue
                mask = entries[name]
                for i, bit in enumerate(mask):
                    if bit == "1":
                        h._put(kind, name, h.versions[i])
        if extra is not None and extra.vllm_version not in h.versions:
            h._add(extra)
            h.versions.sort(key=version_key)
        return h

    def _add(self, cat: Catalog) -> None:
        v = cat.vllm_version
        self.versions.append(v)
        for f in cat.flags:
            for s in f.option_strings:
                if s.startswith("--"):
                    self._put("flag", s, v)
        for e in cat.env_vars:
            self._put("env", e.name, v)
        for c in cat.configs:
            self._put("class", c.name, v)
            for fl in c.fields:
                self._put("field", f"{c.name}.{fl.name}", v)
        for k in cat.connectors:
            self._put("connector", k.name, v)
            for x in k.extra_keys:
                self._put("extra", f"{k.name}.{x.name}", v)

    def _put(self, kind: str, name: str, version: str) -> None:
        self._has.setdefault((kind, name), set()).add(version)
        self._known.setdefault(kind, {})[name] = version

    # -- queries
    def present(self, kind: str, name: str) -> list[str]:
        have = self._has.get((kind, name), set())
        return [v for v in self.versions if v in have]

    def names(self, kind: str) -> list[str]:
        return list(self._known.get(kind, {}))

    def ranges(self, kind: str, name: str) -> str:
        """``0.10.2-0.23.0, 0.26.0-0.33.0`` (an en dash), or "" if never seen."""
        return release_ranges(self.present(kind, name), self.versions)

    def span_words(self, kind: str, name: str) -> Optional[str]:
        """ "Releases: ..." for a name some known release lacks; None when every
        release has it (the usual case, left unsaid to keep schemas small and stable)."""
        have = self.present(kind, name)
        if not have or len(have) == len(self.versions):
            return None
        return f"Releases: {release_ranges(have, self.versions)}"

    def absent_note(self, kind: str, name: str, version: str) -> Optional[str]:
        """For a name this release lacks but others have: when it was there, in words."""
        have = self.present(kind, name)
        if not have or version in have:
            return None
        key = version_key(version)
        older = [v for v in have if version_key(v) < key]
        newer = [v for v in have if version_key(v) > key]
        if older and not newer:
            return f"removed after vLLM {older[-1]}"
        if newer and not older:
            return f"only from vLLM {newer[0]} on"
        return f"not in vLLM {version} (in {release_ranges(have, self.versions)})"


def release_ranges(have: list[str], order: list[str]) -> str:
    if not have:
        return ""
    runs: list[list[str]] = []
    prev_i = -2
    index = {v: i for i, v in enumerate(order)}
    for v in sorted(have, key=lambda x: index.get(x, -1)):
        i = index.get(v, -1)
        if runs and i == prev_i + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
        prev_i = i
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}\u2013{r[-1]}" for r in runs)
