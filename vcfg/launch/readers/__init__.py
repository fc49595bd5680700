"""Readers: one module per file format that can hold a vLLM launch.

A reader module holds three things:

- ``READER``: a `Reader` record (name, file patterns, summary);
- ``detect(path, text, ctx)``: an `Evidence` (why this file is this format, with a
  confidence) or None when the reader has nothing to say; an `Evidence` with
  confidence 0 is a reasoned "no" that ``vcfg launch show --why`` prints;
- ``read(path, data, evidence, ctx)``: the file's `LaunchPlan`, launches in the one
  launch model (argv as vLLM receives it, environment, working folder, image, spans
  into the user's file).  Never raises.

`vcfg.launch.read` chooses the reader for a file.  So that the cold lint of one
bash script imports only the bash reader, the choice starts from `REGISTRY` below
(module name, patterns, shebang interpreters): plain data, no reader imported.  A
test checks it against each module's ``READER``.  Adding a reader: write its
module here, add it to `REGISTRY` (the order breaks ties between equal
confidences), add a test with real-looking files.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.records import field, record, tuple_record


@tuple_record
class Reader:
    """What a reader reads."""

    name: str
    #: shell-style patterns matched against the file's name (case-insensitive)
    patterns: tuple[str, ...]
    summary: str
    #: interpreters named on a ``#!`` line that make an extension-less file this
    #: reader's (``bash``, ``sh``): the folder walk includes such files
    shebang: tuple[str, ...] = ()


@tuple_record
class Evidence:
    """Why a file is (or is not) a reader's format."""

    reader: str
    #: 1.0: certain (a Kubernetes ``kind`` this reader knows); 0.5: a guess from the
    #: name alone; 0: not this format (``reasons`` say why)
    confidence: float
    reasons: tuple[str, ...]
    #: what detect learned and read may reuse (parsed YAML documents ...)
    data: Any = None

    @property
    def claims(self) -> bool:
        return self.confidence > 0


@record
class ReadContext:
    """What a reader may know beyond the file itself."""

    #: the release's catalog, for readers that recognise vLLM options
    catalog: Optional[Any] = None
    #: absolute paths of files a launch in this run reads with ``--config``
    referenced: dict[str, str] = field(default_factory=dict)
    #: True when the user named the file (not found by walking a folder)
    named: bool = True
    #: the last read of this document, to resume (`vcfg.launch.shell_reuse.ShellMemo`:
    #: the language server); None: read from scratch
    reuse: Optional[Any] = None
    #: the serve configs read in this run (`vcfg.lint.context.Run.configs`); None: none kept
    configs: Optional[dict[Any, Any]] = None


#: (module, patterns, shebang interpreters) in tie-break order; each must equal
#: the module's READER (tests/test_readers.py checks it).
REGISTRY: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("bash", ("*.sh", "*.bash", "*.zsh", "*.ksh", "*.sbatch", "*.slurm"), ("bash", "sh", "zsh", "ksh", "dash")),
    ("kubernetes", ("*.yaml", "*.yml"), ()),
    ("compose", ("*.yaml", "*.yml"), ()),
    ("helm_values", ("*.yaml", "*.yml"), ()),
    ("github_actions", ("*.yaml", "*.yml"), ()),
    ("skypilot", ("*.yaml", "*.yml"), ()),
    ("dstack", ("*.yaml", "*.yml"), ()),
    ("srt_slurm", ("*.yaml", "*.yml"), ()),
    ("ray_serve", ("*.yaml", "*.yml"), ()),
    ("serve_config", ("*.yaml", "*.yml"), ()),
    ("markdown", ("*.md", "*.markdown"), ()),
    ("rst", ("*.rst", "*.rest"), ()),
    (
        "dockerfile",
        (
            "dockerfile",
            "dockerfile.*",
            "dockerfile-*",
            "dockerfile_*",
            "*.dockerfile",
            "*-dockerfile",
            "*_dockerfile",
            "containerfile",
            "containerfile.*",
            "containerfile-*",
            "containerfile_*",
        ),
        (),
    ),
)


def shebang_interpreter(head: bytes) -> Optional[str]:
    """The interpreter a ``#!`` line names (``#!/usr/bin/env bash`` -> bash)."""
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    parts = line.split()
    if not parts:
        return None
    prog = parts[0].rsplit("/", 1)[-1]
    if prog == "env":
        rest = [p for p in parts[1:] if not p.startswith("-") and "=" not in p]
        prog = rest[0].rsplit("/", 1)[-1] if rest else ""
    return prog or None
