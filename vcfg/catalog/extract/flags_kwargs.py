"""vLLM's ``get_kwargs(ConfigClass)``, reproduced from `ConfigField` facts.

``_compute_kwargs`` (engine/arg_utils.py:324-440 @0.33) turns every dataclass field
into argparse kwargs by the first matching branch over the field's flattened type
hints: dataclass -> ``parse_dataclass``; ``{bool, str, None}`` -> ``type=str,
nargs="?", const=True`` (>= 0.21); ``bool`` -> ``BooleanOptionalAction``; ``Literal`` ->
``choices`` (``metavar`` when ``str`` is also a member, >= 0.10.2); tuple / list / set
(set >= 0.11.2) -> ``nargs``; ``int`` (a few names take human-readable ints); ``float``;
``dict`` with ``str`` or a class -> ``union_dict_and_str``; ``dict`` -> JSON; ``str``
or a class -> ``str``.  Then a ``Literal`` element type becomes choices, and a ``None``
member wraps the type in ``optional_type`` and appends ``None`` to the choices (the
string ``"None"`` before 0.31).

The release differences are read from the release's own ``_compute_kwargs`` source
(`detect_rules`), so a new release with the same shape needs no change here.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from vcfg.catalog.extract.flags_values import (
    ActionRef,
    BuiltinType,
    Dynamic,
    FieldKwargs,
    FuncRef,
    LiteralType,
    OptionalType,
    ParseDataclass,
    ParseType,
    from_json,
    with_origin,
)
from vcfg.catalog.model import ConfigClass, ConfigField
from vcfg.records import field, record

_BUILTIN_HINTS = {"bool", "int", "float", "str", "None", "dict", "list", "set", "tuple"}


@record(frozen=True)
class KwargsRules:
    """What one release's ``_compute_kwargs`` does; defaults are those of 0.33."""

    bool_str_none: bool = True  # the {bool, str, None} branch (>= 0.21)
    has_set: bool = True  # set[...] handled like list (>= 0.11.2)
    literal_metavar_with_str: bool = True  # Literal | str -> metavar (>= 0.10.2)
    none_choice: Any = None  # appended to optional choices: None (>= 0.31) or "None"
    union_elements_to_str: bool = True  # list[int | str] -> str (>= 0.10.2)
    bool_action: bool = True  # bool -> BooleanOptionalAction (>= 0.8.5; none in 0.8.4)
    #: field name -> the int parser used instead of ``int``
    int_types: tuple[tuple[str, str], ...] = (
        ("max_model_len", "human_readable_int_or_auto"),
        ("max_num_batched_tokens", "human_readable_int"),
        ("max_num_scheduled_tokens", "human_readable_int"),
        ("kv_cache_memory_bytes", "human_readable_int"),
        ("safetensors_prefetch_block_size", "human_readable_int"),
        ("max_num_queued_tokens", "human_readable_int"),
    )
    notes: tuple[str, ...] = field(default=(), compare=False)

    def int_type(self, name: str) -> Optional[str]:
        for n, t in self.int_types:
            if n == name:
                return t
        return None


def _module_function(tree: ast.Module, name: str) -> Optional[ast.FunctionDef]:
    for st in tree.body:
        if isinstance(st, ast.FunctionDef) and st.name == name:
            return st
    return None


def _strings(node: ast.AST, sets: dict[str, list[str]]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.Name):
        return sets.get(node.id, [])
    return []


