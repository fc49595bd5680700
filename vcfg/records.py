"""Records: vcfg's one way to declare a plain data class, cheap to define and to load.

``@record`` reads a class's annotations like ``dataclasses.dataclass`` does, but
installs shared, generic methods instead of generating and compiling new ones per
class: defining a record costs microseconds, where a dataclass costs about a
millisecond (dozens of them made a cold ``vcfg lint`` several times slower than
the interpreter start, see docs/performance.md).  The same declarations serve
three ways of making an instance:

- ``Cls(...)``: positional or keyword arguments, no type checks (as a dataclass);
- ``load(Cls, data)``: from JSON-like data (a catalog file, a TOML knowledge pack),
  every value checked against its annotation, unknown keys refused, ``field()``
  constraints and the class's ``__validate__`` hook applied; a `RecordError` names
  the place (``connector[0].keys[1].json_types[0]``);
- ``build(Cls, data)``: from data vcfg generated and tested itself (the bundled
  catalogs): nothing is checked, and nested records are made when first read.

``dump(obj)`` turns a record back into JSON-like data.  A class can read and write
itself as something other than an object with ``__load__`` (a classmethod that
turns the raw value into a dict) and ``__dump__``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

if TYPE_CHECKING:  # type checkers read a record's fields like a dataclass's
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda f: f


_R = TypeVar("_R")

MISSING: Any = type("MISSING", (), {"__repr__": lambda self: "MISSING"})()


class RecordError(ValueError):
    """``data`` does not fit a record; ``loc`` is the path to the bad value."""

    def __init__(self, loc: tuple[Any, ...], msg: str) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg

    def __str__(self) -> str:
        where = ".".join(str(x) for x in self.loc)
        return f"{where}: {self.msg}" if where else self.msg


class FrozenInstanceError(AttributeError):
    pass


class Field:
    """One field of a record (see `field`)."""

    __slots__ = (
        "name",
        "annotation",
        "default",
        "default_factory",
        "repr",
        "compare",
        "description",
        "pattern",
        "min_length",
        "check",
    )

    def __init__(
        self,
        default: Any = MISSING,
        *,
        default_factory: Optional[Callable[[], Any]] = None,
        repr: bool = True,
        compare: bool = True,
        description: str = "",
        pattern: Optional[str] = None,
        min_length: Optional[int] = None,
        check: Optional[Callable[[Any], Any]] = None,
    ) -> None:
        self.name = ""
        self.annotation = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.description = description
        self.pattern = pattern
        self.min_length = min_length
        self.check = check

    @property
    def required(self) -> bool:
        return self.default is MISSING and self.default_factory is None

    def default_value(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default


def field(default: Any = MISSING, **options: Any) -> Any:
    """A field with a default factory, left out of ``repr``/``==``, or with checks
    applied by `load` (the options of `Field`): ``pattern`` (a regex the string must
    match), ``min_length``, ``check`` (a function that returns the value or raises
    ``ValueError``)."""
    return Field(default, **options)


# --------------------------------------------------------------------------- methods


def _init(self: Any, *args: Any, **kw: Any) -> None:
    cls = type(self)
    if args:
        names = cls.__record_names__
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, {len(args)} given")
        for name, value in zip(names, args):
            if name in kw:
                raise TypeError(f"{cls.__name__}() got two values for {name!r}")
            kw[name] = value
    d = self.__dict__
    d.update(cls.__record_defaults__)
    for name, factory in cls.__record_factories__:
        if name not in kw:
            d[name] = factory()
    if not kw.keys() <= cls.__record_nameset__:
        extra = sorted(kw.keys() - cls.__record_nameset__)
        raise TypeError(f"{cls.__name__}() got unexpected argument {extra[0]!r}")
    d.update(kw)
    missing = cls.__record_required__ - kw.keys()
    if missing:
        raise TypeError(f"{cls.__name__}() missing argument {sorted(missing)[0]!r}")
    if cls.__record_post_init__:
        self.__post_init__()


def _init_kw(self: Any, **kw: Any) -> None:
    _init(self, **kw)


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, n) for n in type(self).__record_compare__)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash((self.__class__.__name__, _values(self)))


def _repr(self: Any) -> str:
    cls = type(self)
    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in cls.__record_fields__ if f.repr)
    return f"{cls.__qualname__}({inner})"


def _lazy_getattr(self: Any, name: str) -> Any:
    """A field `build` left as data until it is first read."""
    lazy = self.__dict__.get("_lazy_fields")
    if lazy is None or name not in lazy:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    sub, is_list, data = lazy[name]
    value = [build(sub, x) for x in data] if is_list else build(sub, data)
    self.__dict__[name] = value
    return value


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def _order(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], Any]:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return op(_values(self), _values(other))

    return compare


_ORDER = {
    "__lt__": _order(lambda a, b: a < b),
    "__le__": _order(lambda a, b: a <= b),
    "__gt__": _order(lambda a, b: a > b),
    "__ge__": _order(lambda a, b: a >= b),
}


@dataclass_transform(field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = False, order: bool = False, kw_only: bool = False) -> Any:
    """Make ``cls`` a record: ``__init__`` (positional or keyword; keyword only with
    ``kw_only``, which lets a field without a default follow one with a default for
    a type checker too), ``__repr__``, ``__eq__``, and for ``frozen`` records
    ``__hash__`` and no assignment.  ``__post_init__`` is called when the class has
    one."""

    def wrap(cls: Any) -> Any:
        fields: dict[str, Field] = {}
        for base in reversed(cls.__mro__[1:]):
            for f in base.__dict__.get("__record_fields__", ()):
                fields[f.name] = f
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            annotation = (
                annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
            )
            if annotation.startswith(("ClassVar", "typing.ClassVar")):
                continue
            value = cls.__dict__.get(name, MISSING)
            f = value if isinstance(value, Field) else Field(value)
            f.name, f.annotation = name, annotation
            if value is not MISSING:
                # defaults live in __record_defaults__; a class attribute would hide a
                # field `build` leaves to `_lazy_getattr`
                delattr(cls, name)
            fields[name] = f
        flist = tuple(fields.values())
        cls.__record_fields__ = flist
        cls.__record_names__ = tuple(fields)
        cls.__record_nameset__ = frozenset(fields)
        cls.__record_defaults__ = {f.name: f.default for f in flist if f.default is not MISSING}
        cls.__record_factories__ = tuple((f.name, f.default_factory) for f in flist if f.default_factory)
        cls.__record_required__ = frozenset(f.name for f in flist if f.required)
        cls.__record_compare__ = tuple(f.name for f in flist if f.compare)
        cls.__record_post_init__ = hasattr(cls, "__post_init__")
        if "__init__" not in cls.__dict__:
            cls.__init__ = _init_kw if kw_only else _init
        if "__getattr__" not in cls.__dict__:
            cls.__getattr__ = _lazy_getattr
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = _repr
        if "__eq__" not in cls.__dict__:
            cls.__eq__ = _eq
        if frozen:
            cls.__setattr__ = _frozen_setattr
            cls.__delattr__ = _frozen_delattr
            if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
                cls.__hash__ = _hash
        elif "__hash__" not in cls.__dict__:
            cls.__hash__ = None
        if order:
            for name, fn in _ORDER.items():
                setattr(cls, name, fn)
        return cls

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from typing_extensions import Self

    class TupleRecord:
        """What a type checker is told of a `tuple_record` class: the methods of the
        named tuple it becomes.  A base for type checkers only: at run time it is
        ``object``, and `tuple_record` reads nothing but the class's own body."""

        _fields: tuple[str, ...]

        def _replace(self, **changes: Any) -> Self: ...

        def _asdict(self) -> dict[str, Any]: ...

    def new_tuple(cls: type[_R], values: tuple[Any, ...], /) -> _R:
        """``tuple.__new__(cls, values)``: a `tuple_record` built without its
        Python-level ``__new__`` (hot paths)."""
        ...

