"""``path:line:col: CODE [severity] message (help)`` one finding per line, like ruff's
concise output: the first line of the help (a did-you-mean, the replacement) stays."""

from __future__ import annotations

from vcfg.diagnostics import Diagnostic, Summary
from vcfg.render.clean import clean


def render(diags: list[Diagnostic], summary: Summary, sources: dict[str, str]) -> str:
    lines = [
        clean(
            f"{d.span.file}:{d.span.line}:{d.span.col}: {d.code} [{d.severity}] {d.message}"
            + (f" ({d.help.splitlines()[0]})" if d.help and d.help.strip() else "")
        )
        for d in diags
    ]
    lines.append(summary_line(summary))
    return "\n".join(lines)


def summary_line(s: Summary) -> str:
    c = s.counts
    found = (
        "no problems"
        if not any(c.values())
        else ", ".join(
            f"{n} {k}{'s' if n != 1 else ''}"
            for k, n in (("error", c["error"]), ("warning", c["warning"]), ("info", c["info"]))
            if n
        )
    )
    note = f" ({s.version_note})" if s.version_note else ""
    return clean(
        f"{found} in {s.files} file{'s' if s.files != 1 else ''}, "
        f"{s.launches} vLLM launch{'es' if s.launches != 1 else ''}; "
        f"checked against vllm {s.vllm_version}{note}"
    )
