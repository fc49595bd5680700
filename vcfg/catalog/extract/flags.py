"""The ``vllm serve`` options of a release, read statically.

``vllm serve`` builds its parser with ``make_arg_parser`` (entrypoints/openai/cli_args.py
<= 0.28, entrypoints/launchers/cli_args.py 0.29-0.32, entrypoints/common/cli_args.py:431
@0.33; located through the import in entrypoints/cli/serve.py): the positional
``model_tag`` and a few serve-level options, then ``FrontendArgs.add_cli_args`` (one
option per dataclass field) and ``AsyncEngineArgs.add_cli_args`` ->
``EngineArgs.add_cli_args`` (engine/arg_utils.py:959-1970 @0.33, a hand-written list over
``get_kwargs(ConfigClass)`` tables).  `vcfg.catalog.extract.flags_interp` replays those
functions over values, `vcfg.catalog.extract.flags_kwargs` reproduces ``get_kwargs`` from the
`ConfigClass` facts, and this module applies argparse's own rules to each recorded
``add_argument``: dest, default per action, the option strings that
``BooleanOptionalAction`` generates (``--no-x``) and, from 0.33, ``EnableDisableAction``
(utils/argparse_utils.py:120-153 @0.33: ``--enable-x`` also registers ``--disable-x``
and vice versa; the ``--no-`` forms stay registered but leave help).

The parser is replayed as ``vllm serve MODEL`` builds it: ``sys.argv[1:]`` holds
``serve`` and no ``--help`` (so ``--model`` is registered, arg_utils.py:968 @0.33), and
platform-dependent values use `device_type` (default ``"cuda"``).  Plugins and platform
hooks that add options at run time (``load_general_plugins``,
``current_platform.pre_register_and_update``) are invisible here.
"""

from __future__ import annotations

import ast
import gc
import re
from typing import Any, Optional

from vcfg.catalog.extract.flags_eval import _StepLimit
from vcfg.catalog.extract.flags_flow import passed_fields
from vcfg.catalog.extract.flags_interp import Interpreter
from vcfg.catalog.extract.flags_kwargs import KwargsRules, detect_rules
from vcfg.catalog.extract.flags_registry import scan_registry
from vcfg.catalog.extract.flags_symbols import Binding, ModuleIndex, find_method
from vcfg.catalog.extract.flags_values import (
    SUPPRESS,
    ActionRef,
    BuiltinType,
    ClassRef,
    Dynamic,
    FuncRef,
    LambdaRef,
    OptionalType,
    ParseDataclass,
    ParserRef,
    ParseType,
    Recorded,
    Returns,
    SubparsersRef,
    Unknown,
    to_json,
)
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import ConfigClass, Flag, Loc
from vcfg.records import field, record, replace

ARG_UTILS = "vllm/engine/arg_utils.py"
#: ``sys.argv`` while the parser is built: a plain ``vllm serve MODEL`` (no ``--help``).
SERVE_ARGV = ("vllm", "serve", "MODEL")
SERVE_CLI = "vllm/entrypoints/cli/serve.py"
#: Where make_arg_parser lived, newest first (used when serve.py does not say).
_MAKE_ARG_PARSER_FILES = (
    "vllm/entrypoints/common/cli_args.py",
    "vllm/entrypoints/launchers/cli_args.py",
    "vllm/entrypoints/openai/cli_args.py",
)
_DEFAULT_PREFIXES = {"--enable-": "--disable-", "--disable-": "--enable-"}
_ZERO_ARG_ACTIONS = {"store_true", "store_false", "store_const", "append_const", "count", "help"}
_FLAG_ACTIONS = {"store", "store_true", "store_false", "store_const", "append", "help"}
_REGISTRY_ATTRS = {
    # manager class -> attribute that holds the eager table
    "ToolParserManager": "tool_parsers",
    "ReasoningParserManager": "reasoning_parsers",
}


@record
class FlagExtraction:
    """The flags plus what the replay could not model (for diagnostics and tests)."""

    flags: list[Flag]
    notes: list[str] = field(default_factory=list)
    rules: Optional[KwargsRules] = None
    enable_disable: bool = False


# ----------------------------------------------------------------------------- entry


def extract_flags(src: VllmSource, configs: list[ConfigClass]) -> list[Flag]:
    """Every ``vllm serve`` option of the release in ``src``, in registration order:
    ``-h/--help``, the positional ``model_tag``, then the options."""
    return extract_flags_report(src, configs).flags


