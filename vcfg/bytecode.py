"""vcfg's compiled modules in one file, written when a wheel is built (``setup.py``).

A cold ``vcfg lint`` imports about 180 of vcfg's modules (87 of them rules).  Through
Python's path finder each one costs a directory check, a ``stat`` of the source, an
open and read of its ``.pyc`` and a header check: about 40-60 us a module before any
of its code runs, 8-10 ms of a 90-100 ms lint (docs/performance.md).  A regular
install (``pip install .``, a wheel) also holds ``vcfg/bytecode.<tag>.bin``: every
module's code in one file, with an index in front; `install` reads the index and puts
a finder before the path finder that answers vcfg's modules from it, reading a
module's code (one ``pread``) when it is imported.  Nothing is written at run time.

The file is used only when it fits the running interpreter (its name carries the
interpreter's cache tag, its header the bytecode magic number, and ``-O`` is off).
A module whose source no longer matches (another size, or changed after the file
was written) is imported from its source as usual, so an edited install stays
right.  An editable install (``pip install -e .``) has no such file.
"""

from __future__ import annotations

import _imp
import os
import sys
from typing import Any, Optional

#: the file: this line, the interpreter's magic number, the index's length (8 bytes,
#: little-endian), the index (marshal: {module: (source path relative to the package's
#: parent, is a package, source size, offset after the index, length)}), then each
#: module's marshalled code, read (``os.pread``) only when the module is imported
_HEADER = b"vcfg-bytecode-2\n"
#: sources changed this long after the file was written are imported from source
_SLACK_NS = 60 * 10**9
#: never in the file: what a lint never imports (catalog builds, the generators, the
#: other commands; they import from their .pyc files as usual)
_LEFT_OUT = (
    "vcfg.dev",
    "vcfg.catalog.extract",
    "vcfg.lsp",
    "vcfg.schema",
    "vcfg.explain",
    "vcfg.bench",
    "vcfg.upgrade",
)


def file_name() -> str:
    return f"bytecode.{sys.implementation.cache_tag}.bin"


class _Loader:
    """Runs a module's code from the file (the module's ``__file__`` is its source)."""

    def __init__(self, fd: int, index: dict[str, Any], start: int) -> None:
        self.fd = fd
        self.index = index
        self.start = start

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        import marshal

        _, _, _, offset, length = self.index[module.__name__]
        code = marshal.loads(os.pread(self.fd, length, self.start + offset))
        fix = getattr(_imp, "_fix_co_filename", None)
        if fix is not None:  # as importlib does for a .pyc: the source's real path
            fix(code, module.__spec__.origin)
        exec(code, module.__dict__)


class _Finder:
    def __init__(self, root: str, fd: int, index: dict[str, Any], start: int, written_ns: int) -> None:
        self.root = root
        self.index = index
        self.limit_ns = written_ns + _SLACK_NS
        self.loader: Any = _Loader(fd, index, start)  # duck-typed: importlib.abc imports importlib.resources

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        hit = self.index.get(name)
        if hit is None:
            return None
        origin = os.path.join(self.root, hit[0])
        try:
            st = os.stat(origin)
        except OSError:
            return None
        if st.st_size != hit[2] or st.st_mtime_ns > self.limit_ns:
            return None  # edited since: the path finder reads the source
        from importlib.machinery import ModuleSpec

        spec = ModuleSpec(name, self.loader, origin=origin, is_package=hit[1])
        spec.has_location = True
        if hit[1]:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    def invalidate_caches(self) -> None:
        pass


def install() -> bool:
    """Serve vcfg's modules from the bundled file when there is one that fits; False
    (and nothing changed) otherwise.  The file stays open for the process (not
    inherited by children)."""
    if sys.flags.optimize or any(isinstance(f, _Finder) for f in sys.meta_path):
        return False
    package = os.path.dirname(os.path.abspath(__file__))
    try:
        fd = os.open(os.path.join(package, file_name()), os.O_RDONLY)
    except OSError:
        return False
    try:
        found = _read_index(fd)
        written_ns = os.fstat(fd).st_mtime_ns
    except (OSError, EOFError, ValueError, TypeError):
        found = None
    if found is None:
        os.close(fd)
        return False
    index, start = found
    sys.meta_path.insert(0, _Finder(os.path.dirname(package), fd, index, start, written_ns))
    hit = index.get(_PATTERNS)
    if hit is not None:
        import marshal

        try:
            _prefill(marshal.loads(os.pread(fd, hit[4], start + hit[3])))
        except Exception:  # noqa: BLE001 - a table that does not fit: patterns compile as usual
            pass
    return True


#: the index entry of the compiled regular expressions (no module has this name)
_PATTERNS = " patterns"


def _pattern_table(sources: list[str]) -> dict[str, Any]:
    """The regular expressions vcfg's modules write as literals (``re.compile``,
    ``re.match`` and friends, ``vcfg.regex.lazy``), compiled by this interpreter's
    ``re`` into the arguments of ``_sre.compile``: parsing a pattern in Python costs
    0.1-1.8M instructions, 11M of a cold lint's 270M for the 25 it compiles."""
    import _sre
    import re
    from re import _compiler  # type: ignore[attr-defined]

    out = []
    seen = set()
    for src in sources:
        with open(src, "rb") as f:
            text = f.read()
        for pattern, flags in _literal_patterns(text):
            key = (type(pattern), pattern, flags)
            if key in seen:
                continue
            seen.add(key)
            try:
                if flags & (re.DEBUG | re.TEMPLATE):
                    continue
                p = _compiler._parser.parse(pattern, flags)
                code = _compiler._code(p, flags)
            except Exception:  # noqa: BLE001 - not a pattern this interpreter compiles
                continue
            groupindex = {str(k): int(v) for k, v in p.state.groupdict.items()}
            indexgroup: list[Optional[str]] = [None] * p.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            out.append(
                (
                    pattern,
                    flags,
                    (
                        int(flags | p.state.flags),
                        [int(x) for x in code],
                        p.state.groups - 1,
                        groupindex,
                        tuple(indexgroup),
                    ),
                )
            )
    return {"version": sys.hexversion, "magic": _sre.MAGIC, "codesize": _sre.CODESIZE, "patterns": out}


