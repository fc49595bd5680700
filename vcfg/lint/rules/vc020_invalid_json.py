"""VC020 invalid-json: a JSON-valued option whose value is not valid JSON."""

from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.launch.args import since, version_tuple
from vcfg.launch.args.lax import HRI_TEXT
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span
from vcfg.lint.rules._config_json import lookalike_in_value, problem_occurrence

RULE = Rule(
    code="VC020",
    name="invalid-json",
    summary="a JSON-valued option whose value is not valid JSON",
    severity="error",
    why=(
        "Options such as --kv-transfer-config, --compilation-config or --hf-overrides "
        "take JSON. Single quotes inside the value, a trailing comma, Python's True/None "
        "or an unquoted name make the JSON invalid, and the shell's own quoting makes "
        "such slips easy."
    ),
    when_vllm_fails="at parse time: vllm exits 2 before anything is loaded",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both",}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for p in problems(lc, "invalid-json"):
        if lookalike_in_value(lc, p) is not None:
            continue  # VC021 says it better
        ov = problem_occurrence(lc, p)
        detail = p.message.split(": ", 1)[1] if ": " in p.message else p.message
        yield RULE.diag(
            span(lc, p.span),
            f"invalid JSON for {p.option}: {detail[:1].lower()}{detail[1:]}",
            help=_help(lc, p, ov, detail),
        )


def _help(lc: LaunchContext, p: Any, ov: Any, detail: str) -> Optional[str]:
    v = version_tuple(lc.catalog.vllm_version)
    if ov is not None and ov.origin == "config" and v < since("yaml-dict-as-json"):
        # <= 0.15 writes a YAML mapping as str(dict), Python's repr (argparse_utils.py @0.13.0)
        return (
            f"vllm {lc.catalog.vllm_version} passes a YAML mapping to the option as Python text, "
            "not JSON: write the value as a quoted JSON string in the YAML file"
        )
    ch, rest, before = _at(lc, p)
    m = re.search(r"\d+(?:\.\d+)?$", before)
    if ch is not None and m and HRI_TEXT.match(m.group() + rest) and v < since("json-human-readable-numbers"):
        word = HRI_TEXT.match(m.group() + rest).group()  # type: ignore[union-attr]
        return f"numbers like `{word}` inside JSON need vllm 0.20 or later; write the number in full"
    if ch == "'":
        return "JSON strings and keys take double quotes; put single quotes around the whole value for the shell"
    if ch in ("}", "]") and detail.startswith(("Expecting property name", "Expecting value")):
        return "remove the trailing comma"
    if ch is not None and rest.startswith(("True", "False", "None")):
        return "JSON writes true, false and null in lower case"
    if ch is not None and (ch.isalpha() or ch == "_"):
        return "put the name in double quotes: JSON strings are always quoted"
    if detail.startswith("Unterminated string"):
        return "a string is not closed: check the double quotes"
    if detail.startswith("Extra data"):
        return "the value continues after the JSON ends: check the braces and the shell quoting"
    return None


def _at(lc: LaunchContext, p: Any) -> tuple[Optional[str], str, str]:
    """The character at the problem's position, the text from there on its line, and
    the text before it on the line."""
    s = span(lc, p.span)
    if s.file != lc.path:
        return None, "", ""
    lines = lc.file.lines
    if not 1 <= s.line <= len(lines):
        return None, "", ""
    line = lines[s.line - 1]
    rest = line[s.col - 1 :]
    return (rest[:1] or None), rest, line[: s.col - 1]