def extract_flags_report(
    src: VllmSource,
    configs: list[ConfigClass],
    *,
    device_type: str = "cuda",
    argv: tuple[str, ...] = SERVE_ARGV,
) -> FlagExtraction:
    """`extract_flags` with the notes on what could not be modelled.  ``device_type``
    stands for ``current_platform.device_type``; ``argv`` for ``sys.argv``."""
    # Parsing a few large modules allocates millions of AST nodes; the cyclic GC would
    # walk them repeatedly for nothing (they hold no cycles we drop): pause it.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _extract(src, configs, device_type, list(argv))
    finally:
        if paused:
            gc.enable()


def _extract(src: VllmSource, configs: list[ConfigClass], device_type: str, argv: list[str]) -> FlagExtraction:
    index = ModuleIndex(src)
    notes: list[str] = []
    rules = detect_rules(index.tree(ARG_UTILS))
    notes += list(rules.notes)
    prefixes = _enable_disable_prefixes(index)
    cfg_map = {c.name: c for c in configs}

    def hook(cls: ClassRef, attr: str) -> Any:
        return _registry_attr(index, cls, attr)

    interp = Interpreter(
        index,
        cfg_map,
        rules,
        argv=argv,
        device_type=device_type,
        class_hook=hook,
    )
    entry = _find_serve_entry(index)
    if entry is None:
        notes.append("neither the serve subcommand nor make_arg_parser found: no flags")
        return FlagExtraction([], notes, rules, prefixes is not None)
    path, fn, owner = entry
    try:
        if owner is not None:  # ServeSubcommand.subparser_init(self, subparsers)
            interp.run(fn, path, [Unknown("self"), SubparsersRef()], {}, owner, owner)
        else:
            interp.run(fn, path, [ParserRef()], {}, None, None)
    except _StepLimit:
        notes.append("replay stopped at the step limit")
    except RecursionError:
        notes.append("replay stopped: recursion too deep")
    notes += interp.notes
    flags = [_help_flag()]
    seen: set[str] = set()
    for rec in interp.records:
        flag = _to_flag(rec, prefixes, cfg_map, notes)
        if flag is None:
            continue
        clash = seen & set(flag.option_strings)
        if clash:
            twice = sorted(clash)
            notes.append(f"{rec.path}:{rec.line}: {twice} registered twice (argparse raises)")
        seen |= set(flag.option_strings)
        flags.append(flag)
    return FlagExtraction(_with_passed_fields(index, flags, cfg_map), notes, rules, prefixes is not None)


def _with_passed_fields(index: ModuleIndex, flags: list[Flag], cfg_map: dict[str, ConfigClass]) -> list[Flag]:
    """Hand-written options that the engine config passes to a bounded config field
    (`flags_flow`) get that field as their class and field, so its bounds apply."""
    text = index.src.read(ARG_UTILS)
    passed = passed_fields(text, cfg_map) if text is not None else {}
    out = []
    for f in flags:
        where = passed.get(f.dest) if f.config_class is None and not f.positional else None
        cls = cfg_map.get(where[0]) if where else None
        fld = cls.field(f.dest) if cls is not None else None
        if cls is not None and fld is not None and fld.constraint is not None:
            f = replace(f, config_class=cls.name, config_field=f.dest)
        out.append(f)
    return out


# ----------------------------------------------------------------------------- locating


def _find_serve_entry(
    index: ModuleIndex,
) -> Optional[tuple[str, ast.FunctionDef, Optional[ClassRef]]]:
    """The function that builds the ``serve`` parser: the ``subparser_init`` method of
    the subcommand class in entrypoints/cli/serve.py (it may add options after
    ``make_arg_parser``, e.g. ``--grpc`` in serve.py:135 @0.18.1), else
    ``make_arg_parser`` itself."""
    tree = index.tree(SERVE_CLI)
    if tree is not None:
        for st in tree.body:
            if isinstance(st, ast.ClassDef):
                fn = find_method(st, "subparser_init")
                if isinstance(fn, ast.FunctionDef):
                    return SERVE_CLI, fn, ClassRef(st.name, SERVE_CLI, st)
        b = index.resolve(SERVE_CLI, "make_arg_parser")
        if isinstance(b, Binding) and isinstance(b.node, ast.FunctionDef):
            return b.path, b.node, None
    for path in _MAKE_ARG_PARSER_FILES:
        node = index.bindings(path).get("make_arg_parser") if index.tree(path) else None
        if isinstance(node, ast.FunctionDef):
            return path, node, None
    return None


