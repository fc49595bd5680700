"""Check the clean lint corpus against the bundled catalogs, independently of vcfg lint.

Every file under tests/corpus/clean/ claims to be a correct launch for the release in
its ``# vcfg-test: vllm=X`` header.  This module re-checks that claim with a small,
deliberately simple reader of its own (not vcfg.launch): every option of a ``vllm
serve`` / ``python -m vllm.entrypoints.openai.api_server`` launch and every key of a
serve-config YAML must be registered by that release and not deprecated, literal
values must parse for the option's type and choices, JSON-valued options must parse,
``--kv-transfer-config`` keys, ``kv_role``, the connector and its extra-config keys
must exist in that release (catalog plus knowledge packs), and every ``VLLM_*``
variable the file sets must be defined with a value vLLM can parse.

It understands only the shell the corpus uses (continuation lines, prefixes,
``export``, ``${VAR:-x}``, ``$((...))``, simple loops); anything holding ``$`` is
treated as unknown and not judged.  Run it as a script to check the files given (or
the whole clean corpus); tests/test_lint_corpus.py runs it as a test.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any, Iterator, Optional

import yaml

from vcfg.catalog import store
from vcfg.catalog.envparse import check_env_value
from vcfg.catalog.knowledge import load_packs
from vcfg.catalog.model import Catalog, Flag

CORPUS = Path(__file__).parent
HEADER = re.compile(r"^#\s*vcfg-test:\s*vllm=(\S+)\s*$")
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_ARITH = re.compile(r"\$\(\([^()]*\)\)")
_CMDSUB = re.compile(r"\$\([^()]*\)")
_WRAPPERS = {"nohup", "exec", "time", "do", "then", "else", "{", "!", "env"}
_SEPARATORS = {";", "&", "&&", "|", "||", ";;", "|&"}
_KV_FLAGS = {"--kv-transfer-config"}


def target_version(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = HEADER.match(first)
    if not m:
        raise ValueError(f"{path.name}: first line must be '# vcfg-test: vllm=X.Y.Z'")
    return m.group(1)


# --------------------------------------------------------------------------- shell


def logical_lines(text: str) -> Iterator[str]:
    """Lines joined across backslash-newlines and across newlines inside quotes."""
    buf: list[str] = []
    quote: Optional[str] = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote is None and c == "\\" and i + 1 < len(text) and text[i + 1] == "\n":
            i += 2
            continue
        if quote is None and c == "#" and (not buf or buf[-1] in " \t\n;"):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        if c == "\\" and quote != "'" and i + 1 < len(text):
            buf.append(text[i : i + 2])
            i += 2
            continue
        if c in "'\"":
            if quote is None:
                quote = c
            elif quote == c:
                quote = None
        if c == "\n" and quote is None:
            yield "".join(buf)
            buf = []
        else:
            buf.append(c)
        i += 1
    if buf:
        yield "".join(buf)


def simple_commands(line: str) -> Iterator[list[str]]:
    line = _ARITH.sub("__ARITH__", line)
    line = _CMDSUB.sub("__CMD__", line)
    line = re.sub(r"(?<=\s)\d?>&\d\b", " ", line)  # 2>&1
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
    lex.whitespace_split = True
    lex.commenters = ""
    try:
        tokens = list(lex)
    except ValueError as e:  # an unterminated quote: the corpus must not have one
        raise ValueError(f"shell: {e}: {line[:80]}") from None
    cur: list[str] = []
    skip_redirect = False
    for t in tokens:
        if skip_redirect:
            skip_redirect = False
            continue
        if t in _SEPARATORS:
            if cur:
                yield cur
            cur = []
        elif set(t) <= set("<>&") or re.fullmatch(r"\d?[<>]+&?", t):
            skip_redirect = True
        else:
            cur.append(t)
    if cur:
        yield cur


def is_unknown(value: str) -> bool:
    return "$" in value or "__ARITH__" in value or "__CMD__" in value


def placeholder_json(value: str) -> str:
    """JSON text with shell expansions replaced by a number, inside or outside strings."""
    value = re.sub(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|__ARITH__|__CMD__", "0", value)
    return value


# --------------------------------------------------------------------------- checks


class Checker:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.version = target_version(path)
        self.cat: Catalog = store.load_exact(self.version)
        self.knowledge = load_packs()
        self.problems: list[str] = []

    def bad(self, msg: str) -> None:
        self.problems.append(f"{self.path.name} (vllm {self.version}): {msg}")

    # -- env
    def check_env(self, name: str, value: Optional[str]) -> None:
        if not name.startswith("VLLM_"):
            return
        var = self.cat.env(name)
        if var is None:
            self.bad(f"environment variable {name} is not defined")
            return
        if value is not None and not is_unknown(value):
            problem = check_env_value(var, value)
            if problem:
                self.bad(f"{name}={value}: {problem}")

    # -- flags
    def flag(self, option: str) -> Optional[Flag]:
        if option.startswith("--"):
            head, dot, rest = option[2:].partition(".")
            option = "--" + head.replace("_", "-")
        return self.cat.flag(option)

    def check_args(self, args: list[str], what: str) -> None:
        i = 0
        seen: dict[str, str] = {}
        positional = 0
        while i < len(args):
            a = args[i]
            i += 1
            if not a.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", a):
                positional += 1
                if positional > 1 and what == "serve":
                    self.bad(f"unexpected positional word {a!r}")
                continue
            name, eq, inline = a.partition("=")
            dotted = name.startswith("--") and "." in name
            f = self.flag(name)
            if f is None:
                self.bad(f"option {name} is not registered")
                continue
            if f.deprecated:
                self.bad(f"option {name} is deprecated")
            if f.long_name == "--model" and what == "serve":
                self.bad("--model given to vllm serve")
            key = name if dotted else f.long_name
            if key in seen:
                self.bad(f"option {name} given twice")
            seen[key] = name
            if dotted:
                self.check_dotted(f, name)
            values: list[str] = []
            if eq:
                values = [inline]
            elif f.action in ("store", "append") and not dotted:
                if f.nargs in ("+", "*"):
                    while i < len(args) and not args[i].startswith("-"):
                        values.append(args[i])
                        i += 1
                elif f.nargs == "?":
                    if i < len(args) and not args[i].startswith("-"):
                        values.append(args[i])
                        i += 1
                else:
                    if i >= len(args):
                        self.bad(f"option {name} has no value")
                        continue
                    values.append(args[i])
                    i += 1
            elif dotted:
                if i < len(args):
                    i += 1
                continue
            elif f.action in ("store_true", "store_false", "boolean_optional", "enable_disable"):
                if i < len(args) and args[i].lower() in ("true", "false", "0", "1"):
                    self.bad(f"boolean option {name} followed by {args[i]!r}")
            for v in values:
                self.check_value(f, name, v)

    def check_dotted(self, f: Flag, name: str) -> None:
        """``--kv-transfer-config.kv_role``: the first key must be a field of the class."""
        first = name.split(".")[1].rstrip("+")
        cls_name = "KVTransferConfig" if f.long_name in _KV_FLAGS else f.config_class_of_value
        cls = self.cat.config(cls_name) if cls_name else None
        if cls is not None and cls.field(first) is None:
            self.bad(f"{name}: {cls.name} has no field {first!r}")

    def check_value(self, f: Flag, name: str, v: str) -> None:
        if f.type in ("json", "config") or f.long_name in _KV_FLAGS:
            if is_unknown(v):
                v = placeholder_json(v)
            if not v.lstrip().startswith("{"):
                return  # a dotted form or a path; not judged
            try:
                obj = json.loads(v)
            except json.JSONDecodeError as e:
                self.bad(f"{name}: invalid JSON ({e})")
                return
            self.check_json_config(f, name, obj)
            return
        if is_unknown(v):
            return
        if f.type == "int" and not re.fullmatch(r"-?\d+", v):
            self.bad(f"{name} {v!r}: not an int")
        if f.type == "float":
            try:
                float(v)
            except ValueError:
                self.bad(f"{name} {v!r}: not a number")
        self.check_range(f, name, v)
        if f.choices is not None:
            choices = [str(c) for c in f.choices]
            if v not in choices:
                self.bad(f"{name} {v!r}: not one of {choices}")

    def check_range(self, f: Flag, name: str, v: str) -> None:
        cls = self.cat.config(f.config_class) if f.config_class else None
        fld = cls.field(f.config_field or f.dest) if cls else None
        if fld is None or fld.constraint is None:
            return
        try:
            x = float(v)
        except ValueError:
            return
        c = fld.constraint
        if (
            (c.gt is not None and not x > c.gt)
            or (c.ge is not None and not x >= c.ge)
            or (c.lt is not None and not x < c.lt)
            or (c.le is not None and not x <= c.le)
        ):
            self.bad(f"{name} {v}: outside {c.model_dump(exclude_none=True)}")

    def check_json_config(self, f: Flag, name: str, obj: Any) -> None:
        if f.long_name == "--kv-transfer-config":
            self.check_kv(obj, name)
            return
        cls_name = f.config_class_of_value
        if cls_name is None and f.long_name == "--speculative-config":
            cls_name = "SpeculativeConfig"
        cls = self.cat.config(cls_name) if cls_name else None
        if cls is None or not isinstance(obj, dict):
            return
        names = {fld.name for fld in cls.fields}
        for k in obj:
            if k not in names:
                self.bad(f"{name}: {cls.name} has no field {k!r}")
            else:
                fld = cls.field(k)
                if fld is not None and fld.choices is not None and obj[k] not in fld.choices:
                    self.bad(f"{name}: {k}={obj[k]!r} not in {fld.choices}")

    def check_kv(self, obj: Any, where: str) -> None:
        if not isinstance(obj, dict):
            self.bad(f"{where}: not a JSON object")
            return
        cls = self.cat.config("KVTransferConfig")
        assert cls is not None
        for k, v in obj.items():
            fld = cls.field(k)
            if fld is None:
                self.bad(f"{where}: KVTransferConfig has no field {k!r}")
            elif fld.choices is not None and v not in fld.choices:
                self.bad(f"{where}: {k}={v!r} not in {fld.choices}")
        conn = obj.get("kv_connector")
        if conn is None:
            return
        if "kv_role" not in obj:
            self.bad(f"{where}: {conn} without kv_role")
        extra = obj.get("kv_connector_extra_config", {})
        if not isinstance(extra, dict):
            self.bad(f"{where}: kv_connector_extra_config is not an object")
            return
        c = self.cat.connector(conn)
        facts = self.knowledge.connector_facts(conn, self.version)
        if c is None and (facts is None or facts.plugin is None):
            self.bad(f"{where}: connector {conn} is not registered")
            return
        if facts is not None and facts.plugin is not None:
            return  # a plugin's connector: its keys are not in vLLM's catalog
        known = {k.name for k in c.extra_keys} if c else set()
        if facts is not None:
            known |= {k.name for k in facts.keys}
        for k, v in extra.items():
            if conn == "LMCacheConnectorV1":
                continue  # forwarded to the external lmcache package
            if k not in known:
                self.bad(f"{where}: {conn} does not read extra key {k!r} (known: {sorted(known)})")
            fact = facts.key(k) if facts else None
            if fact is not None and fact.json_types:
                jt = _json_type(v)
                if jt not in fact.json_types and not (jt == "integer" and "number" in fact.json_types):
                    self.bad(f"{where}: {conn} extra {k}={v!r} must be {fact.json_types}")
            if fact is not None and fact.choices is not None and v not in fact.choices:
                self.bad(f"{where}: {conn} extra {k}={v!r} not in {fact.choices}")
        if conn == "MultiConnector":
            for child in extra.get("connectors", []):
                self.check_kv(child, where + " (MultiConnector child)")

    # -- files
    def check_shell(self, text: str) -> None:
        for line in logical_lines(text):
            try:
                commands = list(simple_commands(line))
            except ValueError as e:
                self.bad(str(e))
                continue
            for argv in commands:
                self.check_command(argv)

    def check_command(self, argv: list[str]) -> None:
        while argv and argv[0] in _WRAPPERS:
            argv = argv[1:]
        while argv and ASSIGN.match(argv[0]):
            m = ASSIGN.match(argv[0])
            assert m
            self.check_env(m.group(1), m.group(2))
            argv = argv[1:]
            while argv and argv[0] in _WRAPPERS:
                argv = argv[1:]
        if not argv:
            return
        if argv[0] in ("export", "declare", "local", "readonly"):
            for a in argv[1:]:
                m = ASSIGN.match(a)
                if m:
                    self.check_env(m.group(1), m.group(2))
            return
        if argv[0] == "vllm" and argv[1:2] == ["serve"]:
            self.check_args(argv[2:], "serve")
        elif (
            re.fullmatch(r"python3?(\.\d+)?", Path(argv[0]).name)
            and argv[1:3] == ["-m", "vllm.entrypoints.openai.api_server"]
        ):
            self.check_args(argv[3:], "api_server")

    def check_yaml(self, text: str) -> None:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            self.bad(f"yaml: {e}".replace("\n", " "))
            return
        if not isinstance(data, dict):
            self.bad("a serve config must be a mapping")
            return
        args: list[str] = []
        for k, v in data.items():
            if k == "model":
                continue
            f = self.flag("--" + str(k))
            if f is None:
                self.bad(f"key {k!r}: no such option")
                continue
            if isinstance(v, bool):
                if f.action not in ("store_true", "store_false", "boolean_optional", "enable_disable"):
                    self.bad(f"key {k!r}: a boolean for a non-boolean option")
                if f.deprecated:
                    self.bad(f"key {k!r} is deprecated")
                if v is False and store.version_key(self.version) < store.version_key("0.28"):
                    # dropped, not turned into --no-key, before 0.28.0
                    # (0.28.0 vllm/utils/argparse_utils.py:576)
                    self.bad(f"key {k!r}: false is dropped before vllm 0.28")
                continue
            if isinstance(v, dict):
                if store.version_key(self.version) < store.version_key("0.16"):
                    # before 0.16 load_config_file passes str(dict), a Python repr
                    # (0.13.0 vllm/utils/argparse_utils.py:490; JSON from 0.16.0 :505)
                    self.bad(f"key {k!r}: a nested mapping needs vllm >= 0.16; write a JSON string")
                args += ["--" + str(k), json.dumps(v)]
            elif isinstance(v, list):
                args += ["--" + str(k)] + [str(x) for x in v]
            else:
                args += ["--" + str(k), str(v)]
        self.check_args(args, "config")

    def run(self) -> list[str]:
        text = self.path.read_text(encoding="utf-8")
        if self.path.suffix in (".yaml", ".yml"):
            self.check_yaml(text)
        else:
            self.check_shell(text)
        return self.problems


def _json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"


def check_file(path: Path) -> list[str]:
    return Checker(path).run()


def clean_files() -> list[Path]:
    return sorted(
        p for p in (CORPUS / "clean").iterdir() if p.suffix in (".sh", ".yaml", ".yml")
    )


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or clean_files()
    problems = [p for path in paths for p in check_file(path)]
    for p in problems:
        print(p)
    print(f"{len(paths)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
