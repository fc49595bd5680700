"""``--statistics``: how many findings of each code, most first, like ruff's."""

from __future__ import annotations

from collections import Counter

from vcfg.diagnostics import Diagnostic, Summary
from vcfg.render.concise import summary_line


def render(diags: list[Diagnostic], summary: Summary) -> str:
    counts = Counter(d.code for d in diags)
    names = {d.code: d.name for d in diags}
    severity = {d.code: d.severity for d in diags}
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = [
        f"{n:>{width}}  {code}  [{severity[code]}] {names[code]}".rstrip()
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    lines.append(summary_line(summary))
    return "\n".join(lines)