def _int_types(fn: ast.FunctionDef) -> tuple[tuple[str, str], ...]:
    """Field names compared with ``name`` and the parser assigned in that branch."""
    sets: dict[str, list[str]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            if isinstance(t, ast.Name) and isinstance(node.value, (ast.Set, ast.Tuple, ast.List)):
                sets[t.id] = _strings(node.value, {})
    out: dict[str, str] = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
            continue
        test = node.test
        if not (isinstance(test.left, ast.Name) and test.left.id == "name"):
            continue
        names = [s for c in test.comparators for s in _strings(c, sets)]
        parser: Optional[str] = None
        for st in node.body:
            if (
                isinstance(st, ast.Assign)
                and isinstance(st.targets[0], ast.Subscript)
                and isinstance(st.targets[0].slice, ast.Constant)
                and st.targets[0].slice.value == "type"
                and isinstance(st.value, ast.Name)
            ):
                parser = st.value.id
        if parser is None:
            continue
        for n in names:
            out.setdefault(n, parser)
    return tuple(out.items())


def detect_rules(tree: Optional[ast.Module]) -> KwargsRules:
    """Read the rules of ``_compute_kwargs`` from a release's engine/arg_utils.py."""
    if tree is None:
        return KwargsRules(notes=("engine/arg_utils.py unreadable: 0.33 rules assumed",))
    # 0.9.2+: _compute_kwargs (get_kwargs caches it); 0.8.5-0.9.1: a module-level
    # get_kwargs; 0.8.4: get_kwargs nested in EngineArgs.add_cli_args
    fn = _module_function(tree, "_compute_kwargs") or _module_function(tree, "get_kwargs")
    if fn is None:
        fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "get_kwargs"), None)
    if fn is None:
        return KwargsRules(notes=("no _compute_kwargs: 0.33 rules assumed",))
    src = ast.unparse(fn)
    lit = _module_function(tree, "literal_to_kwargs")
    lit_src = ast.unparse(lit) if lit is not None else ""
    coll = _module_function(tree, "collection_to_kwargs")
    coll_src = (ast.unparse(coll) if coll is not None else "") + src
    none_choice: Any = None
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and "choices" in ast.unparse(node.func.value)
        ):
            none_choice = node.args[0].value
    return KwargsRules(
        bool_str_none=re.search(r"==\s*\{bool, str, type\(None\)\}", src) is not None,
        has_set="type_hints, set)" in src,
        literal_metavar_with_str="'metavar'" in lit_src,
        none_choice=none_choice,
        union_elements_to_str="Union" in coll_src and "str in get_args" in coll_src,
        int_types=_int_types(fn),
        # 0.8.4 gave a bool field no action (its add_argument call says store_true,
        # engine/arg_utils.py:258 @0.8.4)
        bool_action=re.search(r"\bis bool:\s+continue\b", src) is None,
    )


# ----------------------------------------------------------------------------- hints


def _is_builtin_hint(h: str) -> bool:
    """vLLM's ``not is_not_builtin``: the hint's ``__module__`` is ``builtins``.
    ``type[X]`` proxies ``type.__module__``; Literal/Any/classes are not builtins."""
    if h in _BUILTIN_HINTS or h == "class:type":
        return True
    return h.startswith(("list[", "set[", "tuple[", "dict["))


