"""What the flag and JSON rules share: vLLM's view of a launch's argv
(`vcfg.launch.args.ParsedArgs`), its problems, and positions inside JSON values."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Span
from vcfg.launch.model import ENGINE_KINDS
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option


def parsed(lc: LaunchContext) -> Any:
    """The ParsedArgs of a serve launch (or a Dynamo worker's engine), or None."""
    return lc.args if lc.inv.kind in ENGINE_KINDS else None


def problems(lc: LaunchContext, *codes: str) -> Iterator[Any]:
    pa = parsed(lc)
    if pa is None:
        return
    for p in pa.problems:
        if p.code in codes:
            yield p


def span(lc: LaunchContext, s: Any) -> Span:
    return s.for_finding(lc.path if not s.file or s.file == lc.inv.span.file else s.file)


def key_name_span(lc: LaunchContext, s: Any) -> Span:
    """A JSON key's span without its quotes (points at the name itself); a key written
    without quotes (a YAML mapping key) is left as it is."""
    d = span(lc, s)
    if d.line == d.end_line and d.end_col - d.col > 2:
        text = _line_text(lc, d)
        if len(text) >= 2 and text[0] in "\"'" and text[-1] == text[0]:
            return Span.at(d.file, d.line, d.col + 1, d.end_line, d.end_col - 1)
    return d


def _line_text(lc: LaunchContext, d: Span) -> str:
    lines = lc.file.lines if d.file == lc.path else lc.file.lines_of(d.file)
    if not 1 <= d.line <= len(lines):
        return ""
    return lines[d.line - 1][d.col - 1 : d.end_col - 1]


def json_options(lc: LaunchContext) -> Iterator[tuple[Any, Any]]:
    """(OptionValue, ConfigClass of its value) for every JSON-valued option that
    parsed into an object (the winning occurrence of each option)."""
    pa = parsed(lc)
    if pa is None:
        return
    for ov in pa.options.values():
        f = ov.flag
        if f is None or ov.json is None:
            continue
        name = value_class(lc.catalog, f)
        cls = lc.catalog.config(name) if name else None
        if cls is not None and isinstance(ov.json.value, dict):
            yield ov, cls


def value_class(catalog: Any, flag: Any) -> Optional[str]:
    """The config class a JSON-valued flag's object becomes: argparse builds it
    (``type='config'``), or a plain ``json.loads`` dict that ``create_engine_config``
    passes to the class of the flag's field as keywords (``--speculative-config``:
    ``SpeculativeConfig(**self.speculative_config)``, 0.13.0 engine/arg_utils.py:1300;
    ``--watermark-config``, ``--diffusion-config`` likewise), when the field takes
    that class and nothing else (``None`` aside)."""
    if flag.config_class_of_value:
        return flag.config_class_of_value
    if flag.type != "json" or not flag.config_class or not flag.config_field:
        return None
    owner = catalog.config(flag.config_class)
    fld = owner.field(flag.config_field) if owner is not None else None
    if fld is None or not fld.nested or not all(h in (fld.nested, "None") for h in fld.hints):
        return None
    return fld.nested


def kv_transfer(lc: LaunchContext) -> Optional[tuple[Any, dict[str, Any]]]:
    """(OptionValue, value) of --kv-transfer-config when it is a known JSON object."""
    ov = option(lc, "kv_transfer_config").ov
    if ov is None or not ov.known or not isinstance(ov.value, dict):
        return None
    return ov, ov.value


def value_span_of(lc: LaunchContext, ov: Any, *path: Any) -> Span:
    """The span of the JSON value at ``path`` inside option ``ov`` (else the option)."""
    if ov.json is not None:
        s = ov.json.value_span(*path)
        if s is not None:
            return span(lc, s)
    return span(lc, ov.value_span or ov.span)


def key_span_of(lc: LaunchContext, ov: Any, *path: Any) -> Span:
    if ov.json is not None:
        loc = ov.json.locs.get(tuple(path))
        if loc is not None and loc.name is not None:
            return span(lc, loc.name)
        s = ov.json.key_span(*path)
        if s is not None:
            return key_name_span(lc, s)
    return span(lc, ov.name_span)


def text_at(lc: LaunchContext, s: Any) -> str:
    """The text a one-line span covers in the linted file ("" otherwise)."""
    d = span(lc, s)
    if d.file != lc.path or d.line != d.end_line:
        return ""
    lines = lc.file.lines
    if not 1 <= d.line <= len(lines):
        return ""
    return lines[d.line - 1][d.col - 1 : d.end_col - 1]
