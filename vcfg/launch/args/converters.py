"""vLLM's value converters for options, as its parser applies them: human-readable
integers (``80g``, ``1Ki``) and bare human-readable numbers inside JSON values."""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- value parsers


class ArgTypeError(ValueError):
    pass


_HRI_RE = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DEC = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BIN = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def check_digits(value: str) -> None:
    """ArgTypeError when ``value`` holds more than `vcfg.bounded.MAX_DIGITS` digits
    (counted before any conversion: see vcfg/bounded.py)."""
    from vcfg.bounded import NumberTooLong
    from vcfg.bounded import check_digits as check

    try:
        check(value)
    except NumberTooLong as e:
        raise ArgTypeError(str(e)) from None


def bounded_int(value: str) -> int:
    check_digits(value)
    return int(value)


def bounded_float(value: str) -> float:
    check_digits(value)
    return float(value)


def human_readable_int(value: str) -> int:
    """vLLM's ``human_readable_int`` (utils/argparse_utils.py:30-74 @0.33):
    ``k/m/g/t`` decimal (decimals allowed), ``K/M/G/T`` binary (integers only),
    else ``int()``.  Raises ValueError."""
    v = value.strip()
    check_digits(v)
    m = _HRI_RE.fullmatch(v)
    if m:
        number, suffix = m.groups()
        if suffix in _DEC:
            try:
                return int(float(number) * _DEC[suffix])
            except OverflowError:
                raise ArgTypeError(f"{number}{suffix} is too large") from None
        try:
            return int(number) * _BIN[suffix]
        except ValueError:
            raise ArgTypeError(
                f"decimals are not allowed with binary suffixes like {suffix}; did you mean {number}{suffix.lower()}?"
            ) from None
    return int(v)


def human_readable_int_or_auto(value: str) -> int:
    v = value.strip()
    if v == "-1" or v.lower() == "auto":
        return -1
    return human_readable_int(v)


_JSON_STR_SPLIT = re.compile(r'("(?:[^"\\]|\\.)*")', re.S)
_JSON_HRI = re.compile(r"\b\d+(?:\.\d+)?[kKmMgGtT]\b")


def expand_json_numbers(text: str) -> tuple[str, list[int]]:
    """Rewrite bare ``80g``-style tokens outside JSON strings, as vLLM does
    before validating a config's JSON (arg_utils.py:302-321 @0.33).  Returns the
    new text and, for each index of it (plus one past the end), the index in
    ``text`` it came from."""
    parts = _JSON_STR_SPLIT.split(text)
    out: list[str] = []
    idx: list[int] = []
    pos = 0
    for i, part in enumerate(parts):
        if i % 2 == 0:
            last = 0
            for m in _JSON_HRI.finditer(part):
                out.append(part[last : m.start()])
                idx.extend(range(pos + last, pos + m.start()))
                try:
                    rep = str(human_readable_int(m.group()))
                except ValueError:
                    rep = m.group()
                out.append(rep)
                # the first character maps to the token's start, the rest to its
                # last character, so a span over the number covers "80g"
                idx.append(pos + m.start())
                idx.extend([pos + m.end() - 1] * (len(rep) - 1))
                last = m.end()
            out.append(part[last:])
            idx.extend(range(pos + last, pos + len(part)))
        else:
            out.append(part)
            idx.extend(range(pos, pos + len(part)))
        pos += len(part)
    idx.append(len(text))
    return "".join(out), idx
