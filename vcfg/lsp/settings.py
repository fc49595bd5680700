"""What the server lints against: the client's settings, the project's ``[tool.vcfg]``
(the nearest ``.vcfg.toml`` or ``pyproject.toml``, as `vcfg lint` finds it) and the
release chosen per workspace or per file.

The release of a document, first that applies:
1. the release set for that file (the ``vcfg.setRelease`` command, scope ``file``);
2. the release set for its workspace folder (the command, scope ``workspace``, or the
   client setting ``vcfg.vllmVersion``);
3. ``vllm-version`` in the project config;
4. the installed vLLM's version, else the newest bundled catalog (as `vcfg lint`).

A `Target` (catalog, knowledge packs, config) is built once per (release, config file,
its modification time) and reused by every lint, completion and hover: the warm path
reads only the changed document.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Optional

from vcfg.errors import VcfgError
from vcfg.lint.config import LintConfig, load_config
from vcfg.records import field, record

DEFAULT_DEBOUNCE_MS = 150
#: seconds before a folder without a project config is searched again
NO_CONFIG_RECHECK_S = 5.0
#: the most targets (release x config) kept at once
MAX_TARGETS = 8


@record
class ClientSettings:
    """The ``vcfg`` section of the client's settings (initializationOptions or
    workspace/didChangeConfiguration)."""

    vllm_version: Optional[str] = None
    #: glob (matched against the file's path, its end, or its name) -> release
    releases: dict[str, str] = field(default_factory=dict)
    config_path: Optional[str] = None
    knowledge: list[str] = field(default_factory=list)
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    #: base URL of the rule pages (``{base}/VC001-unknown-flag.md``); default: the
    #: docs/rules folder of a source checkout, when there is one
    rules_url: Optional[str] = None


_NAMES = {
    "vllmVersion": "vllm_version",
    "vllm-version": "vllm_version",
    "releases": "releases",
    "configPath": "config_path",
    "knowledge": "knowledge",
    "debounceMs": "debounce_ms",
    "rulesUrl": "rules_url",
}


def parse_client_settings(raw: Any) -> tuple[ClientSettings, list[str]]:
    """Settings from whatever the client sent (``{"vcfg": {...}}`` or the section
    itself); what was wrong with it, as messages (never an exception)."""
    out = ClientSettings()
    problems: list[str] = []
    if isinstance(raw, dict) and isinstance(raw.get("vcfg"), dict):
        raw = raw["vcfg"]
    if raw is None:
        return out, problems
    if not isinstance(raw, dict):
        return out, [f"vcfg settings must be an object, not {type(raw).__name__}"]
    for key, value in raw.items():
        name = _NAMES.get(key)
        if name is None:
            problems.append(f"unknown vcfg setting {key!r}")
            continue
        if value is None:
            continue
        if name in ("vllm_version", "config_path", "rules_url"):
            if isinstance(value, str) and value.strip():
                setattr(out, name, value.strip())
            elif value != "":
                problems.append(f"vcfg.{key} must be a string")
        elif name == "releases":
            if isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                out.releases = dict(value)
            else:
                problems.append(f"vcfg.{key} must map file globs to release numbers")
        elif name == "knowledge":
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                out.knowledge = list(value)
            else:
                problems.append(f"vcfg.{key} must be a list of folders")
        elif name == "debounce_ms":
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000:
                out.debounce_ms = value
            else:
                problems.append(f"vcfg.{key} must be a number of milliseconds (0 to 10000)")
    return out, problems


_CHECKED: set[str] = set()


def check_release(version: str) -> str:
    """``version`` if vcfg has a catalog for it (exactly or by the usual fallback);
    `VcfgError` otherwise.  (Remembered: the server asks on every lint.)"""
    if version in _CHECKED:
        return version
    from vcfg.catalog import store

    store.resolve_version(version)
    _CHECKED.add(version)
    return version


class Settings:
    """Client settings, release overrides and the targets built from them."""

    def __init__(self) -> None:
        self.client = ClientSettings()
        self.workspace_release: Optional[str] = None
        self.file_release: dict[str, str] = {}
        self._configs: dict[str, tuple[Optional[tuple[str, float]], LintConfig, float]] = {}
        self._targets: dict[tuple[Any, ...], Any] = {}

    # -- releases
    def release_for(self, path: str) -> tuple[Optional[str], str]:
        """The release asked for ``path`` (None: let the config and the defaults
        decide) and where the choice comes from."""
        if path in self.file_release:
            return self.file_release[path], "file release (vcfg.setRelease)"
        import fnmatch

        for pattern, version in self.client.releases.items():
            # a relative glob matches the end of the path ("legacy/*.sh")
            if (
                fnmatch.fnmatch(path, pattern)
                or fnmatch.fnmatch(os.path.basename(path), pattern)
                or not os.path.isabs(pattern)
                and fnmatch.fnmatch(path, "*/" + pattern)
            ):
                return version, f"vcfg.releases[{pattern!r}]"
        if self.workspace_release:
            return self.workspace_release, "workspace release (vcfg.setRelease)"
        if self.client.vllm_version:
            return self.client.vllm_version, "vcfg.vllmVersion setting"
        return None, ""

    # -- project config
    def config_for(self, path: str) -> LintConfig:
        """The ``[tool.vcfg]`` nearest the file, re-read when its file changed."""
        if self.client.config_path:
            key = "explicit:" + self.client.config_path
            start = None
        else:
            start = Path(path).parent if os.path.isabs(path) else Path.cwd()
            key = str(start)
        hit = self._configs.get(key)
        now = time.monotonic()
        if hit is not None:
            stamp, cfg, when = hit
            # a config file that changed is read again; where there was none, look
            # again now and then (one may have been created)
            if stamp is not None and _stamp(stamp[0]) == stamp or stamp is None and now - when < NO_CONFIG_RECHECK_S:
                return cfg
        if self.client.config_path:
            cfg = load_config(explicit=Path(self.client.config_path))
        else:
            cfg = load_config(start)
        cfg = _absolute_patterns(cfg)
        self._configs[key] = (_stamp(str(cfg.path)) if cfg.path else None, cfg, now)
        return cfg

    def forget_configs(self) -> None:
        self._configs.clear()

    # -- targets
    def target_for(self, path: str) -> tuple[Any, list[str]]:
        """The `Target` to lint ``path`` against, and problems to tell the user (a bad
        config or release setting: the defaults are used instead)."""
        from vcfg.lint.engine import make_target

        problems: list[str] = []
        try:
            config = self.config_for(path)
        except VcfgError as e:
            problems.append(e.message)
            config = LintConfig()
        version, origin = self.release_for(path)
        if version is not None:
            try:
                check_release(version)
            except VcfgError as e:
                problems.append(f"{origin}: {e.message}")
                version = None
        stamp = _stamp(str(config.path)) if config.path else None
        key = (version, str(config.path), stamp, tuple(self.client.knowledge))
        target = self._targets.get(key)
        if target is None:
            try:
                target = make_target(version, config, [Path(k) for k in self.client.knowledge])
            except VcfgError as e:
                problems.append(e.message)
                target = make_target(version, LintConfig())
            if origin and target.version_note:
                target.version_note = target.version_note.replace("--vllm-version", origin, 1)
            self._targets[key] = target
            while len(self._targets) > MAX_TARGETS:
                del self._targets[next(iter(self._targets))]
        return target, problems

    def loaded_releases(self) -> list[str]:
        return sorted({t.version for t in self._targets.values()})


def _stamp(path: str) -> Optional[tuple[str, float]]:
    try:
        return path, os.stat(path).st_mtime
    except OSError:
        return path, -1.0


def _absolute_patterns(cfg: LintConfig) -> LintConfig:
    """per-file-ignores globs are written relative to the config's folder (as `vcfg
    lint` run there sees them); the server lints absolute paths."""
    if not cfg.per_file_ignores or cfg.path is None:
        return cfg
    base = cfg.path.parent
    cfg.per_file_ignores = {
        (p if os.path.isabs(p) or "/" not in p else str(base / p)): codes for p, codes in cfg.per_file_ignores.items()
    }
    return cfg
