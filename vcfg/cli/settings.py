"""``vcfg lint --show-settings``: the resolved settings and where each value comes from
(the command line, a config file, the installed vLLM, or vcfg's default)."""

from __future__ import annotations

import json
from typing import Any, Optional


def _codes(s: str) -> list[str]:
    return [c.strip().upper() for c in s.split(",") if c.strip()]


def show_settings(args: dict[str, Any], config: Any) -> str:
    from vcfg.catalog import store
    from vcfg.catalog.local import installed_version

    cfg_file = str(config.path) if config.path is not None else None
    in_file = f"from {cfg_file}" if cfg_file else None
    rows: list[tuple[str, Any, Optional[str]]] = []

    if args["version"]:
        rows.append(("vllm-version", args["version"], "from --vllm-version"))
    elif config.vllm_version:
        rows.append(("vllm-version", config.vllm_version, in_file or "from the config"))
    elif (inst := installed_version()) is not None:
        rows.append(("vllm-version", inst, "from the installed vllm"))
    else:
        rows.append(("vllm-version", store.newest_bundled(), "default: the newest bundled catalog"))

    cli_select, cli_ignore = _codes(args["select"]), _codes(args["ignore"])
    if cli_select:
        rows.append(("select", cli_select, "from --select (replaces the config's)"))
    else:
        rows.append(("select", config.select, in_file if config.select else "default: every rule"))
    ignore = [*config.ignore, *cli_ignore]
    parts = [x for x in ((cfg_file if config.ignore else None), ("--ignore" if cli_ignore else None)) if x]
    rows.append(("ignore", ignore, f"from {' and '.join(parts)}" if parts else "default: none"))
    for key, attr, default in (
        ("per-file-ignores", "per_file_ignores", "none"),
        ("allowed-env", "allowed_env", "none"),
        ("knowledge", "knowledge", "the bundled packs only"),
        ("plugins", "plugins", "none (a launch's VLLM_PLUGINS may name some)"),
        ("gpu-memory", "gpu_memory", "unknown: VC206 stays silent"),
    ):
        value = getattr(config, attr)
        if attr == "knowledge":
            value = [str(k) for k in value] + list(args["knowledge"])
        rows.append((key, value, (in_file or "from the config") if value else f"default: {default}"))
    for key, dest, default in (("format", "fmt", "full"), ("fail-on", "fail_on", "warning")):
        rows.append((key, args[dest], "from --" + key if args[dest] != default else "default"))
    rows.append(("exit-zero", bool(args["exit_zero"]), "from --exit-zero" if args["exit_zero"] else "default"))
    if args["stdin_filename"]:
        rows.append(("stdin-filename", args["stdin_filename"], "from --stdin-filename"))

    head = (
        f"config file: {cfg_file}"
        if cfg_file
        else ("config file: none (no .vcfg.toml, nor a pyproject.toml with [tool.vcfg], at or above the first path)")
    )
    out = [head]
    for key, value, origin in rows:
        out.append(f"{key} = {json.dumps(value)}   # {origin}")
    return "\n".join(out)
