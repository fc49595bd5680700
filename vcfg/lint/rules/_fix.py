"""Building a finding's fix (`vcfg.edits.Fix`) from launch-model spans.

Each edit records the text it replaces, read from the bytes that were linted, so that
applying it to a file that has changed since is refused (`vcfg.fix.apply`)."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from vcfg.edits import Applicability, Edit, Fix, edit_from_span
from vcfg.lint.context import FileContext, LaunchContext


def _file(ctx: Any) -> FileContext:
    return ctx.file if isinstance(ctx, LaunchContext) else ctx


def _path(ctx: Any, s: Any) -> str:
    fc = _file(ctx)
    inv_file = ctx.inv.span.file if isinstance(ctx, LaunchContext) else fc.plan.path
    return fc.path if not s.file or s.file in (inv_file, fc.path) else s.file


def edit(ctx: Any, s: Any, content: str) -> Optional[Edit]:
    """``content`` in place of launch span ``s``; None when the span does not index the
    linted bytes (a synthetic span, or one beyond the end)."""
    if s is None or s.start < 0 or s.end < s.start:
        return None
    path = _path(ctx, s)
    data = _file(ctx).bytes_of(path)
    if s.end > len(data):
        return None
    original = data[s.start : s.end].decode("utf-8", "surrogateescape")
    return edit_from_span(s, content, original, path)


def text_of(ctx: Any, s: Any) -> Optional[str]:
    """The text launch span ``s`` covers in its file."""
    if s is None or s.start < 0 or s.end < s.start:
        return None
    data = _file(ctx).bytes_of(_path(ctx, s))
    return data[s.start : s.end].decode("utf-8", "surrogateescape") if s.end <= len(data) else None


def fix(edits: Iterable[Optional[Edit]], applicability: Applicability, description: str) -> Optional[Fix]:
    """A fix of every edit, or None when one of them could not be built."""
    es = list(edits)
    if not es or any(e is None for e in es):
        return None
    return Fix(tuple(e for e in es if e is not None), applicability, description)


def replace(ctx: Any, s: Any, content: str, applicability: Applicability, description: str) -> Optional[Fix]:
    return fix([edit(ctx, s, content)], applicability, description)


def edit_at(fc: FileContext, line: int, column: int, length: int, content: str) -> Optional[Edit]:
    """``content`` in place of ``length`` characters at 1-based ``line``:``column`` of
    the linted file itself (for findings located by line and column only)."""
    data = fc.data
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start)
        if start < 0:
            return None
        start += 1
    end_of_line = data.find(b"\n", start)
    text = data[start : end_of_line if end_of_line >= 0 else len(data)].decode("utf-8", "surrogateescape")
    if column - 1 + length > len(text):
        return None
    a = start + len(text[: column - 1].encode("utf-8", "surrogateescape"))
    original = text[column - 1 : column - 1 + length]
    b = a + len(original.encode("utf-8", "surrogateescape"))
    return Edit(fc.path, a, b, content, original, line, column, line, column + length)


#: the line index of the last file an edit was made in (data, path, index): a file
#: with many findings that carry fixes is indexed once, not once per fix
_LAST_INDEX: list[Any] = [None, None, None]


def _edit_bytes(ctx: Any, path: str, a: int, b: int, content: str) -> Edit:
    fc = _file(ctx)
    data = fc.bytes_of(path)
    if _LAST_INDEX[0] is not data or _LAST_INDEX[1] != path:
        from vcfg.launch.model import LineIndex

        _LAST_INDEX[:] = [data, path, LineIndex(data, path)]
    s = _LAST_INDEX[2].span(a, b)
    original = data[a:b].decode("utf-8", "surrogateescape")
    return Edit(path, a, b, content, original, s.line, s.col, s.end_line, s.end_col)


def is_script(ctx: Any) -> bool:
    """Whether the linted file is a shell script, or Markdown whose launches are shell
    code blocks: edits that add shell words or move shell lines make sense only there,
    not in a YAML list of arguments or a compose command."""
    return _file(ctx).plan.source_kind in ("bash", "markdown", "rst")


def delete_words(ctx: Any, first: Any, last: Any) -> Optional[Edit]:
    """Delete the argv words from span ``first`` to span ``last``: in a script (or a
    Markdown code block) with the space that separated them from their neighbours, a
    line that holds nothing else going whole (its ``\\`` continuation included), so
    the command keeps its layout; in a YAML list (a manifest's ``args``, a compose
    ``command``), as list items."""
    if first is None or last is None:
        return None
    kind = _file(ctx).plan.source_kind
    if kind in ("kubernetes", "compose", "markdown", "rst"):
        gone = _delete_yaml_items(ctx, first, last)
        if gone is not None or kind not in ("markdown", "rst"):
            return gone
    elif kind != "bash":
        return None
    path = _path(ctx, first)
    data = _file(ctx).bytes_of(path)
    a, b = first.start, last.end
    if not 0 <= a <= b <= len(data):
        return None
    line_start = data.rfind(b"\n", 0, a) + 1
    j = b
    while j < len(data) and data[j] in b" \t":
        j += 1
    alone = not data[line_start:a].strip()
    if alone and data[j : j + 2] == b"\\\n":
        return _edit_bytes(ctx, path, line_start, j + 2, "")
    if alone and (j == len(data) or data[j : j + 1] == b"\n"):
        # the command's last line: the previous line's continuation must go too
        k = line_start - 1
        prev = data.rfind(b"\n", 0, k) + 1 if k > 0 else 0
        head = data[prev:k].rstrip(b" \t")
        if head.endswith(b"\\"):
            cut = prev + len(head) - 1
            while cut > prev and data[cut - 1] in b" \t":
                cut -= 1
            return _edit_bytes(ctx, path, cut, j, "")
    if j > b and data[j : j + 1] not in (b"\n", b"\\", b""):
        return _edit_bytes(ctx, path, a, j, "")  # the words and the space after them
    i = a
    while i > line_start and data[i - 1] in b" \t":
        i -= 1
    return _edit_bytes(ctx, path, i, b, "")  # the space before them


def _delete_yaml_items(ctx: Any, first: Any, last: Any) -> Optional[Edit]:
    """The words as items of a YAML sequence: block items (``- word`` lines, deleted
    whole) or flow items (``[a, word, b]``, deleted with one comma)."""
    import re

    path = _path(ctx, first)
    data = _file(ctx).bytes_of(path)
    a, b = first.start, last.end
    if not 0 <= a <= b <= len(data):
        return None
    while b > a and data[b - 1] in b" \t\r\n":  # a mapping item's span runs to the next item
        b -= 1
    line_start = data.rfind(b"\n", 0, a) + 1
    e = data.find(b"\n", b)
    line_end = len(data) if e < 0 else e + 1
    dash = re.match(rb"^([ \t]*)- $", data[line_start:a])
    lines = data[line_start:line_end].rstrip(b"\n").split(b"\n")
    if dash is not None and not data[b:line_end].split(b" #", 1)[0].strip():
        # every line a sequence item of this indentation, or a continuation of one
        # (the `value:` line of a `- name:` item), indented deeper than its dash
        width = len(dash.group(1))
        if all(x.startswith(dash.group(1) + b"- ") or (len(x) - len(x.lstrip()) > width and x.strip()) for x in lines):
            return _edit_bytes(ctx, path, line_start, line_end, "")
    j = b
    while j < len(data) and data[j] in b" \t":
        j += 1
    i = a
    while i > line_start and data[i - 1] in b" \t":
        i -= 1
    if data[j : j + 1] == b"," and data[i - 1 : i] in (b"[", b","):
        k = j + 1
        while k < len(data) and data[k] in b" \t":
            k += 1
        return _edit_bytes(ctx, path, a, k, "")
    if data[i - 1 : i] == b"," and data[j : j + 1] == b"]":
        return _edit_bytes(ctx, path, i - 1, b, "")
    return None


def insert_option(lc: LaunchContext, text: str) -> Optional[Edit]:
    """Insert ``text`` (an option and its value, as shell words) into the launch's
    argv, before its last option: on a line of its own when the options are one per
    continued line, else on the same line."""
    words = [w for w in lc.inv.args if w.span.end > w.span.start]
    if not words or not is_script(lc):
        return None
    opts = [w for w in words if (w.text or "").startswith("-")]
    path = _path(lc, words[-1].span)
    data = _file(lc).bytes_of(path)
    if not opts:
        end = words[-1].span.end
        return _edit_bytes(lc, path, end, end, " " + text)
    at = opts[-1].span.start
    line_start = data.rfind(b"\n", 0, at) + 1
    indent = data[line_start:at]
    prev_end = line_start - 1
    if line_start > 0 and not indent.strip() and data[:prev_end].rstrip(b" \t").endswith(b"\\"):
        return _edit_bytes(lc, path, line_start, line_start, indent.decode("utf-8", "surrogateescape") + text + " \\\n")
    if _file(lc).plan.source_kind != "bash":
        return None  # Markdown: only where the layout shows shell (one option a line)
    return _edit_bytes(lc, path, at, at, text + " ")


def shell_word(value: str) -> str:
    """``value`` as one shell word (quoted only when it needs it)."""
    import re

    if re.fullmatch(r"[\w@%+=:,./-]+", value):
        return value
    return "'" + value.replace("'", "'\"'\"'") + "'"  # shlex.quote's form, without importing it


def _json_loc(ov: Any, path: tuple[Any, ...]) -> Any:
    return ov.json.locs.get(path) if ov is not None and ov.json is not None else None


def _exact_json(ctx: Any, loc: Any, key: str) -> Optional[tuple[str, bytes]]:
    """(path, bytes) when the key is written in the file as ``"key"`` at its span (a
    JSON value copied from the file, not re-encoded YAML or a shell-escaped one)."""
    if loc is None or loc.key is None:
        return None
    path = _path(ctx, loc.key)
    data = _file(ctx).bytes_of(path)
    if data[loc.key.start : loc.key.end] != ('"' + key + '"').encode():
        return None
    return path, data


def delete_json_member(ctx: Any, ov: Any, path: tuple[Any, ...]) -> Optional[Edit]:
    """Delete ``"key": value`` at ``path`` inside option ``ov``'s JSON, with one comma."""
    loc = _json_loc(ov, path)
    found = _exact_json(ctx, loc, str(path[-1]))
    if found is None:
        return None
    fpath, data = found
    a, b = loc.key.start, loc.value.end
    j = b
    while j < len(data) and data[j] in b" \t":
        j += 1
    if data[j : j + 1] == b",":
        j += 1
        while j < len(data) and data[j] in b" \t":
            j += 1
        return _edit_bytes(ctx, fpath, a, j, "")
    i = a
    while i > 0 and data[i - 1] in b" \t":
        i -= 1
    if data[i - 1 : i] == b",":
        return _edit_bytes(ctx, fpath, i - 1, b, "")
    return _edit_bytes(ctx, fpath, a, b, "")


