"""Test oracle for the env-var extractor: run an envs.py for real, in a subprocess.

Tests only.  vcfg itself never executes vLLM code; here a release's ``vllm/envs.py`` is
loaded standalone (``importlib.util.spec_from_file_location``, research section 3.4) in
an isolated interpreter (``-I``: no current directory or user site on ``sys.path``, so
no other vLLM module can be imported) with a clean environment, and every callable of
``environment_variables`` is called: once with nothing set (the defaults), then once per
probe value with only that variable set.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from release_sample import release_params

#: Every bundled release (tests/release_sample.py says which run: the sample, the cached
#: ones, or all with VCFG_FIDELITY=all).
RELEASES = release_params()

FIXTURES = Path(__file__).parent / "fixtures" / "catalog-envs"
#: A synthetic envs.py, one entry per idiom (made-up names, our own code).
IDIOMS = FIXTURES / "idioms_envs.py"

#: HOME of the oracle process: a path that cannot exist, so "~" expansions are visible.
ORACLE_HOME = "/nonexistent/vcfg-oracle-home"

_SCRIPT = r"""
import importlib.util, json, os, sys

def as_json(v):
    if isinstance(v, (list, tuple)):
        return [as_json(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(as_json(x) for x in v)
    if isinstance(v, dict):
        return {str(k): as_json(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)

def call(fn):
    try:
        return {"ok": as_json(fn())}
    except BaseException as e:
        return {"error": type(e).__name__, "message": str(e)[:300]}

path = sys.argv[1]
probes = json.loads(sys.stdin.read())
spec = importlib.util.spec_from_file_location("vcfg_oracle_envs", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
base = dict(os.environ)
out = {"defaults": {}, "probes": {}}
for name, fn in mod.environment_variables.items():
    out["defaults"][name] = call(fn)
    os.environ.clear(); os.environ.update(base)
    got = {}
    for value in probes.get(name, []):
        os.environ[name] = value
        got[value] = call(fn)
        os.environ.clear(); os.environ.update(base)
    out["probes"][name] = got
sys.stdout.write("\n" + json.dumps(out) + "\n")
"""


def run_envs_oracle(envs_py: Path, probes: Optional[dict[str, list[str]]] = None) -> dict[str, Any]:
    """``{"defaults": {name: result}, "probes": {name: {value: result}}}``.

    A result is ``{"ok": json_value}`` or ``{"error": exception_type, "message": ...}``.
    """
    with tempfile.TemporaryDirectory(prefix="vcfg-oracle-") as cwd:
        proc = subprocess.run(
            [sys.executable, "-I", "-B", "-c", _SCRIPT, str(envs_py)],  # -B: no __pycache__ beside it
            input=json.dumps(probes or {}),
            env={"HOME": ORACLE_HOME},
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
        )
    if proc.returncode != 0:
        raise AssertionError(f"oracle failed for {envs_py}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])  # after anything printed


_SYMBOLIC = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:-([^${}]*)\}")


def resolve_symbolic(default: Any) -> Any:
    """A catalog default as the oracle computes it: ``${X:-d}`` is ``d`` (nothing is set)
    and a leading ``~`` is the oracle's HOME."""
    if not isinstance(default, str):
        return default
    text = default
    while _SYMBOLIC.search(text):
        text = _SYMBOLIC.sub(r"\1", text)
    return ORACLE_HOME + text[1:] if text.startswith("~") else text


def same(a: Any, b: Any) -> bool:
    """Equal, with the same JSON types (24 is not 24.0, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def environment_error(result: dict[str, Any]) -> bool:
    """The callable failed for a reason outside envs.py (vllm/torch/pybase64/urllib3
    missing, ``sys.modules[__name__]`` of a module loaded standalone)."""
    if "error" not in result:
        return False
    if result["error"] in ("ModuleNotFoundError", "ImportError"):
        return True
    return result["error"] == "KeyError" and "vcfg_oracle_envs" in result.get("message", "")
