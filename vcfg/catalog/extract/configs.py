"""vLLM's config dataclasses, read with `ast` (vLLM is never imported).

Which classes
-------------
* every class decorated ``@config`` under ``vllm/config/**`` (or the single file
  ``vllm/config.py`` of 0.10) and in the ``vllm/entrypoints`` modules;
  both decorator shapes are recognised: ``@config`` over ``@dataclass`` (<= 0.15,
  config/utils.py:22 @0.11) and a bare ``@config`` / ``@config(config=ConfigDict(...))``
  that is itself the pydantic dataclass (>= 0.16, config/utils.py:41-83 @0.33);
* the ``*FrontendArgs`` dataclasses of the entrypoints, whatever their decorator;
* plain dataclasses that a field of an included class refers to, and dataclass bases,
  so that `ConfigField.nested` and `ConfigClass.bases` always resolve.

`ConfigClass.fields` is the full dataclass field list: fields of dataclass bases
first (a redefinition keeps the base position), ``ClassVar`` excluded, ``InitVar``
included with ``init_var=True``, ``_private`` fields included.

Type vocabulary (the interface the flag extractor relies on)
------------------------------------------------------------
``ConfigField.hints`` holds the flattened members of the annotation after unwrapping
``Annotated[T, ...]``, ``SkipValidation[T]``, ``Optional``/``Union``/``X | Y`` and
``InitVar[T]`` (which sets ``init_var``), with type aliases resolved across modules.
Each member is rendered as one of:

* ``"bool" "int" "float" "str" "None"``;
* ``"dict"`` for ``dict[...]``/``Dict`` or a dict subclass (a TypedDict is
  ``"class:<Name>"``, as vLLM's ``is_dict_subclass`` excludes them);
* ``"Literal"``: then ``ConfigField.choices`` lists the literal values, flattened
  (nested ``Literal`` and aliases of ``Literal`` expanded), de-duplicated, in
  declaration order; ``"Literal"`` appears once however many literals the union holds;
* ``"list[<T>]" "set[<T>]" "tuple[<T>, ...]" "tuple[<T1>, <T2>]"``, where ``<T>`` is
  the element rendered the same way, except that a literal element is written
  ``Literal['a', 'b']`` and a union element ``int | str``;
* ``"<ClassName>"`` for a dataclass of the tree (``ConfigField.nested`` is set to the
  first such member);
* ``"class:<Name>"`` for any other class: Enums, Protocols, external classes,
  ``type[X]`` -> ``class:type``, ``Any`` -> ``class:Any``, ``Callable`` ->
  ``class:Callable``.

``ConfigField.type`` is the annotation as text, aliases resolved and wrappers removed
(``InitVar[...]`` kept).

Names are bound as Python binds them when vLLM runs, because that is what vLLM's
``_compute_kwargs`` sees: the ``else`` branch of ``if TYPE_CHECKING:`` wins
(``LoadFormats = str`` makes ``load_format`` a plain ``str``, config/load.py:16-21
@0.33), ``LazyLoader(..., "vllm.x")`` binds a module, and a quoted name *inside*
``Optional[...]``/``Union[...]`` stays a ``ForwardRef`` (rendered ``"class:<Name>"``,
never nested); a whole quoted annotation is resolved.  Checked field by field
(names, order, hints, choices, defaults, constraints, init/InitVar, extra, bases)
against the runtime dataclasses of all 27 releases 0.10.0-0.33.0.

Defaults (JSON values, see `vcfg.catalog.model`): literals; names of module or
``ClassVar`` constants resolved; ``field(...)``/pydantic ``Field(...)`` read for
``default``, ``default_factory``, ``init`` and ``gt/ge/lt/le`` (-> `Constraint`);
factories ``dict``/``list``/``set`` -> ``{}``/``[]``/``[]``; a dataclass factory ->
``{"$config": "Name"}``; Enum members -> their value; anything else
``{"$dynamic": "<reason>"}``.  No default at all -> ``required=True``.

``extra_forbid`` is True for the >= 0.16 ``@config`` (extra="forbid" unless its
``ConfigDict`` says otherwise) and for an explicit ``ConfigDict(extra="forbid")``.
"""

from __future__ import annotations

import ast
from typing import Any, Iterator, Optional