def _enable_disable_prefixes(index: ModuleIndex) -> Optional[dict[str, str]]:
    """The inverse-prefix table when ``FlexibleArgumentParser`` registers
    ``EnableDisableAction`` for ``BooleanOptionalAction`` (0.33+), else None."""
    imp = index.bindings(ARG_UTILS).get("FlexibleArgumentParser")
    if isinstance(imp, ast.ImportFrom) and imp.module:
        where = index.path_of(imp.module)
        text = index.src.read(where) if where else None
        if text is not None and ("BooleanOptionalAction" not in text or "register" not in text):
            return None  # cheap answer for <= 0.32 without parsing vllm/utils
    b = index.resolve(ARG_UTILS, "FlexibleArgumentParser")
    if not isinstance(b, Binding) or not isinstance(b.node, ast.ClassDef):
        return None
    registers = False
    for node in ast.walk(b.node):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "register"
            and len(node.args) == 3
            and isinstance(node.args[1], (ast.Name, ast.Attribute))
            and ast.unparse(node.args[1]).endswith("BooleanOptionalAction")
        ):
            registers = True
            action_name = ast.unparse(node.args[2]).split(".")[-1]
    if not registers:
        return None
    action = index.find_class(b.path, action_name)
    if action is None:
        return dict(_DEFAULT_PREFIXES)
    for st in action.body:
        target = st.targets[0] if isinstance(st, ast.Assign) else getattr(st, "target", None)
        value = getattr(st, "value", None)
        if isinstance(target, ast.Name) and target.id == "_inverse_prefixes" and value is not None:
            try:
                table = ast.literal_eval(value)
            except ValueError:
                break
            if isinstance(table, dict):
                return {str(k): str(v) for k, v in table.items()}
    return dict(_DEFAULT_PREFIXES)


def _registry_attr(index: ModuleIndex, cls: ClassRef, attr: str) -> Any:
    table = _REGISTRY_ATTRS.get(cls.name)
    if table is None or attr not in (table, "list_registered"):
        return None
    reg = scan_registry(index, cls.path, cls.name)
    if attr == table:
        return {n: None for n in reg.eager}
    return Returns(reg.listed())


# ----------------------------------------------------------------------------- argparse


def _help_flag() -> Flag:
    return Flag(option_strings=["-h", "--help"], dest="help", nargs=0, default=SUPPRESS, action="help")


def _dest(strings: list[str], kwargs: dict[str, Any], positional: bool) -> str:
    """argparse's dest: ``dest=``, else the first long option, else the first short."""
    dest = kwargs.get("dest")
    if isinstance(dest, str):
        return dest
    if positional:
        return strings[0] if strings else "?"
    long = next((s for s in strings if s.startswith("--")), strings[0] if strings else "")
    return long.lstrip("-").replace("-", "_")


def _boolean_strings(strings: list[str], prefixes: Optional[dict[str, str]]) -> list[str]:
    """``BooleanOptionalAction``'s strings (``--x`` then ``--no-x`` for each long
    option), plus ``EnableDisableAction``'s inverses when the release has it."""
    out: list[str] = []
    for s in strings:
        out.append(s)
        if s.startswith("--"):
            out.append("--no-" + s[2:])
    if prefixes is not None:
        for s in strings:
            for prefix, inverse in prefixes.items():
                if s.startswith(prefix):
                    out.append(inverse + s[len(prefix) :])
    return out


def type_name(t: Any) -> tuple[Optional[str], bool, Optional[str]]:
    """(Flag.type, optional, config_class_of_value) for an argparse ``type=`` value."""
    if isinstance(t, OptionalType):
        inner, _, cls = type_name(t.inner)
        return inner, True, cls
    if t is None:
        return None, False, None
    if isinstance(t, ParseType):
        return type_name(t.inner)
    if isinstance(t, ParseDataclass):
        return "config", False, t.cls
    if isinstance(t, BuiltinType):
        if t.name in ("int", "float", "str"):
            return t.name, False, None
        return f"custom:{t.name}", False, None
    if isinstance(t, FuncRef):
        if t.name in ("json.loads", "loads"):
            return "json", False, None
        if t.name == "union_dict_and_str":
            return "dict_or_str", False, None
        if t.name in ("human_readable_int", "human_readable_int_or_auto"):
            return t.name, False, None
        return f"custom:{t.name}", False, None
    if isinstance(t, LambdaRef):
        kind = "lower_underscore" if t.kind == "lower_underscore" else "custom:lambda"
        return kind, False, None
    return "custom:unknown", False, None


def _action(a: Any, prefixes: Optional[dict[str, str]]) -> str:
    if a is None:
        return "store"
    if isinstance(a, ActionRef):
        if a.name == "BooleanOptionalAction" and not a.custom:
            return "enable_disable" if prefixes is not None else "boolean_optional"
        return "custom"
    if isinstance(a, ClassRef):
        return "custom"
    if isinstance(a, str):
        return a if a in _FLAG_ACTIONS else "custom"
    return "custom"


