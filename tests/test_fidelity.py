"""Fidelity: vcfg's statically built catalog against vLLM's real ``vllm serve`` parser.

The oracle is ``tests/oracle/dump_parser.py`` run in a virtualenv that really holds
vLLM 0.33.0 and a CPU torch (built by ``tests/oracle/setup_env.sh``; an older release
is dumped by putting its Python tree ahead of the installed vLLM on PYTHONPATH).  See
docs/fidelity.md.  The slow tests build that venv when it is missing and fail if
they cannot: in CI the oracle must run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from release_sample import release_params

from vcfg.catalog.model import Catalog, Connector, EnvVar, Flag, Loc

ORACLE_DIR = Path(__file__).parent / "oracle"
SETUP = ORACLE_DIR / "setup_env.sh"
DUMP = ORACLE_DIR / "dump_parser.py"

#: Releases the oracle venv cannot build the parser of, and why.
CANNOT_RUN = {
    v: "with the CPU platform forced, its kernel import calls "
    "torch._C._cpu._is_avx512_supported(), which the oracle's torch 2.13.0 lacks"
    for v in ("0.17.0", "0.17.1")
}

#: Differences understood and not fixed (docs/fidelity.md, end of "Results"): 0.29.0's
#: --prefix-cache-retention-interval defaults to a module-level sentinel the catalog
#: calls dynamic.
KNOWN_DIFFERENCES = {"0.29.0": "default of --prefix-cache-retention-interval: a sentinel object"}

#: 0.33.0 is the release installed in the venv; the others are put on PYTHONPATH.
#: Every bundled release; which of them run: tests/release_sample.py.
FIDELITY_VERSIONS = release_params(cannot_run=CANNOT_RUN, known=KNOWN_DIFFERENCES)

#: Flags the catalog lacks on purpose, by release: 0.9.0 registers --model only when
#: neither 'serve' nor '--help' is in sys.argv (engine/arg_utils.py:451 @0.9.0); the
#: catalog is the `vllm serve` parser, the oracle's own argv has no 'serve'.
ABSENT_UNDER_SERVE = {"0.9.0": {"--model"}, "0.9.0.1": {"--model"}}

#: Choices vLLM picks by hash order, by release: 0.8.5 and 0.8.5.post1 type
#: --guided-decoding-backend as a Union of two Literals and get_kwargs takes whichever
#: the set of type hints yields first (engine/arg_utils.py:153 @0.8.5.post1), so a run
#: gets one list or the other.  The catalog keeps both (never a false finding); the
#: oracle's list must be one of the two (V0's is the union itself).
HASH_ORDER_CHOICES = {"0.8.5": {"--guided-decoding-backend"}, "0.8.5.post1": {"--guided-decoding-backend"}}

#: Defaults vcfg stores as ``{"$dynamic": ...}`` on purpose, by first option string.
#: Each is read from a VLLM_* environment variable when the parser is built; the
#: oracle runs with none set, so its value is only one of several.
DYNAMIC_DEFAULTS_ALLOWED = {
    "--log-error-stack",  # env VLLM_SERVER_DEV_MODE (0.2x-0.33)
    "--log-config-file",  # env VLLM_LOGGING_CONFIG_PATH (0.10-0.30)
    "--mm-hasher-algorithm",  # env VLLM_MM_HASHER_ALGORITHM, via a factory (0.27-0.29)
    "--guided-decoding-backend",  # env VLLM_USE_V1 picks it (0.10.0)
}

#: Choices that depend on the platform the parser is built on, by first option
#: string: the accelerator's device type the catalog lists and the CPU oracle lacks.
PLATFORM_CHOICES_ALLOWED = {
    # ["auto", "cpu"] + the platform's device type unless it is cpu
    # (vllm/engine/arg_utils.py:1568 @0.33, from 0.28)
    "--mm-processor-device": {"cuda"},
}

_TIMEOUT_SETUP = 1800  # a from-scratch build downloads ~1 GB
_TIMEOUT_DUMP = 300


# --------------------------------------------------------------------------- comparison


def _key(option_strings: list[str], dest: str) -> str:
    """An action's name in the diff: its first option string, or <dest> if positional."""
    return option_strings[0] if option_strings else f"<{dest}>"


def _is_dynamic(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"$dynamic"}


