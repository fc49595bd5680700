#!/usr/bin/env python3
"""Run many ``vllm serve`` launches through vLLM's real start-up code: the parity oracle.

Run with the oracle venv's python (``setup_env.sh``), never with vcfg's: this script
imports vLLM (and so torch) and does not import vcfg.  One process judges a whole
batch, since importing vLLM and building its parser take most of a minute::

    PYTHONPATH=$VCFG_CACHE_DIR/vllm-src/0.13.0 python parity_driver.py IN.jsonl OUT.jsonl

Each input line is a launch: ``{"id": ..., "argv": [...the words after "vllm serve"],
"env": {"VLLM_X": "..."}}``.  Each output line is its verdict: ``{"id", "ok": bool,
"stage", "error", "message"}``.  The stages, in the order ``vllm serve`` meets them:

- ``import``: for a release that configures logging when ``vllm.logger`` is imported
  (0.13), that set-up again with the launch's environment, if it sets a logging
  variable;
- ``parse``: the top-level parser's ``parse_args(["serve", ...])`` (argv rewriting,
  ``--config`` files, dotted keys, argparse types and choices, JSON ``type=`` callables);
  an argparse error exits 2, which is caught here;
- ``serve checks``: the serve subcommand's ``validate(args)``
  (``validate_parsed_serve_args``), then its ``cmd(args)`` up to the point where it
  would start something: ``run_server`` / ``run_headless`` / ``run_multi_api_server`` /
  ``run_dp_supervisor`` are replaced by a function that goes on below, so the checks
  ``cmd`` makes before it dispatches are vLLM's own;
- ``server checks``: ``validate_api_server_args`` (what ``setup_server`` calls before it
  binds the port; the single-server path only);
- ``engine config``: ``AsyncEngineArgs.from_cli_args(args).create_engine_config(...)``
  (pydantic validation of every config dataclass, their validators, VllmConfig's
  cross-checks, the platform's ``check_and_update_config``, the environment check).

Nothing later runs (no socket is bound, no process started, no weight loaded): what
vLLM refuses only at model load or at the first request is not seen here, and the test
says so per case (tests/test_parity_differential.py).  The environment of each launch
is set in ``os.environ`` for its run and restored after it; vLLM's env cache is
disabled between launches.  Every launch gets ``VLLM_PARITY_TIMEOUT_S`` seconds (10).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import signal
import sys
import time
import traceback
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dump_parser  # noqa: E402  (the same parser construction as the fidelity oracle)


class _Timeout(Exception):
    pass


class _Stage:
    name = "parse"


STAGE = _Stage()
DEFAULTS: Any = None
IMPORT_LOGGING: Any = None


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def build_top_parser() -> tuple[Any, Any]:
    """The top-level ``vllm`` parser with the serve subcommand, and that subcommand."""
    import vllm.entrypoints.cli.serve as serve

    top = serve.FlexibleArgumentParser(description="vLLM CLI")
    subparsers = top.add_subparsers(required=False, dest="subparser")
    found = None
    for cmd in serve.cmd_init():
        cmd.subparser_init(subparsers).set_defaults(dispatch_function=cmd.cmd)
        if cmd.name == "serve":
            found = cmd
    if found is None:
        raise SystemExit("the serve module registered no 'serve' subcommand")
    return top, found


def _all_actions(parser: Any) -> list[Any]:
    out = []
    for a in parser._actions:
        out.append(a)
        for sub in (
            (getattr(a, "choices", None) or {}).values() if hasattr(getattr(a, "choices", None), "values") else ()
        ):
            if hasattr(sub, "_actions"):
                out += _all_actions(sub)
    return out


class Defaults:
    """The parsers' defaults, kept pristine: vLLM's defaults include config objects
    (a ``StructuredOutputsConfig()``...) that a run mutates in place, so each launch
    gets fresh deep copies."""

    def __init__(self, top: Any) -> None:
        self.actions = _all_actions(top)
        self.saved = [copy.deepcopy(a.default) for a in self.actions]
        self.parsers = [top] + [
            s
            for a in top._actions
            for s in (
                (getattr(a, "choices", None) or {}).values() if isinstance(getattr(a, "choices", None), dict) else ()
            )
        ]
        self.saved_p = [copy.deepcopy(p._defaults) for p in self.parsers]

    def reset(self) -> None:
        for a, d in zip(self.actions, self.saved):
            a.default = copy.deepcopy(d)
        for p, d in zip(self.parsers, self.saved_p):
            p._defaults = copy.deepcopy(d)


def _validate_api_server_args() -> Any:
    for mod in ("vllm.entrypoints.launchers.launcher", "vllm.entrypoints.openai.api_server"):
        try:
            m = __import__(mod, fromlist=["validate_api_server_args"])
        except ImportError:
            continue
        fn = getattr(m, "validate_api_server_args", None)
        if fn is not None:
            return fn
    return None


def patch_serve() -> None:
    """Replace what ``cmd`` would start with the engine config it would build first."""
    import vllm.entrypoints.cli.serve as serve
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.usage.usage_lib import UsageContext

    validate_api = _validate_api_server_args()

    def engine(args: Any, *, headless: bool = False, server: bool = False) -> None:
        if server and validate_api is not None:
            STAGE.name = "server checks"
            validate_api(args)
        STAGE.name = "engine config"
        engine_args = AsyncEngineArgs.from_cli_args(args)
        engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER, headless=headless)

    class _Loop:
        @staticmethod
        def run(marker: Any) -> None:
            engine(marker[1], server=True)

    serve.uvloop = _Loop  # type: ignore[attr-defined]
    serve.run_server = lambda args, **kw: ("server", args)  # type: ignore[attr-defined]
    serve.run_headless = lambda args: engine(args, headless=True)  # type: ignore[attr-defined]
    serve.run_multi_api_server = lambda args: engine(args)  # type: ignore[attr-defined]
    if hasattr(serve, "run_dp_supervisor"):
        serve.run_dp_supervisor = lambda args: engine(args)  # type: ignore[attr-defined]


#: variables older releases read when ``vllm.logger`` is imported (its module-level
#: ``_configure_vllm_root_logger()``, 0.13.0 logger.py:230); from 0.2x the logging
#: config is applied from the engine config instead, which the engine stage runs
LOGGING_VARS = (
    "VLLM_LOGGING_LEVEL",
    "VLLM_CONFIGURE_LOGGING",
    "VLLM_LOGGING_CONFIG_PATH",
    "VLLM_LOGGING_PREFIX",
    "VLLM_LOGGING_STREAM",
)


def _import_time_logging() -> Any:
    """The logger set-up a release runs at import with no argument, or None."""
    import inspect

    import vllm.logger as lg

    fn = getattr(lg, "_configure_vllm_root_logger", None)
    if fn is None or inspect.signature(fn).parameters:
        return None
    return fn


def _envs_cache_off() -> None:
    import vllm.envs as envs

    off = getattr(envs, "disable_envs_cache", None)
    if off is not None:
        with contextlib.suppress(Exception):
            off()


def judge(top: Any, serve_cmd: Any, launch: dict[str, Any], timeout: int) -> dict[str, Any]:
    DEFAULTS.reset()
    saved = dict(os.environ)
    os.environ.update({str(k): str(v) for k, v in launch.get("env", {}).items()})
    _envs_cache_off()
    STAGE.name = "parse"
    err = io.StringIO()
    out: dict[str, Any] = {"id": launch["id"], "ok": True, "stage": None}
    signal.alarm(timeout)
    relog = IMPORT_LOGGING is not None and any(k in LOGGING_VARS for k in launch.get("env", {}))
    try:
        if relog:  # what importing vLLM does with this environment
            STAGE.name = "import"
            IMPORT_LOGGING()
            STAGE.name = "parse"
        with contextlib.redirect_stderr(err):
            args = top.parse_args(["serve", *launch["argv"]])
        STAGE.name = "serve checks"
        serve_cmd.validate(args)
        args.dispatch_function(args)
    except SystemExit as e:
        lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
        # argparse prints "usage: ..." then "prog: error: ..." (pydantic's lines follow)
        tail = [ln for ln in lines if ": error: " in ln] or lines[-1:]
        i = lines.index(tail[0]) if tail and tail[0] in lines else 0
        out.update(
            ok=False, stage=STAGE.name, error=f"SystemExit({e.code})", message="\n".join(lines[i : i + 6])[:1500]
        )
    except _Timeout:
        out.update(ok=None, stage=STAGE.name, error="timeout", message=f"over {timeout} s")
    except BaseException as e:  # noqa: BLE001  (vLLM raises anything; all of it is a verdict)
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = traceback.extract_tb(e.__traceback__)
        where = next(
            (f"{f.filename.split('/vllm/')[-1]}:{f.lineno}" for f in reversed(tb) if "/vllm/" in f.filename), None
        )
        out.update(ok=False, stage=STAGE.name, error=type(e).__name__, message=str(e)[:1500], raised_at=where)
    finally:
        signal.alarm(0)
        os.environ.clear()
        os.environ.update(saved)
        if relog:
            _envs_cache_off()
            with contextlib.suppress(Exception):
                IMPORT_LOGGING()
    return out


def main(argv: list[str]) -> int:
    src, dst = argv[1], argv[2]
    timeout = int(os.environ.get("VLLM_PARITY_TIMEOUT_S", "10"))
    for k in [k for k in os.environ if k.startswith("VLLM_")]:
        del os.environ[k]
    os.environ["VLLM_TARGET_DEVICE"] = "cpu"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    t0 = time.time()
    forced = dump_parser.ensure_cpu_platform()
    top, serve_cmd = build_top_parser()
    global DEFAULTS, IMPORT_LOGGING
    DEFAULTS = Defaults(top)
    IMPORT_LOGGING = _import_time_logging()
    patch_serve()
    import vllm

    signal.signal(signal.SIGALRM, _alarm)
    launches = [json.loads(ln) for ln in open(src, encoding="utf-8") if ln.strip()]
    warm = None
    if launches:  # the first engine config imports most of vLLM: not under the timeout
        warm = judge(top, serve_cmd, {"id": "warm-up", "argv": launches[0]["argv"][:1]}, 900)
    t1 = time.time()
    with open(dst, "w", encoding="utf-8") as f:
        head = {
            "header": True,
            "vllm_path": os.path.dirname(vllm.__file__),
            "cpu_platform_forced": forced,
            "setup_s": round(t1 - t0, 1),
            "warm_up": warm,
        }
        f.write(json.dumps(head) + "\n")
        for launch in launches:
            f.write(json.dumps(judge(top, serve_cmd, launch, timeout)) + "\n")
            f.flush()
        f.write(json.dumps({"footer": True, "run_s": round(time.time() - t1, 1)}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