def replace_json_string(ctx: Any, ov: Any, path: tuple[Any, ...], new: str) -> Optional[Edit]:
    """Replace the JSON string at ``path`` (written ``"old"`` in the file) with ``"new"``."""
    loc = _json_loc(ov, path)
    if loc is None:
        return None
    fpath = _path(ctx, loc.value)
    data = _file(ctx).bytes_of(fpath)
    old = data[loc.value.start : loc.value.end]
    if not (len(old) >= 2 and old[:1] == old[-1:] == b'"') or b"\\" in old:
        return None
    import json

    return _edit_bytes(ctx, fpath, loc.value.start, loc.value.end, json.dumps(new))


def assignment_line(fc: FileContext, s: Any) -> Optional[tuple[int, int]]:
    """The byte range of the whole line(s) holding only the assignment at span ``s``
    (``NAME=value``, ``export NAME=value``, ``declare -x NAME=value``, a comment after
    it), newline included; None when the line holds anything else."""
    data = fc.data
    if s.file not in ("", fc.path, fc.plan.path) or s.end > len(data) or not is_script(fc):
        return None
    a = data.rfind(b"\n", 0, s.start) + 1
    e = data.find(b"\n", s.end)
    end = len(data) if e < 0 else e + 1
    before = data[a : s.start].strip()
    after = data[s.end : end].strip()
    if before not in (b"", b"export", b"declare -x") or (after and not after.startswith(b"#")):
        return None
    return a, end


def delete_yaml_entry(ctx: Any, key: Any) -> Optional[Edit]:
    """Delete the YAML mapping entry whose key is at span ``key``, when it is one line
    (``key: value``, a comment after it allowed)."""
    path = _path(ctx, key)
    data = _file(ctx).bytes_of(path)
    if key.end > len(data):
        return None
    a = data.rfind(b"\n", 0, key.start) + 1
    e = data.find(b"\n", key.end)
    b = len(data) if e < 0 else e + 1
    rest = data[key.end : b].split(b" #", 1)[0].strip()
    if data[a : key.start].strip() or not rest.startswith(b":") or not rest[1:].strip():
        return None
    return _edit_bytes(ctx, path, a, b, "")


def rename_json_key(ctx: Any, ov: Any, path: tuple[Any, ...], new: str) -> Optional[Edit]:
    """Rename the key at ``path`` (written ``"old"`` in the file) to ``new``."""
    import json

    loc = _json_loc(ov, path)
    found = _exact_json(ctx, loc, str(path[-1]))
    if found is None:
        return None
    fpath, _ = found
    return _edit_bytes(ctx, fpath, loc.key.start, loc.key.end, json.dumps(new))
