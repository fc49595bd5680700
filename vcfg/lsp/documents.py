"""The open documents the server lints: where each one lives, its kind, and the last
lint of its text (kept until the text or the settings change)."""

from __future__ import annotations

import os
from typing import Any, Optional
from urllib.parse import unquote, urlparse

from vcfg.records import field, record

#: a document larger than this is linted when opened or saved, not on every change
LIVE_LIMIT = 512 * 1024
YAML_LANGUAGES = {"yaml", "dockercompose", "helm"}
YAML_SUFFIXES = (".yaml", ".yml")
SHELL_LANGUAGES = {"shellscript", "sh", "bash", "zsh"}


def uri_to_path(uri: str, language_id: str = "") -> str:
    """A file path for a ``file:`` URI; for any other URI (an unsaved buffer) a name
    that no file has (starting with ``<``: nothing is read next to it), ending in
    ``.yaml`` for a YAML buffer and ``.sh`` for a shell one, so the right reader takes
    it."""
    try:
        u = urlparse(uri)
    except ValueError:
        u = None
    if u is not None and u.scheme == "file":
        path = unquote(u.path)
        if os.name == "nt" and len(path) > 2 and path[0] == "/" and path[2] == ":":  # pragma: no cover
            path = path[1:]
        return path
    name = (uri.split(":", 1)[-1].rsplit("/", 1)[-1] or "untitled")[:200]
    if language_id in YAML_LANGUAGES and not name.endswith(YAML_SUFFIXES):
        name += ".yaml"
    elif language_id in SHELL_LANGUAGES and "." not in name:
        name += ".sh"
    return f"<{name}>"


def is_yaml(path: str, language_id: str = "") -> bool:
    return path.lower().rstrip(">").endswith(YAML_SUFFIXES) or language_id in YAML_LANGUAGES


@record
class LintOutcome:
    version: Optional[int]
    text_hash: int
    target_key: Any
    result: Any  # vcfg.lint.engine.LintResult
    elapsed_ms: float = 0.0
    #: CPU time of this process (less sensitive to other load on the machine)
    cpu_ms: float = 0.0
    #: not yet published (the server times only the pushes that linted)
    fresh: bool = True


@record
class Document:
    uri: str
    path: str
    language_id: str = ""
    version: Optional[int] = None
    last: Optional[LintOutcome] = None
    #: the pending debounced lint (an asyncio TimerHandle)
    pending: Any = None
    problems_shown: set[str] = field(default_factory=set)
    #: (hash of the text, its `LineMap`)
    lines: Any = None
    #: (the `LineMap` read, its VLLM_PLUGINS assignments: vcfg/lsp/plugins.py)
    plugins: Any = None
    #: what the next lint takes from the last (`vcfg.lint.rule_reuse.Reuse`): the
    #: script's read, resumed where the text changed, and unchanged launches' findings
    reuse: Any = None

    @property
    def yaml(self) -> bool:
        return is_yaml(self.path, self.language_id)


def to_bytes(text: str) -> bytes:
    """The bytes the linter reads; a lone surrogate (possible in JSON-RPC text) becomes
    U+FFFD instead of an error."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


def lint(
    doc: Document, text: str, target: Any, target_key: Any, others: Optional[dict[str, str]] = None
) -> LintOutcome:
    """The lint of ``text`` as ``doc``, reused while neither it, the target nor the
    other open buffers a ``--config`` may name (``others``: absolute path -> text)
    changed."""
    import time

    h = hash((text, tuple(sorted((k, hash(v)) for k, v in (others or {}).items()))))
    last = doc.last
    if last is not None and last.text_hash == h and last.target_key == target_key:
        return last
    from vcfg.lint.engine import lint_text
    from vcfg.lint.rule_reuse import Reuse

    if doc.reuse is None:
        doc.reuse = Reuse()
    t0, c0 = time.perf_counter(), time.process_time()
    result = lint_text(
        doc.path,
        to_bytes(text),
        target,
        {k: to_bytes(v) for k, v in others.items()} if others else None,
        reuse=doc.reuse,
    )
    out = LintOutcome(
        doc.version, h, target_key, result, (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    )
    doc.last = out
    return out


class LineMap:
    """Lines as vcfg counts them (split at ``\\n``, as `vcfg.launch.model.LineIndex`)
    and columns in the client's position encoding (``utf-16`` unless the client and
    server agreed on ``utf-8`` or ``utf-32``)."""

    __slots__ = ("lines", "encoding")

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.lines = text.split("\n")
        self.encoding = encoding

    def _units(self, s: str) -> int:
        if self.encoding == "utf-32" or s.isascii():
            return len(s)
        if self.encoding == "utf-8":
            return len(s.encode("utf-8", "surrogatepass"))
        return len(s.encode("utf-16-le", "surrogatepass")) // 2

    def line_text(self, line: int) -> str:
        """Line ``line`` (0-based) without its ``\\r``; '' past the end."""
        if 0 <= line < len(self.lines):
            s = self.lines[line]
            return s[:-1] if s.endswith("\r") else s
        return ""

    def to_client(self, line: int, col: int) -> tuple[int, int]:
        """A 0-based line and code-point column as the client counts it."""
        if line >= len(self.lines):
            return max(0, len(self.lines) - 1), self._units(self.line_text(len(self.lines) - 1))
        s = self.line_text(line)
        col = max(0, min(col, len(s)))
        return line, self._units(s[:col])

    def from_client(self, line: int, units: int) -> tuple[int, int]:
        """The 0-based line and code-point column of a client position (clamped)."""
        if line < 0:
            return 0, 0
        if line >= len(self.lines):
            line = len(self.lines) - 1
            return line, len(self.line_text(line))
        s = self.line_text(line)
        if self.encoding == "utf-32" or s.isascii():
            return line, max(0, min(units, len(s)))
        n = 0
        for i, ch in enumerate(s):
            if n >= units:
                return line, i
            n += self._units(ch)
        return line, len(s)