_RE_CALLS = {
    "compile": 1,
    "match": 2,
    "fullmatch": 2,
    "search": 2,
    "sub": 4,
    "subn": 4,
    "split": 3,
    "findall": 2,
    "finditer": 2,
}


def _literal_patterns(text: bytes) -> list[tuple[Any, int]]:
    """(pattern, flags) of every call with a literal pattern and literal flags in a
    module's source: ``re.NAME(...)`` for the functions in `_RE_CALLS` (the position of
    their flags) and ``lazy(...)``."""
    import ast
    import re

    def flags_of(node: Any) -> Optional[int]:
        if node is None:
            return 0
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
            value = getattr(re, node.attr, None)
            return int(value) if isinstance(value, re.RegexFlag) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            a, b = flags_of(node.left), flags_of(node.right)
            return None if a is None or b is None else a | b
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        return None

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "re":
            at = _RE_CALLS.get(f.attr)
        elif isinstance(f, ast.Name) and f.id == "lazy" or isinstance(f, ast.Attribute) and f.attr == "lazy":
            at = 1
        else:
            continue
        if at is None or not isinstance(node.args[0], ast.Constant) or type(node.args[0].value) not in (str, bytes):
            continue
        given = (
            node.args[at] if len(node.args) > at else next((k.value for k in node.keywords if k.arg == "flags"), None)
        )
        flags = flags_of(given)
        if flags is not None:
            out.append((node.args[0].value, flags))
    return out


def _prefill(table: dict[str, Any]) -> None:
    """Put the bundled patterns in ``re``'s own cache, as ``re.compile`` would after
    compiling them, when the table was made by this very interpreter (its version, the
    regular expression engine's magic number and code size): each later
    ``re.compile`` of such a pattern is then a cache hit."""
    import _sre
    import re

    if (table.get("version"), table.get("magic"), table.get("codesize")) != (sys.hexversion, _sre.MAGIC, _sre.CODESIZE):
        return
    cache = getattr(re, "_cache", None)
    room = getattr(re, "_MAXCACHE", 0) // 2
    if not isinstance(cache, dict) or sys.version_info[:2] != (3, 11):  # re._compile's cache key, 3.11
        return
    for pattern, flags, args in table["patterns"][: max(0, room - len(cache))]:
        cache.setdefault((type(pattern), pattern, flags), _sre.compile(pattern, *args))


def _magic() -> bytes:
    """The interpreter's bytecode magic number, from the import system already loaded
    (``importlib.util`` would import ``importlib._abc`` and more: 2.4M instructions)."""
    try:
        import _frozen_importlib_external

        return bytes(_frozen_importlib_external.MAGIC_NUMBER)
    except (ImportError, AttributeError):  # pragma: no cover - another implementation
        from importlib.util import MAGIC_NUMBER

        return MAGIC_NUMBER


def _read_index(fd: int) -> Optional[tuple[dict[str, Any], int]]:
    """(the index, where the code starts), or None for a file of another format or
    interpreter."""
    import marshal

    head = _HEADER + _magic()
    first = os.pread(fd, len(head) + 8, 0)
    if first[: len(head)] != head or len(first) != len(head) + 8:
        return None
    size = int.from_bytes(first[len(head) :], "little")
    index = marshal.loads(os.pread(fd, size, len(first)))
    return (index, len(first) + size) if isinstance(index, dict) else None


def build(package: str, sources: Optional[list[str]] = None) -> str:
    """Write the file for the running interpreter into ``package`` (the folder of
    ``vcfg``, as installed: a wheel's build folder), from its ``.py`` files (or the
    given ones); the path written."""
    import marshal

    package = os.path.abspath(package)
    parent = os.path.dirname(package)
    if sources is None:
        sources = [os.path.join(d, n) for d, _, names in os.walk(package) for n in names if n.endswith(".py")]
    index: dict[str, Any] = {}
    blobs: list[bytes] = []
    offset = 0
    kept: list[str] = []
    for src in sorted(sources):
        rel = os.path.relpath(os.path.abspath(src), parent)
        parts = rel[: -len(".py")].split(os.sep)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        if any(name == p or name.startswith(p + ".") for p in _LEFT_OUT):
            continue
        with open(src, "rb") as f:
            text = f.read()
        blob = marshal.dumps(compile(text, src, "exec", dont_inherit=True))
        index[name] = (rel, is_package, len(text), offset, len(blob))
        blobs.append(blob)
        offset += len(blob)
        kept.append(src)
    table = marshal.dumps(_pattern_table(kept))
    index[_PATTERNS] = ("", False, 0, offset, len(table))
    blobs.append(table)
    offset += len(table)
    head = _HEADER + _magic()
    body = marshal.dumps(index)
    out = os.path.join(package, file_name())
    with open(out, "wb") as f:
        f.write(head + len(body).to_bytes(8, "little") + body + b"".join(blobs))
    return out
