"""Project configuration: ``[tool.vcfg]`` in pyproject.toml, or a ``.vcfg.toml``
(top-level keys), found in the current directory or the nearest parent.

    [tool.vcfg]
    vllm-version = "0.13.0"          # the release the scripts target (or a catalog
                                     # file, relative to this file: "vllm-main.json")
    select = ["VC0", "VC1"]          # codes or prefixes; default: all
    ignore = ["VC104"]
    allowed-env = ["VLLM_MY_SITE_FLAG"]   # variables not to report as unknown
    knowledge = ["ops/vcfg-packs"]   # extra knowledge-pack folders, relative to the file
    plugins = ["vllm-ascend"]        # vLLM plugins the launches run with (their built
                                     # overlays: variables, connectors); "name==version"
                                     # or an overlay file work too
    gpu-memory = "141GiB"            # memory of one GPU (141GiB, 80GB, bytes); enables
                                     # the KV cache estimate of VC206

    [tool.vcfg.per-file-ignores]
    "legacy/*.sh" = ["VC001"]

    [tool.vcfg.deployments.pd]       # files that run as one deployment (see
    files = ["prefill.sh", "decode.sh", "proxy.sh"]   # vcfg/lint/deployments.py)
    hosts = { "prefill.sh" = "node-a", "decode.sh" = "node-a" }
"""

from __future__ import annotations

import fnmatch
import re
import sys
from pathlib import Path
from typing import Any, Optional

from vcfg.errors import VcfgError
from vcfg.records import field, record
from vcfg.regex import lazy

#: ``[tool.vcfg]``, ``[tool.vcfg.x]``, ``tool.vcfg.x = ...``, or ``vcfg = {...}`` /
#: ``vcfg.x = ...`` under ``[tool]``: any way TOML can spell the table starts a line so.
#: A project's own ``vcfg = "pkg:main"`` script or ``"vcfg.data" = [...]`` key is none
#: of them (vcfg's own pyproject.toml was parsed on every lint run in it, 2.5 ms).
_MENTIONS_TOOL_VCFG = lazy(
    r"""^\s*(\[\[?\s*tool\s*\.\s*["']?vcfg|tool\s*\.\s*["']?vcfg|(vcfg|"vcfg"|'vcfg')\s*(\.|=\s*\{))""", re.M
)

_KEYS = {
    "vllm-version",
    "select",
    "ignore",
    "per-file-ignores",
    "allowed-env",
    "knowledge",
    "gpu-memory",
    "deployments",
    "exclude",
    "plugins",
}


@record
class LintConfig:
    vllm_version: Optional[str] = None
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    allowed_env: list[str] = field(default_factory=list)
    knowledge: list[Path] = field(default_factory=list)
    #: bytes of one GPU's memory (None: unknown, memory rules stay silent)
    gpu_memory: Optional[int] = None
    path: Optional[Path] = None
    #: ``[tool.vcfg.deployments.NAME]`` tables (vcfg.lint.deployments.DeploymentSpec)
    deployments: list[Any] = field(default_factory=list)
    #: globs a folder lint skips: a file or folder name, or a path relative to the
    #: config's folder (vcfg.launch.walk)
    exclude: list[str] = field(default_factory=list)
    #: the vLLM plugins the launches run with: ``vllm-ascend``, ``vllm-ascend==0.23.0.post1``
    #: or an overlay file (vcfg/catalog/plugins.py)
    plugins: list[str] = field(default_factory=list)
    #: the spellings of each linted path `_names` matched (not a setting)
    _names_cache: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)

    def enabled(self, code: str, file: Optional[str] = None) -> bool:
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        if any(code.startswith(p) for p in self.ignore):
            return False
        if file is not None and self.per_file_ignores:
            names = self._names(file)
            for pattern, codes in self.per_file_ignores.items():
                pat = pattern[2:] if pattern.startswith("./") else pattern
                if any(fnmatch.fnmatch(n, pat) for n in names):
                    if any(code.startswith(p) for p in codes):
                        return False
        return True

    def _names(self, file: str) -> list[str]:
        """The spellings a per-file-ignores glob is matched against: the path relative
        to the config file's folder (the one that counts, whatever the working
        directory), as typed (without ``./``), and the file name."""
        import os

        cache = self._names_cache
        hit = cache.get(file)
        if hit is not None:
            return hit
        out = [Path(file).name]
        typed = os.path.normpath(file).replace(os.sep, "/")
        out.append(typed)
        if self.path is not None and file != "<stdin>":
            base = os.path.dirname(os.path.abspath(self.path))
            rel = os.path.relpath(os.path.abspath(file), base).replace(os.sep, "/")
            if not rel.startswith("../"):
                out.insert(0, rel)
        cache[file] = out
        return out


