"""Cross-flag constraints as data (GUIDE 3.4): one small engine, one entry per rule.

An entry names the options it involves by argparse ``dest`` (or an environment
variable as ``env:NAME``), a predicate over their resolved values, an ``unless``
condition, the vLLM releases it holds for, and message/help templates.  A rule module
declares its `Constraint` and delegates to `check`.

Resolution.  An option the user gave (on the command line or through ``--config``) has
its parsed value; one not given has the catalog flag's default, unless the entry says
the option must be given (``Operand(given=True)``: vLLM resolves its ``None`` default
later from the GPU or the model, e.g. ``get_batch_defaults``, 0.33
engine/arg_utils.py:2940).  Anything vcfg cannot know (an unknown word, a dynamic
default, argv that may hide options) makes the entry undecided, and an undecided entry
reports nothing: the engine only speaks when every value is known, the predicate
holds and the ``unless`` condition is known not to.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Span
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import UNKNOWN, is_static_default, option
from vcfg.records import record


def _same(x: Any) -> Any:
    return x


def _never(v: Any) -> bool:
    return False


@record(frozen=True)
class Operand:
    """One input of a constraint."""

    #: an argparse dest (``max_model_len``) or ``env:NAME``
    key: str
    #: the user must give it; its default is decided later by vLLM (GPU, model)
    given: bool = False
    #: the value when the release has no such option (UNKNOWN: the entry is undecided)
    absent: Any = UNKNOWN
    #: turns the parsed value (or the variable's text) into the compared value; may
    #: return UNKNOWN
    convert: Callable[[Any], Any] = _same
    #: whether a finding may point at it
    report: bool = True

    @property
    def attr(self) -> str:
        return self.key.split(":", 1)[1] if self.key.startswith("env:") else self.key


@record(frozen=True)
class Value:
    """A resolved operand: its value, and where (and how) the user wrote it."""

    value: Any
    #: the option as written (``-tp``), its long name when not given, or the variable
    name: str
    given: bool = False
    span: Optional[Span] = None
    #: the text as written, for variables
    text: Optional[str] = None

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __str__(self) -> str:
        return str(self.value)


@record(frozen=True)
class Constraint:
    """``violated`` unless ``unless``, for the releases in ``versions``."""

    code: str
    operands: tuple[Operand, ...]
    violated: Callable[[Any], bool]
    message: str
    help: str = ""
    unless: Callable[[Any], bool] = _never
    versions: Optional[str] = None
    #: extra template values computed from the resolved operands (e.g. a product)
    derive: Optional[Callable[[dict[str, "Value"]], dict[str, Any]]] = None
    #: for a one-operand entry: the values it accepts, as a JSON Schema the serve
    #: schema puts on the option (vcfg/schema/checks.py), so the editor says what lint
    #: says; None where the check cannot be written as one (a schema then says nothing)
    schema: Optional[dict[str, Any]] = None


# --------------------------------------------------------------------------- resolution


def script_binding(lc: LaunchContext, name: str) -> Any:
    """The binding of variable ``name`` the script (or the command's prefixes) gives this
    launch, when a sourced file or ``eval`` after it cannot have changed it; else None."""
    b = lc.inv.env.get(name)
    if b is None or b.source not in ("script", "prefix") or not lc.inv.inherits_env:
        return None
    if b.source == "script" and any(u.span.start > b.span.start for u in lc.inv.env_unknowns):
        return None
    return b


def _resolve(lc: LaunchContext, op: Operand) -> Value:
    # many entries read the same options of one launch (tensor_parallel_size, ...):
    # where each (option, given) comes from is found once per launch, each entry
    # only applies its own ``convert``
    memo = lc.memo.get("constraints._raw")
    if memo is None:
        memo = lc.memo["constraints._raw"] = {}
    raw = memo.get((op.key, op.given))
    if raw is None:
        raw = memo[(op.key, op.given)] = _raw(lc, op)
    value, name, given, span, text = raw
    if value is _ABSENT:
        return Value(op.absent, name)
    if value is UNKNOWN:
        return Value(UNKNOWN, name)
    return Value(op.convert(value), name, given, span, text)


#: the release has no such option (the operand's ``absent`` value applies)
_ABSENT: Any = object()


def _raw(lc: LaunchContext, op: Operand) -> tuple[Any, str, bool, Optional[Span], Optional[str]]:
    """(value before ``convert``, name, given, span, text) of an operand on one launch:
    the value is UNKNOWN when vcfg cannot know it, _ABSENT when the release has no
    such option; ``given`` only with a known value the user wrote."""
    return _raw_key(lc, op.key, op.given)


def _raw_key(lc: LaunchContext, key: str, must_give: bool) -> tuple[Any, str, bool, Optional[Span], Optional[str]]:
    if key.startswith("env:"):
        name = key[4:]
        b = script_binding(lc, name)
        if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
            return UNKNOWN, name, False, None, None
        return b.value.text, name, True, b.value.span.for_finding(lc.path), b.value.text
    o = option(lc, key, given=must_give)
    if not o.exists:
        return _ABSENT, key, False, None, None
    if o.ov is None:
        return o.value, o.name, False, None, None
    if not o.known:
        return UNKNOWN, o.ov.written, False, None, None
    where = o.ov.name_span
    path = lc.path if not where.file or where.file == lc.inv.span.file else where.file
    return o.value, o.name, True, where.for_finding(path), None


def gives_any(lc: LaunchContext, operands: tuple[tuple[str, bool], ...]) -> bool:
    """Whether an entry with these operands (``(key, given)`` pairs) could report on
    ``lc`` as far as its operands tell: False when the launch gives none of them with a
    known value, so that each is its release's static default, the release lacks it, or
    it is UNKNOWN (the entry is then undecided and reports nothing).  The engine leaves
    a rule module out, unimported, on such launches (`vcfg.lint.rule_index`) only for a
    bundled release's own catalog, where tests/test_rule_index.py checks that no indexed
    entry ever fires on the defaults alone; for any other catalog (a user's build, a
    plugin overlay) this is True."""
    if lc.inv.kind != "serve" or lc.args is None:
        return False  # `evaluate` reports nothing on such a launch
    cat = lc.catalog
    if cat is not lc.target.catalog or not _bundled(cat):
        return True
    memo = lc.memo.get("constraints._raw")
    if memo is None:
        memo = lc.memo["constraints._raw"] = {}
    given = lc.args.options
    for key, must_give in operands:
        if key not in given and not key.startswith("env:"):
            continue  # an option the launch does not give (`_raw_key` would say so, slower)
        raw = memo.get((key, must_give))
        if raw is None:
            raw = memo[(key, must_give)] = _raw_key(lc, key, must_give)
        if raw[2]:
            return True
    return False


def _bundled(cat: Any) -> bool:
    """A release's catalog as vcfg bundles it (written by the generator), not a user's
    own build (``vcfg catalog build`` writes its own ``generated_by``)."""
    from vcfg.catalog.releases import BUNDLED_RELEASES, GENERATED_BY

    return bool(cat.generated_by == GENERATED_BY and cat.vllm_version in BUNDLED_RELEASES)


# --------------------------------------------------------------------------- checking


def launch_span(lc: LaunchContext) -> Span:
    """Where a launch is named: the word before its arguments (``serve`` of ``vllm
    serve``, the module of ``python -m``), else the whole command."""
    inv = lc.inv
    if inv.args:
        first = inv.args[0].span.start
        before = [w for w in inv.command if w.span.end <= first and w.span.file == inv.span.file]
        if before:
            return before[-1].span.for_finding(lc.path)
    elif inv.command:
        return inv.command[-1].span.for_finding(lc.path)
    return inv.span.for_finding(lc.path)


def _order(s: Span, path: str) -> tuple[int, int, int]:
    # words of the launch's own file rank after a --config YAML's (the YAML is read
    # first, the command line wins), then by position
    return (1 if s.file == path else 0, s.line, s.col)


def evaluate(entry: Constraint, lc: LaunchContext) -> Optional[dict[str, Value]]:
    """The resolved operands when the entry is violated (and not excused), else None."""
    if lc.inv.kind != "serve" or lc.args is None:
        return None
    if entry.versions and not _holds(entry.versions, lc.target.version):
        return None
    # an entry none of whose options the launch gives (most entries on most launches)
    # compares the release's defaults only: that verdict is found once per run
    info = _SHAPES.get(id(entry))
    if info is None or info[0] is not entry:
        info = _SHAPES[id(entry)] = (
            entry,
            frozenset(op.key for op in entry.operands),
            any(op.key.startswith("env:") for op in entry.operands),
        )
    if not info[2] and info[1].isdisjoint(lc.args.options) and not _defaults_violate(entry, lc):
        return None
    # the compared values first, without a `Value` each: almost every entry is
    # undecided or holds on almost every launch, and only a violation needs the
    # names and spans
    memo = lc.memo.get("constraints._raw")
    if memo is None:
        memo = lc.memo["constraints._raw"] = {}
    compared: dict[str, Any] = {}
    for op in entry.operands:
        raw = memo.get((op.key, op.given))
        if raw is None:
            raw = memo[(op.key, op.given)] = _raw(lc, op)
        value = raw[0]
        x = op.absent if value is _ABSENT else (UNKNOWN if value is UNKNOWN else op.convert(value))
        if x is UNKNOWN:  # undecided: the other operands cannot change that
            return None
        compared[op.attr] = x
    try:
        raw_ns = SimpleNamespace(**compared)
        if not entry.violated(raw_ns) or entry.unless(raw_ns):
            return None
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return None
    values = {op.attr: _resolve(lc, op) for op in entry.operands}
    try:
        if entry.derive is not None:
            for k, x in entry.derive(dict(values)).items():
                values[k] = Value(x, k)
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return None
    return values


#: id(entry) -> (entry, its option keys, whether it reads a variable)
_SHAPES: dict[int, tuple[Constraint, frozenset[str], bool]] = {}


def _defaults_violate(entry: Constraint, lc: LaunchContext) -> bool:
    """Whether ``entry`` may be violated on a serve launch that gives none of its
    options: `evaluate` with every operand as `_raw` resolves an option not given (its
    static default, UNKNOWN when it must be given, is computed later or the argv may
    hide it, the operand's ``absent`` when the release has no such option).  That
    depends on the launch's catalog and on whether its argv is complete only, so it is
    kept per run (`Run.memo`; a run may check launches of several catalogs)."""
    catalog = lc.catalog
    complete = bool(lc.args.complete)
    run = lc.file.run
    memo = run.memo.setdefault("constraints.defaults", {}) if run is not None else {}
    key = (id(entry), id(catalog), complete)
    hit = memo.get(key)
    if hit is not None and hit[0] is entry and hit[1] is catalog:
        return bool(hit[2])
    verdict = True
    compared: dict[str, Any] = {}
    for op in entry.operands:
        flag = catalog.flag_for_dest(op.key)
        if flag is None:
            x = op.absent
        elif op.given or not complete or not is_static_default(flag.default):
            x = UNKNOWN
        else:
            x = op.convert(flag.default)
        if x is UNKNOWN:
            verdict = False
            break
        compared[op.attr] = x
    if verdict:
        try:
            ns = SimpleNamespace(**compared)
            verdict = bool(entry.violated(ns)) and not entry.unless(ns)
        except (TypeError, ValueError, ArithmeticError, AttributeError):
            verdict = False
    memo[key] = (entry, catalog, verdict)
    return verdict


@lru_cache(maxsize=256)
def _holds(versions: str, version: str) -> bool:
    """Whether release ``version`` is in the range ``versions`` (an odd version string:
    False, the entry stays silent); parsed once per (range, release), not per launch."""
    from vcfg.catalog.versions import parse_range, parse_version

    try:
        return parse_version(version) in parse_range(versions)
    except Exception:  # noqa: BLE001 - an odd version string: stay silent
        return False


def check(rule: Any, entry: Constraint, lc: LaunchContext) -> Iterator[Diagnostic]:
    """The finding of ``entry`` on one launch, at the operand the user wrote last."""
    values = evaluate(entry, lc)
    if values is None:
        return
    reportable = {op.attr for op in entry.operands if op.report}
    spots = [v.span for k, v in values.items() if k in reportable and v.span is not None]
    where = max(spots, key=lambda s: _order(s, lc.path)) if spots else launch_span(lc)
    try:
        message = entry.message.format(**values)
        help = entry.help.format(**values) if entry.help else None
    except (KeyError, IndexError, ValueError, AttributeError):
        return
    yield rule.diag(where, message, help=help)


# --------------------------------------------------------------------------- converters


def positive_int(x: Any) -> Any:
    """An int > 0 (``-1``/``auto`` for max_model_len mean "derived": unknown)."""
    if isinstance(x, bool) or not isinstance(x, int) or x <= 0:
        return UNKNOWN
    return x


def device_count(text: Any) -> Any:
    """How many devices a ``CUDA_VISIBLE_DEVICES`` value makes visible; UNKNOWN for an
    empty value (no GPU at all: another problem)."""
    ids = device_ids(text)
    return len(ids) if ids else UNKNOWN


def device_ids(text: Any) -> list[str]:
    """The entries of a ``CUDA_VISIBLE_DEVICES`` value, as written (``0``, ``GPU-<uuid>``)."""
    if not isinstance(text, str):
        return []
    return [p.strip() for p in text.split(",") if p.strip()]


def holds(versions: str, version: str) -> bool:
    """Whether release ``version`` is in the range ``versions`` (for a rule whose check
    changes inside the releases it covers)."""
    return _holds(versions, version)