def _elem_value(node: ast.expr, rules: KwargsRules, notes: list[str]) -> Any:
    """An element type of a collection hint, as the value argparse's ``type`` gets."""
    if isinstance(node, ast.Name):
        if node.id in ("int", "float", "str", "bool", "dict", "list", "set", "tuple"):
            return BuiltinType(node.id)
        return FuncRef(node.id)
    if isinstance(node, ast.Constant) and node.value is None:
        return BuiltinType("NoneType")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "Literal":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            try:
                return LiteralType(tuple(ast.literal_eval(e) for e in elts))
            except ValueError:
                notes.append(f"unreadable literal {ast.unparse(node)}")
                return Dynamic("literal")
        return BuiltinType(node.value.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        members = []
        stack: list[ast.expr] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
                stack += [n.right, n.left]
            else:
                members.append(n)
        if rules.union_elements_to_str and any(isinstance(m, ast.Name) and m.id == "str" for m in members):
            return BuiltinType("str")
        notes.append(f"union element {ast.unparse(node)} without str")
        return Dynamic("union element")
    notes.append(f"unknown element {ast.unparse(node)}")
    return Dynamic("element")


def _collection_kwargs(hint: str, rules: KwargsRules, notes: list[str]) -> dict[str, Any]:
    """``collection_to_kwargs``: element type and ``nargs`` (arg_utils.py:237-259 @0.33)."""
    text = re.sub(r"class:(\w+)", r"\1", hint)
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        notes.append(f"unreadable hint {hint!r}")
        return {"type": Dynamic(hint), "nargs": "+"}
    if not isinstance(node, ast.Subscript):
        notes.append(f"bare collection hint {hint!r}")
        return {"type": Dynamic(hint), "nargs": "+"}
    kind = node.value.id if isinstance(node.value, ast.Name) else "list"
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    ellipsis = any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts)
    elems = [e for e in elts if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
    if not elems:
        return {"type": Dynamic(hint), "nargs": "+"}
    if len({ast.dump(e) for e in elems}) > 1:
        notes.append(f"{hint}: tuple elements of different types (vLLM asserts)")
    elem = _elem_value(elems[0], rules, notes)
    nargs: Any = "+" if kind != "tuple" or ellipsis else len(elts)
    return {"type": elem, "nargs": nargs}


def _literal_kwargs(
    options: list[Any], with_str: bool, rules: KwargsRules, name: str, notes: list[str]
) -> dict[str, Any]:
    """``literal_to_kwargs`` (arg_utils.py:220-234 @0.33)."""
    if not options:
        notes.append(f"{name}: empty Literal")
        return {"type": BuiltinType("str")}
    first = type(options[0])
    if not all(isinstance(o, first) for o in options):
        notes.append(f"{name}: Literal of mixed types (vLLM raises ValueError)")
    try:
        ordered = sorted(options)
    except TypeError:
        ordered = list(options)
    key = "metavar" if (with_str and rules.literal_metavar_with_str) else "choices"
    return {"type": BuiltinType(first.__name__), key: ordered}


def _first(hints: list[str], prefix: str) -> str:
    return next((h for h in hints if h.startswith(prefix)), "")


def field_kwargs(
    cls: str,
    f: ConfigField,
    default: Any,
    rules: KwargsRules,
    is_dataclass: "set[str]",
    notes: list[str],
) -> FieldKwargs:
    """The kwargs ``_compute_kwargs`` gives field ``f`` of config class ``cls``."""
    hints = list(f.hints)
    hs = set(hints)
    kw: dict[str, Any] = {"default": default, "help": ""}
    dataclass_cls = f.nested or next((h for h in hints if h in is_dataclass), None)
    non_builtin = any(not _is_builtin_hint(h) for h in hints)
    if dataclass_cls is not None:
        kw["type"] = ParseDataclass(dataclass_cls)
    elif rules.bool_str_none and hs == {"bool", "str", "None"}:
        kw.update(type=BuiltinType("str"), nargs="?", const=True)
    elif "bool" in hs:
        if rules.bool_action:
            kw["action"] = ActionRef("BooleanOptionalAction")
    elif "Literal" in hs:
        kw.update(_literal_kwargs(list(f.choices or []), "str" in hs, rules, f.name, notes))
    elif _first(hints, "tuple["):
        kw.update(_collection_kwargs(_first(hints, "tuple["), rules, notes))
    elif _first(hints, "list["):
        kw.update(_collection_kwargs(_first(hints, "list["), rules, notes))
    elif rules.has_set and _first(hints, "set["):
        kw.update(_collection_kwargs(_first(hints, "set["), rules, notes))
    elif "int" in hs:
        special = rules.int_type(f.name)
        kw["type"] = FuncRef(special) if special else BuiltinType("int")
    elif "float" in hs:
        kw["type"] = BuiltinType("float")
    elif "dict" in hs and ("str" in hs or non_builtin):
        kw["type"] = FuncRef("union_dict_and_str")
    elif "dict" in hs:
        kw["type"] = ParseType(FuncRef("json.loads"))
    elif "str" in hs or non_builtin:
        kw["type"] = BuiltinType("str")
    else:
        notes.append(f"{cls}.{f.name}: unsupported hints {hints} (vLLM raises ValueError)")
    t = kw.get("type")
    if isinstance(t, LiteralType):
        kw.update(_literal_kwargs(list(t.values), False, rules, f.name, notes))
    if "None" in hs and "bool" not in hs and "type" in kw:
        kw["type"] = OptionalType(kw["type"])
        if kw.get("choices"):
            kw["choices"].append(rules.none_choice)
    return with_origin(kw, (cls, f.name))


def compute_kwargs(
    cls: ConfigClass, rules: KwargsRules, is_dataclass: "set[str]", notes: list[str]
) -> dict[str, FieldKwargs]:
    """``_compute_kwargs(cls)``: kwargs for every dataclass field, in field order."""
    out: dict[str, FieldKwargs] = {}
    default: Any = Dynamic("no default")
    for f in cls.fields:
        if f.init_var:
            continue  # InitVars are not dataclass fields
        if not f.required:
            default = from_json(f.default)
        # else: `default` keeps the previous field's value, as the loop variable in
        # _compute_kwargs does when a field has neither default nor factory.
        out[f.name] = field_kwargs(cls.name, f, default, rules, is_dataclass, notes)
    return out
