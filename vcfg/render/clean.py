"""Text from the linted files, made safe to print: the input cannot steer the output.

A message quotes the file (a flag value, a JSON string, a path), so it may hold an
ANSI escape sequence (which a terminal obeys), a carriage return or newline (which
forges a line of ``concise`` output or a GitHub workflow command), a bidi override
(which reorders what the reader sees) or a lone surrogate (a byte that was not
UTF-8).  `clean` shows each control character as its Unicode control picture
(ESC as U+241B, newline as U+240A), one character for one, so the carets under a
source line stay in place; bidi controls and lone surrogates become U+FFFD.
"""

from __future__ import annotations

import re

_TABLE: dict[int, str] = {c: chr(0x2400 + c) for c in range(32)}
_TABLE[0x7F] = "\u2421"
_TABLE.update({c: "\ufffd" for c in range(0x80, 0xA0)})
# bidi embeddings, overrides and isolates; line and paragraph separators
_TABLE.update({c: "\ufffd" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029)})
_NEWLINES = dict(_TABLE)
del _NEWLINES[10], _NEWLINES[13]

_SURROGATE = "[\ud800-\udfff]"
_UNSAFE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def clean(text: str, keep_newlines: bool = False) -> str:
    """``text`` with no control character, bidi control or lone surrogate
    (``keep_newlines``: but CR and LF, for a format that escapes them itself)."""
    if text.isascii() and text.isprintable():  # almost every text: no pattern needed
        return text
    if not re.search(_UNSAFE, text):
        return text
    text = text.translate(_NEWLINES if keep_newlines else _TABLE)
    return re.sub(_SURROGATE, "\ufffd", text)
