"""Numbers from files vcfg did not write, converted only when they are short.

``int()`` of a million digits takes seconds (and Python refuses more than 4,300
digits with a ValueError that names no file), and ``float("1e999")`` is infinity,
which later arithmetic cannot turn back into an integer.  A number of more than
`MAX_DIGITS` digits means nothing to vLLM: it is refused with a plain message.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DIGITS = 100


class NumberTooLong(ValueError):
    pass


def check_digits(text: str) -> None:
    """`NumberTooLong` when ``text`` holds more than `MAX_DIGITS` digits."""
    if len(text) > MAX_DIGITS and sum(c.isdigit() for c in text) > MAX_DIGITS:
        raise NumberTooLong(f"a number of more than {MAX_DIGITS} digits; vcfg does not read it")


def parse_int(text: str) -> int:
    check_digits(text)
    return int(text)


def parse_float(text: str) -> float:
    check_digits(text)
    v = float(text)
    if not math.isfinite(v):
        raise NumberTooLong(f"{text[:40]} is out of range for a number")
    return v


def json_decoder() -> json.JSONDecoder:
    """A decoder whose numbers are bounded (`NumberTooLong`, a ValueError, else)."""
    return json.JSONDecoder(parse_int=parse_int, parse_float=parse_float)


def json_loads(text: str | bytes) -> Any:
    """``json.loads`` with bounded numbers; `NumberTooLong` or json.JSONDecodeError."""
    return json.loads(text, parse_int=parse_int, parse_float=parse_float)
