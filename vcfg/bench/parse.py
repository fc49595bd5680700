"""From a file (or stdin) to `BenchResult`s: decides text report or `--save-result` JSON
and turns every unreadable input into one `VcfgError`."""

from __future__ import annotations

import json
import sys
from typing import Any

from vcfg.bench.model import BenchResult
from vcfg.bench.saveresult import is_pytorch_format, is_result, parse_result
from vcfg.bench.textreport import parse_text
from vcfg.bench.tools import foreign_json_tool, foreign_text_tool, refusal_hint
from vcfg.errors import VcfgError

_HINT = (
    "pass the text `vllm bench serve` prints (a log that contains it is fine) or the JSON it writes with --save-result"
)


def load(path: str) -> list[BenchResult]:
    """The results in the file at `path` ("-" reads stdin)."""
    if path == "-":
        from vcfg.fileio import MAX_BYTES

        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise VcfgError(f"<stdin>: larger than {MAX_BYTES >> 20} MiB, not a benchmark result", hint=_HINT)
        name = "<stdin>"
    else:
        name = path
        try:
            from vcfg.fileio import MAX_BYTES, read_regular

            data = read_regular(path, MAX_BYTES)
            if len(data) > MAX_BYTES:
                raise VcfgError(f"{path}: larger than {MAX_BYTES >> 20} MiB, not a benchmark result", hint=_HINT)
        except IsADirectoryError:
            raise VcfgError(f"{path}: is a directory", hint=_HINT) from None
        except FileNotFoundError:
            raise VcfgError(f"{path}: no such file") from None
        except OSError as e:
            raise VcfgError(f"{path}: cannot read: {e.strerror or e}") from None
    return loads(data, name)


def loads(data: bytes, source: str) -> list[BenchResult]:
    if b"\x00" in data[:65536]:
        raise VcfgError(f"{source}: binary file, not a benchmark result", hint=_HINT)
    # a log may hold bytes of another encoding around the report; they do not matter
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.strip():
        raise VcfgError(f"{source}: empty file", hint=_HINT)
    if text.lstrip()[:1] in ("{", "["):
        return _load_json(text, source)
    results = parse_text(text, source)
    if not results and (tool := foreign_text_tool(text)):
        raise _refused(source, tool)
    if not results and "Serving Benchmark Result" in text:
        raise VcfgError(
            f"{source}: a 'Serving Benchmark Result' header without a "
            "'Successful requests' line under it (truncated report?)",
            hint=_HINT,
        )
    if not results:
        raise VcfgError(
            f"{source}: no 'Serving Benchmark Result' block found; not a vllm bench serve report",
            hint=_HINT,
        )
    return results


def _json_values(text: str, source: str) -> list[Any]:
    """One JSON document, or several one after another (`--append-result`)."""
    from vcfg.bounded import NumberTooLong, json_decoder

    decoder = json_decoder()
    values: list[Any] = []
    pos = 0
    end = len(text)
    try:
        while True:
            while pos < end and text[pos].isspace():
                pos += 1
            if pos >= end:
                break
            value, pos = decoder.raw_decode(text, pos)
            values.append(value)
    except json.JSONDecodeError as e:
        raise VcfgError(
            f"{source}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}",
            hint=_HINT,
        ) from None
    except RecursionError:
        raise VcfgError(f"{source}: JSON nested too deeply", hint=_HINT) from None
    except NumberTooLong as e:
        raise VcfgError(f"{source}: {e}", hint=_HINT) from None
    return values


def _load_json(text: str, source: str) -> list[BenchResult]:
    values = _json_values(text, source)
    objs: list[Any] = []
    for v in values:
        if is_pytorch_format(v):
            raise VcfgError(
                f"{source}: this is the PyTorch-benchmark-format companion file, not the result",
                hint="pass the JSON of the same name without '.pytorch'",
            )
        if tool := foreign_json_tool(v):
            raise _refused(source, tool)
        objs.extend(v if isinstance(v, list) else [v])
    results = [o for o in objs if is_result(o)]
    if not results and (tool := next(filter(None, map(foreign_json_tool, objs)), None)):
        raise _refused(source, tool)
    if not results:
        raise VcfgError(
            f"{source}: JSON without 'completed' and 'duration'; not a vllm bench serve --save-result file",
            hint=_HINT,
        )
    if len(results) == 1:
        return [parse_result(results[0], source)]
    return [parse_result(o, f"{source}#{n}") for n, o in enumerate(results, start=1)]


def _refused(source: str, tool: str) -> VcfgError:
    return VcfgError(
        f"{source}: this is {tool} output, not a vllm bench serve result; vcfg does not read it as one",
        hint=refusal_hint(tool),
    )
