"""Dynamo's own options of its vLLM worker (``python -m dynamo.vllm``), read statically
from an ``ai-dynamo`` wheel (a zip, read in place; nothing is imported or installed).

The worker's parser is built in ``dynamo/vllm/args.py:parse_args``: Dynamo's options,
then ``AsyncEngineArgs.add_cli_args`` (vLLM's engine options, which the release's
catalog already holds).  Up to 0.9 both live in one ``FlexibleArgumentParser``
(args.py:59 @0.4.1, :116 @0.9.1); from 1.0 Dynamo's options are an
``argparse.ArgumentParser(allow_abbrev=False)`` read with ``parse_known_args``, router
options a third parser, and what is left goes to a separate vLLM parser (args.py:72-94
@1.0.2, :122-155 @1.6.1).  This module walks the calls from ``parse_args`` through the
package's own functions and methods (argument groups, ``add_argument`` helpers) and
records every option registered on the way: its option strings, whether it takes a
value, a literal type and choices, and where (file:line).  Facts only: no help text.

``python -m vcfg.catalog.extract.dynamo WHEEL... > vcfg/catalog/data/dynamo-flags.json``
writes the bundled table (`vcfg.launch.args.entry` reads it).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from typing import Any, Optional

ENTRY = "dynamo/vllm/args.py"
#: actions that take no value (argparse's own, by name)
_NO_VALUE = {"store_true", "store_false", "store_const", "append_const", "count", "help", "version"}
_TYPES = {"str": "str", "int": "int", "float": "float"}


class _Module:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.tree = ast.parse(text)
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (module, name)
        self.defs: dict[str, ast.AST] = {}  # functions and classes
        self.consts: dict[str, Any] = {}
        for node in self.tree.body:
            self._top(node)

    def _top(self, node: ast.AST) -> None:
        if isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module
            if node.level:
                base = self.path.rsplit("/", 1)[0].split("/")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + [node.module])
            for a in node.names:
                self.imports[a.asname or a.name] = (mod, a.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.defs[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                self.consts[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
        elif isinstance(node, ast.If):  # try/except import fallbacks, TYPE_CHECKING
            for n in node.body + node.orelse:
                self._top(n)
        elif isinstance(node, ast.Try):
            for n in node.body:
                self._top(n)


class DynamoWheel:
    """The ``dynamo`` package of one wheel."""

    def __init__(self, path: str) -> None:
        self.zip = zipfile.ZipFile(path)
        self.names = set(self.zip.namelist())
        self.modules: dict[str, Optional[_Module]] = {}
        m = re.search(r"ai_dynamo-([^-]+)-", path.rsplit("/", 1)[-1])
        self.version = m.group(1) if m else "?"

    def module(self, dotted: str) -> Optional[_Module]:
        if dotted in self.modules:
            return self.modules[dotted]
        base = dotted.replace(".", "/")
        mod = None
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in self.names:
                mod = _Module(cand, self.zip.read(cand).decode("utf-8"))
                break
        self.modules[dotted] = mod
        return mod


def _dotted(path: str) -> str:
    p = path[:-3] if path.endswith(".py") else path
    return p[: -len("/__init__")].replace("/", ".") if p.endswith("/__init__") else p.replace("/", ".")


def _str(node: Optional[ast.AST], mod: _Module) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and isinstance(mod.consts.get(node.id), str):
        return mod.consts[node.id]
    return None


class _Walker:
    def __init__(self, wheel: DynamoWheel) -> None:
        self.w = wheel
        self.options: list[dict[str, Any]] = []
        self.seen_defs: set[int] = set()
        self.seen_opts: set[str] = set()
        self.notes: list[str] = []
        #: names a ``for`` over a literal binds in the function being read: their values
        self.loops: dict[str, list[Any]] = {}

    # -- resolving a called name to its definition in the package
    def resolve(self, name: str, mod: _Module, depth: int = 0) -> Optional[tuple[ast.AST, _Module]]:
        if name in mod.defs:
            return mod.defs[name], mod
        if name in mod.imports and depth < 4:
            target, real = mod.imports[name]
            if not target.startswith("dynamo"):
                return None
            other = self.w.module(target)
            if other is not None:
                return self.resolve(real, other, depth + 1)
        return None

    def walk_def(self, node: ast.AST, mod: _Module, cls: Optional[ast.ClassDef], depth: int) -> None:
        if id(node) in self.seen_defs or depth > 12:
            return
        self.seen_defs.add(id(node))
        loops = _loop_values(node)
        local_cls: dict[str, tuple[ast.ClassDef, _Module]] = {}
        for n in ast.walk(node):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name):
                r = self.resolve(n.value.func.id, mod)
                if r is not None and isinstance(r[0], ast.ClassDef):
                    for t in n.targets:
                        if isinstance(t, ast.Name):
                            local_cls[t.id] = (r[0], r[1])  # type: ignore[assignment]
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                self.loops = loops  # a call walked before may have read its own
                self.call(n, mod, cls, local_cls, depth)

    def method(self, c: ast.ClassDef, name: str) -> Optional[ast.AST]:
        for b in c.body:
            if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name == name:
                return b
        return None

    def call(
        self,
        n: ast.Call,
        mod: _Module,
        cls: Optional[ast.ClassDef],
        local_cls: dict[str, tuple[ast.ClassDef, _Module]],
        depth: int,
    ) -> None:
        f = n.func
        kw: dict[str, ast.AST] = {k.arg: k.value for k in n.keywords if k.arg}
        if "flag_name" in kw and isinstance(f, ast.Name) and f.id in ("add_argument", "add_negatable_bool_argument"):
            self.helper(n, f.id, kw, mod)
            return
        if isinstance(f, ast.Attribute) and f.attr == "add_argument":
            self.direct(n, kw, mod)
            return
        if isinstance(f, ast.Name):
            r = self.resolve(f.id, mod)
            if r is not None and not isinstance(r[0], ast.ClassDef):
                self.walk_def(r[0], r[1], None, depth + 1)
            elif r is not None:
                init = self.method(r[0], "__init__")  # type: ignore[arg-type]
                if init is not None:
                    self.walk_def(init, r[1], r[0], depth + 1)  # type: ignore[arg-type]
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name):
            r = self.resolve(f.value.func.id, mod)  # `Group(...).add_arguments(parser)`
            if r is not None and isinstance(r[0], ast.ClassDef):
                m = self.method(r[0], f.attr)
                if m is not None:
                    self.walk_def(m, r[1], r[0], depth + 1)
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            owner: Optional[tuple[ast.ClassDef, _Module]] = None
            if f.value.id == "self" and cls is not None:
                owner = (cls, mod)
            elif f.value.id in local_cls:
                owner = local_cls[f.value.id]
            else:
                r = self.resolve(f.value.id, mod)
                if r is not None and isinstance(r[0], ast.ClassDef):
                    owner = (r[0], r[1])
            if owner is not None:
                m = self.method(owner[0], f.attr)
                if m is None:  # an inherited method: the bases in the package
                    for b in owner[0].bases:
                        if isinstance(b, ast.Name):
                            rb = self.resolve(b.id, owner[1])
                            if rb is not None and isinstance(rb[0], ast.ClassDef):
                                m = self.method(rb[0], f.attr)
                                if m is not None:
                                    owner = (rb[0], rb[1])
                                    break
                if m is not None:
                    self.walk_def(m, owner[1], owner[0], depth + 1)

    # -- registrations
    def record(self, names: list[str], takes: str, typ: Optional[str], choices: Any, mod: _Module, n: ast.AST) -> None:
        names = [s for s in names if s not in self.seen_opts]
        if not names:
            return
        self.seen_opts.update(names)
        entry: dict[str, Any] = {"options": names, "nargs": takes}
        if typ:
            entry["type"] = typ
        if choices is not None:
            entry["choices"] = choices
        entry["loc"] = f"{mod.path}:{n.lineno}"  # type: ignore[attr-defined]
        self.options.append(entry)

    def helper(self, n: ast.Call, fn: str, kw: dict[str, ast.AST], mod: _Module) -> None:
        node = kw.get("flag_name")
        if isinstance(node, ast.Name) and node.id in self.loops and _str(node, mod) is None:
            # `for legacy_flag, ... in ((...), ...): add_argument(g, flag_name=legacy_flag)`
            for value in self.loops[node.id]:
                if isinstance(value, str):
                    sub = dict(kw)
                    sub["flag_name"] = ast.Constant(value)
                    self.helper(n, fn, sub, mod)
            return
        flag = _str(node, mod)
        if flag is None:
            self.notes.append(f"{mod.path}:{n.lineno}: a computed flag_name")
            return
        names = [flag]
        obsolete = _str(kw.get("obsolete_flag"), mod)
        if obsolete:
            names.append(obsolete)
        if fn == "add_negatable_bool_argument" or _is_boolean_optional(kw.get("action")):
            names = names + ["--no-" + s[2:] for s in names if s.startswith("--")]
            self.record(names, "0", None, None, mod, n)
            return
        self.from_kwargs(names, kw, mod, n, default_type="str" if "arg_type" not in kw else None)

    def direct(self, n: ast.Call, kw: dict[str, ast.AST], mod: _Module) -> None:
        names = [s for s in (_str(a, mod) for a in n.args) if s is not None]
        if not names or not all(s.startswith("-") for s in names):
            if any(not isinstance(a, ast.Constant) for a in n.args):
                self.notes.append(f"{mod.path}:{n.lineno}: option strings vcfg cannot read")
            return  # a positional: the worker has none of its own
        if _is_boolean_optional(kw.get("action")):
            names = names + ["--no-" + s[2:] for s in names if s.startswith("--")]
            self.record(names, "0", None, None, mod, n)
            return
        self.from_kwargs(names, kw, mod, n, default_type=None)

    def from_kwargs(
        self, names: list[str], kw: dict[str, ast.AST], mod: _Module, n: ast.AST, default_type: Optional[str]
    ) -> None:
        action = _str(kw.get("action"), mod)
        nargs_node = kw.get("nargs")
        nargs: str = "1"
        if action in _NO_VALUE:
            nargs = "0"
        elif nargs_node is not None:
            if isinstance(nargs_node, ast.Constant):
                nargs = str(nargs_node.value)
            else:
                nargs = "?"  # computed: do not guess a count
                self.notes.append(f"{mod.path}:{n.lineno}: a computed nargs")  # type: ignore[attr-defined]
        typ_node = kw.get("type", kw.get("arg_type"))
        typ = default_type
        if isinstance(typ_node, ast.Name):
            typ = _TYPES.get(typ_node.id)
        elif isinstance(typ_node, ast.Constant) and typ_node.value is None:
            typ = None
        choices = None
        if "choices" in kw:
            try:
                choices = ast.literal_eval(kw["choices"])
                choices = list(choices)
            except (ValueError, TypeError):
                choices = None
        self.record(names, nargs, typ if nargs != "0" else None, choices, mod, n)


def _loop_values(fn: ast.AST) -> dict[str, list[Any]]:
    """``for a, b in LITERAL`` (or a name the function binds to one) in ``fn``: the
    values each loop name takes."""
    literals: dict[str, Any] = {}
    for n in ast.walk(fn):
        target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else None
        if isinstance(n, ast.AnnAssign) and n.value is not None:
            target = n.target
        if isinstance(target, ast.Name):
            try:
                literals[target.id] = ast.literal_eval(n.value)  # type: ignore[attr-defined]
            except ValueError:
                pass
    out: dict[str, list[Any]] = {}
    for n in ast.walk(fn):
        if not isinstance(n, ast.For):
            continue
        try:
            items = literals[n.iter.id] if isinstance(n.iter, ast.Name) else ast.literal_eval(n.iter)
        except (ValueError, KeyError):
            continue
        if isinstance(n.target, ast.Name):
            out[n.target.id] = list(items)
        elif isinstance(n.target, ast.Tuple):
            for k, t in enumerate(n.target.elts):
                if isinstance(t, ast.Name):
                    out[t.id] = [it[k] for it in items if isinstance(it, (tuple, list)) and len(it) > k]
    return out


def _is_boolean_optional(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "BooleanOptionalAction"


def read_wheel(path: str) -> dict[str, Any]:
    """The worker's own options in one wheel, and how its parser treats the rest."""
    w = DynamoWheel(path)
    mod = w.module(_dotted(ENTRY))
    if mod is None or "parse_args" not in mod.defs:
        return {"version": w.version, "options": [], "notes": [f"no {ENTRY}:parse_args"]}
    walker = _Walker(w)
    walker.walk_def(mod.defs["parse_args"], mod, None, 0)
    text = w.zip.read(ENTRY).decode("utf-8")
    # from 1.0 Dynamo's own parser is separate (no abbreviations), the rest goes to vLLM's
    separate = "parse_known_args" in text
    return {
        "version": w.version,
        "parser": "separate" if separate else "shared",
        "vllm": _vllm_pin(w),
        "options": walker.options,
        "notes": walker.notes,
    }