def _json(v: Any, what: str, where: str, notes: list[str]) -> Any:
    if isinstance(v, Unknown):
        notes.append(f"{where}: {what} not known ({v.what})")
        return {"$dynamic": f"unknown: {v.what}"}
    return to_json(v)


def _metavar_choices(metavar: Any) -> Optional[list[Any]]:
    if isinstance(metavar, (list, tuple)):
        return [to_json(m) for m in metavar]
    if isinstance(metavar, str):
        m = re.match(r"^\{([^{}]*)\}", metavar)
        if m and m.group(1):
            return m.group(1).split(",")
    return None


def _to_flag(
    rec: Recorded,
    prefixes: Optional[dict[str, str]],
    cfg_map: dict[str, ConfigClass],
    notes: list[str],
) -> Optional[Flag]:
    where = f"{rec.path}:{rec.line}"
    strings = [s for s in rec.args if isinstance(s, str)]
    if len(strings) != len(rec.args) or not strings:
        notes.append(f"{where}: option strings not known statically: {rec.args!r}")
        if not strings:
            return None
    kw = {k: v for k, v in rec.kwargs.items() if k != "$unknown"}
    if "$unknown" in rec.kwargs:
        notes.append(f"{where}: some kwargs of {strings[0]} not known statically")
    positional = not strings[0].startswith("-")
    action_value = kw.get("action")
    action = _action(action_value, prefixes)
    if isinstance(action_value, ActionRef) and action_value.name == "BooleanOptionalAction":
        inverse = prefixes if action == "enable_disable" else None
        option_strings = _boolean_strings(strings, inverse)
    else:
        option_strings = [] if positional else list(strings)
    dest = _dest(strings, kw, positional)

    # argparse defaults per action (argparse.py, _StoreTrueAction etc.)
    nargs: Any  # 0, an int, '?', '*', '+' or None
    if action_value == "store_true":
        default, const, nargs = kw.get("default", False), True, 0
    elif action_value == "store_false":
        default, const, nargs = kw.get("default", True), False, 0
    elif action_value == "help":
        default, const, nargs = kw.get("default", SUPPRESS), None, 0
    elif isinstance(action_value, str) and action_value in _ZERO_ARG_ACTIONS:
        default, const, nargs = kw.get("default"), kw.get("const"), 0
    elif action in ("boolean_optional", "enable_disable"):
        default, const, nargs = kw.get("default"), None, 0
    else:
        default, const, nargs = kw.get("default"), kw.get("const"), kw.get("nargs")

    ftype, optional, value_cls = type_name(kw.get("type"))
    if isinstance(kw.get("type"), Unknown):
        notes.append(f"{where}: type of {strings[0]} not known statically")
    if ftype is None and nargs != 0 and action in ("store", "append", "custom"):
        ftype = "str"  # argparse hands the string through unchanged
    if ftype == "str" and nargs == "?" and const is True:
        ftype = "bool"  # bare flag -> True, else the text (the bool | str fields)

    choices = kw.get("choices")
    if isinstance(choices, Unknown):
        notes.append(f"{where}: choices of {strings[0]} not known statically")
        choices = None
    elif isinstance(choices, Dynamic):
        notes.append(f"{where}: choices of {strings[0]} are platform dependent")
        choices = None
    elif choices is not None:
        items = choices if isinstance(choices, (list, tuple)) else list(choices)
        choices = [to_json(c) for c in items]

    cfg_class, cfg_field = rec.origin if rec.origin else (None, None)
    loc = Loc(file=rec.path, line=rec.line)
    if rec.in_loop and cfg_class is not None:
        cfg = cfg_map.get(cfg_class)
        f = cfg.field(cfg_field) if cfg and cfg_field else None
        if f is not None:
            loc = f.loc
    nargs_json = nargs if isinstance(nargs, (int, str)) or nargs is None else None
    return Flag(
        option_strings=option_strings,
        dest=dest,
        type=ftype,
        optional=optional,
        nargs=nargs_json,
        const=_json(const, "const", where, notes),
        choices=choices,
        metavar_choices=_metavar_choices(kw.get("metavar")) if choices is None else None,
        default=_json(default, "default", where, notes),
        action=action,  # type: ignore[arg-type]
        group=rec.group,
        config_class=cfg_class,
        config_field=cfg_field,
        config_class_of_value=value_cls,
        deprecated=kw.get("deprecated") is True,
        required=kw.get("required") is True,
        positional=positional,
        loc=loc,
    )
