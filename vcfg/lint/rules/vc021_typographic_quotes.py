"""VC021 typographic-quotes: curly quotes or other look-alikes inside a JSON value."""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Fix, Span
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import problems, span
from vcfg.lint.rules._config_json import LOOKALIKES, lookalike_in_value, problem_occurrence
from vcfg.lint.rules._fix import edit, edit_at, fix
from vcfg.regex import lazy

RULE = Rule(
    code="VC021",
    name="typographic-quotes",
    summary="a curly quote or other look-alike where a straight quote belongs",
    severity="error",
    why=(
        "Commands copied from a web page, a chat or a word processor often carry "
        "typographic quotes (\u2018 \u2019 \u201c \u201d) or full-width ones (\uff02). Neither "
        "bash nor JSON treats them as quotes: the JSON value does not parse, or the "
        "shell's quote never closes and swallows the lines after it."
    ),
    when_vllm_fails="at parse time: vllm exits 2 on the JSON, or bash runs something else",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        "  --kv-transfer-config '{\u201ckv_connector\u201d:\u201cNixlConnector\u201d,\u201ckv_role\u201d:\u201ckv_both\u201d}'\n"
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    ),
    fixes=(
        FixInfo(
            "safe",
            "every look-alike in a single-quoted JSON value becomes a straight double "
            "quote, when the value then parses as JSON",
        ),
        FixInfo("safe", "a look-alike that was meant to close a shell quote becomes the straight quote"),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    # inside an option's JSON value that does not parse
    for p in problems(lc, "invalid-json"):
        hit = lookalike_in_value(lc, p)
        if hit is None:
            continue
        where = span(lc, hit.span)
        more = f" ({hit.count} look-alike quotes in this value)" if hit.count > 1 else ""
        yield RULE.diag(
            where,
            f"typographic quote `{hit.char}` in the JSON value of {p.option}{more}",
            help='JSON only knows the straight double quote `"`; retype the quotes',
            fix=_json_fix(lc, p),
        )
    # a shell quote that never closes because its closing quote is a look-alike
    yield from _unclosed_shell_quotes(lc)


_LOOKALIKE = lazy("[" + re.escape("".join(LOOKALIKES)) + "]")


def _unclosed_shell_quotes(lc: LaunchContext) -> Iterator[Diagnostic]:
    inv = lc.inv.span
    memo = lc.file.run.memo if lc.file.run is not None else {}
    found: dict[tuple[int, int], Optional[int]] = memo.setdefault(f"vc021:{lc.path}", {})
    for p in lc.file.plan.problems:
        s = p.span
        if s.file not in ("", lc.path, inv.file) or not inv.line <= s.line <= inv.end_line:
            continue
        lines = lc.file.lines
        if not 1 <= s.line <= len(lines):
            continue
        text = lines[s.line - 1]
        # once per problem, not per launch: 500 launches on one 100 KB line each scanned
        # the line to its end, character by character (8 s)
        key = (s.line, s.col)
        if key not in found:
            m = _LOOKALIKE.search(text, max(0, s.col - 1))
            found[key] = m.start() if m is not None else None
        col = found[key]
        if col is None:
            continue
        ch = text[col]
        where = Span.at(lc.path, s.line, col + 1, s.line, col + 2)
        yield RULE.diag(
            where,
            f"typographic quote `{ch}` does not close the shell quote before it",
            help=f"bash only closes a quote with a straight `{LOOKALIKES[ch]}`; retype it",
            fix=fix([edit_at(lc.file, s.line, col + 1, 1, LOOKALIKES[ch])], "safe", "use a straight quote"),
        )
        return


def _json_fix(lc: LaunchContext, p: Any) -> Optional[Fix]:
    """Straight quotes for every look-alike of a value written in single shell quotes
    (where a `"` means itself), when the value then parses as JSON."""
    ov = problem_occurrence(lc, p)
    if ov is None or not ov.words:
        return None
    w = ov.words[-1]
    if not (w.known and len(w.raw) >= 2 and w.raw[0] == w.raw[-1] == "'"):
        return None
    fixed = "".join('"' if ch in LOOKALIKES else ch for ch in w.value)
    try:
        json.loads(fixed)
    except ValueError:
        return None
    edits = []
    for i, ch in enumerate(w.value):
        if ch in LOOKALIKES:
            run = w._run_at(i)
            if run is None or not run.exact:
                return None
            edits.append(edit(lc, w.char_span(i), '"'))
    return fix(edits, "safe", "use straight double quotes")
