"""The static ``vllm serve`` flag extractor (vcfg.catalog.extract.flags and its helpers).

Default tests run on small synthetic trees written here: they imitate the shapes of
vLLM's engine/arg_utils.py and cli_args.py (aliases, dict-merge overrides, dest=,
renamed flags, kwargs mutated after get_kwargs, hand-written flags, a loop over a
literal list, the conditional --model, deprecated=True, enum and Literal-alias choices,
a frontend dataclass registered in a loop).  Slow tests read real releases.
"""

from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from release_sample import release_params

from vcfg.catalog.extract.flags import (
    _boolean_strings,
    extract_flags,
    extract_flags_report,
    type_name,
)
from vcfg.catalog.extract.flags_compare import compare_flags, oracle_type
from vcfg.catalog.extract.flags_kwargs import KwargsRules, compute_kwargs, detect_rules, field_kwargs
from vcfg.catalog.extract.flags_registry import scan_registry
from vcfg.catalog.extract.flags_symbols import ModuleIndex
from vcfg.catalog.extract.flags_values import (
    ActionRef,
    BuiltinType,
    ConfigInstance,
    FuncRef,
    OptionalType,
    ParseDataclass,
    ParseType,
    to_json,
)
from vcfg.catalog.extract.source import from_tree
from vcfg.catalog.model import ConfigClass, ConfigField, Flag, Loc

L = Loc(file="vllm/config/x.py", line=3)


def F(name, hints, default=None, choices=None, nested=None, required=False, init_var=False):
    return ConfigField(
        name=name, type="t", hints=hints, default=default, choices=choices, nested=nested,
        required=required, init_var=init_var, loc=L,
    )  # fmt: skip


# --------------------------------------------------------------------------- get_kwargs


def _kw(f: ConfigField, rules: KwargsRules = KwargsRules(), dataclasses=frozenset()):
    notes: list[str] = []
    return field_kwargs("C", f, f.default, rules, set(dataclasses), notes), notes


def test_field_kwargs_branches_in_vllm_order():
    kw, _ = _kw(F("kv", ["KVCfg", "None"], nested="KVCfg"))
    assert kw["type"] == OptionalType(ParseDataclass("KVCfg")) and kw.origin == ("C", "kv")
    kw, _ = _kw(F("tok", ["bool", "str", "None"]))
    assert (kw["type"], kw["nargs"], kw["const"]) == (BuiltinType("str"), "?", True)
    kw, _ = _kw(F("tok", ["bool", "str", "None"]), KwargsRules(bool_str_none=False))
    assert kw["action"] == ActionRef("BooleanOptionalAction") and "type" not in kw
    kw, _ = _kw(F("flag", ["bool", "None"]))
    assert kw["action"] == ActionRef("BooleanOptionalAction") and "type" not in kw
    kw, _ = _kw(F("mode", ["Literal"], choices=["b", "a"]))
    assert kw["choices"] == ["a", "b"] and kw["type"] == BuiltinType("str")
    kw, _ = _kw(F("mode", ["Literal", "str"], choices=["b", "a"]))
    assert kw["metavar"] == ["a", "b"] and "choices" not in kw
    kw, _ = _kw(F("n", ["int"]))
    assert kw["type"] == BuiltinType("int")
    kw, _ = _kw(F("max_model_len", ["int"]))
    assert kw["type"] == FuncRef("human_readable_int_or_auto")
    kw, _ = _kw(F("x", ["float", "None"]))
    assert kw["type"] == OptionalType(BuiltinType("float"))
    kw, _ = _kw(F("d", ["dict", "str"]))
    assert kw["type"] == FuncRef("union_dict_and_str")
    kw, _ = _kw(F("d", ["dict", "class:Thing"]))
    assert kw["type"] == FuncRef("union_dict_and_str")
    kw, _ = _kw(F("d", ["dict"]))
    assert kw["type"] == ParseType(FuncRef("json.loads"))
    kw, _ = _kw(F("e", ["class:SomeEnum"]))
    assert kw["type"] == BuiltinType("str")
    kw, notes = _kw(F("odd", ["class:type"]))
    assert "type" not in kw and "unsupported" in notes[0]