from vcfg.catalog.extract.configs_tree import (
    _ENTRYPOINTS,
    _FIELD_FUNCS,
    _FRONTEND_SUFFIX,
    _Classes,
    _decorators,
    _Dynamic,
    _Module,
    _Tree,
)
from vcfg.catalog.extract.configs_types import _merge_literals, _Types, _union_text
from vcfg.catalog.extract.configs_validators import class_validators
from vcfg.catalog.extract.configs_values import _Values
from vcfg.catalog.extract.pysource import last_name
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import ConfigClass, ConfigField, Constraint, Loc
from vcfg.records import dump, record, replace

# --------------------------------------------------------------------------- classes


@record
class ConfigScan:
    """What `scan_configs` found: the classes, which of them are ``@config``, and
    the constructs it skipped."""

    classes: list[ConfigClass]
    decorated: list[str]
    warnings: list[str]


def _constraint_of(call: ast.Call, vals: _Values, mod: _Module, scope: dict[str, ast.AST]) -> Optional[Constraint]:
    bounds: dict[str, float] = {}
    for kw in call.keywords:
        if kw.arg in ("gt", "ge", "lt", "le"):
            try:
                v = vals.value(kw.value, mod, scope)
            except _Dynamic:
                continue
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                bounds[kw.arg] = v
    return Constraint(**bounds) if bounds else None


def _annotated_constraint(
    ann: ast.expr, vals: _Values, mod: _Module, scope: dict[str, ast.AST]
) -> Optional[Constraint]:
    """Bounds given as metadata: ``Annotated[int, Field(ge=1)]`` / ``Annotated[int, Gt(0)]``."""
    for node in ast.walk(ann):
        if isinstance(node, ast.Subscript) and last_name(node.value) == "Annotated":
            sl = node.slice
            if not isinstance(sl, ast.Tuple):
                continue
            bounds: dict[str, float] = {}
            for meta in sl.elts[1:]:
                if not isinstance(meta, ast.Call):
                    continue
                fname = last_name(meta.func)
                if fname in _FIELD_FUNCS:
                    c = _constraint_of(meta, vals, mod, scope)
                    if c is not None:
                        bounds.update(dump(c, exclude_none=True))
                elif fname in ("Gt", "Ge", "Lt", "Le") and len(meta.args) == 1:
                    try:
                        v = vals.value(meta.args[0], mod, scope)
                    except _Dynamic:
                        continue
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        bounds[fname.lower()] = v
            if bounds:
                return Constraint(**bounds)
    return None


def _is_field_call(e: ast.expr, tree: _Tree, mod: _Module) -> bool:
    if not isinstance(e, ast.Call):
        return False
    name = last_name(e.func)
    if name not in _FIELD_FUNCS:
        return False
    if isinstance(e.func, ast.Name):
        imp = mod.imports.get(e.func.id)
        if imp is not None:
            return imp[0].split(".")[0] in ("dataclasses", "pydantic")
    return True


