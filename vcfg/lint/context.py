"""What a rule's ``check`` receives."""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING, Any, Optional

from vcfg.catalog.model import Catalog
from vcfg.lint.config import LintConfig
from vcfg.records import field, record
from vcfg.span import split_lines

if TYPE_CHECKING:  # keep the import graph of the lint path small
    from vcfg.catalog.knowledge import Knowledge
    from vcfg.launch.model import Invocation, LaunchPlan


@record
class Target:
    """The release linted against and what vcfg knows about it."""

    catalog: Catalog
    knowledge: "Knowledge"
    config: LintConfig
    version_note: Optional[str] = None
    #: True when the user chose the release (--vllm-version, the project config): a
    #: launch's image then does not choose another
    pinned: bool = False
    #: the plugin overlays the project config names (vcfg/catalog/plugins.py); a
    #: launch's VLLM_PLUGINS may name more
    plugins: tuple[Any, ...] = ()

    @property
    def version(self) -> str:
        return self.catalog.vllm_version

    @cached_property
    def history(self) -> list[Any]:
        """Every bundled release, oldest first, as name lookups (``flag``, ``env``,
        ``config(...).field``, ``connector(...).extra_keys``; see
        vcfg/catalog/history.py): to say when something was added or removed."""
        from vcfg.catalog.history import presence_history

        return presence_history()


@record
class Run:
    """One lint run: the target it checks against and what it reads instead of the
    disk.  Everything a run learns or is given that could differ in the next run lives
    here, never in a module global: a resident process (the language server lints many
    buffers, each with its own release, plugins and open files) makes one per lint.

    Caches that hold across runs stay keyed by everything their answer depends on
    (content, catalog identity, a file's stat), so a run cannot see another's answer;
    a cache valid for one run only belongs in ``memo``."""

    target: Target
    #: absolute path -> the bytes to read for it instead of the file's (an editor's
    #: open buffers, the fix loop's edited texts, a serve config read as its own --config)
    buffers: dict[str, bytes] = field(default_factory=dict)
    #: absolute path -> the path as the user gave it, for the run's files: a file the
    #: run reads again (a --config) shows the same path
    names: dict[str, str] = field(default_factory=dict)
    #: release -> the target of launches whose image names that release (engine)
    releases: dict[str, Target] = field(default_factory=dict, repr=False)
    #: what the user should know about the run (a plugin overlay that cannot be read)
    notes: list[str] = field(default_factory=list)
    #: (bytes, path as shown) -> the serve config read from them in this run: the readers
    #: read a batch's files before any launch's --config is resolved
    #: (`vcfg.launch.yaml_config.load_serve_config`)
    configs: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    #: values derived once per run, keyed by their owner's name
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: the launch rules' findings of the last lint of this document, kept where they
    #: cannot have changed (`vcfg.lint.rule_reuse.RuleMemo`: the language server)
    rule_memo: Any = field(default=None, repr=False, compare=False)

    def buffer(self, path: str) -> Optional[bytes]:
        """The bytes given for ``path`` (any spelling of it), None: read the disk."""
        return self.buffers.get(os.path.abspath(path)) if self.buffers else None


@record
class FileContext:
    path: str  # as the user gave it (diagnostics use it)
    text: str
    plan: "LaunchPlan"
    target: Target
    truncated: bool = False
    #: the bytes linted (the positions of a fix's edits index them)
    data: bytes = b""
    #: the run this file is linted in (None: a run of its own, reading the disk)
    run: Optional[Run] = None
    _other_lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @property
    def buffers(self) -> dict[str, bytes]:
        return self.run.buffers if self.run is not None else {}

    @property
    def catalog(self) -> Catalog:
        return self.target.catalog

    @cached_property
    def lines(self) -> list[str]:
        """The file's lines (rules look up the text under a span often)."""
        return split_lines(self.text)

    def bytes_of(self, path: str) -> bytes:
        """The bytes of this file (``path`` its own) or of a file a launch here reads."""
        if path == self.path:
            return self.data
        hit = self.run.buffer(path) if self.run is not None else None
        if hit is not None:
            return hit
        try:
            from vcfg.fileio import MAX_BYTES, read_regular

            return read_regular(path)[:MAX_BYTES]
        except OSError:
            return b""

    def lines_of(self, path: str) -> list[str]:
        """Lines of a file a launch here reads, such as its --config YAML (read once;
        an open buffer of the run before the disk)."""
        cache = self._other_lines
        if path not in cache:
            cache[path] = split_lines(self.bytes_of(path).decode("utf-8", "replace"))
        return cache[path]


@record
class LaunchContext:
    file: FileContext
    inv: "Invocation"
    #: vLLM's view of the argv (vcfg.launch.args), for serve launches
    args: Any = None
    #: the release this launch runs when its image names one (vcfg.launch.release)
    #: and the user did not pin the release; None: the run's
    own_target: Optional[Target] = None
    #: values the rule helpers derive from this launch once per lint (config objects,
    #: hosts), keyed by the helper's name; not part of the launch's identity
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def catalog(self) -> Catalog:
        """The release's catalog; with a plugin named (the project config, the launch's
        ``VLLM_PLUGINS``), that catalog with the plugin's overlay (vcfg/lint/plugin_view.py)."""
        t = self.own_target or self.file.target
        if not t.plugins and "VLLM_PLUGINS" not in self.inv.env:
            return t.catalog
        from vcfg.lint.plugin_view import launch_catalog

        return launch_catalog(self, t)

    @property
    def target(self) -> Target:
        return self.own_target or self.file.target

    @property
    def path(self) -> str:
        return self.file.path


@record
class RunContext:
    """One deployment (vcfg/lint/deployments.py): its files, by path, and launches."""

    files: list[FileContext]
    launches: list[LaunchContext] = field(default_factory=list)
    target: Optional[Target] = None
    #: path -> the host its launches run on ("host:NAME" from the project config,
    #: "file:PATH" the machine that runs that file)
    hosts: dict[str, str] = field(default_factory=dict)
    name: str = ""
    #: values the run rules derive from the whole deployment once (its topology),
    #: keyed by name; not part of the run's identity
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