def test_field_kwargs_collections():
    kw, _ = _kw(F("sizes", ["list[int]", "None"]))
    assert (kw["type"], kw["nargs"]) == (OptionalType(BuiltinType("int")), "+")
    kw, _ = _kw(F("pair", ["tuple[int, int]"]))
    assert kw["nargs"] == 2
    kw, _ = _kw(F("many", ["tuple[str, ...]"]))
    assert kw["nargs"] == "+"
    kw, _ = _kw(F("mixed", ["list[int | str]"]))
    assert kw["type"] == BuiltinType("str")
    kw, _ = _kw(F("modes", ["list[Literal['y', 'x']]", "None"]))
    assert kw["choices"] == ["x", "y", None] and kw["nargs"] == "+"
    kw, _ = _kw(F("modes", ["list[Literal['y', 'x']]", "None"]), KwargsRules(none_choice="None"))
    assert kw["choices"] == ["x", "y", "None"]
    # set[...] only from the release that handles it; before, the next branch wins
    kw, _ = _kw(F("names", ["set[str]", "str"]), KwargsRules(has_set=False))
    assert kw["type"] == BuiltinType("str") and "nargs" not in kw


def test_compute_kwargs_skips_initvars_and_carries_default_over():
    cls = ConfigClass(
        name="C", loc=L,
        fields=[F("a", ["int"], default=3), F("iv", ["int"], init_var=True),
                F("b", ["int"], required=True),
                F("c", ["Sub"], default={"$config": "Sub"}, nested="Sub")],
    )  # fmt: skip
    out = compute_kwargs(cls, KwargsRules(), {"Sub"}, [])
    assert list(out) == ["a", "b", "c"]
    assert out["b"]["default"] == 3  # the loop variable of _compute_kwargs keeps the last value
    assert out["c"]["default"] == ConfigInstance("Sub")


_COMPUTE_OLD = """
def literal_to_kwargs(type_hints):
    return {"type": str, "choices": sorted(x)}

def _compute_kwargs(cls):
    for field in fields(cls):
        if contains_type(type_hints, int):
            kwargs[name]["type"] = int
            if name in {"max_model_len", "max_num_batched_tokens"}:
                kwargs[name]["type"] = human_readable_int
        if type(None) in type_hints:
            if kwargs[name].get("choices"):
                kwargs[name]["choices"].append("None")
"""

_COMPUTE_NEW = """
def literal_to_kwargs(type_hints):
    kwarg = "metavar" if contains_type(type_hints, str) else "choices"

def collection_to_kwargs(type_hints, type):
    if get_origin(elem_type) in {Union, UnionType}:
        assert str in get_args(elem_type)

def _compute_kwargs(cls):
    for field in fields(cls):
        if type_hints == {bool, str, type(None)}:
            pass
        elif contains_type(type_hints, set):
            pass
        elif contains_type(type_hints, int):
            readable = {"max_num_batched_tokens", "kv_cache_memory_bytes"}
            if name == "max_model_len":
                kwargs[name]["type"] = human_readable_int_or_auto
            elif name in readable:
                kwargs[name]["type"] = human_readable_int
            else:
                kwargs[name]["type"] = int
        if type(None) in type_hints:
            if kwargs[name].get("choices"):
                kwargs[name]["choices"].append(None)
"""


def test_detect_rules_reads_the_release_source():
    import ast

    old = detect_rules(ast.parse(_COMPUTE_OLD))
    assert not old.bool_str_none and not old.has_set and not old.literal_metavar_with_str
    assert old.none_choice == "None" and not old.union_elements_to_str
    assert dict(old.int_types) == {
        "max_model_len": "human_readable_int", "max_num_batched_tokens": "human_readable_int",
    }  # fmt: skip
    new = detect_rules(ast.parse(_COMPUTE_NEW))
    assert new.bool_str_none and new.has_set and new.literal_metavar_with_str
    assert new.none_choice is None and new.union_elements_to_str
    assert dict(new.int_types) == {
        "max_model_len": "human_readable_int_or_auto",
        "max_num_batched_tokens": "human_readable_int",
        "kv_cache_memory_bytes": "human_readable_int",
    }
    assert detect_rules(None).notes and detect_rules(ast.parse("x = 1")).notes