def _j(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def fidelity_diff(catalog: Catalog, dump: dict[str, Any]) -> list[str]:
    """Every way ``catalog`` disagrees with the oracle ``dump``, one readable line each.

    Compared: the set of actions (by first option string), each action's option
    strings (in order), choices (in order) and default; env var names; connector
    names.  A catalog default ``{"$dynamic": ...}`` is accepted only for the option
    strings in DYNAMIC_DEFAULTS_ALLOWED; a platform's device type in the choices only
    for those in PLATFORM_CHOICES_ALLOWED.
    """
    diffs: list[str] = []
    mine = {_key(f.option_strings, f.dest): f for f in catalog.flags}
    real = {_key(a["option_strings"], a["dest"]): a for a in dump["actions"]}
    for k in real:
        if k not in mine:
            diffs.append(f"flag {k}: in vLLM's parser, missing from the catalog")
    for k in mine:
        if k not in real:
            diffs.append(f"flag {k}: in the catalog, not in vLLM's parser")
    for k, a in real.items():
        f = mine.get(k)
        if f is None:
            continue
        if f.option_strings != a["option_strings"]:
            diffs.append(f"flag {k}: option strings {_j(f.option_strings)} != vLLM {_j(a['option_strings'])}")
        choices = f.choices
        if k in PLATFORM_CHOICES_ALLOWED and choices is not None:
            choices = [c for c in choices if c not in PLATFORM_CHOICES_ALLOWED[k]]
        if choices != a["choices"]:
            diffs.append(f"flag {k}: choices {_j(f.choices)} != vLLM {_j(a['choices'])}")
        if _is_dynamic(f.default):
            if k not in DYNAMIC_DEFAULTS_ALLOWED:
                diffs.append(f"flag {k}: default {_j(f.default)}, vLLM has {_j(a['default'])}")
        elif f.default != a["default"] or type(f.default) is not type(a["default"]):
            # type check: 1 == 1.0 == True in Python, not in a catalog
            diffs.append(f"flag {k}: default {_j(f.default)} != vLLM {_j(a['default'])}")
    mine_env = {e.name for e in catalog.env_vars}
    real_env = set(dump["env_var_names"])
    diffs += [f"env {n}: in vLLM, missing from the catalog" for n in sorted(real_env - mine_env)]
    diffs += [f"env {n}: in the catalog, not in vLLM" for n in sorted(mine_env - real_env)]
    mine_conn = {c.name for c in catalog.connectors}
    real_conn = set(dump["connectors"])
    diffs += [f"connector {n}: in vLLM, missing from the catalog" for n in sorted(real_conn - mine_conn)]
    diffs += [f"connector {n}: in the catalog, not in vLLM" for n in sorted(mine_conn - real_conn)]
    return diffs


# --------------------------------------------------------------------------- the oracle


def installed_oracle_version() -> str:
    """The vLLM release setup_env.sh installs (its VLLM_VERSION line)."""
    m = re.search(r'^VLLM_VERSION="([^"]+)"', SETUP.read_text(), re.M)
    assert m, "setup_env.sh names no VLLM_VERSION"
    return m.group(1)


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_") and k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


def build_oracle_venv() -> Path:
    """Run setup_env.sh (a no-op when the venv is current); its python's path."""
    proc = subprocess.run(
        ["bash", str(SETUP)],
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_SETUP,
        # build with the interpreter running the tests unless told otherwise
        env={"VCFG_ORACLE_PYTHON": sys.executable, **_clean_env()},
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-25:])
        pytest.fail(f"could not build the oracle venv (exit {proc.returncode}):\n{tail}")
    python = Path(proc.stdout.strip().splitlines()[-1])
    assert python.is_file(), f"setup_env.sh printed {python}, which does not exist"
    return python


def run_dump(python: Path, tree: Path | None) -> dict[str, Any]:
    """The oracle dump, of the installed vLLM (tree None) or of ``tree`` put over it."""
    extra = {"PYTHONPATH": str(tree)} if tree is not None else {}
    proc = subprocess.run(
        [str(python), str(DUMP)],
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_DUMP,
        env=_clean_env(**extra),
    )
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        pytest.fail(f"dump_parser.py failed (exit {proc.returncode}):\n{tail}")
    return json.loads(proc.stdout)


