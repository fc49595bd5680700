"""The values the flag extractor computes with while it replays ``add_cli_args``.

Plain data (str, int, list, dict, ...) stays plain Python; what vLLM would hold as a
function, class or object is represented by one of the small frozen markers below.
`to_json` turns a value into the JSON form a catalog stores (see `vcfg.catalog.model`).
"""

from __future__ import annotations

import ast
import copy
import enum
from typing import Any, Optional

from vcfg.records import field, record

SUPPRESS = "==SUPPRESS=="  # argparse.SUPPRESS


@record(frozen=True)
class BuiltinType:
    """``int``, ``float``, ``str``, ``bool``, ``dict``, ``list``, ... used as a value."""

    name: str


@record(frozen=True)
class FuncRef:
    """A named function, e.g. ``json.loads`` or vLLM's ``human_readable_int``."""

    name: str
    path: Optional[str] = None  # module file, for functions of the tree
    node: Optional[ast.AST] = field(default=None, compare=False, repr=False)


@record(frozen=True)
class LambdaRef:
    """A ``lambda``; ``kind`` is "lower_underscore" for ``s.lower().replace("-", "_")``."""

    kind: str


@record(frozen=True)
class OptionalType:
    """``optional_type(inner)``: ``""`` and ``"None"`` parse to None (arg_utils.py:170 @0.33)."""

    inner: Any


@record(frozen=True)
class ParseType:
    """``parse_type(inner)``: ``inner`` with ValueError turned into an argparse error."""

    inner: Any


@record(frozen=True)
class ParseDataclass:
    """The ``parse_dataclass`` closure of ``_compute_kwargs``: JSON -> config class."""

    cls: str


@record(frozen=True)
class LiteralType:
    """``Literal[...]`` as a value (``get_args`` gives ``values``)."""

    values: tuple[Any, ...]


@record(frozen=True)
class ActionRef:
    """An argparse action class given as ``action=``: ``BooleanOptionalAction`` or a
    custom ``argparse.Action`` subclass (``custom`` True)."""

    name: str
    custom: bool = False


@record(frozen=True)
class ConfigInstance:
    """A config-class instance (a default built by a factory)."""

    cls: str


@record(frozen=True)
class Dynamic:
    """A value that cannot be known without running vLLM (platform, env, registry)."""

    what: str


@record(frozen=True)
class EnumMember:
    cls: str
    name: str
    value: Any


@record(frozen=True)
class ParserRef:
    """The ``FlexibleArgumentParser`` being filled."""


@record(frozen=True)
class SubparsersRef:
    """The ``subparsers`` object the ``vllm`` CLI hands to a subcommand."""


@record(frozen=True)
class GroupRef:
    title: Optional[str]


class FieldKwargs(dict):  # type: ignore[type-arg]
    """The argparse kwargs of one config field, remembering which field they came from
    (survives ``get_kwargs``' deep copy and ``{**kwargs, "default": None}`` merges)."""

    origin: Optional[tuple[str, str]] = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "FieldKwargs":
        out = FieldKwargs({k: copy.deepcopy(v, memo) for k, v in self.items()})
        out.origin = self.origin
        return out


def with_origin(d: dict[str, Any], origin: Optional[tuple[str, str]]) -> FieldKwargs:
    out = FieldKwargs(d)
    out.origin = origin
    return out


def from_json(value: Any) -> Any:
    """A catalog JSON default as an extractor value (``{"$config": X}`` -> ConfigInstance)."""
    if isinstance(value, dict):
        if set(value) == {"$config"}:
            return ConfigInstance(str(value["$config"]))
        if set(value) == {"$dynamic"}:
            return Dynamic(str(value["$dynamic"]))
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def _sort_key(v: Any) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


def to_json(value: Any) -> Any:
    """The JSON form of a value as argparse would hold it."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, EnumMember):
        return to_json(value.value)
    if isinstance(value, ConfigInstance):
        return {"$config": value.cls}
    if isinstance(value, Dynamic):
        return {"$dynamic": value.what}
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [to_json(v) for v in sorted(value, key=_sort_key)]
    return {"$dynamic": f"value {type(value).__name__}"}


# ------------------------------------------------- what names and calls evaluate to


@record(frozen=True)
class Unknown:
    """A value the replay could not compute (``what`` says why)."""

    what: str


@record(frozen=True)
class ModuleRef:
    module: str
    path: Optional[str]


@record(frozen=True)
class ClassRef:
    """A class of the tree; ``node`` is parsed on demand (`Interpreter.node_of`)."""

    name: str
    path: str
    node: Optional[ast.ClassDef] = field(default=None, compare=False, repr=False)


@record(frozen=True)
class EnumClass:
    name: str
    members: tuple[EnumMember, ...]


@record(frozen=True)
class Method:
    """A function found on a class: ``owner`` defines it, ``bound`` is ``cls``."""

    fn: ast.FunctionDef = field(compare=False, repr=False)
    path: str
    owner: ClassRef
    bound: ClassRef
    kind: str  # "static", "class", "instance"


@record(frozen=True)
class SuperRef:
    bound: ClassRef
    after: ClassRef


@record(frozen=True)
class BuiltinFunc:
    name: str


@record(frozen=True)
class BoundBuiltin:
    obj: Any = field(compare=False)
    name: str


@record(frozen=True)
class Returns:
    """A callable standing for a registry method: calling it gives ``value``."""

    value: Any = field(compare=False)


@record(frozen=True)
class LiteralForm:
    """``typing.Literal`` itself (subscripted to a `LiteralType`)."""


@record(frozen=True)
class PlatformRef:
    """``vllm.platforms.current_platform``: platform-dependent."""


@record(frozen=True)
class EnvsRef:
    """``vllm.envs``: values come from the environment."""


@record
class Recorded:
    """One ``add_argument`` call as the parser would receive it."""

    args: list[Any]
    kwargs: dict[str, Any]
    origin: Optional[tuple[str, str]]
    group: Optional[str]
    path: str
    line: int
    in_loop: bool
