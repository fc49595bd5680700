"""Code actions: the fix a diagnostic carries (one quick fix each), every fix of the
file at once (``source.fixAll.vcfg``), and a ``# vcfg: disable=CODE`` comment for a
finding that is meant."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from lsprotocol import types as t

from vcfg.lsp.context import shell_words
from vcfg.lsp.diagnostics import to_range

FIX_ALL = "source.fixAll.vcfg"


def _edits_of(fix: Any, path: str) -> Optional[list[tuple[Any, str]]]:
    """(edit, replacement) pairs of a `vcfg.edits.Fix`, all in ``path``; None if it
    touches another file (not applied from here)."""
    out = []
    for e in fix.edits:
        if e.path != path:
            return None
        out.append((e, e.content))
    return out


def _range(lm: Any, e: Any) -> t.Range:
    return to_range(lm, e.line, e.column, e.end_line, e.end_column)


def _span_range(lm: Any, s: Any) -> t.Range:
    return to_range(lm, s.line, s.col, s.end_line, s.end_col)


def _safe(fix: Any) -> bool:
    return getattr(fix, "applicability", "safe") == "safe"


def _title(d: Any) -> str:
    desc = getattr(d.fix, "description", "") or ""
    return f"{desc or 'apply the fix'} ({d.code})" + ("" if _safe(d.fix) else " [unsafe]")


def _same(a: t.Range, b: t.Range) -> bool:
    return (a.start.line, a.start.character, a.end.line, a.end.character) == (
        b.start.line,
        b.start.character,
        b.end.line,
        b.end.character,
    )


def actions(
    uri: str,
    path: str,
    lm: Any,
    findings: Sequence[Any],
    asked: Sequence[t.Diagnostic],
    rng: t.Range,
    only: Optional[Sequence[str]],
) -> list[t.CodeAction]:
    """The actions for the client's ``asked`` diagnostics (matched to ``findings``, the
    server's own lint of the same text, by code and range) and the requested range."""
    want_quick = not only or any(k.startswith("quickfix") for k in only)
    want_all = not only or any(FIX_ALL.startswith(k) or k.startswith(FIX_ALL) for k in only)
    mine = [(d, _span_range(lm, d.span)) for d in findings if d.span.file == path]
    out: list[t.CodeAction] = []
    if want_quick:
        for ad in asked:
            if ad.source != "vcfg":
                continue
            for d, r in mine:
                if d.code != ad.code or not _same(r, ad.range):
                    continue
                if d.fix is not None:
                    edits = _edits_of(d.fix, path)
                    if edits:
                        out.append(
                            t.CodeAction(
                                title=_title(d),
                                kind=t.CodeActionKind.QuickFix,
                                diagnostics=[ad],
                                is_preferred=_safe(d.fix),
                                edit=t.WorkspaceEdit(changes={uri: [t.TextEdit(_range(lm, e), c) for e, c in edits]}),
                            )
                        )
                sup = suppress_edit(lm, d)
                if sup is not None and d.code != "VC900":
                    out.append(
                        t.CodeAction(
                            title=f"silence {d.code} here (# vcfg: disable={d.code})",
                            kind=t.CodeActionKind.QuickFix,
                            diagnostics=[ad],
                            edit=t.WorkspaceEdit(changes={uri: [sup]}),
                        )
                    )
                break
    if want_all:
        all_edits = fix_all_edits(lm, findings, path)
        if all_edits:
            out.append(
                t.CodeAction(
                    title="vcfg: apply every safe fix", kind=FIX_ALL, edit=t.WorkspaceEdit(changes={uri: all_edits})
                )
            )
    return out


def fix_all_edits(lm: Any, findings: Sequence[Any], path: str) -> list[t.TextEdit]:
    """The edits of every safe fix in the file that do not overlap an earlier one."""
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    out: list[t.TextEdit] = []
    for d in findings:
        if d.fix is None or not _safe(d.fix) or d.span.file != path:
            continue
        edits = _edits_of(d.fix, path)
        if not edits:
            continue
        spans = [((e.line, e.column), (e.end_line, e.end_column)) for e, _ in edits]
        if any(a < y and x < b for a, b in spans for x, y in taken):
            continue
        taken.extend(spans)
        out.extend(t.TextEdit(_range(lm, e), c) for e, c in edits)
    return out


def suppress_edit(lm: Any, d: Any) -> Optional[t.TextEdit]:
    """``# vcfg: disable=CODE`` at the end of the finding's line; on its own line before
    the command when the line is continued with ``\\`` (a comment would end it) or ends
    inside a quote (it would become part of the string)."""
    line = d.span.line - 1
    text = lm.line_text(line)
    if line >= len(lm.lines):
        return None
    cont = text.rstrip().endswith("\\")
    _, cw, in_comment = shell_words("\n".join(lm.lines[max(0, line - 60) : line + 1]))
    if in_comment and "vcfg:" in text:
        return None
    if not cont and not (cw is not None and cw.open_quote):
        end = lm.to_client(line, len(text))
        pos = t.Position(*end)
        return t.TextEdit(t.Range(pos, pos), f"  # vcfg: disable={d.code}")
    # the first line of the command: go up while the line above is continued
    first = line
    while first > 0 and lm.line_text(first - 1).rstrip().endswith("\\"):
        first -= 1
    if cw is not None and cw.open_quote and not cont:
        return None  # a multi-line quoted value: an own-line comment would not cover it
    indent = lm.line_text(first)[: len(lm.line_text(first)) - len(lm.line_text(first).lstrip())]
    pos = t.Position(first, 0)
    return t.TextEdit(t.Range(pos, pos), f"{indent}# vcfg: disable={d.code}\n")
