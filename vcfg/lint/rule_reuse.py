"""Launch rules' findings kept from one lint of a document to the next (the language
server lints a buffer on every change; most changes leave most launches as they were).

A launch rule's findings are a function of what it reads.  `RuleMemo` keeps them for
a rule and a launch when all the rule read was the launch itself (its words, its
environment, vLLM's view of its argv) and the release it is checked against: the
findings are taken again for a launch equal to the old one (positions included)
checked against the same objects (the target, the launch's own release, the parsed
argv, the catalog, compared by identity, as `engine._ARGS` does).

What a rule reads is watched, not declared: during its run the launch's ``file`` is a
view that notes any use other than the path and the release, and its ``memo`` notes
reads of values a rule computed after such a use; either makes that rule's findings
for that launch not kept.  A rule module that may read the disk or the process
environment (a model's ``config.json``, the Hugging Face cache), by its own source
or its helpers', is never kept.  A rule that failed is never kept.
tests/test_lsp_fresh.py checks the served diagnostics against a fresh `vcfg lint`
edit after edit.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Sequence

#: modules whose use means a read of the disk (or of what a command or another file
#: says): a rule module importing one, itself or through the lint modules it imports,
#: is never kept
_DISK_MODULES = ("os", "pathlib", "glob", "shutil", "subprocess", "io", "tempfile", "vcfg.fileio", "vcfg.plan")
#: ``os.path`` functions that only compute on their strings (abspath: the server's
#: working directory, which does not change)
_PURE_PATH = frozenset(("join", "basename", "dirname", "splitext", "normpath", "abspath", "isabs", "split", "sep"))
_DISK_NAMES = frozenset(("open", "read_regular", "environ", "getenv", "listdir", "scandir", "Path"))
#: what a rule may read of its launch's file without depending on the file
_FREE = frozenset(("path", "target", "catalog"))
#: the run's memo entries whose values depend on the launch's catalog only (their
#: owners key them by it: `constraints._defaults_violate`, `_env.near_miss`, VC025's
#: value sets): reading them through the file's run is not reading the file
_RELEASE_KEYS = frozenset(("constraints.defaults", "near_miss", "vc025.enums"))
#: a launch's memo entries derived from the launch only, whoever asks first (the option
#: lookups of `options.option` and `constraints._raw`, and the indexed rule modules
#: that could report on it, `rule_select`, which read neither the file nor the run):
#: never counted as wide
_LAUNCH_KEYS = frozenset(("option", "constraints._raw", "rule_select"))

_keepable: dict[str, bool] = {}


def _module_reads_outside(name: str, todo: list[str]) -> bool:
    """Whether module ``name``'s code names a way to read the disk or the environment;
    the lint modules it imports go to ``todo``."""
    import ast

    mod = sys.modules.get(name)
    spec = getattr(mod, "__spec__", None)
    try:
        loader: Any = spec.loader if spec is not None else None
        tree = ast.parse(loader.get_source(name) or "")
    except Exception:  # noqa: BLE001 - no source to read: assume the worst
        return True
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            base = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            names = [base] if base else [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom) and base in ("vcfg.lint", "vcfg.lint.rules"):
                todo.extend(f"{base}.{a.name}" for a in node.names)
            for n in names:
                if any(n == d or n.startswith(d + ".") for d in _DISK_MODULES):
                    if n != "os" or _uses_os_impurely(tree):
                        return True
                if n.startswith("vcfg.lint.") and n != base + "" or n.startswith("vcfg.lint.rules."):
                    todo.append(n)
                elif isinstance(node, ast.ImportFrom) and n.startswith("vcfg.lint."):
                    todo.append(n)
        elif isinstance(node, ast.Name) and node.id in _DISK_NAMES:
            return True
        elif isinstance(node, ast.Attribute) and node.attr in _DISK_NAMES:
            return True
    return False


def _uses_os_impurely(tree: Any) -> bool:
    """Whether ``os`` is used for anything but `_PURE_PATH` functions."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os":
            if node.attr not in ("path", "sep"):
                return True
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "os"
            and node.value.attr == "path"
            and node.attr not in _PURE_PATH
        ):
            return True
    return False


#: lint modules whose reads a kept rule cannot reach unseen: the file context's go
#: through the launch's file (watched), the settings are the target's (pinned)
_EXEMPT = frozenset(("vcfg.lint.context", "vcfg.lint.config", "vcfg.lint.rule"))
#: module -> (whether its own code reads outside, the lint modules it imports)
_scanned: dict[str, tuple[bool, list[str]]] = {}


