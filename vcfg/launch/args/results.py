"""What the replay of vLLM's parser returns: a typed value per option (`OptionValue`)
with the words it came from, and the problems vLLM's parser would report (`ArgProblem`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

from vcfg.launch.args.jsonpos import JsonDoc
from vcfg.launch.model import Span, Word
from vcfg.records import record

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from vcfg.catalog.model import Flag


@record(frozen=True)
class ArgProblem:
    """A precise problem with the arguments.

    codes: ``unknown-option``, ``ambiguous-option``, ``missing-value``,
    ``unexpected-value`` (``--bool-flag=x``), ``invalid-value`` (type
    conversion failed), ``invalid-choice``, ``invalid-json``, ``extra-argument``
    (an unexpected positional), ``model-option``, ``model-twice`` (a model first and with --model), ``model-missing``,
    ``config-file``, ``config-equals`` (``--config=f.yaml``: not expanded),
    ``duplicate``, ``dotted-overrides`` (dotted keys replace a whole JSON
    given earlier), ``yaml-false-dropped``, ``unknown-value`` (vcfg cannot
    compute the value).  ``severity`` is ``error`` when vLLM would refuse to
    start at parse time, ``warning`` for silent surprises, ``info`` for what
    vcfg cannot see.
    """

    code: str
    message: str
    span: Span
    option: Optional[str] = None
    severity: str = "error"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "span": self.span.to_json(),
            "option": self.option,
            "severity": self.severity,
        }


@record(frozen=True)
class OptionValue:
    """One occurrence of an option, typed."""

    #: The catalog flag (None: an option this vLLM version does not have).
    flag: Optional["Flag"]
    #: The option string vLLM's parser matched (``--tensor-parallel-size``),
    #: or, for an unknown option, the normalised text.
    option: str
    #: As written in the script (``-tp``, ``--tensor_parallel_size=4``).
    written: str
    dest: str
    value: Any
    known: bool
    words: tuple[Word, ...]
    span: Span
    name_span: Span
    value_span: Optional[Span]
    #: ``cli``, ``config`` (from the --config YAML), ``dotted`` (merged keys).
    origin: str = "cli"
    json: Optional[JsonDoc] = None
    negated: bool = False
    #: How the option string was reached: ``exact``, ``abbrev``, ``alias``.
    match: str = "exact"

    @property
    def written_name(self) -> str:
        """The option's name as written, without its ``=value`` (``-tp``)."""
        return self.written.split("=", 1)[0]

    def to_json(self) -> dict[str, Any]:
        v = self.value
        try:
            json.dumps(v)
        except (TypeError, ValueError):
            v = repr(v)
        return {
            "option": self.option,
            "written": self.written,
            "dest": self.dest,
            "value": v,
            "known": self.known,
            "span": self.span.to_json(),
            "name_span": self.name_span.to_json(),
            "value_span": self.value_span.to_json() if self.value_span else None,
            "origin": self.origin,
            "json": self.json.to_json() if self.json else None,
            "negated": self.negated,
            "match": self.match,
            "unknown_option": self.flag is None,
        }


@record(frozen=True)
class ParsedArgs:
    version: str
    kind: str
    #: dest -> the occurrence that wins (the last one).
    options: dict[str, OptionValue]
    #: Every occurrence in the order vLLM's argparse sees them (duplicates kept).
    occurrences: tuple[OptionValue, ...]
    unknown_options: tuple[OptionValue, ...]
    model: Optional[OptionValue]
    extra_positionals: tuple[Word, ...]
    problems: tuple[ArgProblem, ...]
    #: False when unknown words may add options vcfg cannot see.
    complete: bool
    config_path: Optional[str] = None

    def get(self, dest: str) -> Optional[OptionValue]:
        return self.options.get(dest)

    def value(self, dest: str, default: Any = None) -> Any:
        ov = self.options.get(dest)
        return ov.value if ov is not None and ov.known else default

    def all(self, dest: str) -> list[OptionValue]:
        return [o for o in self.occurrences if o.dest == dest]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "model": self.model.to_json() if self.model else None,
            "options": {k: v.to_json() for k, v in self.options.items()},
            "occurrences": [o.to_json() for o in self.occurrences],
            "unknown_options": [o.to_json() for o in self.unknown_options],
            "extra_positionals": [w.to_json() for w in self.extra_positionals],
            "problems": [p.to_json() for p in self.problems],
            "complete": self.complete,
            "config_path": self.config_path,
        }
