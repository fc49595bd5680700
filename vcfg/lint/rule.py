"""The record every rule module exports as ``RULE``.

A rule is one module under ``vcfg/lint/rules/``: a ``RULE = Rule(...)`` value and one
``check(ctx)`` generator of `Diagnostic`s.  ``scope`` says what ``check`` receives:
``"launch"`` one `LaunchContext` per vLLM launch, ``"file"`` one `FileContext` per
linted file, ``"run"`` one `RunContext` per deployment (prefill/decode pairs, port
collisions), ``"suppressions"`` a file's `# vcfg: disable=` comments once the engine has
applied them (VC900).  The engine runs a rule only for launches (files, runs) whose
release is in ``versions``; a rule does not check its range itself.
"""

from __future__ import annotations

from typing import Literal, Optional

from vcfg.diagnostics import Diagnostic, Fix, Severity, Span
from vcfg.edits import Applicability
from vcfg.records import record

Scope = Literal["launch", "file", "run", "suppressions"]


@record(frozen=True)
class FixInfo:
    """A fix a rule offers (its docs page lists them): how safe, and what it does."""

    applicability: Applicability
    what: str


@record(frozen=True)
class Rule:
    code: str  # "VC001": stable, never reused
    name: str  # "unknown-flag": kebab-case, stable
    summary: str  # one line, lowercase
    severity: Severity
    scope: Scope = "launch"
    #: vLLM releases the rule applies to, as a range (">=0.16"); None: all
    versions: Optional[str] = None
    #: docs page material, in our words
    why: str = ""
    when_vllm_fails: str = ""
    example: str = ""
    use_instead: str = ""
    #: the file kind of ``example``/``use_instead``: "sh" or "yaml"
    example_kind: str = "sh"
    #: files the example needs beside the script: (relative path, content), e.g. a
    #: model's config.json or a .vcfg.toml
    example_files: tuple[tuple[str, str], ...] = ()
    #: where vLLM enforces or assumes what the rule checks: ``vllm@X.Y.Z:path:line``,
    #: one per release where the check changes form (the first and the newest)
    sources: tuple[str, ...] = ()
    #: the fixes its findings may carry (``vcfg lint --fix``; unsafe ones need
    #: ``--unsafe-fixes``)
    fixes: tuple[FixInfo, ...] = ()

    def diag(
        self,
        span: Span,
        message: str,
        help: Optional[str] = None,
        notes: tuple[str, ...] = (),
        fix: Optional[Fix] = None,
        severity: Optional[Severity] = None,
    ) -> Diagnostic:
        return Diagnostic(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            span=span,
            help=help,
            notes=notes,
            fix=fix,
        )

    @property
    def slug(self) -> str:
        return f"{self.code}-{self.name}"