def keepable(mod: Any) -> bool:
    """Whether ``mod``'s findings may be kept: neither it nor the lint modules it
    imports (transitively) name a way to read the disk or the environment."""
    name = mod.__name__
    hit = _keepable.get(name)
    if hit is None:
        seen: set[str] = set()
        todo = [name]
        hit = True
        while todo:
            cur = todo.pop()
            if cur in seen or cur in _EXEMPT or not cur.startswith("vcfg.lint"):
                continue
            seen.add(cur)
            got = _scanned.get(cur)
            if got is None:
                if cur not in sys.modules:
                    import importlib

                    try:
                        importlib.import_module(cur)
                    except ImportError:
                        continue  # a name imported from a module, not a module
                more: list[str] = []
                got = _scanned[cur] = (_module_reads_outside(cur, more), more)
            if got[0]:
                hit = False
                break
            todo.extend(got[1])
        _keepable[name] = hit
    return hit


class _Watch:
    """The state of the rule running now: whether it read more than its launch."""

    __slots__ = ("wide",)

    def __init__(self) -> None:
        self.wide = True


class _FileView:
    """A launch's file as a rule sees it: every attribute but `_FREE` marks the rule."""

    __slots__ = ("_fc", "_w")

    def __init__(self, fc: Any, w: _Watch) -> None:
        object.__setattr__(self, "_fc", fc)
        object.__setattr__(self, "_w", w)

    def __getattr__(self, name: str) -> Any:
        if name == "run":
            run = self._fc.run
            return _RunView(run, self._w) if run is not None else None
        if name not in _FREE:
            self._w.wide = True
        return getattr(self._fc, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._w.wide = True
        setattr(self._fc, name, value)


class _RunView:
    """The file's run as a watched rule sees it: its memo's `_RELEASE_KEYS` are free,
    anything else marks the rule."""

    __slots__ = ("_run", "_w")

    def __init__(self, run: Any, w: _Watch) -> None:
        object.__setattr__(self, "_run", run)
        object.__setattr__(self, "_w", w)

    def __getattr__(self, name: str) -> Any:
        if name == "memo":
            return _RunMemo(self._run.memo, self._w)
        self._w.wide = True
        return getattr(self._run, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._w.wide = True
        setattr(self._run, name, value)


class _RunMemo:
    """The run's memo through `_RunView`: a key but `_RELEASE_KEYS` marks the rule."""

    __slots__ = ("_m", "_w")

    def __init__(self, m: dict[str, Any], w: _Watch) -> None:
        self._m, self._w = m, w

    def _key(self, key: Any) -> Any:
        if key not in _RELEASE_KEYS:
            self._w.wide = True
        return key

    def get(self, key: Any, default: Any = None) -> Any:
        return self._m.get(self._key(key), default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return self._m.setdefault(self._key(key), default)

    def __getitem__(self, key: Any) -> Any:
        return self._m[self._key(key)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._m[self._key(key)] = value

    def __contains__(self, key: Any) -> bool:
        return self._key(key) in self._m

    def __getattr__(self, name: str) -> Any:  # anything else (items, pop, ...): the whole memo
        self._w.wide = True
        return getattr(self._m, name)


class _Memo(dict):  # type: ignore[type-arg]
    """A launch's memo that knows which values were computed by a rule that read more
    than the launch: reading one marks the reader."""

    __slots__ = ("w", "wide_keys")

    def __init__(self, w: _Watch) -> None:
        super().__init__()
        self.w = w
        self.wide_keys: set[Any] = set()

    def _read(self, key: Any) -> None:
        if key in self.wide_keys:
            self.w.wide = True

    def __getitem__(self, key: Any) -> Any:
        self._read(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._read(key)
        return dict.get(self, key, default)

    def __contains__(self, key: Any) -> bool:
        self._read(key)
        return dict.__contains__(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        if self.w.wide and key not in _LAUNCH_KEYS:
            self.wide_keys.add(key)
        dict.__setitem__(self, key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._read(key)
        if key not in self and self.w.wide and key not in _LAUNCH_KEYS:
            self.wide_keys.add(key)
        return dict.setdefault(self, key, default)

    def pop(self, key: Any, *default: Any) -> Any:
        self.w.wide = True
        return dict.pop(self, key, *default)

    def update(self, *a: Any, **kw: Any) -> None:
        if self.w.wide:
            self.wide_keys.update(k for k in dict(*a, **kw) if k not in _LAUNCH_KEYS)
        dict.update(self, *a, **kw)


class Reuse:
    """What one document's lints keep for the next (`engine.lint_text(reuse=...)`):
    the script's last read (`vcfg.launch.shell_reuse.ShellMemo`), the launch rules'
    findings (`RuleMemo`) and the last lint, taken again after an edit inside a
    comment (`vcfg.lint.comment_reuse.CommentReuse`)."""

    def __init__(self) -> None:
        from vcfg.launch.shell_reuse import ShellMemo
        from vcfg.lint.comment_reuse import CommentReuse

        self.shell = ShellMemo()
        self.rules = RuleMemo()
        self.comments = CommentReuse()


def _pins(lc: Any) -> tuple[Any, ...]:
    """What a launch's findings are checked against, compared by identity."""
    return (lc.file.target, lc.own_target, lc.args, lc.catalog)


class RuleMemo:
    """The launch rules' findings of the last lint of one document, per launch (the
    language server keeps one per open buffer; `engine.lint_text(reuse=...)`).
    ``kept``/``ran``: rule runs taken from the last lint and run in this one."""

    def __init__(self) -> None:
        #: (path, invocation, pins, {rule code: findings}, its memo) per launch of the
        #: last lint (the memo's `_LAUNCH_KEYS` entries are given to an equal launch)
        self.last: list[tuple[str, Any, tuple[Any, ...], dict[str, tuple[Any, ...]], dict[str, Any]]] = []
        self.kept = 0
        self.ran = 0
        #: whether each deployment of the last lint was its one file (`run_rules`)
        self.alone = False
        #: the runs of this lint whose findings are never kept (a rule that may read
        #: the disk), as (module, launch, findings): `vcfg.lint.comment_reuse` asks them
        #: again
        self.outside: list[tuple[Any, Any, tuple[Any, ...]]] = []

    def checker(
        self, launches: Sequence[Any], guarded: Callable[[Any, Any], list[Any]], internal: list[str]
    ) -> Callable[[Any, Any], list[Any]]:
        """``guarded`` (run one rule on one launch) with the findings kept from the last
        lint where they can be, and kept for the next."""
        last = self.last
        mine: dict[int, tuple[dict[str, tuple[Any, ...]], dict[str, tuple[Any, ...]], _Watch]] = {}
        now: list[tuple[str, Any, tuple[Any, ...], dict[str, tuple[Any, ...]], dict[str, Any]]] = []
        for lc in launches:
            pins = _pins(lc)
            old: Optional[dict[str, tuple[Any, ...]]] = None
            derived: dict[str, Any] = {}
            for path, inv, opins, found, omemo in last:
                if (
                    path == lc.path
                    and inv.span == lc.inv.span
                    and all(x is y for x, y in zip(opins, pins))
                    and inv == lc.inv
                ):
                    old, derived = found, omemo
                    break
            kept: dict[str, tuple[Any, ...]] = {}
            w = _Watch()
            memo = _Memo(w)
            memo.update(lc.memo)  # what the engine derived (the plugin catalog): as if read wide
            memo.wide_keys.update(k for k in lc.memo if k not in _LAUNCH_KEYS)
            # the option lookups of an equal launch pinned to the same objects: the same
            # answers (they read the launch, its parsed argv and its catalog only)
            for k in _LAUNCH_KEYS:
                if k in derived and k not in memo:
                    dict.__setitem__(memo, k, derived[k])
            lc.memo = memo
            mine[id(lc)] = (old or {}, kept, w)
            now.append((lc.path, lc.inv, pins, kept, memo))
        self.last = now
        self.kept = self.ran = 0
        outside: list[tuple[Any, Any, tuple[Any, ...]]] = []
        self.outside = outside

        keep = _keepable

        def check(mod: Any, lc: Any) -> list[Any]:
            got = mine.get(id(lc))
            ok = keep.get(mod.__name__)
            if ok is None:
                ok = keepable(mod)
            if got is None or not ok:
                found = guarded(mod, lc)
                outside.append((mod, lc, tuple(found)))
                return found
            old, kept, w = got
            code = mod.RULE.code
            hit = old.get(code)
            if hit is not None:
                kept[code] = hit
                self.kept += 1
                return list(hit)
            self.ran += 1
            fc = lc.file
            errors = len(internal)
            w.wide = False
            lc.file = _FileView(fc, w)
            try:
                out = guarded(mod, lc)
            finally:
                lc.file = fc
            if not w.wide and len(internal) == errors:
                kept[code] = tuple(out)
            w.wide = True  # outside a watched rule: whatever is derived counts as wide
            return out

        return check
