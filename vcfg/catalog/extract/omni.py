"""vllm-omni's own ``vllm serve`` options, read statically from a vllm-omni source tree
or wheel (nothing imported, installed or run).

vllm-omni installs its own ``vllm`` console script (its pyproject's ``[project.scripts]
vllm = "vllm_omni.entrypoints.cli.main:main"``).  That ``main`` hands the command line to
vLLM's own CLI unless the word ``--omni`` is in ``sys.argv``; with it, it builds a
``serve`` subcommand of its own: vLLM's serve options (``make_arg_parser``, which the
release's catalog already holds) plus the options vllm-omni adds in
``OmniServeCommand.subparser_init`` (``vllm_omni/entrypoints/cli/serve.py``).  This
module records those options (strings, whether each takes a value, a literal type and
choices, file:line) and where ``main`` tests for the trigger.  Facts only: no help text.

``python -m vcfg.catalog.extract.omni SOURCE... > vcfg/catalog/data/omni-flags.json``
writes the bundled table (`vcfg.launch.args.entry` reads it); SOURCE is a vllm-omni
checkout or wheel, optionally ``SOURCE@COMMIT`` to record the commit it was read at.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any, Optional

from vcfg.catalog.extract.dynamo import _Module, _Walker

MAIN = "vllm_omni/entrypoints/cli/main.py"
SERVE = "vllm_omni/entrypoints/cli/serve.py"
_VERSION = re.compile(r'^version\s*=\s*"([^"]+)"', re.M)


def _reader(source: str) -> tuple[Any, Optional[str]]:
    """A function reading one file of the source (None when absent), and its version."""
    p = Path(source)
    if p.is_file() and zipfile.is_zipfile(p):
        z = zipfile.ZipFile(p)
        names = set(z.namelist())
        m = re.search(r"vllm_omni-([^-]+)-", p.name)

        def read_zip(rel: str) -> Optional[str]:
            return z.read(rel).decode("utf-8") if rel in names else None

        return read_zip, m.group(1) if m else None

    def read_tree(rel: str) -> Optional[str]:
        f = p / rel
        return f.read_text(encoding="utf-8") if f.is_file() else None

    py = read_tree("pyproject.toml") or ""
    m = _VERSION.search(py)
    return read_tree, m.group(1) if m else None


def _trigger(text: str) -> Optional[dict[str, Any]]:
    """Where ``main`` tests ``"--omni" in sys.argv`` (or ``not in``)."""
    for n in ast.walk(ast.parse(text)):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn)):
            left, right = n.left, n.comparators[0]
            if (
                isinstance(left, ast.Constant)
                and isinstance(left.value, str)
                and left.value.startswith("--")
                and isinstance(right, ast.Attribute)
                and right.attr == "argv"
            ):
                return {"option": left.value, "loc": f"{MAIN}:{n.lineno}"}
    return None


def read_source(source: str, commit: Optional[str] = None) -> dict[str, Any]:
    """The trigger and the serve options one vllm-omni source adds to vLLM's."""
    read, version = _reader(source)
    main, serve = read(MAIN), read(SERVE)
    out: dict[str, Any] = {"version": version or "?", "commit": commit, "notes": []}
    if main is None or serve is None:
        out["notes"].append(f"no {MAIN} or {SERVE}")
        out["options"] = []
        return out
    out["trigger"] = _trigger(main)
    mod = _Module(SERVE, serve)
    walker = _Walker(None)  # type: ignore[arg-type]  # no package to follow: serve.py's own calls
    for node in ast.walk(mod.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "subparser_init":
            walker.walk_def(node, mod, None, 0)
    out["options"] = walker.options
    out["notes"] = walker.notes
    return out


def main(argv: list[str]) -> int:
    releases = []
    for arg in argv:
        src, _, commit = arg.partition("@")
        releases.append(read_source(src, commit or None))
    out = {
        "generated_by": "python -m vcfg.catalog.extract.omni (vllm-omni sources)",
        "source": f"vllm-omni: {MAIN} (the trigger) and {SERVE} OmniServeCommand.subparser_init",
        "releases": {
            r["version"]: {k: v for k, v in r.items() if k != "version"} for r in releases if r.get("options")
        },
    }
    sys.stdout.write(render(out))
    return 0


def render(out: dict[str, Any]) -> str:
    """The table as JSON with one option per line (reviewable as a diff)."""
    lines = ["{", f' "generated_by": {json.dumps(out["generated_by"])},', f' "source": {json.dumps(out["source"])},']
    lines.append(' "releases": {')
    rels = list(out["releases"].items())
    for i, (v, r) in enumerate(rels):
        lines.append(f"  {json.dumps(v)}: {{")
        lines.append(f'   "commit": {json.dumps(r.get("commit"))},')
        lines.append(f'   "trigger": {json.dumps(r.get("trigger"), separators=(",", ":"))},')
        lines.append(f'   "notes": {json.dumps(r["notes"])},')
        lines.append('   "options": [')
        opts = r["options"]
        for k, o in enumerate(opts):
            lines.append("    " + json.dumps(o, separators=(",", ":")) + ("," if k + 1 < len(opts) else ""))
        lines.append("   ]")
        lines.append("  }" + ("," if i + 1 < len(rels) else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