else:
    TupleRecord = object
    new_tuple = tuple.__new__


@dataclass_transform(field_specifiers=(field,))
def tuple_record(cls: Any) -> Any:
    """``@tuple_record class Span: start: int ...``: a named tuple with the class's
    fields (annotations), defaults and methods, like ``typing.NamedTuple`` but
    without checking each annotation (which compiles every one of them, about
    0.2 ms a class).  For small values built in hot loops: tuples are the cheapest
    Python objects to make."""
    from collections import namedtuple

    names = list(cls.__dict__.get("__annotations__", {}))
    defaults = [cls.__dict__[n] for n in names if n in cls.__dict__]
    out = namedtuple(cls.__name__, names, defaults=defaults or None, module=cls.__module__)  # type: ignore[misc]
    for key, value in cls.__dict__.items():
        if key not in names and key not in ("__dict__", "__weakref__", "__module__", "__qualname__"):
            setattr(out, key, value)
    out.__qualname__ = cls.__qualname__
    return out


def fields(cls_or_obj: Any) -> tuple[Field, ...]:
    cls: Any = cls_or_obj if isinstance(cls_or_obj, type) else type(cls_or_obj)
    return cls.__record_fields__  # type: ignore[no-any-return]


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of ``obj`` with some fields changed (``__post_init__`` runs again)."""
    values = {f.name: getattr(obj, f.name) for f in fields(obj)}
    values.update(changes)
    return type(obj)(**values)


# --------------------------------------------------------------------------- dump


def dump(obj: Any, *, exclude_defaults: bool = False, exclude_none: bool = False) -> Any:
    """JSON-like data for a record (and the lists, tuples and dicts around it),
    leaving out fields equal to their default or None when asked."""
    if hasattr(type(obj), "__record_fields__"):
        custom = getattr(obj, "__dump__", None)
        if custom is not None:
            return custom()
        out = {}
        for f in type(obj).__record_fields__:
            value = getattr(obj, f.name)
            if exclude_defaults and not f.required and value == f.default_value():
                continue
            if exclude_none and value is None:
                continue
            out[f.name] = dump(value, exclude_defaults=exclude_defaults, exclude_none=exclude_none)
        return out
    if isinstance(obj, (list, tuple)):
        return [dump(x, exclude_defaults=exclude_defaults, exclude_none=exclude_none) for x in obj]
    if isinstance(obj, dict):
        return {k: dump(v, exclude_defaults=exclude_defaults, exclude_none=exclude_none) for k, v in obj.items()}
    return obj


# --------------------------------------------------------------------------- build (trusted)


def _nested_plan(cls: Any) -> tuple[tuple[str, Any, bool], ...]:
    """(field, record class, is a list) for each field holding records: read from the
    annotation text (``X``, ``list[X]``, ``Optional[X]``, ``Optional[list[X]]``)."""
    plan = cls.__dict__.get("__record_nested__")
    if plan is None:
        names = vars(sys.modules[cls.__module__])
        out = []
        for f in cls.__record_fields__:
            text = f.annotation.replace("Optional[", "").replace("]", "").replace(" | None", "")
            is_list = text.startswith("list[")
            sub = names.get(text.removeprefix("list[").strip())
            if isinstance(sub, type) and hasattr(sub, "__record_fields__"):
                out.append((f.name, sub, is_list))
        plan = tuple(out)
        cls.__record_nested__ = plan
    return plan


def nested_fields(cls: Any) -> tuple[tuple[str, Any, bool], ...]:
    """(field, record class, is a list) for each field of ``cls`` holding records."""
    return _nested_plan(cls)


def build(cls: Any, data: Any) -> Any:
    """An instance of record ``cls`` from JSON-like ``data`` vcfg wrote and tested
    itself: nested records are made and nothing is checked.  Use `load` for
    anything a user could have edited."""
    custom = cls.__dict__.get("__load__")
    if custom is not None:
        data = custom.__get__(None, cls)(data)
    obj = cls.__new__(cls)
    d = obj.__dict__
    d.update(cls.__record_defaults__)
    for name, factory in cls.__record_factories__:
        if name not in data:
            d[name] = factory()
    d.update(data)
    nested = _nested_plan(cls)
    if nested:
        # records inside are made when first read (`_lazy_getattr`): a lint reads a
        # few dozen of the thousands of entries in a catalog
        lazy = {}
        for name, sub, is_list in nested:
            value = d.get(name)
            if value is not None:
                lazy[name] = (sub, is_list, value)
                del d[name]
        if lazy:
            d["_lazy_fields"] = lazy
    if cls.__record_post_init__:
        obj.__post_init__()
    return obj


# --------------------------------------------------------------------------- load (checked)

_Check = Callable[[Any, tuple[Any, ...]], Any]


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _checker(tp: Any) -> _Check:
    """A function (value, loc) -> value for a resolved annotation."""
    import types
    import typing

    if tp is Any or tp is object:
        return lambda v, loc: v
    if tp is type(None) or tp is None:

        def none(v: Any, loc: tuple[Any, ...]) -> Any:
            if v is not None:
                raise RecordError(loc, f"Input should be None, not {_describe(v)}")
            return v

        return none
    if tp is bool:

        def boolean(v: Any, loc: tuple[Any, ...]) -> Any:
            if not isinstance(v, bool):
                raise RecordError(loc, f"Input should be a valid boolean, not {_describe(v)}")
            return v

        return boolean
    if tp is int:

        def integer(v: Any, loc: tuple[Any, ...]) -> Any:
            if isinstance(v, bool) or not isinstance(v, int):
                raise RecordError(loc, f"Input should be a valid integer, not {_describe(v)}")
            return v

        return integer
    if tp is float:

        def number(v: Any, loc: tuple[Any, ...]) -> Any:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise RecordError(loc, f"Input should be a valid number, not {_describe(v)}")
            return float(v)

        return number
    if tp is str:

        def string(v: Any, loc: tuple[Any, ...]) -> Any:
            if not isinstance(v, str):
                raise RecordError(loc, f"Input should be a valid string, not {_describe(v)}")
            return v

        return string
    if isinstance(tp, type) and hasattr(tp, "__record_fields__"):
        return lambda v, loc: _load(tp, v, loc)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        allowed = args

        def literal(v: Any, loc: tuple[Any, ...]) -> Any:
            if not any(v == a and type(v) is type(a) for a in allowed):
                wanted = ", ".join(repr(a) for a in allowed)
                raise RecordError(loc, f"Input should be one of {wanted}, not {_describe(v)}")
            return v

        return literal
    if origin is typing.Union or origin is types.UnionType:
        members = [_checker(a) for a in args]

        def union(v: Any, loc: tuple[Any, ...]) -> Any:
            first: Optional[RecordError] = None
            for check in members:
                try:
                    return check(v, loc)
                except RecordError as e:
                    first = first or e
            assert first is not None
            raise first

        return union
    if origin in (list, tuple, set, frozenset):
        item = _checker(args[0]) if args else (lambda v, loc: v)

        def sequence(v: Any, loc: tuple[Any, ...]) -> Any:
            if not isinstance(v, (list, tuple)):
                raise RecordError(loc, f"Input should be a valid list, not {_describe(v)}")
            return [item(x, (*loc, i)) for i, x in enumerate(v)]

        return sequence
    if origin is dict:
        key = _checker(args[0]) if args else (lambda v, loc: v)
        val = _checker(args[1]) if args else (lambda v, loc: v)

        def mapping(v: Any, loc: tuple[Any, ...]) -> Any:
            if not isinstance(v, dict):
                raise RecordError(loc, f"Input should be a valid dictionary, not {_describe(v)}")
            return {key(k, (*loc, k)): val(x, (*loc, k)) for k, x in v.items()}

        return mapping
    raise TypeError(f"records cannot check values of type {tp!r}")


def _field_checks(cls: Any) -> tuple[tuple[Field, _Check], ...]:
    plan = cls.__dict__.get("__record_checks__")
    if plan is None:
        import typing

        hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
        plan = tuple((f, _checker(hints[f.name])) for f in cls.__record_fields__)
        cls.__record_checks__ = plan
    return plan


def _load(cls: Any, data: Any, loc: tuple[Any, ...]) -> Any:
    custom = cls.__dict__.get("__load__")
    if custom is not None:
        try:
            data = custom.__get__(None, cls)(data)
        except (TypeError, ValueError) as e:
            raise RecordError(loc, str(e)) from None
    if isinstance(data, cls):
        return data
    if not isinstance(data, dict):
        raise RecordError(loc, f"Input should be an object, not {_describe(data)}")
    extra = [k for k in data if k not in cls.__record_nameset__]
    if extra:
        raise RecordError((*loc, extra[0]), "Extra inputs are not permitted")
    values = {}
    for f, check in _field_checks(cls):
        where = (*loc, f.name)
        if f.name not in data:
            if f.required:
                raise RecordError(where, "Field required")
            continue
        value = check(data[f.name], where)
        if f.min_length is not None and len(value) < f.min_length:
            raise RecordError(where, f"should have at least {f.min_length} item(s) or character(s)")
        if f.pattern is not None:
            import re

            if not isinstance(value, str) or not re.search(f.pattern, value):
                raise RecordError(where, f"String should match pattern {f.pattern!r}")
        if f.check is not None:
            try:
                value = f.check(value)
            except ValueError as e:
                raise RecordError(where, str(e)) from None
        values[f.name] = value
    obj = cls(**values)
    validate = getattr(obj, "__validate__", None)
    if validate is not None:
        try:
            validate()
        except ValueError as e:
            raise RecordError(loc, str(e)) from None
    return obj


def load(cls: Any, data: Any) -> Any:
    """An instance of record ``cls`` from JSON-like ``data``, every value checked
    (see the module doc); raises `RecordError`."""
    return _load(cls, data, ())