# --------------------------------------------------------------------------- argparse


def test_boolean_option_strings():
    assert _boolean_strings(["--x", "-x"], None) == ["--x", "--no-x", "-x"]
    table = {"--enable-": "--disable-", "--disable-": "--enable-"}
    assert _boolean_strings(["--enable-a", "-a"], table) == [
        "--enable-a", "--no-enable-a", "-a", "--disable-a",
    ]  # fmt: skip
    assert _boolean_strings(["--disable-b"], table) == [
        "--disable-b", "--no-disable-b", "--enable-b",
    ]  # fmt: skip
    assert _boolean_strings(["--plain"], table) == ["--plain", "--no-plain"]


def test_type_names():
    assert type_name(OptionalType(ParseDataclass("K"))) == ("config", True, "K")
    assert type_name(ParseType(FuncRef("json.loads"))) == ("json", False, None)
    assert type_name(FuncRef("parse_reasoning")) == ("custom:parse_reasoning", False, None)
    assert type_name(BuiltinType("bool")) == ("custom:bool", False, None)
    assert type_name(None) == (None, False, None)


def test_to_json():
    assert to_json((1, 2)) == [1, 2]
    assert to_json({"b", "a"}) == ["a", "b"]
    assert to_json(ConfigInstance("X")) == {"$config": "X"}
    assert to_json({"k": ("v",)}) == {"k": ["v"]}


# --------------------------------------------------------------------------- a tree

_ENVS = "VLLM_FLAG = False\n"

_LITERALS = """
import enum
from typing import Literal

Color = Literal["red", "green"]
Shade = Literal[Color, "blue"]
ALLOWED = "thing"

class Fmt(str, enum.Enum):
    AUTO = "auto"
    JSON = "json"
"""

_ARGPARSE_UTILS = """
class FlexibleArgumentParser(ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
"""

_ARGPARSE_UTILS_ED = """
class Inverting(BooleanOptionalAction):
    _inverse_prefixes = {"--enable-": "--disable-", "--disable-": "--enable-"}

class FlexibleArgumentParser(ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", BooleanOptionalAction, Inverting)
"""

_ARG_UTILS = """
import argparse
import copy
import sys
from typing import Literal, get_args
from vllm.config import KVCfg, ModelCfg, SchedCfg
from vllm.config.literals import ALLOWED, Fmt, Shade
from vllm.utils.argparse_utils import FlexibleArgumentParser


def optional_type(return_type):
    def _optional_type(val):
        return None if val in ("", "None") else return_type(val)

    return _optional_type


def literal_to_kwargs(type_hints):
    kwarg = "metavar" if contains_type(type_hints, str) else "choices"


def get_kwargs(cls):
    return copy.deepcopy(_compute_kwargs(cls))


def _compute_kwargs(cls):
    for field in fields(cls):
        if type_hints == {bool, str, type(None)}:
            pass
        elif contains_type(type_hints, int):
            if name == "max_model_len":
                kwargs[name]["type"] = human_readable_int_or_auto
            else:
                kwargs[name]["type"] = int
        if type(None) in type_hints:
            if kwargs[name].get("choices"):
                kwargs[name]["choices"].append(None)


class EngineArgs:
    quiet: bool = False

    def create_engine_config(self):
        raise ValueError("not reached while building the parser")

    @staticmethod
    def add_cli_args(parser):
        m_kwargs = get_kwargs(ModelCfg)
        m_group = parser.add_argument_group(title="ModelCfg", description=ModelCfg.__doc__)
        if not ("serve" in sys.argv[1:] and "--help" in sys.argv[1:]):
            m_group.add_argument("--model", **m_kwargs["model"])
        m_group.add_argument("--size", "-s", **m_kwargs["size"])
        m_group.add_argument("--max-model-len", **m_kwargs["max_model_len"])
        m_group.add_argument("--mode", **m_kwargs["mode"])
        m_kwargs["flavour"]["choices"].remove(ALLOWED)
        m_group.add_argument("--flavour", **m_kwargs["flavour"])
        m_group.add_argument("--fmt", choices=[f.value for f in Fmt], **m_kwargs["fmt"])
        s_kwargs = get_kwargs(SchedCfg)
        s_group = parser.add_argument_group(title="SchedCfg")
        s_group.add_argument("--max-seqs", **{**s_kwargs["max_seqs"], "default": None})
        s_group.add_argument("--enable-chunking", **s_kwargs["chunking"])
        s_group.add_argument(
            "--memory-fraction", "--device-fraction", dest="memory_fraction",
            **s_kwargs["memory_fraction"],
        )
        lvl = s_kwargs["level"]
        lvl["type"] = lambda s: s.lower().replace("-", "_")
        s_group.add_argument("--level", **lvl)
        for arg, kind in [("--old-a", str), ("--old-b", bool)]:
            s_group.add_argument(arg, type=kind, deprecated=True)
        s_group.add_argument("--shade", choices=get_args(Shade), default=argparse.SUPPRESS)
        kv_kwargs = get_kwargs(KVCfg)
        parser.add_argument("--kv", **kv_kwargs["inner"])
        parser.add_argument("--quiet", action="store_true", default=EngineArgs.quiet)
        parser.add_argument(
            "--device-ids",
            type=lambda s: [int(x) for x in s.split(",")],
        )
        while False:
            parser.add_argument("--never")
        return parser


class AsyncEngineArgs(EngineArgs):
    loud: bool = True

    @staticmethod
    def add_cli_args(parser, async_args_only=False):
        load_general_plugins()
        if not async_args_only:
            parser = EngineArgs.add_cli_args(parser)
        parser.add_argument(
            "--enable-loud", action=argparse.BooleanOptionalAction,
            default=AsyncEngineArgs.loud,
        )
        current_platform.pre_register_and_update(parser)
        return parser
"""

