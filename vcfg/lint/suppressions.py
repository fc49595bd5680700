"""``# vcfg: disable=VC001,VC002`` comments.

Three forms, found by scanning the text (shell and YAML share ``#`` comments):

- at the end of a line: silences those codes on that line;
- on a line of its own: silences them for the next command, i.e. the next line that
  is not blank or a comment, and every ``\\``-continued line after it (a comment cannot
  sit inside a continued command, so this is the way to silence one of its lines);
- ``# vcfg: disable-file=VC001``: the whole file.

``disable=all`` silences every code.  A suppression that silenced nothing is itself
reported (VC900 unused-suppression), so stale ones do not pile up.
"""

from __future__ import annotations

import re
from typing import Optional

from vcfg.diagnostics import Diagnostic, Span
from vcfg.records import field, record
from vcfg.regex import lazy

_RE = lazy(r"(?:^|\s)#\s*vcfg:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\s-]+)")


@record
class Suppression:
    codes: frozenset[str]
    span: Span  # the comment
    first_line: int  # lines it covers (inclusive); 0..0 for disable-file
    last_line: int
    whole_file: bool = False
    used: set[str] = field(default_factory=set)

    def covers(self, d: Diagnostic) -> bool:
        if not (self.whole_file or self.first_line <= d.span.line <= self.last_line):
            return False
        return "all" in self.codes or d.code in self.codes


def _next_commands(lines: list[str]) -> tuple[list[int], list[int]]:
    """Per line: the first line at or after it that is not blank nor a comment, and
    the last line of the command starting at each line (backslash continuations);
    one pass each way, so 20,000 own-line comments in a row cost 20,000 steps."""
    n = len(lines)
    nxt = [n] * (n + 1)
    end = list(range(n + 1))
    for i in range(n - 1, -1, -1):
        s = lines[i].strip()
        nxt[i] = nxt[i + 1] if (not s or s.startswith("#")) else i
        if lines[i].rstrip().endswith("\\"):
            end[i] = end[i + 1]
    return nxt, end


def find_suppressions(path: str, text: str) -> list[Suppression]:
    lines = text.splitlines()
    out: list[Suppression] = []
    ahead: Optional[tuple[list[int], list[int]]] = None
    for i, line in enumerate(lines):
        if "vcfg:" not in line:
            continue
        m = _RE.search(line)
        if not m:
            continue
        codes = frozenset(
            c.strip().upper() if c.strip().lower() != "all" else "all"
            for c in re.split(r"[,\s]+", m.group(2))
            if c.strip()
        )
        col = line.index("#", m.start()) + 1
        span = Span.at(path, i + 1, col, i + 1, len(line) + 1)
        if m.group(1) == "disable-file":
            out.append(Suppression(codes, span, 0, 0, whole_file=True))
        elif line[: col - 1].strip():  # trailing comment
            out.append(Suppression(codes, span, i + 1, i + 1))
        else:  # own line: the next command
            if ahead is None:
                ahead = _next_commands(lines)
            j = ahead[0][i + 1]
            k = ahead[1][j]
            out.append(Suppression(codes, span, j + 1, k + 1))
    return out


def apply(diags: list[Diagnostic], sups: list[Suppression]) -> list[Diagnostic]:
    """The diagnostics not silenced; marks which suppressions were used."""
    # by (path, line): a finding meets only the suppressions of its own lines (a
    # range is indexed once however many comments name it)
    whole: dict[str, list[Suppression]] = {}
    ranges: dict[tuple[str, int, int], list[Suppression]] = {}
    for s in sups:
        if s.whole_file:
            whole.setdefault(s.span.file, []).append(s)
        else:
            ranges.setdefault((s.span.file, s.first_line, s.last_line), []).append(s)
    at: dict[tuple[str, int], list[Suppression]] = {}
    for (path, a, b), group in ranges.items():
        for line in range(a, b + 1):
            at.setdefault((path, line), []).extend(group)
    kept = []
    for d in diags:
        hit = False
        for s in (*whole.get(d.span.file, ()), *at.get((d.span.file, d.span.line), ())):
            if s.covers(d):
                s.used.add(d.code)
                hit = True
        if not hit:
            kept.append(d)
    return kept
