#!/usr/bin/env python3
"""Run vLLM's real ``vllm serve`` argument parsing on test cases: the schema oracle.

Run with the oracle venv's python (tests/oracle/setup_env.sh), never with vcfg's:
it imports vLLM.  Reads a JSON list of cases from argv[1], each
``{"name": ..., "yaml": "<text>"}`` (parsed as ``vllm serve [MODEL] --config FILE.yaml``,
MODEL from an optional ``"model"``) or
``{"name": ..., "argv": [...]}`` (the arguments after ``vllm``), and prints
``{name: {"ok": bool, "error": "<last line of the error>"}}``.  Parsing only: no model
is loaded, nothing is started.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "oracle"))
import dump_parser  # noqa: E402  (the same CPU-platform setup as the catalog oracle)


def top_parser():  # type: ignore[no-untyped-def]
    """The ``vllm`` parser with its subcommands, as vllm.entrypoints.cli.main builds it."""
    import vllm.entrypoints.cli.serve as serve

    top = serve.FlexibleArgumentParser(description="vLLM CLI")
    subparsers = top.add_subparsers(required=False, dest="subparser")
    for cmd in serve.cmd_init():
        cmd.subparser_init(subparsers)
    return top


def main() -> int:
    cases = json.loads(Path(sys.argv[1]).read_text())
    dump_parser.ensure_cpu_platform()
    top = top_parser()
    out = {}
    with tempfile.TemporaryDirectory(prefix="vcfg-schema-oracle-") as tmp:
        for case in cases:
            argv = case.get("argv")
            if argv is None:
                path = os.path.join(tmp, f"{len(out)}.yaml")
                Path(path).write_text(case["yaml"])
                model = [case["model"]] if case.get("model") else []
                argv = ["serve", *model, "--config", path]
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err):
                    top.parse_args(list(argv))
                out[case["name"]] = {"ok": True, "error": ""}
            except (Exception, SystemExit) as e:  # argparse exits 2; loaders raise
                lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
                msg = lines[-1] if lines else f"{type(e).__name__}: {e}"
                out[case["name"]] = {"ok": False, "error": msg[-300:]}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
