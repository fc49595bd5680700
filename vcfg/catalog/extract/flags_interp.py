"""A small, safe replay of the functions that fill ``vllm serve``'s parser.

``make_arg_parser``, ``FrontendArgs.add_cli_args`` and ``EngineArgs.add_cli_args`` are
straight-line code over dicts and lists: ``get_kwargs(X)`` tables, ``add_argument``
calls with aliases and ``**kwargs``, dict merges (``{**k["f"], "default": None}``),
in-place edits (``k["f"]["choices"].remove(...)``, ``del k["f"]["nargs"]``), loops over
literal lists (0.11) or over a kwargs table (frontend), a few ``if``s.  This module
executes exactly that subset of Python (calls and statements; expressions are
`vcfg.catalog.extract.flags_eval`'s) over plain values and records every ``add_argument``.
Nothing from vLLM is imported or run; anything outside the subset evaluates to
`Unknown` and is noted, never raised.
"""

from __future__ import annotations

import ast
import copy
from typing import Any, Iterable, Optional

from vcfg.catalog.extract.flags_eval import (
    _BUILTIN_FUNCS,
    _EXTERNAL,
    _KNOWN_HELPERS,
    _MAX_STEPS,
    Evaluator,
    Frame,
    _Break,
    _Continue,
    _opaque,
    _Return,
    _StepLimit,
)
from vcfg.catalog.extract.flags_values import (
    BoundBuiltin,
    BuiltinFunc,
    BuiltinType,
    ClassRef,
    ConfigInstance,
    Dynamic,
    EnumClass,
    FuncRef,
    GroupRef,
    Method,
    ModuleRef,
    OptionalType,
    ParserRef,
    ParseType,
    PlatformRef,
    Recorded,
    Returns,
    SubparsersRef,
    SuperRef,
    Unknown,
)
from vcfg.catalog.extract.pysource import BINOPS, Unfoldable, binop

_MAX_DEPTH = 30