_CLI_ARGS = """
import json
from vllm.config import config
from vllm.engine.arg_utils import AsyncEngineArgs, optional_type


class Frontend:
    @classmethod
    def _customize(cls, kw):
        kw["origins"]["type"] = json.loads
        del kw["origins"]["nargs"]
        return kw

    @classmethod
    def add_cli_args(cls, parser):
        from vllm.engine.arg_utils import get_kwargs

        kw = cls._customize(get_kwargs(cls))
        group = parser.add_argument_group(title=cls.__name__.replace("Args", ""))
        for key, value in kw.items():
            extra = value.pop("flags", [])
            group.add_argument(*extra, f"--{key.replace('_', '-')}", **value)
        return parser


class FrontendArgs(Frontend):
    @classmethod
    def _customize(cls, kw):
        kw = super()._customize(kw)
        kw["port"]["default"] = 9000
        return kw


def make_arg_parser(parser):
    parser.add_argument("model_tag", type=str, nargs="?")
    parser.add_argument("--headless", action="store_true")
    parser = FrontendArgs.add_cli_args(parser)
    parser = AsyncEngineArgs.add_cli_args(parser)
    return parser
"""

_SERVE = """
from vllm.entrypoints.openai.cli_args import make_arg_parser


class ServeSubcommand:
    name = "serve"

    def subparser_init(self, subparsers):
        serve_parser = subparsers.add_parser(self.name, usage="serve")
        serve_parser = make_arg_parser(serve_parser)
        serve_parser.add_argument("--late", type=int, default=1)
        serve_parser.epilog = SOME_TEXT.format(x=1)
        return serve_parser
"""