class _Extractor:
    def __init__(self, src: VllmSource) -> None:
        self.src = src
        self.warnings: list[str] = []
        self.tree = _Tree(src, self.warnings)
        self.classes = _Classes()
        self.types = _Types(self.tree, self.classes)
        self.vals = _Values(self.tree, self.classes)
        self._fields_cache: dict[tuple[str, str], list[ConfigField]] = {}

    # -- discovery
    def roots(self) -> list[str]:
        files: list[str] = []
        if self.src.exists("vllm/config.py"):
            files.append("vllm/config.py")
        files += self.src.py_files("vllm/config")
        out = []
        for rel in files:
            text = self.src.read(rel)
            legacy = rel == _LEGACY_MODULE
            if not text or ("@config" not in text and not legacy):  # parsed later if a name needs it
                continue
            mod = self.tree.module_of_file(rel, text)
            if mod is None:
                continue
            for cdef in _top_classes(mod.tree):
                if _decorators(cdef).is_config:
                    self.classes.want(mod, cdef)
                    out.append(cdef.name)
                elif legacy and _is_legacy_config(cdef):
                    self.classes.want(mod, cdef)
        for rel in self.src.py_files(_ENTRYPOINTS):
            text = self.src.read(rel)
            if not text or ("@config" not in text and _FRONTEND_SUFFIX not in text):
                continue
            mod = self.tree.module_of_file(rel, text)
            if mod is None:
                continue
            for cdef in _top_classes(mod.tree):
                deco = _decorators(cdef)
                if deco.is_config:
                    out.append(cdef.name)
                    self.classes.want(mod, cdef)
                elif deco.is_dataclass and cdef.name.endswith(_FRONTEND_SUFFIX):
                    self.classes.want(mod, cdef)
        return out

    # -- one class
    def fields(self, mod: _Module, cdef: ast.ClassDef, depth: int = 0) -> list[ConfigField]:
        key = (mod.name, cdef.name)
        if key in self._fields_cache:
            return self._fields_cache[key]
        merged: dict[str, ConfigField] = {}
        if depth < 10:
            for base in reversed(cdef.bases):
                kind, bmod, bdef = self.tree.lookup_expr(mod, base)
                if kind == "class" and bdef is not cdef and _decorators(bdef).is_dataclass:
                    self.classes.want(bmod, bdef)
                    for f in self.fields(bmod, bdef, depth + 1):
                        merged[f.name] = f
        scope: dict[str, ast.AST] = {}
        for st in cdef.body:
            if isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        scope[t.id] = st.value
                continue
            if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)):
                continue
            name = st.target.id
            outer = last_name(st.annotation)
            if outer == "ClassVar" or (
                isinstance(st.annotation, ast.Constant)
                and isinstance(st.annotation.value, str)
                and st.annotation.value.startswith("ClassVar")
            ):
                if st.value is not None:
                    scope[name] = st.value
                continue
            if outer == "KW_ONLY":
                continue
            try:
                merged[name] = self._field(mod, cdef, st, scope)
            except Exception as e:  # robustness: never let one field sink the class
                self.warnings.append(f"{mod.rel}:{st.lineno} {cdef.name}.{name}: {e!r}")
            if st.value is not None:
                scope[name] = st.value
        out = list(merged.values())
        self._fields_cache[key] = out
        return out

    def _field(self, mod: _Module, cdef: ast.ClassDef, st: ast.AnnAssign, scope: dict[str, ast.AST]) -> ConfigField:
        name = st.target.id  # type: ignore[union-attr]
        ann = st.annotation
        init_var = last_name(ann) == "InitVar"
        members = self.types.members(ann, mod)
        members = _merge_literals(members)
        hints: list[str] = []
        for m in members:
            h = m.hint()
            if h not in hints:
                hints.append(h)
        choices: Optional[list[Any]] = None
        for m in members:
            if m.kind == "Literal":
                choices = list(m.values)
        nested = next((m.name for m in members if m.kind == "config"), None)
        type_text = _union_text(members)
        if init_var:
            type_text = f"InitVar[{type_text}]"

        default: Any = None
        required = False
        init = True
        constraint: Optional[Constraint] = _annotated_constraint(ann, self.vals, mod, scope)
        value = st.value
        while isinstance(value, ast.Call) and last_name(value.func) == "cast" and len(value.args) == 2:
            value = value.args[1]
        copied = self._get_field(value, mod) if value is not None else None
        if copied is not None:  # get_field(Other, "name"): that field's default (<= 0.10)
            default, required = copied.default, copied.required
        elif value is None:
            required = True
        elif _is_field_call(value, self.tree, mod):
            assert isinstance(value, ast.Call)
            kws = {kw.arg: kw.value for kw in value.keywords if kw.arg}
            dflt = kws.get("default")
            if dflt is None and value.args and last_name(value.func) != "field":
                dflt = value.args[0]
            if "init" in kws:
                try:
                    init = bool(self.vals.value(kws["init"], mod, scope))
                except _Dynamic:
                    pass
            c = _constraint_of(value, self.vals, mod, scope)
            if c is not None:
                constraint = c
            is_ellipsis = isinstance(dflt, ast.Constant) and dflt.value is Ellipsis
            if dflt is not None and not is_ellipsis:
                default = self._default(dflt, mod, scope)
            elif "default_factory" in kws:
                try:
                    default = self.vals.factory(kws["default_factory"], mod)
                except _Dynamic as err:
                    default = {"$dynamic": str(err)}
            else:
                required = True
        else:
            default = self._default(value, mod, scope)
        return ConfigField(
            name=name,
            type=type_text,
            hints=hints,
            choices=choices,
            default=default,
            required=required,
            constraint=constraint,
            nested=nested,
            init=init,
            init_var=init_var,
            loc=Loc(file=mod.rel, line=st.lineno),
        )

    def _get_field(self, value: ast.expr, mod: _Module) -> Optional[ConfigField]:
        if not (
            isinstance(value, ast.Call)
            and last_name(value.func) == "get_field"
            and len(value.args) == 2
            and isinstance(value.args[1], ast.Constant)
        ):
            return None
        kind, where, node = self.tree.lookup_expr(mod, value.args[0])
        if kind != "class" or not _decorators(node).is_dataclass:
            return None
        for f in self.fields(where, node, 5):
            if f.name == value.args[1].value:
                return f
        return None

    def _default(self, e: ast.expr, mod: _Module, scope: dict[str, ast.AST]) -> Any:
        try:
            return self.vals.value(e, mod, scope)
        except _Dynamic as err:
            return {"$dynamic": str(err)}

    # -- everything
    def run(self) -> ConfigScan:
        decorated = self.roots()
        out: list[ConfigClass] = []
        names: dict[str, str] = {}
        i = 0
        while i < len(self.classes.order):  # the list grows as fields name new classes
            mod, cdef = self.classes.order[i]
            i += 1
            try:
                cls = self._class(mod, cdef)
            except Exception as e:  # robustness
                self.warnings.append(f"{mod.rel}:{cdef.lineno} {cdef.name}: skipped ({e!r})")
                continue
            if cls.name in names:
                if names[cls.name] != mod.rel:
                    self.warnings.append(
                        f"{mod.rel}:{cdef.lineno} {cdef.name}: same name as in {names[cls.name]}; kept the first"
                    )
                continue
            names[cls.name] = mod.rel
            out.append(cls)
        return ConfigScan(classes=out, decorated=decorated, warnings=self.warnings)

    def _class(self, mod: _Module, cdef: ast.ClassDef) -> ConfigClass:
        deco = _decorators(cdef)
        fields = self.fields(mod, cdef)
        validators = class_validators(cdef)
        if validators:
            star = validators.get("*")
            fields = [
                replace(f, validator=v[0], validator_loc=Loc(file=mod.rel, line=v[1]))
                if (v := validators.get(f.name) or star) is not None
                else f
                for f in fields
            ]
        # >= 0.16 @config builds ConfigDict(extra="forbid") and merges the given one
        # (config/utils.py:71 @0.33); older classes forbid only when told to.
        forbid = deco.extra == "forbid" if deco.extra is not None else deco.new_shape
        bases = [ast.unparse(b) for b in cdef.bases if ast.unparse(b) != "object"]
        bases = [b.split(".")[-1] if "[" not in b else b for b in bases]
        return ConfigClass(
            name=cdef.name,
            loc=Loc(file=mod.rel, line=cdef.lineno),
            bases=bases,
            extra_forbid=forbid,
            fields=fields,
        )