def _codes(value: Any, where: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise VcfgError(f"{where}: expected a list of rule codes")
    return [v.strip().upper() for v in value]


def from_table(table: dict[str, Any], origin: Path) -> LintConfig:
    unknown = set(table) - _KEYS
    if unknown:
        raise VcfgError(
            f"{origin}: unknown vcfg setting(s): {', '.join(sorted(unknown))}",
            hint=f"known settings: {', '.join(sorted(_KEYS))}",
        )
    cfg = LintConfig(path=origin)
    if "vllm-version" in table:
        if not isinstance(table["vllm-version"], str):
            raise VcfgError(f'{origin}: vllm-version must be a string like "0.13.0"')
        cfg.vllm_version = table["vllm-version"]
        if cfg.vllm_version.endswith((".json", ".json.gz")):  # a catalog file, beside the config
            cfg.vllm_version = str(origin.parent / Path(cfg.vllm_version).expanduser())
    from vcfg.lint.registry import check_codes

    cfg.select = _codes(table.get("select", []), f"{origin}: select")
    check_codes(cfg.select, f"{origin}: select")
    cfg.ignore = _codes(table.get("ignore", []), f"{origin}: ignore")
    check_codes(cfg.ignore, f"{origin}: ignore")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise VcfgError(f"{origin}: per-file-ignores must be a table of glob = [codes]")
    cfg.per_file_ignores = {k: _codes(v, f"{origin}: per-file-ignores.{k}") for k, v in pfi.items()}
    for k, v in cfg.per_file_ignores.items():
        check_codes(v, f"{origin}: per-file-ignores.{k!r}")
    env = table.get("allowed-env", [])
    if not isinstance(env, list) or not all(isinstance(v, str) for v in env):
        raise VcfgError(f"{origin}: allowed-env must be a list of variable names")
    cfg.allowed_env = env
    kn = table.get("knowledge", [])
    if not isinstance(kn, list) or not all(isinstance(v, str) for v in kn):
        raise VcfgError(f"{origin}: knowledge must be a list of folders")
    cfg.knowledge = [(origin.parent / k) for k in kn]
    if "gpu-memory" in table:
        from vcfg.plan.memory import parse_size

        gm = table["gpu-memory"]
        if isinstance(gm, bool) or not isinstance(gm, (str, int)):
            raise VcfgError(f'{origin}: gpu-memory must be a size like "141GiB"')
        try:
            cfg.gpu_memory = parse_size(str(gm))
        except VcfgError as e:
            raise VcfgError(f"{origin}: gpu-memory: {e.message}", hint=e.hint) from e
    pl = table.get("plugins", [])
    if not isinstance(pl, list) or not all(isinstance(v, str) and v.strip() for v in pl):
        raise VcfgError(f'{origin}: plugins must be a list like ["vllm-ascend"]')
    cfg.plugins = [str(origin.parent / v) if v.endswith(".json") else v for v in pl]
    ex = table.get("exclude", [])
    if not isinstance(ex, list) or not all(isinstance(v, str) for v in ex):
        raise VcfgError(f"{origin}: exclude must be a list of globs")
    cfg.exclude = ex
    if "deployments" in table:
        from vcfg.lint.deployments import parse_specs

        cfg.deployments = parse_specs(table["deployments"], origin)
    return cfg


def load_config(start: Optional[Path] = None, explicit: Optional[Path] = None) -> LintConfig:
    """The config in ``explicit``, else the nearest ``.vcfg.toml`` or pyproject.toml
    with a ``[tool.vcfg]`` table at or above ``start``; else defaults."""
    if explicit is not None:
        return _read(explicit, required=True) or LintConfig()
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        for name in (".vcfg.toml", "pyproject.toml"):
            p = folder / name
            if p.is_file():
                cfg = _read(p, required=False)
                if cfg is not None:
                    return cfg
    return LintConfig()


def _read(p: Path, required: bool) -> Optional[LintConfig]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    from vcfg.launch.read import special_kind

    if kind := special_kind(str(p)):
        raise VcfgError(f"{p}: {kind}, not a regular file; not read")
    try:
        from vcfg.fileio import MAX_BYTES, read_regular

        raw = read_regular(str(p))
        if len(raw) > MAX_BYTES:
            raise VcfgError(f"{p}: larger than {MAX_BYTES >> 20} MiB, not read")
        text = raw.decode("utf-8")
        # most projects' pyproject.toml has no vcfg table: do not parse it for nothing
        if p.name == "pyproject.toml" and not required and not _MENTIONS_TOOL_VCFG.search(text):
            return None
        data = tomllib.loads(text)
    except FileNotFoundError as e:
        raise VcfgError(f"{p}: no such file") from e
    except (OSError, UnicodeDecodeError) as e:
        raise VcfgError(f"cannot read {p}: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise VcfgError(f"{p}: invalid TOML: {e}") from e
    except RecursionError:
        raise VcfgError(f"{p}: invalid TOML: nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise VcfgError(f"{p}: invalid TOML: a number too long to read") from None
    if p.name == "pyproject.toml":
        table = data.get("tool", {}).get("vcfg")
        if table is None:
            return None if not required else LintConfig(path=p)
    else:
        table = data
    if not isinstance(table, dict):
        raise VcfgError(
            f"{p}: [tool.vcfg] must be a table"
            + (" (this file has [[tool.vcfg]], an array of tables)" if isinstance(table, list) else "")
        )
    return from_table(table, p)