def _configs() -> list[ConfigClass]:
    m = Loc(file="vllm/config/model.py", line=10)
    fr = Loc(file="vllm/entrypoints/openai/cli_args.py", line=20)
    return [
        ConfigClass(name="ModelCfg", loc=m, fields=[
            F("model", ["str"], default="some/model"),
            F("size", ["int"], default=1),
            F("max_model_len", ["int", "None"]),
            F("mode", ["Literal", "None"], choices=["slow", "fast"]),
            F("flavour", ["Literal"], choices=["thing", "other"], default="other"),
            F("fmt", ["str", "class:Fmt"], default="auto"),
        ]),
        ConfigClass(name="SchedCfg", loc=m, fields=[
            F("max_seqs", ["int"], default=128),
            F("chunking", ["bool"], default=True),
            F("memory_fraction", ["float"], default=0.9),
            F("level", ["Literal"], choices=["b-x", "a"], default="a"),
        ]),
        ConfigClass(name="KVCfg", loc=m, fields=[
            F("inner", ["InnerCfg", "None"], nested="InnerCfg"),
        ]),
        ConfigClass(name="InnerCfg", loc=m, fields=[F("role", ["str"], default="r")]),
        ConfigClass(name="FrontendArgs", loc=fr, bases=["Frontend"], fields=[
            ConfigField(name="host", type="str | None", hints=["str", "None"],
                        loc=Loc(file=fr.file, line=21)),
            ConfigField(name="port", type="int", hints=["int"], default=8000,
                        loc=Loc(file=fr.file, line=22)),
            ConfigField(name="origins", type="list[str]", hints=["list[str]"], default=["*"],
                        loc=Loc(file=fr.file, line=23)),
            ConfigField(name="use_tls", type="bool", hints=["bool"], default=False,
                        loc=Loc(file=fr.file, line=24)),
        ]),
    ]  # fmt: skip


