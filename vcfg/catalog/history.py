"""Which names exist in which bundled release: a small generated index, so that a lint
run can say "removed in 0.23.0" without loading every bundled catalog.

The index (``data/catalogs/history.json``) maps, for each kind of name, the name to a
string with one character per bundled release, oldest first: ``1`` present, ``0``
absent.  Kinds: ``flag`` (every option string), ``env``, ``config`` (class names),
``field`` (``Class.field``), ``connector``, ``extra_key`` (``Connector.key``).

`PresenceCatalog` answers the name lookups of a `Catalog` (``flag``, ``env``,
``config(...).field``, ``connector(...).extra_keys``) for one release from the index:
rules that ask "did release X have this?" work the same on either.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional

from vcfg.catalog.model import Catalog
from vcfg.catalog.releases import GENERATED_BY
from vcfg.records import record

INDEX_PATH = Path(__file__).parent / "data" / "catalogs" / "history.json"
KINDS = ("flag", "env", "config", "field", "connector", "extra_key")


def names_of(cat: Catalog) -> dict[str, list[str]]:
    """The names of each kind, in the catalog's own order."""
    return {
        "flag": [s for f in cat.flags for s in f.option_strings],
        "env": [e.name for e in cat.env_vars],
        "config": [c.name for c in cat.configs],
        "field": [f"{c.name}.{f.name}" for c in cat.configs for f in c.fields],
        "connector": [k.name for k in cat.connectors],
        "extra_key": [f"{k.name}.{x.name}" for k in cat.connectors for x in k.extra_keys],
    }


def build_index(catalogs: Iterable[Catalog]) -> dict[str, Any]:
    """Names keep the order of their first appearance (oldest release first, then the
    catalog's order), so a reader can list them as the catalogs would."""
    cats = list(catalogs)
    per = [names_of(c) for c in cats]
    out: dict[str, Any] = {
        "generated_by": GENERATED_BY,
        "versions": [c.vllm_version for c in cats],
    }
    for kind in KINDS:
        order: dict[str, None] = {}
        for p in per:
            order.update(dict.fromkeys(p[kind]))
        sets = [set(p[kind]) for p in per]
        out[kind] = {n: "".join("1" if n in s else "0" for s in sets) for n in order}
    return out


def dumps_index(index: dict[str, Any]) -> str:
    return json.dumps(index, separators=(",", ":")) + "\n"


@lru_cache(maxsize=1)
def load_index() -> dict[str, Any]:
    try:
        return json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"versions": [], **{k: {} for k in KINDS}}


@record(frozen=True)
class _Present:
    name: str
    _cat: "PresenceCatalog"

    def field(self, name: str) -> Optional["_Present"]:
        return self._cat._get("field", f"{self.name}.{name}")

    @property
    def extra_keys(self) -> list["_Present"]:
        prefix = self.name + "."
        return [
            _Present(n[len(prefix) :], self._cat)
            for n, mask in self._cat._index["extra_key"].items()
            if n.startswith(prefix) and mask[self._cat._i] == "1"
        ]


class PresenceCatalog:
    """The names of one bundled release (see the module doc)."""

    def __init__(self, index: dict[str, Any], i: int) -> None:
        self._index = index
        self._i = i
        self.vllm_version: str = index["versions"][i]

    def _get(self, kind: str, name: str) -> Optional[_Present]:
        mask = self._index[kind].get(name)
        return _Present(name, self) if mask is not None and mask[self._i] == "1" else None

    def flag(self, option: str) -> Optional[_Present]:
        return self._get("flag", option)

    def env(self, name: str) -> Optional[_Present]:
        return self._get("env", name)

    def config(self, name: str) -> Optional[_Present]:
        return self._get("config", name)

    def connector(self, name: str) -> Optional[_Present]:
        return self._get("connector", name)


def presence_history() -> list[PresenceCatalog]:
    index = load_index()
    return [PresenceCatalog(index, i) for i in range(len(index["versions"]))]
