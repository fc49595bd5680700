"""The bundled catalogs on disk: one table of facts shared by every release, and per
release the rows that name its facts and where vLLM's source states them.

Between two releases most entries of a catalog stay the same except for their line
numbers (an edit near the top of ``vllm/envs.py`` moves every variable below it), so
a fact is an entry without its locations (``Loc`` fields) and without its nested
lists (a config class's fields, a connector's extra keys), which are facts of their
own.  About 55 releases then share a few thousand facts instead of carrying 55
copies of them.

``facts.jsonl``: the first line is a header (``{"files": [...]}``, the source files
every location names); line ``i`` is fact ``i``, one JSON object a line, so a
lint can decode only the facts of the one release it reads: one ``json.loads`` over
those lines, not the whole table.

``vllm-<version>.json``: the release's scalar fields (``vllm_version``, ``source``,
...) and ``"packed": {kind: rows}``, one row per entry, in the catalog's order::

    [fact, loc_1, ..., loc_n, [child rows]_1, ..., [child rows]_m]

with the location fields and nested lists of the entry's record class in field
order (read from the records themselves, so a field added to `vcfg.catalog.model`
is packed without a change here).  A location is one integer, ``file << 20 | line``,
or -1 when the entry has none.

Users' own catalogs stay one plain JSON file each (`vcfg.catalog.store`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from vcfg.catalog.model import Catalog, Loc
from vcfg.records import dump, nested_fields

FACTS_FILE = "facts.jsonl"
PACKED_KEY = "packed"
_LINE_BITS = 20
_LINE_MASK = (1 << _LINE_BITS) - 1


@lru_cache(maxsize=None)
def _plan(cls: Any) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """(location fields, nested record lists) of a record class, in field order."""
    locs: list[str] = []
    kids: list[tuple[str, Any]] = []
    for name, sub, is_list in nested_fields(cls):
        if sub is Loc and not is_list:
            locs.append(name)
        elif is_list:
            kids.append((name, sub))
    return tuple(locs), tuple(kids)


def _kinds() -> tuple[tuple[str, Any], ...]:
    """The catalog's lists of entries (``env_vars``, ``flags``, ...)."""
    return _plan(Catalog)[1]


# --------------------------------------------------------------------------- packing


class _Table:
    """Facts and file names, numbered in order of first appearance."""

    def __init__(self) -> None:
        self.facts: dict[str, int] = {}
        self.files: dict[str, int] = {}

    def loc(self, value: Any) -> int:
        if not isinstance(value, str):
            return -1
        file, _, line = value.rpartition(":")
        n = int(line) if line.isdigit() else 0
        if n > _LINE_MASK:
            raise ValueError(f"line {n} of {file} does not fit a packed location")
        return (self.files.setdefault(file, len(self.files)) << _LINE_BITS) | n

    def row(self, cls: Any, entry: dict[str, Any]) -> list[Any]:
        locs, kids = _plan(cls)
        fact = {k: v for k, v in entry.items() if k not in locs and all(k != n for n, _ in kids)}
        text = json.dumps(fact, ensure_ascii=False, separators=(",", ":"))
        out: list[Any] = [self.facts.setdefault(text, len(self.facts) + 1)]
        out += [self.loc(entry.get(k)) for k in locs]
        out += [[self.row(sub, x) for x in entry.get(name) or ()] for name, sub in kids]
        return out


def pack(catalogs: Iterable[Catalog]) -> tuple[str, dict[str, str]]:
    """The facts table's text and, per release, its file's text."""
    table = _Table()
    releases: dict[str, str] = {}
    kinds = _kinds()
    for cat in catalogs:
        data = dump(cat, exclude_defaults=True)
        out = {k: v for k, v in data.items() if all(k != n for n, _ in kinds)}
        out["vllm_version"] = cat.vllm_version
        out[PACKED_KEY] = {name: [table.row(sub, e) for e in data.get(name) or ()] for name, sub in kinds}
        releases[cat.vllm_version] = json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"
    header = json.dumps({"files": list(table.files)}, ensure_ascii=False, separators=(",", ":"))
    return "\n".join([header, *table.facts]) + "\n", releases


# --------------------------------------------------------------------------- unpacking


@lru_cache(maxsize=4)
def _table(path: str) -> tuple[list[str], list[bytes]]:
    """The ``file:`` prefix of every location's file, and the table's lines (fact
    ``i`` is line ``i``)."""
    lines = Path(path).read_bytes().split(b"\n")
    return [f + ":" for f in json.loads(lines[0])["files"]], lines


class _Rows:
    """Nested entries (a config class's fields), decoded when first iterated: a
    record built by `vcfg.records.build` keeps them as data until the field is read,
    and a lint reads the fields of a few of the catalog's hundred classes."""

    __slots__ = ("cls", "rows", "pre", "lines")

    def __init__(self, cls: Any, rows: list[Any], pre: list[str], lines: list[bytes]) -> None:
        self.cls, self.rows, self.pre, self.lines = cls, rows, pre, lines

    def __iter__(self) -> Iterator[dict[str, Any]]:
        facts = iter(json.loads(b"[" + b",".join([self.lines[r[0]] for r in self.rows]) + b"]"))
        return iter(_entries(self.cls, self.rows, facts, self.pre, self.lines))


def _entries(
    cls: Any, rows: list[Any], facts: Iterator[dict[str, Any]], pre: list[str], lines: list[bytes]
) -> list[dict[str, Any]]:
    """Entries back from their rows and their decoded facts (one per row, in order:
    each dict gets its locations in place)."""
    locs, kids = _plan(cls)
    out = []
    if len(locs) == 1 and not kids:  # most kinds: one location, nothing nested
        k = locs[0]
        for r in rows:
            d = next(facts)
            n = r[1]
            if n >= 0:
                d[k] = pre[n >> _LINE_BITS] + str(n & _LINE_MASK)
            out.append(d)
        return out
    first = 1 + len(locs)
    for r in rows:
        d = next(facts)
        for j, k in enumerate(locs):
            n = r[1 + j]
            if n >= 0:
                d[k] = pre[n >> _LINE_BITS] + str(n & _LINE_MASK)
        for j, (name, sub) in enumerate(kids):
            if r[first + j]:
                d[name] = _Rows(sub, r[first + j], pre, lines)
        out.append(d)
    return out


def unpack(data: dict[str, Any], facts_path: Path) -> dict[str, Any]:
    """A release file's data (already parsed) back to a catalog's JSON-like data: one
    ``json.loads`` over the release's top-level lines of the table; nested entries
    are decoded when first read (`_Rows`)."""
    pre, lines = _table(str(facts_path))
    packed = data[PACKED_KEY]
    kinds = [(name, sub, packed.get(name) or []) for name, sub in _kinds()]
    ids = [r[0] for _, _, rows in kinds for r in rows]
    facts = iter(json.loads(b"[" + b",".join([lines[i] for i in ids]) + b"]"))
    out = {k: v for k, v in data.items() if k != PACKED_KEY}
    for name, sub, rows in kinds:
        if rows:
            out[name] = _entries(sub, rows, facts, pre, lines)
    return out


def is_packed(data: Any) -> bool:
    return isinstance(data, dict) and PACKED_KEY in data
