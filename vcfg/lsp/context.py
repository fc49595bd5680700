"""What the cursor is on, read from the few lines around it (not from a lint: the text
being typed is rarely valid, and completion must answer in a millisecond or two).

`at(lines, line, col, kind)` gives a `Cursor`: a flag being typed after `vllm serve`,
the value of a flag, a ``VLLM_*`` name after ``export`` (or in a manifest's env list),
a key or value inside the JSON of a JSON-valued flag (with the path of keys from the
flag's object), a key or value of a serve-config YAML, or an item of a manifest's
``args`` list.  The shell is read by a small tolerant lexer (quotes, escapes, ``\\``
continuations, comments, command separators), bounded to `WINDOW` lines above.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from vcfg.records import record, replace

#: lines above the cursor read to find the start of its command
WINDOW = 120
#: characters of one JSON value scanned
JSON_LIMIT = 64 * 1024
#: characters of one line looked at (a huge line is read only near the cursor)
LINE_LIMIT = 16 * 1024

NAME_CHARS = re.compile(r"[A-Za-z0-9_.\-]")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DECLARE = ("export", "declare", "typeset", "readonly", "local")
_SERVE_MODULES = ("vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server")


@record
class Cursor:
    #: flag, flag_value, env_name, env_value, json_key, json_value, none
    kind: str
    #: what is typed so far of the item (unquoted)
    prefix: str = ""
    #: code-point column on the cursor's line where the replaced text starts
    start: int = 0
    #: the option for flag_value and json_* (as written, e.g. --kv-transfer-config)
    flag: Optional[str] = None
    #: JSON keys from the flag's object down to the object the cursor is in
    path: tuple[str, ...] = ()
    #: json_value: the key whose value is typed
    key: Optional[str] = None
    #: the JSON text known so far (to find the chosen connector)
    json_text: str = ""
    #: json_*: the cursor is inside a JSON string (insert without quotes)
    in_string: bool = False
    #: quoting of the JSON: "'" or '"' (shell), "yaml" (serve config)
    quote: str = ""
    #: env_value: the variable
    env: Optional[str] = None
    #: serve-config: keys are written without their leading dashes
    bare_keys: bool = False


NONE = Cursor("none")


# --------------------------------------------------------------------------- shell


_TOKEN = re.compile(
    r"""(?P<subst>\$\((?:[^()'"]|'[^']*')*\)?)
      |(?P<sq>'[^']*'?)
      |(?P<dq>"(?:\\.|[^"\\])*"?)
      |(?P<cont>\\\r?\n)
      |(?P<esc>\\.?)
      |(?P<nl>\n)
      |(?P<op>&&|\|\||[;&|()])
      |(?P<ws>[ \t\r]+)
      |(?P<ch>[^\s'"\\;&|()$\#]+|[$\#])""",
    re.X | re.S,
)


@record
class _Word:
    raw: str
    value: str
    #: the word ends inside an open quote of this kind ("'" or '"'), at the cursor
    open_quote: str = ""
    #: the unquoted text from the open quote to the cursor
    quoted: str = ""


def shell_words(text: str) -> tuple[list[_Word], Optional[_Word], bool]:
    """The words of the command the end of ``text`` is in, the word being typed (None
    when the cursor follows a space), and whether the cursor is in a comment."""
    words: list[_Word] = []
    raw: list[str] = []
    val: list[str] = []
    open_q = ""
    quoted = ""
    at_word_start = True
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:  # pragma: no cover - the pattern matches any character
            pos += 1
            continue
        kind = m.lastgroup
        tok = m.group()
        pos = m.end()
        if kind == "ch" and tok == "#" and at_word_start:
            end = text.find("\n", pos)
            if end < 0:
                return words, None, True
            pos = end
            continue
        if kind in ("ws", "cont", "nl", "op"):
            if raw:
                words.append(_Word("".join(raw), "".join(val)))
                raw, val = [], []
            if kind in ("nl", "op"):
                words = []
            at_word_start = True
            continue
        at_word_start = False
        raw.append(tok)
        open_q = ""
        if kind == "sq":
            closed = len(tok) > 1 and tok.endswith("'")
            inner = tok[1:-1] if closed else tok[1:]
            val.append(inner)
            if not closed:
                open_q, quoted = "'", inner
        elif kind == "dq":
            closed = len(tok) > 1 and tok.endswith('"') and not _escaped_end(tok)
            inner = tok[1:-1] if closed else tok[1:]
            inner = re.sub(r'\\([\\"$`])', r"\1", inner)
            val.append(inner)
            if not closed:
                open_q, quoted = '"', inner
        elif kind == "esc":
            val.append(tok[1:])
        else:
            val.append(tok)
    if raw:
        return words, _Word("".join(raw), "".join(val), open_q, quoted), False
    return words, None, False


def _escaped_end(tok: str) -> bool:
    k = 0
    i = len(tok) - 2
    while i >= 1 and tok[i] == "\\":
        k += 1
        i -= 1
    return k % 2 == 1


def _window(lines: Sequence[str], line: int, col: int) -> str:
    top = max(0, line - WINDOW)
    cur = lines[line] if line < len(lines) else ""
    cur = cur[max(0, col - LINE_LIMIT) : col] if col > LINE_LIMIT else cur[:col]
    above = [s[:LINE_LIMIT] for s in lines[top:line]]
    return "\n".join([*above, cur])


def _serve_args(words: list[_Word]) -> Optional[list[_Word]]:
    """The words after ``vllm serve`` (or a vLLM api_server module), or None."""
    for i, w in enumerate(words):
        v = w.value
        if (v == "vllm" or v.endswith("/vllm")) and i + 1 < len(words) and words[i + 1].value == "serve":
            return words[i + 2 :]
        if v in _SERVE_MODULES and i >= 1 and words[i - 1].value == "-m":
            return words[i + 1 :]
    return None


def _is_assignment(v: str) -> bool:
    name, eq, _ = v.partition("=")
    return bool(eq) and _ENV_NAME.fullmatch(name) is not None


def shell_cursor(lines: Sequence[str], line: int, col: int, json_flags: frozenset[str]) -> Cursor:
    words, cw, in_comment = shell_words(_window(lines, line, col))
    if in_comment:
        return NONE
    value = cw.value if cw else ""
    raw = cw.raw if cw else ""
    start = col - len(raw)
    # export NAME / export NAME=VALUE / NAME=VALUE before a command
    decl = bool(words) and words[0].value in _DECLARE
    if decl or all(_is_assignment(w.value) for w in words):
        name, eq, tail = value.partition("=")
        if eq and _ENV_NAME.fullmatch(name):
            return Cursor("env_value", prefix=tail, start=col - len(tail), env=name)
        if not eq and (name == "" or _ENV_NAME.fullmatch(name)) and (decl or name[:1].isupper()):
            return Cursor("env_name", prefix=name, start=start)
    args = _serve_args(words)
    if args is None:
        return NONE
    return arg_cursor([w.value for w in args], cw, col, json_flags)


def arg_cursor(
    before: list[str], cw: Optional[_Word], col: int, json_flags: frozenset[str], quote_style: Optional[str] = None
) -> Cursor:
    """The cursor on an argument of a serve launch: ``before`` are the arguments
    before it, ``cw`` the one being typed."""
    value = cw.value if cw else ""
    raw = cw.raw if cw else ""
    quote = quote_style if quote_style is not None else (cw.open_quote if cw else "")
    if value.startswith("-"):
        head, eq, tail = value.partition("=")
        if not eq:
            typed = cw.quoted if cw is not None and cw.open_quote else raw
            return Cursor("flag", prefix=value, start=col - len(typed))
        if head in json_flags and tail.lstrip().startswith("{"):
            return json_cursor(tail, col, head, quote)
        return Cursor("flag_value", prefix=tail, start=col - len(tail), flag=head)
    prev = before[-1] if before else ""
    if prev.startswith("-") and "=" not in prev:
        if prev in json_flags and value.lstrip().startswith("{"):
            return json_cursor(value, col, prev, quote)
        if cw is not None and cw.open_quote:
            return Cursor("flag_value", prefix=cw.quoted, start=col - len(cw.quoted), flag=prev)
        return Cursor("flag_value", prefix=value, start=col - len(raw), flag=prev)
    return NONE


# --------------------------------------------------------------------------- JSON


def json_cursor(text: str, col: int, flag: str, quote: str) -> Cursor:
    """The cursor at the end of ``text``, the start of a JSON value typed so far."""
    text = text[:JSON_LIMIT]
    stack: list[list[object]] = []  # [type, key, expect]
    path: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
            continue
        top = stack[-1] if stack else None
        if c in "{[":
            if top is not None:
                path.append(str(top[1]) if top[0] == "obj" and top[1] is not None else "[]")
            stack.append(["obj" if c == "{" else "arr", None, "key" if c == "{" else "value"])
            i += 1
        elif c in "}]":
            if stack:
                stack.pop()
                if path and stack:
                    path.pop()
                if stack:
                    stack[-1][2] = "comma"
            i += 1
        elif c == '"':
            j = i + 1
            buf = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    buf.append(text[j + 1])
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            s = "".join(buf)
            if j >= n:  # the cursor is inside this string
                return _json_at(stack, path, s, col - len(text) + i + 1, True, flag, text, quote)
            if top is not None:
                if top[0] == "obj" and top[2] == "key":
                    top[1], top[2] = s, "colon"
                else:
                    top[2] = "comma"
            i = j + 1
        elif c == ":":
            if top is not None:
                top[2] = "value"
            i += 1
        elif c == ",":
            if top is not None:
                top[2] = "key" if top[0] == "obj" else "value"
            i += 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n,:{}[]"':
                j += 1
            if j >= n:
                return _json_at(stack, path, text[i:], col - (n - i), False, flag, text, quote)
            if top is not None:
                if top[0] == "obj" and top[2] == "key":  # an unquoted key (YAML flow style)
                    top[1], top[2] = text[i:j], "colon"
                else:
                    top[2] = "comma"
            i = j
    return _json_at(stack, path, "", col, False, flag, text, quote)


def _json_at(
    stack: list[list[object]],
    path: list[str],
    partial: str,
    start: int,
    in_string: bool,
    flag: str,
    text: str,
    quote: str,
) -> Cursor:
    if not stack:
        return NONE
    kind, key, expect = stack[-1]
    if kind == "obj" and expect == "key":
        return Cursor(
            "json_key",
            prefix=partial,
            start=start,
            flag=flag,
            path=tuple(path),
            json_text=text,
            in_string=in_string,
            quote=quote,
        )
    if expect == "value":
        k = str(key) if kind == "obj" else (path[-1] if path else None)
        p = tuple(path) if kind == "obj" else tuple(path[:-1])
        return Cursor(
            "json_value",
            prefix=partial,
            start=start,
            flag=flag,
            path=p,
            key=k,
            json_text=text,
            in_string=in_string,
            quote=quote,
        )
    return NONE


# --------------------------------------------------------------------------- YAML


_KEY_LINE = re.compile(r"^(\s*)(-\s+)?([\w.\-]*)$")
_KEY_VALUE = re.compile(r"^(\s*)(-\s+)?([\w.\-]+)\s*:(\s*)(.*)$")
_PARENT = re.compile(r"^(\s*)(-\s+)?([\w.\-]+)\s*:\s*(?:#.*)?$")
_ITEM = re.compile(r"^(\s*)-\s+(.*)$")


def _indent(s: str) -> int:
    return len(s) - len(s.lstrip(" "))


def _parents(lines: Sequence[str], line: int, indent: int) -> list[str]:
    """The keys of the block mappings above ``line`` that hold it, outermost first."""
    out: list[str] = []
    for i in range(line - 1, max(-1, line - WINDOW * 4), -1):
        s = lines[i][:LINE_LIMIT]
        if not s.strip() or s.lstrip().startswith("#"):
            continue
        ind = _indent(s)
        if ind >= indent:
            continue
        m = _PARENT.match(s)
        if m is None:
            break
        out.append(m.group(3))
        indent = ind
        if ind == 0:
            break
    return out[::-1]


def yaml_is_manifest(lines: Sequence[str]) -> bool:
    for s in lines[:400]:
        if re.match(r"^(apiVersion|kind|services)\s*:", s) or re.match(r"^\s*(containers|initContainers)\s*:", s):
            return True
    return False


def serve_config_cursor(lines: Sequence[str], line: int, col: int, json_flags: frozenset[str]) -> Cursor:
    cur = (lines[line] if line < len(lines) else "")[:col]
    if cur.lstrip().startswith("#"):
        return NONE
    m = _KEY_LINE.match(cur)
    if m and not m.group(2):
        indent = len(m.group(1))
        parents = _parents(lines, line, indent) if indent else []
        if not parents:
            return Cursor("flag", prefix=m.group(3), start=col - len(m.group(3)), bare_keys=True)
        flag = "--" + parents[0]
        return Cursor(
            "json_key", prefix=m.group(3), start=col - len(m.group(3)), flag=flag, path=tuple(parents[1:]), quote="yaml"
        )
    m = _KEY_VALUE.match(cur)
    if m and not m.group(2):
        indent = len(m.group(1))
        key, value = m.group(3), m.group(5)
        parents = _parents(lines, line, indent) if indent else []
        vstart = col - len(value)
        if not parents:
            flag = "--" + key
            if value.lstrip().startswith("{"):
                return json_cursor(value, col, flag, "yaml")
            return Cursor(
                "flag_value",
                prefix=value.strip("\"'"),
                start=vstart + (1 if value[:1] in "\"'" else 0),
                flag=flag,
                bare_keys=True,
            )
        flag = "--" + parents[0]
        if value.lstrip().startswith("{"):
            c = json_cursor(value, col, flag, "yaml")
            return replace(c, path=tuple(parents[1:]) + (key,) + c.path) if c.kind != "none" else c
        return Cursor(
            "json_value",
            prefix=value.strip("\"'"),
            start=vstart + (1 if value[:1] in "\"'" else 0),
            flag=flag,
            path=tuple(parents[1:]),
            key=key,
            quote="yaml",
            in_string=True,
        )
    return NONE


def manifest_cursor(lines: Sequence[str], line: int, col: int, json_flags: frozenset[str]) -> Cursor:
    cur = (lines[line] if line < len(lines) else "")[:col]
    if cur.lstrip().startswith("#"):
        return NONE
    # env lists: - name: VLLM_X / value: ...
    m = re.match(r"^(\s*)(-\s+)?name\s*:\s*([\"']?)([A-Za-z0-9_]*)$", cur)
    if m and _under(lines, line, len(m.group(1)), "env"):
        return Cursor("env_name", prefix=m.group(4), start=col - len(m.group(4)))
    m = re.match(r"^(\s*)value\s*:\s*([\"']?)(.*)$", cur)
    if m and line > 0:
        name = re.match(r"^\s*-\s+name\s*:\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)", lines[line - 1])
        if name:
            return Cursor("env_value", prefix=m.group(3), start=col - len(m.group(3)), env=name.group(1))
    m = _ITEM.match(cur)
    if (
        m
        and (_under(lines, line, len(m.group(1)), "args") or _under(lines, line, len(m.group(1)), "command"))
        and _mentions_vllm(lines, line)
    ):
        item = m.group(2)
        if item[:1] in "|>":
            return shell_cursor(lines, line, col, json_flags)
        before = _items_before(lines, line, len(m.group(1)))
        cw: Optional[_Word] = _yaml_item_word(item)
        return arg_cursor(before, cw, col, json_flags, quote_style=item[:1] if item[:1] in "\"'" else "yaml")
    m = re.match(r"^\s*(?:-\s+)?(?:args|command)\s*:\s*\[(.*)$", cur)
    if m and _mentions_vllm(lines, line):
        items = [x.strip() for x in _split_flow(m.group(1))]
        before = [_yaml_item_word(x).value for x in items[:-1]]
        last = items[-1] if items else ""
        cw = _yaml_item_word(last) if last else None
        return arg_cursor(before, cw, col, json_flags, quote_style=last[:1] if last[:1] in "\"'" else "yaml")
    return shell_cursor(lines, line, col, json_flags)


def _under(lines: Sequence[str], line: int, indent: int, key: str) -> bool:
    """Whether the list item or key at ``indent`` on ``line`` sits under ``key:``."""
    for i in range(line - 1, max(-1, line - WINDOW * 4), -1):
        s = lines[i][:LINE_LIMIT]
        if not s.strip() or s.lstrip().startswith("#"):
            continue
        ind = _indent(s)
        if ind < indent or (ind == indent and not s.lstrip().startswith("-") and re.match(rf"^\s*{key}\s*:", s)):
            return re.match(rf"^\s*(?:-\s+)?{key}\s*:\s*(?:#.*)?$", s) is not None
    return False


def _mentions_vllm(lines: Sequence[str], line: int) -> bool:
    top = max(0, line - 60)
    return any("vllm" in s for s in lines[top : line + 1])


def _items_before(lines: Sequence[str], line: int, indent: int) -> list[str]:
    out = []
    for i in range(line - 1, max(-1, line - WINDOW * 4), -1):
        s = lines[i][:LINE_LIMIT]
        if not s.strip() or s.lstrip().startswith("#"):
            continue
        m = _ITEM.match(s)
        if m is None or len(m.group(1)) != indent:
            if _indent(s) <= indent:
                break
            continue
        out.append(_yaml_item_word(m.group(2).strip()).value)
    return out[::-1]


def _yaml_item_word(item: str) -> _Word:
    item = item.rstrip()
    if item[:1] in "\"'":
        q = item[0]
        closed = len(item) > 1 and item.endswith(q)
        inner = item[1:-1] if closed else item[1:]
        if q == '"':
            inner = re.sub(r"\\(.)", r"\1", inner)
        else:
            inner = inner.replace("''", "'")
        return _Word(item, inner, "" if closed else q, "" if closed else inner)
    return _Word(item, item.split(" #", 1)[0])


def _split_flow(text: str) -> list[str]:
    out, buf, q = [], [], ""
    for ch in text:
        if q:
            buf.append(ch)
            if ch == q:
                q = ""
        elif ch in "\"'":
            q = ch
            buf.append(ch)
        elif ch == ",":
            out.append("".join(buf))
            buf = []
        elif ch == "]":
            break
        else:
            buf.append(ch)
    out.append("".join(buf))
    return out


# --------------------------------------------------------------------------- entry


def at(lines: Sequence[str], line: int, col: int, style: str, json_flags: frozenset[str]) -> Cursor:
    """The `Cursor` at 0-based ``line``, code-point ``col``; ``style``: ``bash``,
    ``serve-config`` or ``manifest``."""
    if not 0 <= line < len(lines):
        return NONE
    if style == "serve-config":
        c = serve_config_cursor(lines, line, col, json_flags)
        return c if c.kind != "none" else shell_cursor(lines, line, col, json_flags)
    if style == "manifest":
        return manifest_cursor(lines, line, col, json_flags)
    return shell_cursor(lines, line, col, json_flags)


def word_at(line_text: str, col: int) -> tuple[int, int]:
    """The name-like word (letters, digits, ``_ . -``) around code-point ``col``."""
    a = col
    while a > 0 and NAME_CHARS.match(line_text[a - 1]):
        a -= 1
    b = col
    while b < len(line_text) and NAME_CHARS.match(line_text[b]):
        b += 1
    return a, b
