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
from vcfg.records import field, record

from vcfg.diagnostics import Diagnostic, Span

_RE = re.compile(r"(?:^|\s)#\s*vcfg:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\s-]+)")


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


def find_suppressions(path: str, text: str) -> list[Suppression]:
    lines = text.splitlines()
    out: list[Suppression] = []
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
        span = Span(path, i + 1, col, i + 1, len(line) + 1)
        if m.group(1) == "disable-file":
            out.append(Suppression(codes, span, 0, 0, whole_file=True))
        elif line[: col - 1].strip():  # trailing comment
            out.append(Suppression(codes, span, i + 1, i + 1))
        else:  # own line: the next command
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith("#")):
                j += 1
            k = j
            while k < len(lines) and lines[k].rstrip().endswith("\\"):
                k += 1
            out.append(Suppression(codes, span, j + 1, k + 1))
    return out


def apply(diags: list[Diagnostic], sups: list[Suppression]) -> list[Diagnostic]:
    """The diagnostics not silenced; marks which suppressions were used."""
    kept = []
    for d in diags:
        hit = False
        for s in sups:
            if s.span.path == d.span.path and s.covers(d):
                s.used.add(d.code)
                hit = True
        if not hit:
            kept.append(d)
    return kept