@pytest.fixture(scope="session")
def oracle_python() -> Path:
    os.environ.setdefault("VCFG_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "vcfg"))
    return build_oracle_venv()


# --------------------------------------------------------------------------- slow tests


@pytest.mark.slow
@pytest.mark.parametrize("version", FIDELITY_VERSIONS)
def test_catalog_agrees_with_real_parser(version: str, oracle_python: Path) -> None:
    from vcfg.catalog.extract.build import build_catalog
    from vcfg.catalog.extract.source import from_version

    src = from_version(version)
    assert src.root is not None
    tree = None if version == installed_oracle_version() else src.root
    dump = run_dump(oracle_python, tree)
    # the oracle really ran this release (and not the installed one underneath)
    assert dump["vllm_version"] == version
    if tree is not None:
        assert Path(dump["vllm_path"]).resolve() == (tree / "vllm").resolve()
    assert len(dump["actions"]) > 100 and len(dump["env_var_names"]) > 90  # 0.8.0: 94

    catalog = build_catalog(src)
    absent = ABSENT_UNDER_SERVE.get(version, set())
    dump = {**dump, "actions": [a for a in dump["actions"] if _key(a["option_strings"], a["dest"]) not in absent]}
    diffs = fidelity_diff(catalog, dump)
    for k in HASH_ORDER_CHOICES.get(version, ()):
        real = next(a["choices"] for a in dump["actions"] if _key(a["option_strings"], a["dest"]) == k)
        mine = catalog.flag(k).choices
        assert set(real) <= set(mine), (k, real, mine)
        diffs = [d for d in diffs if not d.startswith(f"flag {k}: choices ")]
    n_strings = sum(len(a["option_strings"]) for a in dump["actions"])
    print(
        f"vllm {version}: {len(dump['actions'])} actions, {n_strings} option strings, "
        f"{len(dump['env_var_names'])} env vars, {len(dump['connectors'])} connectors; "
        f"{len(diffs)} differences"
    )
    assert diffs == [], f"{len(diffs)} differences for vllm {version}:\n" + "\n".join(diffs)


# --------------------------------------------------------------------------- fast tests
# (the comparison itself, on a hand-made catalog and dump)

_LOC = Loc(file="vllm/x.py", line=1)


def _action(strings: list[str], dest: str, default: Any = None, choices: Any = None) -> dict:
    return {"option_strings": strings, "dest": dest, "default": default, "choices": choices}


def _dump(actions: list[dict], env: list[str], conns: list[str]) -> dict[str, Any]:
    return {"vllm_version": "9.9.9", "actions": actions, "env_var_names": env, "connectors": conns}


def _catalog(flags: list[Flag], env: list[str], conns: list[str]) -> Catalog:
    return Catalog(
        vllm_version="9.9.9",
        flags=flags,
        env_vars=[EnvVar(name=n, type="str", loc=_LOC) for n in env],
        connectors=[Connector(name=n, module="m", class_name=n, loc=_LOC) for n in conns],
    )


def test_fidelity_diff_empty_when_equal() -> None:
    dump = _dump(
        [
            _action([], "model_tag"),
            _action(["--dtype"], "dtype", "auto", ["auto", "half"]),
            _action(["--log-error-stack", "--no-log-error-stack"], "log_error_stack", False),
            _action(["--mm-processor-device"], "mm_processor_device", "auto", ["auto", "cpu"]),
        ],
        ["VLLM_A"],
        ["C1"],
    )
    cat = _catalog(
        [
            Flag(option_strings=[], dest="model_tag", positional=True),
            Flag(option_strings=["--dtype"], dest="dtype", default="auto", choices=["auto", "half"]),
            Flag(
                option_strings=["--log-error-stack", "--no-log-error-stack"],
                dest="log_error_stack",
                default={"$dynamic": "env"},
            ),
            Flag(
                option_strings=["--mm-processor-device"],
                dest="mm_processor_device",
                default="auto",
                choices=["auto", "cpu", "cuda"],
            ),
        ],
        ["VLLM_A"],
        ["C1"],
    )
    assert fidelity_diff(cat, dump) == []


def test_fidelity_diff_reports_each_kind() -> None:
    dump = _dump(
        [
            _action(["--a", "-a"], "a", 1),
            _action(["--b"], "b", "x", ["x", "y"]),
            _action(["--c"], "c", 1.0),
            _action(["--d"], "d", None),
            _action(["--gone"], "gone"),
        ],
        ["VLLM_A", "VLLM_B"],
        ["C1", "C2"],
    )
    cat = _catalog(
        [
            Flag(option_strings=["--a"], dest="a", default=1),
            Flag(option_strings=["--b"], dest="b", default="x", choices=["y", "x"]),
            Flag(option_strings=["--c"], dest="c", default=1),
            Flag(option_strings=["--d"], dest="d", default={"$dynamic": "platform"}),
            Flag(option_strings=["--new"], dest="new"),
        ],
        ["VLLM_A", "VLLM_C"],
        ["C1", "C3"],
    )
    assert fidelity_diff(cat, dump) == [
        "flag --gone: in vLLM's parser, missing from the catalog",
        "flag --new: in the catalog, not in vLLM's parser",
        'flag --a: option strings ["--a"] != vLLM ["--a", "-a"]',
        'flag --b: choices ["y", "x"] != vLLM ["x", "y"]',
        "flag --c: default 1 != vLLM 1.0",
        'flag --d: default {"$dynamic": "platform"}, vLLM has null',
        "env VLLM_B: in vLLM, missing from the catalog",
        "env VLLM_C: in the catalog, not in vLLM",
        "connector C2: in vLLM, missing from the catalog",
        "connector C3: in the catalog, not in vLLM",
    ]


def test_installed_oracle_version_matches_setup_script() -> None:
    assert installed_oracle_version() == "0.33.0"
    # the installed release is the newest bundled one, and always runs
    assert FIDELITY_VERSIONS[-1].values == (installed_oracle_version(),)
    assert not FIDELITY_VERSIONS[-1].marks
