"""Compare statically extracted flags with a dump of vLLM's real ``vllm serve`` parser.

The dump is the JSON written by ``tests/oracle/dump_parser.py`` (one entry per argparse
action: option strings, dest, action class, type name and the type a wrapper such as
``optional_type`` wraps, nargs, choices, default, const, metavar, group, deprecated).
`compare_flags` maps that form onto `Flag`'s vocabulary and lists every disagreement;
an empty list is exact agreement.  A default the catalog marks ``{"$dynamic": ...}``
matches anything (it is counted, not reported).
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from vcfg.catalog.model import Flag
from vcfg.records import field, record

_ACTIONS = {
    "_StoreAction": "store",
    "_StoreTrueAction": "store_true",
    "_StoreFalseAction": "store_false",
    "_StoreConstAction": "store_const",
    "_AppendAction": "append",
    "_HelpAction": "help",
    "BooleanOptionalAction": "boolean_optional",
    "EnableDisableAction": "enable_disable",
}
_SIMPLE_TYPES = {"str", "int", "float", "human_readable_int", "human_readable_int_or_auto"}


@record
class Comparison:
    version: str
    flags: int = 0  # actions compared (help and positionals included)
    option_strings: int = 0
    agree: int = 0  # actions with no difference
    dynamic_defaults: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return not self.differences


def oracle_type(name: Optional[str], args: Optional[list[Any]]) -> tuple[Optional[str], bool]:
    """(Flag.type, optional) for the oracle's type name and wrapped type names."""
    if name is None:
        return None, False
    if name.endswith("_optional_type"):
        inner = args[0] if args else None
        t, _ = oracle_type(inner, args[1:] if args else None)
        return t, True
    if name.endswith("_parse_type"):
        # the dump names one level of wrapping; vLLM only wraps json.loads this way
        # (arg_utils.py:421 @0.33)
        if not args:
            return "json", False
        return oracle_type(args[0], args[1:])
    if name.endswith("parse_dataclass"):
        return "config", False
    if name in ("loads", "json.loads"):
        return "json", False
    if name == "union_dict_and_str":
        return "dict_or_str", False
    if name in _SIMPLE_TYPES:
        return name, False
    if name.endswith("<lambda>"):
        return "lambda", False
    return f"custom:{name.split('.')[-1]}", False


def _flag_type(f: Flag) -> Optional[str]:
    t = f.type
    if t in ("lower_underscore", "custom:lambda"):
        return "lambda"
    return t


def _metavar_list(metavar: Any) -> Optional[list[Any]]:
    if isinstance(metavar, list):
        return metavar
    if isinstance(metavar, str):
        m = re.match(r"^\{([^{}]*)\}", metavar)
        if m and m.group(1):
            return m.group(1).split(",")
    return None


def _key(strings: list[str], dest: str) -> str:
    return strings[0] if strings else dest


def compare_flags(flags: list[Flag], oracle: dict[str, Any]) -> Comparison:
    """Every difference between ``flags`` and the oracle dump ``oracle``."""
    cmp = Comparison(version=str(oracle.get("vllm_version", "?")))
    mine = {_key(f.option_strings, f.dest): f for f in flags}
    theirs = {_key(a["option_strings"], a["dest"]): a for a in oracle.get("actions", [])}
    diffs = cmp.differences
    for k in theirs:
        if k not in mine:
            diffs.append(f"{k}: missing (in vLLM's parser, not in the catalog)")
    for k in mine:
        if k not in theirs:
            diffs.append(f"{k}: extra (in the catalog, not in vLLM's parser)")
    order_mine = [k for k in mine if k in theirs]
    order_theirs = [k for k in theirs if k in mine]
    if order_mine != order_theirs:
        diffs.append("registration order differs")
    for k, a in theirs.items():
        f = mine.get(k)
        if f is None:
            continue
        cmp.flags += 1
        cmp.option_strings += len(a["option_strings"])
        before = len(diffs)

        def differ(what: str, have: Any, want: Any) -> None:
            if have != want:
                diffs.append(f"{k}: {what} {json.dumps(have)} != vLLM {json.dumps(want)}")  # noqa: B023 - called in this iteration

        differ("option_strings", f.option_strings, a["option_strings"])
        differ("dest", f.dest, a["dest"])
        differ("action", f.action, _ACTIONS.get(a["action"], "custom"))
        t, optional = oracle_type(a.get("type"), a.get("type_args"))
        if t is None and f.action in ("store", "append", "custom") and a.get("nargs") != 0:
            t = "str"  # argparse passes the text through: the catalog says "str"
        if t == "str" and a.get("nargs") == "?" and a.get("const") is True:
            t = "bool"
        differ("type", _flag_type(f), t)
        differ("optional", f.optional, optional)
        differ("nargs", f.nargs, a.get("nargs"))
        differ("const", f.const, a.get("const"))
        differ("choices", f.choices, a.get("choices"))
        if a.get("choices") is None:
            differ("metavar choices", f.metavar_choices, _metavar_list(a.get("metavar")))
        if isinstance(f.default, dict) and set(f.default) == {"$dynamic"}:
            cmp.dynamic_defaults += 1
        else:
            differ("default", f.default, a.get("default"))
        differ("group", f.group, a.get("group"))
        differ("required", f.required, bool(a.get("required")))
        differ("deprecated", f.deprecated, bool(a.get("deprecated")))
        if len(diffs) == before:
            cmp.agree += 1
    return cmp