#: before 0.9 every config class lived in this one module, most without ``@config``
_LEGACY_MODULE = "vllm/config.py"


def _is_legacy_config(cdef: ast.ClassDef) -> bool:
    """A config class of the single-module era (0.8.x) that ``@config`` did not mark yet:
    a ``@dataclass`` named ``*Config`` (``ParallelConfig``, ``SchedulerConfig``, ... in
    0.8.0-0.8.4) or a pydantic model (``KVTransferConfig(BaseModel)`` and
    ``CompilationConfig(BaseModel)``, config.py:3232 and :3334 @0.8.5), whose fields are
    class annotations as a dataclass's are.  Classes built by a hand-written ``__init__``
    (``ModelConfig``, ``CacheConfig`` before 0.8.5) have no fields to read."""
    if not cdef.name.endswith("Config"):
        return False
    return _decorators(cdef).is_dataclass or any(last_name(b) == "BaseModel" for b in cdef.bases)


def _top_classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    for st in tree.body:
        if isinstance(st, ast.ClassDef):
            yield st
        elif isinstance(st, (ast.If, ast.Try)):
            for sub in ast.iter_child_nodes(st):
                if isinstance(sub, ast.ClassDef):
                    yield sub


def scan_configs(src: VllmSource) -> ConfigScan:
    """All config classes of ``src``, with the list of ``@config`` names and warnings."""
    return _Extractor(src).run()


def extract_configs(src: VllmSource) -> list[ConfigClass]:
    """The config classes of ``src`` (see the module docstring for what is included)."""
    return scan_configs(src).classes