_PIN = re.compile(r"^Requires-Dist: vllm(?:\[[^\]]*\])?\s*==\s*([0-9][0-9A-Za-z.]*)\s*;.*extra == .vllm.", re.M)


def _vllm_pin(w: DynamoWheel) -> Optional[str]:
    """The vLLM release the wheel's ``vllm`` extra pins (its METADATA), the one Dynamo's
    runtime image of that release ships."""
    for name in w.names:
        if name.endswith(".dist-info/METADATA"):
            m = _PIN.search(w.zip.read(name).decode("utf-8", "replace"))
            return m.group(1) if m else None
    return None


def main(argv: list[str]) -> int:
    releases = [read_wheel(p) for p in argv]
    releases.sort(key=lambda r: [int(x) if x.isdigit() else x for x in re.split(r"[.]", r["version"])])
    out = {
        "generated_by": "python -m vcfg.catalog.extract.dynamo (ai-dynamo wheels from PyPI)",
        "source": "ai-dynamo wheels: dynamo/vllm/args.py parse_args and the package functions it calls",
        "releases": {r["version"]: {k: v for k, v in r.items() if k != "version"} for r in releases},
    }
    sys.stdout.write(render(out))
    return 0


def render(out: dict[str, Any]) -> str:
    """The table as JSON with one option per line (reviewable as a diff)."""
    lines = ["{"]
    lines.append(f' "generated_by": {json.dumps(out["generated_by"])},')
    lines.append(f' "source": {json.dumps(out["source"])},')
    lines.append(' "releases": {')
    rels = [(v, r) for v, r in out["releases"].items() if r.get("options")]
    prev: Optional[tuple[str, Any]] = None
    for i, (v, r) in enumerate(rels):
        lines.append(f"  {json.dumps(v)}: {{")
        lines.append(f'   "parser": {json.dumps(r["parser"])},')
        lines.append(f'   "vllm": {json.dumps(r.get("vllm"))},')
        lines.append(f'   "notes": {json.dumps(r["notes"])},')
        if prev is not None and prev[1] == r["options"]:
            # a release whose options (and their places) are the one's before
            lines.append(f'   "options_of": {json.dumps(prev[0])}')
            lines.append("  }" + ("," if i + 1 < len(rels) else ""))
            continue
        prev = (v, r["options"])
        lines.append('   "options": [')
        opts = r["options"]
        for k, o in enumerate(opts):
            lines.append("    " + json.dumps(o, separators=(",", ":")) + ("," if k + 1 < len(opts) else ""))
        lines.append("   ]")
        lines.append("  }" + ("," if i + 1 < len(rels) else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