class Interpreter(Evaluator):
    """Replays parser-building functions; see the module docstring."""

    def _e_Call(self, node: ast.Call, frame: Frame) -> Any:
        if isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args:
            if frame.bound is not None and frame.owner is not None:
                return SuperRef(frame.bound, frame.owner)
            return Unknown("super()")
        func = self.eval(node.func, frame)
        args = self._elements(node.args, frame)
        kwargs: dict[str, Any] = {}
        origin = None
        for k in node.keywords:
            v = self.eval(k.value, frame)
            if k.arg is None:
                origin = self.unpack_into(kwargs, v, k.value, node, frame) or origin
            else:
                kwargs[k.arg] = v
        result = self.call(func, args, kwargs, node, frame, origin)
        if isinstance(result, Unknown):
            # `parser = X.add_cli_args(parser)`: a helper we could not follow still
            # hands the parser back; keep filling it.
            parser = next((a for a in args if isinstance(a, ParserRef)), None)
            if parser is not None:
                return parser
        return result

    def call(
        self,
        func: Any,
        args: list[Any],
        kwargs: dict[str, Any],
        node: ast.Call,
        frame: Frame,
        origin: Optional[tuple[str, str]] = None,
    ) -> Any:
        if isinstance(func, BoundBuiltin):
            if isinstance(func.obj, SubparsersRef):
                return ParserRef() if func.name == "add_parser" else Unknown(func.name)
            if isinstance(func.obj, (ParserRef, GroupRef)):
                return self.parser_method(func.obj, func.name, args, kwargs, node, frame, origin)
            if any(_opaque(a) for a in args):
                self.note(frame, node, f"{func.name}() with an unknown argument")
                return Unknown(func.name)
            try:
                return getattr(func.obj, func.name)(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - vLLM would raise here too
                self.note(frame, node, f"{ast.unparse(node)[:60]} raises {e!r} (as in vLLM)")
                return Unknown(func.name)
        if isinstance(func, Returns):
            return copy.deepcopy(func.value)
        if isinstance(func, BuiltinFunc):
            return self.builtin(func.name, args, kwargs, node, frame)
        if isinstance(func, BuiltinType):
            if func.name in _BUILTIN_FUNCS:
                return self.builtin(func.name, args, kwargs, node, frame)
            return Unknown(func.name)
        if isinstance(func, FuncRef):
            return self.call_function(func, args, kwargs, node, frame)
        if isinstance(func, Method):
            return self.call_method(func, args, kwargs, node, frame)
        if isinstance(func, PlatformRef) or isinstance(func, Dynamic):
            return Dynamic(ast.unparse(node.func)[:60])
        if isinstance(func, ClassRef):
            if func.name in self.configs:
                return ConfigInstance(func.name)
            return Dynamic(f"instance {func.name}")  # e.g. a sentinel object
        if not isinstance(func, Unknown):
            self.note(frame, node, f"call of {type(func).__name__}: {ast.unparse(node)[:60]}")
        return Unknown(ast.unparse(node.func)[:60])

    def call_function(
        self, func: FuncRef, args: list[Any], kwargs: dict[str, Any], node: ast.Call, frame: Frame
    ) -> Any:
        name = func.name
        if name == "get_kwargs":
            cls = args[0] if args else kwargs.get("cls")
            if isinstance(cls, (ClassRef, EnumClass)):
                return self.get_kwargs(cls.name, frame, node)
            self.note(frame, node, "get_kwargs of an unknown class")
            return Unknown("get_kwargs")
        if name == "optional_type":
            return OptionalType(args[0] if args else Unknown("optional_type"))
        if name == "parse_type":
            return ParseType(args[0] if args else Unknown("parse_type"))
        if name in ("load_general_plugins", "configure_logging_if_needed"):
            return None
        if name == "get_field" and len(args) == 2 and isinstance(args[0], ClassRef):
            return self.class_attr(args[0], str(args[1]), node, frame)
        fn = func.node
        if isinstance(fn, ast.FunctionDef):
            # a helper of the tree that takes the parser or a kwargs table: follow it
            if any(isinstance(a, (ParserRef, GroupRef, dict)) for a in [*args, *kwargs.values()]):
                return self.run(fn, func.path or frame.path, args, kwargs, None, None)
        return Unknown(f"{name}(...)")

    def call_method(self, m: Method, args: list[Any], kwargs: dict[str, Any], node: ast.Call, frame: Frame) -> Any:
        if m.kind == "class":
            return self.run(m.fn, m.path, [m.bound, *args], kwargs, m.owner, m.bound)
        if m.kind == "static":
            return self.run(m.fn, m.path, args, kwargs, m.owner, m.bound)
        self.note(frame, node, f"instance method {m.fn.name} called on a class")
        return Unknown(m.fn.name)

    # ------------------------------------------------------------------ the parser
    def parser_method(
        self,
        target: ParserRef | GroupRef,
        name: str,
        args: list[Any],
        kwargs: dict[str, Any],
        node: ast.Call,
        frame: Frame,
        origin: Optional[tuple[str, str]],
    ) -> Any:
        if name == "add_argument":
            group = target.title if isinstance(target, GroupRef) else None
            rec = Recorded(list(args), dict(kwargs), origin, group, frame.path, node.lineno, frame.in_loop > 0)
            self.records.append(rec)
            return None
        if name == "add_argument_group":
            title = kwargs.get("title", args[0] if args else None)
            return GroupRef(title if isinstance(title, str) else None)
        if name == "add_mutually_exclusive_group":
            return target
        if name in ("set_defaults", "register"):
            self.note(frame, node, f"parser.{name} is not modelled")
            return None
        self.note(frame, node, f"parser.{name} is not modelled")
        return Unknown(f"parser.{name}")

    # ------------------------------------------------------------------ statements
    def run(
        self,
        fn: ast.FunctionDef,
        path: str,
        args: list[Any],
        kwargs: dict[str, Any],
        owner: Optional[ClassRef],
        bound: Optional[ClassRef],
    ) -> Any:
        """Execute a function body; returns its return value."""
        if self._depth >= _MAX_DEPTH:
            self.notes.append(f"{path}:{fn.lineno}: call depth limit")
            return Unknown("depth")
        frame = Frame(path, {}, owner, bound)
        params = [*fn.args.posonlyargs, *fn.args.args]
        defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
        for i, p in enumerate(params):
            if i < len(args):
                frame.locals[p.arg] = args[i]
            elif p.arg in kwargs:
                frame.locals[p.arg] = kwargs[p.arg]
            elif defaults[i] is not None:
                frame.locals[p.arg] = self.eval(defaults[i], frame)  # type: ignore[arg-type]
            else:
                frame.locals[p.arg] = Unknown(f"parameter {p.arg}")
        for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
            if p.arg in kwargs:
                frame.locals[p.arg] = kwargs[p.arg]
            elif d is not None:
                frame.locals[p.arg] = self.eval(d, frame)
        self._depth += 1
        try:
            self.exec_block(fn.body, frame)
        except _Return as r:
            return r.value
        except (_Break, _Continue):
            pass
        finally:
            self._depth -= 1
        return None

    def exec_block(self, body: Iterable[ast.stmt], frame: Frame) -> None:
        for st in body:
            self.exec(st, frame)

    def exec(self, st: ast.stmt, frame: Frame) -> None:
        self._steps += 1
        if self._steps > _MAX_STEPS:
            raise _StepLimit()
        if isinstance(st, ast.Expr):
            self.eval(st.value, frame)
        elif isinstance(st, ast.Assign):
            if all(
                isinstance(t, ast.Attribute) and isinstance(self.eval(t.value, frame), (ParserRef, GroupRef))
                for t in st.targets
            ):
                return  # parser.epilog = ...: display only
            value = self.eval(st.value, frame)
            for t in st.targets:
                self.assign(t, value, frame)
        elif isinstance(st, ast.AnnAssign):
            if st.value is not None:
                self.assign(st.target, self.eval(st.value, frame), frame)
        elif isinstance(st, ast.AugAssign):
            self.aug_assign(st, frame)
        elif isinstance(st, ast.Delete):
            for t in st.targets:
                self.delete(t, frame)
        elif isinstance(st, ast.If):
            test = self.eval(st.test, frame)
            if _opaque(test):
                test = ast.unparse(st.test)[:70]
                self.note(frame, st, f"condition not known statically, taken as true: {test}")
                self.exec_block(st.body, frame)
            else:
                self.exec_block(st.body if test else st.orelse, frame)
        elif isinstance(st, ast.For):
            it = self.iterate(self.eval(st.iter, frame), frame, st.iter)
            if it is None:
                return
            frame.in_loop += 1
            try:
                for item in it:
                    self.assign(st.target, item, frame)
                    try:
                        self.exec_block(st.body, frame)
                    except _Continue:
                        continue
                    except _Break:
                        break
                else:
                    self.exec_block(st.orelse, frame)
            finally:
                frame.in_loop -= 1
        elif isinstance(st, ast.Return):
            raise _Return(self.eval(st.value, frame) if st.value is not None else None)
        elif isinstance(st, ast.With):
            self.exec_block(st.body, frame)
        elif isinstance(st, ast.Try):
            self.exec_block(st.body, frame)
            self.exec_block(st.orelse, frame)
            self.exec_block(st.finalbody, frame)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            frame.locals[st.name] = FuncRef(st.name, frame.path, st)
        elif isinstance(st, ast.ClassDef):
            frame.locals[st.name] = ClassRef(st.name, frame.path, st)
        elif isinstance(st, ast.ImportFrom):
            self.local_import(st, frame)
        elif isinstance(st, ast.Import):
            for a in st.names:
                mod = a.name if a.asname else a.name.split(".")[0]
                frame.locals[a.asname or mod] = ModuleRef(mod, self.index.path_of(mod))
        elif isinstance(st, ast.Break):
            raise _Break()
        elif isinstance(st, ast.Continue):
            raise _Continue()
        elif isinstance(st, ast.Raise):
            self.note(frame, st, "raise reached: rest of the function skipped")
            raise _Return(None)
        elif isinstance(st, (ast.Pass, ast.Assert, ast.Global, ast.Nonlocal)):
            pass
        else:
            self.note(frame, st, f"unsupported statement {type(st).__name__}")

    def local_import(self, st: ast.ImportFrom, frame: Frame) -> None:
        mod = self.index._import_target(frame.path, st)  # noqa: SLF001 - same package
        for a in st.names:
            key = a.asname or a.name
            if mod is None:
                frame.locals[key] = Unknown(f"import {a.name}")
                continue
            b = self.index.resolve_in_module(mod, a.name)
            if b is None:
                fallback = _KNOWN_HELPERS.get(a.name, Unknown(f"{mod}.{a.name}"))
                frame.locals[key] = _EXTERNAL.get(f"{mod}.{a.name}", fallback)
            else:
                frame.locals[key] = self.binding_value(b)

    def assign(self, target: ast.expr, value: Any, frame: Frame) -> None:
        if isinstance(target, ast.Name):
            frame.locals[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self.iterate(value, frame, target) if not _opaque(value) else None
            if items is None or len(items) != len(target.elts):
                for t in target.elts:
                    self.assign(t, Unknown("unpack"), frame)
                return
            for t, v in zip(target.elts, items):
                self.assign(t, v, frame)
        elif isinstance(target, ast.Subscript):
            obj = self.eval(target.value, frame)
            key = self.eval(target.slice, frame)
            if isinstance(obj, (dict, list)) and not _opaque(key):
                try:
                    obj[key] = value
                except (IndexError, TypeError) as e:
                    self.note(frame, target, f"cannot assign {ast.unparse(target)[:60]}: {e!r}")
            else:
                what = ast.unparse(target)[:60]
                self.note(frame, target, f"assignment into an unknown value {what}")
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.value, frame)
            if not isinstance(obj, (ParserRef, GroupRef, Unknown)):
                self.note(frame, target, f"assignment to {ast.unparse(target)[:60]} not modelled")
        else:
            self.note(frame, target, f"assignment to {type(target).__name__} not modelled")

    def aug_assign(self, st: ast.AugAssign, frame: Frame) -> None:
        cur = self.eval(st.target, frame)  # type: ignore[arg-type]
        val = self.eval(st.value, frame)
        if _opaque(cur) or _opaque(val) or type(st.op) not in BINOPS:
            new: Any = Unknown("augassign")
        elif isinstance(st.op, ast.Add) and isinstance(cur, list):
            cur += val  # in place, as Python does: aliases see the change
            new = cur
        else:
            try:
                new = binop(st.op, cur, val)
            except Unfoldable:
                new = Unknown("augassign")
            except Exception as e:  # noqa: BLE001
                self.note(frame, st, f"{ast.unparse(st)[:60]} raises {e!r}")
                new = Unknown("augassign")
        self.assign(st.target, new, frame)

    def delete(self, target: ast.expr, frame: Frame) -> None:
        if isinstance(target, ast.Subscript):
            obj = self.eval(target.value, frame)
            key = self.eval(target.slice, frame)
            if isinstance(obj, (dict, list)) and not _opaque(key):
                try:
                    del obj[key]
                except (KeyError, IndexError, TypeError):
                    what = ast.unparse(target)[:60]
                    self.note(frame, target, f"del {what}: missing (vLLM raises)")
                return
        elif isinstance(target, ast.Name):
            frame.locals.pop(target.id, None)
            return
        self.note(frame, target, f"del {ast.unparse(target)[:60]} not modelled")
