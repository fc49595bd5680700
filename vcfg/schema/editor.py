"""``vcfg init-editor``: point editors at vcfg's schemas.

For a YAML file it adds one line at the top, the modeline yaml-language-server
(VS Code's YAML extension, and editors using the same server) reads::

    # yaml-language-server: $schema=.vcfg/schemas/0.33.0/serve.schema.json

and changes nothing else in the file (byte order mark and line endings kept).  A
JSON file cannot hold a comment, and a ``"$schema"`` key would be an unknown key
to vLLM, so for JSON files (and with ``vscode=True`` for all files) it returns the
VS Code ``yaml.schemas`` / ``json.schemas`` settings instead.

By default the schema files are written under ``.vcfg/schemas/<release>/`` and the
modelines use paths relative to each YAML file, which the language server resolves
from the file's folder.  With ``base_url`` the modelines point to published schemas
(``<base_url>/<release>/serve.schema.json``) and nothing is written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Optional

from vcfg.errors import VcfgError
from vcfg.records import field, record
from vcfg.schema import common as c

MODELINE_RE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S*)\s*$")
YAML_SUFFIXES = (".yaml", ".yml")
JSON_SUFFIXES = (".json",)


def modeline(ref: str) -> str:
    return f"# yaml-language-server: $schema={ref}"


def find_modeline(text: str) -> Optional[tuple[int, str]]:
    """(line index, schema reference) of the first modeline, if any."""
    for i, line in enumerate(text.splitlines()):
        m = MODELINE_RE.match(line.lstrip("\ufeff"))
        if m:
            return i, m.group(1)
    return None


def set_modeline(text: str, ref: str, force: bool = False) -> tuple[str, str]:
    """``text`` with the modeline for ``ref``, and what happened: "added",
    "unchanged", "replaced" (``force``) or "conflict" (another schema, not forced)."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    nl = "\r\n" if "\r\n" in body else "\n"
    found = find_modeline(body)
    line = modeline(ref)
    if found is None:
        return bom + line + nl + body, "added"
    index, old = found
    if old == ref:
        return text, "unchanged"
    if not force:
        return text, "conflict"
    lines = body.splitlines(keepends=True)
    ending = lines[index][len(lines[index].rstrip("\r\n")) :]
    lines[index] = line + ending
    return bom + "".join(lines), "replaced"


def default_kind(path: str) -> str:
    low = path.lower()
    if low.endswith(YAML_SUFFIXES):
        return c.SERVE
    if low.endswith(JSON_SUFFIXES):
        return c.KV_TRANSFER
    raise VcfgError(
        f"{path}: not a YAML or JSON file",
        hint="name it *.yaml, *.yml or *.json, or pass --kind",
    )


@record
class EditorResult:
    #: one line per thing done, e.g. "serve.yaml: added modeline"
    actions: list[str] = field(default_factory=list)
    #: files left alone because they already name another schema
    conflicts: list[str] = field(default_factory=list)
    #: VS Code settings to add, or None when nothing needs them
    settings: Optional[dict[str, Any]] = None


def init_editor(
    files: list[str],
    version: str,
    build: Callable[[str, bool], dict[str, Any]],
    *,
    kind: Optional[str] = None,
    strict: bool = False,
    schema_dir: str = ".vcfg/schemas",
    base_url: Optional[str] = None,
    vscode: bool = False,
    force: bool = False,
    cwd: Optional[str] = None,
) -> EditorResult:
    """Do the work of ``vcfg init-editor``.  ``build(kind, strict)`` returns a schema
    (only called when schema files are written).  Paths are relative to ``cwd``."""
    base = Path(cwd or os.getcwd())
    result = EditorResult()
    written: dict[str, Path] = {}

    def schema_ref(k: str) -> tuple[Optional[Path], str]:
        name = c.schema_file_name(k, strict)
        if base_url:
            return None, f"{base_url.rstrip('/')}/{version}/{name}"
        path = base / schema_dir / version / name
        if k not in written:
            text = c.dumps(build(k, strict))
            old = path.read_text(encoding="utf-8") if path.is_file() else None
            if old != text:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
                except OSError as e:
                    raise VcfgError(f"cannot write {path}: {e}") from e
                result.actions.append(f"wrote {_rel(path, base)}")
            written[k] = path
        return path, _rel(path, base)

    yaml_settings: dict[str, list[str]] = {}
    json_settings: dict[str, list[str]] = {}
    for f in files:
        k = kind or default_kind(f)
        path = base / f
        schema_path, ref = schema_ref(k)
        is_yaml = f.lower().endswith(YAML_SUFFIXES)
        glob = "/" + _rel(path, base)
        if vscode or not is_yaml:
            (yaml_settings if is_yaml else json_settings).setdefault(_settings_ref(ref, base_url), []).append(glob)
            continue
        if not path.is_file():
            raise VcfgError(f"{f}: no such file")
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise VcfgError(f"{f}: cannot read it as UTF-8 text ({e})") from e
        local = ref if schema_path is None else Path(os.path.relpath(schema_path, path.parent)).as_posix()
        new, status = set_modeline(text, local, force)
        if status == "conflict":
            result.conflicts.append(f"{f}: already names another schema ({find_modeline(text)[1]})")  # type: ignore[index]
            continue
        if new != text:
            try:
                path.write_bytes(new.encode("utf-8"))
            except OSError as e:
                raise VcfgError(f"cannot write {f}: {e}") from e
        result.actions.append(f"{f}: {status} modeline ({local})")
    settings: dict[str, Any] = {}
    if yaml_settings:
        settings["yaml.schemas"] = yaml_settings
    if json_settings:
        settings["json.schemas"] = [{"fileMatch": globs, "url": ref} for ref, globs in json_settings.items()]
    result.settings = settings or None
    return result


def _rel(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def _settings_ref(ref: str, base_url: Optional[str]) -> str:
    """A schema reference for VS Code settings: URLs as they are, local files relative
    to the workspace folder (the current directory)."""
    if base_url or ref.startswith("/"):
        return ref
    return "./" + ref