def write_tree(root: Path, *, enable_disable: bool = False, arg_utils: str = _ARG_UTILS) -> Path:
    files = {
        "vllm/__init__.py": "",
        "vllm/envs.py": _ENVS,
        "vllm/config/__init__.py": "from vllm.config.model import KVCfg, ModelCfg, SchedCfg\n",
        "vllm/config/model.py": "class ModelCfg:\n    pass\n",
        "vllm/config/literals.py": _LITERALS,
        "vllm/utils/__init__.py": "",
        "vllm/utils/argparse_utils.py": _ARGPARSE_UTILS_ED if enable_disable else _ARGPARSE_UTILS,
        "vllm/engine/__init__.py": "",
        "vllm/engine/arg_utils.py": arg_utils,
        "vllm/entrypoints/openai/cli_args.py": _CLI_ARGS,
        "vllm/entrypoints/cli/serve.py": _SERVE,
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


def _by(flags: list[Flag]) -> dict[str, Flag]:
    return {s: f for f in flags for s in f.option_strings} | {f.dest: f for f in flags if f.positional}


def _line(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(textwrap.dedent(text).splitlines(), 1) if needle in ln)


def test_synthetic_tree_flags(tmp_path):
    src = from_tree(write_tree(tmp_path))
    report = extract_flags_report(src, _configs())
    flags = report.flags
    assert [f.option_strings[0] if f.option_strings else f.dest for f in flags] == [
        "-h", "model_tag", "--headless", "--host", "--port", "--origins", "--use-tls",
        "--model", "--size", "--max-model-len", "--mode", "--flavour", "--fmt",
        "--max-seqs", "--enable-chunking", "--memory-fraction", "--level", "--old-a",
        "--old-b", "--shade", "--kv", "--quiet", "--device-ids", "--enable-loud", "--late",
    ]  # fmt: skip
    by = _by(flags)
    assert by["-h"].action == "help" and by["-h"].default == "==SUPPRESS=="
    assert by["model_tag"].positional and by["model_tag"].option_strings == []
    assert by["model_tag"].nargs == "?" and by["model_tag"].type == "str"
    assert by["--headless"].default is False and by["--headless"].const is True
    # frontend: generic loop, customised kwargs, base-class super() chain, field locations
    host = by["--host"]
    assert host.type == "str" and host.optional and host.group == "Frontend"
    assert by["--port"].default == 9000 and by["--port"].loc == Loc(file="vllm/entrypoints/openai/cli_args.py", line=22)
    assert by["--origins"].type == "json" and by["--origins"].nargs is None
    assert by["--use-tls"].option_strings == ["--use-tls", "--no-use-tls"]
    assert by["--use-tls"].action == "boolean_optional"
    # engine flags
    model = by["--model"]
    assert (model.config_class, model.config_field) == ("ModelCfg", "model")
    assert model.group == "ModelCfg"
    assert model.loc == Loc(file="vllm/engine/arg_utils.py", line=_line(_ARG_UTILS, '"--model"'))
    assert by["-s"] is by["--size"] and by["--size"].option_strings == ["--size", "-s"]
    mml = by["--max-model-len"]
    assert mml.type == "human_readable_int_or_auto" and mml.optional
    assert by["--mode"].choices == ["fast", "slow", None]
    assert by["--flavour"].choices == ["other"]  # kwargs["choices"].remove(...) after get_kwargs
    assert by["--fmt"].choices == ["auto", "json"] and by["--fmt"].type == "str"
    assert by["--max-seqs"].default is None and by["--max-seqs"].config_field == "max_seqs"
    assert by["--enable-chunking"].default is True
    assert by["--enable-chunking"].option_strings == ["--enable-chunking", "--no-enable-chunking"]
    mem = by["--device-fraction"]
    assert mem.dest == "memory_fraction"
    assert mem.option_strings == ["--memory-fraction", "--device-fraction"]
    assert by["--level"].type == "lower_underscore" and by["--level"].config_field == "level"
    assert by["--old-a"].deprecated and by["--old-a"].type == "str"
    assert by["--old-b"].type == "custom:bool" and by["--old-b"].config_class is None
    assert by["--shade"].choices == ["red", "green", "blue"]  # Literal alias of an alias
    assert by["--shade"].default == "==SUPPRESS=="
    kv = by["--kv"]
    assert (kv.type, kv.optional, kv.config_class_of_value) == ("config", True, "InnerCfg")
    assert kv.group is None
    assert by["--quiet"].action == "store_true" and by["--quiet"].default is False
    assert by["--device-ids"].type == "custom:lambda"
    assert by["--enable-loud"].default is True
    assert by["--late"].type == "int" and by["--late"].default == 1
    assert "--never" not in by
    assert any("While" in n for n in report.notes)
    assert not report.enable_disable


def test_synthetic_tree_enable_disable(tmp_path):
    src = from_tree(write_tree(tmp_path, enable_disable=True))
    flags = extract_flags(src, _configs())
    by = _by(flags)
    chunk = by["--disable-chunking"]
    assert chunk.option_strings == [
        "--enable-chunking", "--no-enable-chunking", "--disable-chunking",
    ]  # fmt: skip
    assert chunk.action == "enable_disable"
    assert by["--use-tls"].option_strings == ["--use-tls", "--no-use-tls"]


def test_help_serve_condition_follows_argv(tmp_path):
    """--model is registered unless argv holds both serve and --help (arg_utils.py:968)."""
    src = from_tree(write_tree(tmp_path))
    report = extract_flags_report(src, _configs(), argv=("vllm", "serve", "--help"))
    names = {s for f in report.flags for s in f.option_strings}
    assert "--model" not in names and "--size" in names
    report = extract_flags_report(src, _configs(), argv=("vllm", "bench", "--help"))
    assert "--model" in {s for f in report.flags for s in f.option_strings}


def test_missing_config_class_still_lists_the_flags(tmp_path):
    src = from_tree(write_tree(tmp_path))
    configs = [c for c in _configs() if c.name != "SchedCfg"]
    report = extract_flags_report(src, configs)
    by = _by(report.flags)
    assert "--max-seqs" in by and "--memory-fraction" in by
    assert by["--max-seqs"].default is None  # the explicit override still applies
    assert any("SchedCfg" in n for n in report.notes)


@pytest.mark.parametrize(
    "arg_utils",
    [
        "def broken(:\n",
        "",
        "class AsyncEngineArgs:\n    @staticmethod\n    def add_cli_args(parser):\n"
        "        x = undefined_thing(1)[2].attr\n        parser.add_argument(x)\n"
        "        parser.add_argument('--ok', type=mystery())\n        return parser\n",
    ],
)
def test_robust_on_odd_sources(tmp_path, arg_utils):
    src = from_tree(write_tree(tmp_path, arg_utils=arg_utils))
    report = extract_flags_report(src, _configs())
    strings = {s for f in report.flags for s in f.option_strings}
    assert {"-h", "--headless", "--host", "--late"} <= strings
    if "--ok" in arg_utils:
        ok = _by(report.flags)["--ok"]
        assert ok.type == "custom:unknown"
    assert report.notes


def test_no_serve_entry(tmp_path):
    root = write_tree(tmp_path)
    (root / "vllm/entrypoints/cli/serve.py").unlink()
    (root / "vllm/entrypoints/openai/cli_args.py").unlink()
    report = extract_flags_report(from_tree(root), _configs())
    assert report.flags == [] and report.notes


def test_registry_scan(tmp_path):
    (tmp_path / "vllm/parsers").mkdir(parents=True)
    files = {
        "vllm/envs.py": "",
        "vllm/engine/arg_utils.py": "",
        "vllm/parsers/__init__.py": (
            "from .base import Manager\nfrom .one import One\nfrom .two import Two\n"
            "Manager.register_lazy_module(name='lazy_a', module_path='x', class_name='A')\n"
            "_THINGS_TO_REGISTER = {'lazy_b': ('f', 'B')}\n"
        ),
        "vllm/parsers/base.py": "class Manager:\n    table = {}\n",
        "vllm/parsers/one.py": (
            "from .base import Manager\n\n\n@Manager.register_module('top')\n"
            "@Manager.register_module(['bottom', 'also'])\nclass One:\n    pass\n"
        ),
        "vllm/parsers/two.py": (
            "from .base import Manager\n\n\n@Manager.register_module(\n    'two'\n)\nclass Two:\n    pass\n"
        ),
    }
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    reg = scan_registry(ModuleIndex(from_tree(tmp_path)), "vllm/parsers/base.py", "Manager")
    assert reg.eager == ["bottom", "also", "top", "two"]  # stacked decorators apply bottom-up
    assert reg.lazy == ["lazy_a", "lazy_b"]
    assert reg.listed() == sorted(["bottom", "also", "top", "two", "lazy_a", "lazy_b"])


# --------------------------------------------------------------------------- comparison


def _oracle_action(**kw):
    base = {
        "option_strings": [], "dest": "", "action": "_StoreAction", "type": None,
        "type_args": None, "nargs": None, "choices": None, "default": None, "const": None,
        "metavar": None, "group": None, "required": False, "deprecated": False,
    }  # fmt: skip
    base.update(kw)
    return base


def test_compare_flags_exact_and_differences():
    flags = [
        Flag(option_strings=["--a"], dest="a", type="int", optional=True, default=None),
        Flag(option_strings=["--b", "--no-b"], dest="b", nargs=0, action="boolean_optional",
             default=False, group="G"),
        Flag(option_strings=["--c"], dest="c", type="config", default={"$dynamic": "env X"}),
    ]  # fmt: skip
    oracle = {
        "vllm_version": "9.9",
        "actions": [
            _oracle_action(option_strings=["--a"], dest="a",
                           type="optional_type.<locals>._optional_type", type_args=["int"]),
            _oracle_action(option_strings=["--b", "--no-b"], dest="b", nargs=0, default=False,
                           action="BooleanOptionalAction", group="G"),
            _oracle_action(option_strings=["--c"], dest="c", default=1,
                           type="_compute_kwargs.<locals>.parse_dataclass"),
        ],
    }  # fmt: skip
    cmp = compare_flags(flags, oracle)
    assert cmp.exact and cmp.agree == 3 and cmp.dynamic_defaults == 1 and cmp.option_strings == 4
    oracle["actions"][1]["default"] = True
    oracle["actions"].append(_oracle_action(option_strings=["--d"], dest="d"))
    cmp = compare_flags(flags, oracle)
    assert cmp.differences == [
        "--d: missing (in vLLM's parser, not in the catalog)",
        "--b: default false != vLLM true",
    ]


def test_oracle_type_names():
    wrapped = ["parse_type.<locals>._parse_type"]
    assert oracle_type("optional_type.<locals>._optional_type", wrapped) == ("json", True)
    assert oracle_type("EngineArgs.add_cli_args.<locals>.<lambda>", None) == ("lambda", False)
    assert oracle_type("parse_reasoning_parser", None) == ("custom:parse_reasoning_parser", False)


# --------------------------------------------------------------------------- real releases

ALL_RELEASES = release_params()  # tests/release_sample.py: sample, cached, or VCFG_FIDELITY=all


def _release(version: str):
    from vcfg.catalog.extract.configs import extract_configs
    from vcfg.catalog.extract.source import from_version

    src = from_version(version)
    return src, extract_configs(src)


def _options(flags: list[Flag]) -> list[Flag]:
    return [f for f in flags if not f.positional and f.action != "help"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "version,options,strings,groups",
    [("0.10.0", 158, 214, 12), ("0.11.0", 183, 243, 11), ("0.20.0", 239, 328, 16),
     ("0.33.0", 320, 485, 17)],
)  # fmt: skip
def test_real_counts(version, options, strings, groups):
    """Counts checked against vLLM's own parser (research section 5.4)."""
    src, configs = _release(version)
    report = extract_flags_report(src, configs)
    flags = report.flags
    assert len(_options(flags)) == options
    assert [f.dest for f in flags if f.positional] == ["model_tag"]
    assert sum(len(f.option_strings) for f in flags) == strings  # -h/--help included
    assert len({f.group for f in flags if f.group}) == groups
    assert report.notes == []


@pytest.mark.slow
@pytest.mark.parametrize("version", ["0.10.0", "0.11.0", "0.20.0", "0.33.0"])
def test_real_specific_flags(version):
    src, configs = _release(version)
    by = _by(extract_flags(src, configs))
    tp = by["-tp"]
    assert tp is by["--tensor-parallel-size"] and tp.type == "int"
    assert (tp.config_class, tp.config_field) == ("ParallelConfig", "tensor_parallel_size")
    kv = by["--kv-transfer-config"]
    assert (kv.type, kv.config_class_of_value, kv.optional) == ("config", "KVTransferConfig", True)
    assert by["--gpu-memory-utilization"].default == (0.92 if version >= "0.20" else 0.9)
    mnbt = by["--max-num-batched-tokens"]
    assert mnbt.type == "human_readable_int" and mnbt.default is None
    if version == "0.10.0":
        assert by["--disable-log-requests"].action == "store_true"
        assert not by["--disable-log-requests"].deprecated
    elif version == "0.11.0":
        assert by["--disable-log-requests"].deprecated
        assert by["--guided-decoding-backend"].deprecated
    elif version == "0.20.0":
        assert "--disable-log-requests" not in by
    else:
        dis = by["--disable-log-requests"]
        assert dis is by["--enable-log-requests"] and dis.action == "enable_disable"
        assert by["--disable-prefix-caching"].option_strings == [
            "--enable-prefix-caching", "--no-enable-prefix-caching", "--disable-prefix-caching",
        ]  # fmt: skip
        assert by["--device-memory-utilization"].dest == "gpu_memory_utilization"
        assert by["--max-model-len"].type == "human_readable_int_or_auto"


@pytest.mark.slow
@pytest.mark.parametrize("version", ALL_RELEASES)
def test_every_release_extracts_quickly(version):
    src, configs = _release(version)
    extract_flags_report(src, configs)  # warm the OS file cache
    t = time.perf_counter()
    report = extract_flags_report(src, configs)
    elapsed = time.perf_counter() - t
    assert len(_options(report.flags)) > 130  # 0.8.3: 135
    # 0.8.0-0.8.3 write every add_argument out by hand (no _compute_kwargs, no
    # get_kwargs): the extractor says it assumed the newest rules, which nothing uses
    by_hand = version in ("0.8.0", "0.8.1", "0.8.2", "0.8.3")
    assert report.notes == (["no _compute_kwargs: 0.33 rules assumed"] if by_hand else [])
    assert elapsed < 2.0


def _oracle_dumps() -> list[Path]:
    folder = os.environ.get("VCFG_ORACLE_DIR")
    return sorted(Path(folder).glob("*.json")) if folder and Path(folder).is_dir() else []


@pytest.mark.slow
@pytest.mark.parametrize("dump", _oracle_dumps(), ids=lambda p: p.stem)
def test_agrees_with_vllms_parser(dump):
    """Exact agreement with dumps of vLLM's real parser (tests/oracle/dump_parser.py,
    CPU platform); set VCFG_ORACLE_DIR to the folder that holds them."""
    oracle = json.loads(dump.read_text())
    src, configs = _release(str(oracle["vllm_version"]))
    report = extract_flags_report(src, configs, device_type="cpu")
    cmp = compare_flags(report.flags, oracle)
    assert cmp.differences == []
    assert cmp.flags == len(oracle["actions"])
