#!/usr/bin/env python3
"""Dump vLLM's real ``vllm serve`` argument parser as JSON: the fidelity oracle.

Run with the oracle venv's python (see ``setup_env.sh``), never with vcfg's: this
script imports vLLM (and so torch) and must not import vcfg.  To dump an older
release, put its Python tree ahead of the installed vLLM::

    PYTHONPATH=$VCFG_CACHE_DIR/vllm-src/0.20.2 python dump_parser.py -o 0.20.2.json

The parser is built as ``vllm serve`` builds it: a top-level FlexibleArgumentParser,
its subparsers, and the serve subcommand's ``subparser_init`` (which calls
``make_arg_parser``).  The output format is described in docs/fidelity.md.  Values
are normalised to JSON the way vcfg's catalog stores defaults (see the module
docstring of vcfg/catalog/model.py).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import functools
import json
import math
import os
import sys
import time
from typing import Any

FORMAT_VERSION = 1


# --------------------------------------------------------------------------- values


def to_json(x: Any) -> Any:
    """A JSON value for a parser default / choice / const (see model.py's docstring)."""
    if x is None or isinstance(x, bool):
        return x
    if isinstance(x, enum.Enum):  # before str/int: str- and int-enums are both
        return to_json(x.value)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return x if math.isfinite(x) else {"$repr": repr(x)}
    if isinstance(x, str):
        return str(x)  # argparse.SUPPRESS is the string "==SUPPRESS=="
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    if isinstance(x, (set, frozenset)):
        items = [to_json(v) for v in x]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {str(k): to_json(v) for k, v in x.items()}
        return {"$repr": repr(x)}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {"$config": type(x).__name__}
    return {"$repr": repr(x)}


def type_name(t: Any) -> str | None:
    """A short name for an action's ``type`` callable."""
    if t is None:
        return None
    if isinstance(t, functools.partial):
        return f"partial({type_name(t.func)})"
    qual = getattr(t, "__qualname__", None)
    name = getattr(t, "__name__", None)
    if qual and "<locals>" in qual:  # a closure: the qualname says where it was made
        return qual
    if name:
        return name
    return type(t).__name__


def type_args(t: Any) -> list[str] | None:
    """For a closure or partial ``type``: short names of the callables it wraps, e.g.
    ``["int"]`` for a closure made by a helper that wraps ``int`` (None otherwise)."""
    if t is None:
        return None
    if isinstance(t, functools.partial):
        inner = [*t.args, *t.keywords.values()]
    else:
        cells = getattr(t, "__closure__", None) or ()
        inner = []
        for c in cells:
            try:
                inner.append(c.cell_contents)
            except ValueError:  # an empty cell
                pass
    names = [type_name(v) for v in inner if callable(v)]
    return [n for n in names if n] or None


# --------------------------------------------------------------------------- parser


def ensure_cpu_platform() -> bool:
    """Make vLLM's current platform the CPU one; True if it had to be forced.

    From 0.2x on, ``VLLM_TARGET_DEVICE=cpu`` selects it; older releases detect a CPU
    build only from the installed distribution's version ("+cpu"), which an older
    tree placed on PYTHONPATH over the 0.33.0 install does not have.  Forcing the
    CPU platform then is what ``vllm bench`` itself does on an unspecified platform.
    Must run before any vLLM module binds ``current_platform``.
    """
    import vllm.platforms as plat

    if getattr(plat, "_current_platform", None) is not None:
        current = plat._current_platform
        if type(current).__name__ != "UnspecifiedPlatform":
            return False
    elif not plat.resolve_current_platform_cls_qualname().endswith("UnspecifiedPlatform"):
        return False
    from vllm.platforms.cpu import CpuPlatform

    plat._current_platform = CpuPlatform()
    return True


def build_serve_parser() -> argparse.ArgumentParser:
    """The ``vllm serve`` subparser, built the way ``vllm.entrypoints.cli.main`` does."""
    import vllm.entrypoints.cli.serve as serve

    # every release 0.10-0.33 imports FlexibleArgumentParser into the serve module
    top = serve.FlexibleArgumentParser(description="vLLM CLI")
    subparsers = top.add_subparsers(required=False, dest="subparser")
    found = None
    for cmd in serve.cmd_init():
        p = cmd.subparser_init(subparsers)
        if cmd.name == "serve":
            found = p
    if found is None:
        raise SystemExit("the serve module registered no 'serve' subcommand")
    return found


def group_titles(parser: argparse.ArgumentParser) -> dict[int, str | None]:
    """action id -> title of the argument group holding it (argparse's own two
    default groups, positionals and options, give None)."""
    defaults = {id(parser._positionals), id(parser._optionals)}
    out: dict[int, str | None] = {}
    for g in parser._action_groups:
        title = None if id(g) in defaults else g.title
        for a in g._group_actions:
            out.setdefault(id(a), title)
    return out


def deprecated_actions(parser: argparse.ArgumentParser) -> set[int]:
    # Python < 3.13: vLLM keeps them in a set on the parser (an instance attribute
    # in recent releases, a class attribute in older ones); 3.13+: argparse's own
    # ``Action.deprecated``.
    marked = set(getattr(parser, "_deprecated", ()) or ())
    marked |= set(getattr(type(parser), "_deprecated", ()) or ())
    return {id(a) for a in marked}


def dump_actions(parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    groups = group_titles(parser)
    deprecated = deprecated_actions(parser)
    registered: dict[int, list[str]] = {}
    for s, a in parser._option_string_actions.items():  # registration order
        registered.setdefault(id(a), []).append(s)
    out = []
    for a in parser._actions:
        out.append(
            {
                # every string the parser accepts for this action (hidden aliases too)
                "option_strings": registered.get(id(a), list(a.option_strings)),
                # the strings shown in --help
                "visible_option_strings": list(a.option_strings),
                "dest": a.dest,
                "action": type(a).__name__,
                "type": type_name(a.type),
                "type_args": type_args(a.type),
                "nargs": a.nargs,
                "choices": None if a.choices is None else [to_json(c) for c in a.choices],
                "default": to_json(a.default),
                "const": to_json(a.const),
                "metavar": to_json(a.metavar),
                "group": groups.get(id(a)),
                "required": bool(a.required),
                "deprecated": id(a) in deprecated or bool(getattr(a, "deprecated", False)),
            }
        )
    return out


def env_var_names() -> list[str]:
    import vllm.envs as envs

    return sorted(envs.environment_variables)


def connector_names() -> list[str]:
    from vllm.distributed.kv_transfer.kv_connector.factory import KVConnectorFactory

    return sorted(KVConnectorFactory._registry)


# --------------------------------------------------------------------------- main


def tolerate_known_config_names() -> None:
    """Let an older release register its own copy of a model config that the installed
    transformers now ships (0.9.x registers ``aimv2`` in
    vllm/transformers_utils/configs/ovis.py, which transformers 5.x already knows and
    refuses: "'aimv2' is already used by a Transformers config").  Model configs have
    nothing to do with the serve parser; the registration is made to pass, not to win.
    """
    try:
        from transformers import AutoConfig
    except ImportError:
        return
    register = AutoConfig.register

    def lenient(model_type: str, config: Any, exist_ok: bool = False) -> None:
        register(model_type, config, exist_ok=True)

    AutoConfig.register = staticmethod(lenient)  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", help="write the JSON here (default: stdout)")
    ap.add_argument(
        "--keep-env",
        action="store_true",
        help="keep VLLM_* variables of the calling environment (default: drop them, so defaults are the pristine ones)",
    )
    args = ap.parse_args(argv)

    if not args.keep_env:
        for k in [k for k in os.environ if k.startswith("VLLM_")]:
            del os.environ[k]
    # without it vLLM finds no platform and building the parser fails
    os.environ["VLLM_TARGET_DEVICE"] = "cpu"

    t0 = time.perf_counter()
    # vLLM's logger writes to stdout: keep stdout for the JSON only
    with contextlib.redirect_stdout(sys.stderr):
        tolerate_known_config_names()
        import vllm

        forced = ensure_cpu_platform()
        t_import = time.perf_counter()
        parser = build_serve_parser()
        t_parser = time.perf_counter()
        data = {
            "format": FORMAT_VERSION,
            "vllm_version": getattr(vllm, "__version__", None),
            "vllm_path": os.path.dirname(vllm.__file__),
            "python": sys.version.split()[0],
            "cpu_platform_forced": forced,
            "actions": dump_actions(parser),
            "env_var_names": env_var_names(),
            "connectors": connector_names(),
        }
    t_end = time.perf_counter()
    data["timings_s"] = {
        "import_vllm": round(t_import - t0, 2),
        "build_parser": round(t_parser - t_import, 2),
        "total": round(t_end - t0, 2),
    }
    text = json.dumps(data, indent=1, sort_keys=False) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
