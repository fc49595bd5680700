"""`vcfg lint` as a command: its own option parsing (no click), exit codes, and the
entry point that keeps click off the lint path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vcfg.cli.lint import OPTIONS, UsageError, parse_args, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "pd-decode-p2p.sh"


def test_parse_args_forms():
    a = parse_args(
        [
            "--vllm-version",
            "0.13.0",
            "--format=json",
            "--knowledge",
            "k1",
            "--knowledge=k2",
            "--exit-zero",
            "a.sh",
            "-",
            "--",
            "--odd-name.sh",
        ]
    )
    assert a is not None
    assert a["version"] == "0.13.0" and a["fmt"] == "json" and a["knowledge"] == ["k1", "k2"]
    assert a["exit_zero"] is True and a["paths"] == ["a.sh", "-", "--odd-name.sh"]
    d = parse_args(["x.sh"])
    assert d is not None and d["fmt"] == "full" and d["select"] == "" and d["knowledge"] == []
    assert parse_args(["x.sh", "-h"]) is None


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--formt", "json", "a.sh"], "no such option --formt (did you mean --format?)"),
        (["--format", "xml", "a.sh"], "'xml' is not one of full, concise, json, sarif, github"),
        (["a.sh", "--vllm-version"], "--vllm-version needs a value"),
        (["--exit-zero=1", "a.sh"], "--exit-zero takes no value"),
        (["--format", "json"], "give at least one path"),
    ],
)
def test_usage_errors(argv, message):
    with pytest.raises(UsageError) as info:
        parse_args(argv)
    assert message in str(info.value)


def test_every_option_is_in_the_help(capsys):
    assert run(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: vcfg lint")
    for o in OPTIONS:
        assert o.name in out


def test_usage_error_exits_2_with_one_message(capsys):
    assert run(["--nope", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err
    assert "vcfg lint: error: no such option --nope" in err and "Traceback" not in err


def test_run_lints_and_returns_the_exit_code(capsys):
    assert run(["--vllm-version", "0.33.0", "--format", "json", str(EXAMPLE)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert {("VC027", 23, 18), ("VC023", 23, 62)} <= {(d["code"], d["line"], d["column"]) for d in doc["diagnostics"]}
    assert run(["--vllm-version", "0.33.0", "--exit-zero", "--format", "concise", str(EXAMPLE)]) == 0
    assert run(["--vllm-version", "9.x", str(EXAMPLE)]) == 2
    assert "vcfg: error:" in capsys.readouterr().err


def _vcfg(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; sys.argv = ['vcfg', *sys.argv[1:]]\n"
        "from vcfg.cli import main\n"
        "try:\n    main()\n"
        "finally:\n    print('CLICK' if 'click' in sys.modules else 'NO-CLICK', file=sys.stderr)\n"
    )
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_entry_lints_without_importing_click(tmp_path):
    shutil.copy(EXAMPLE, tmp_path)
    r = _vcfg("lint", "--vllm-version", "0.13.0", "--format", "concise", EXAMPLE.name, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "VC106" in r.stdout and r.stderr.strip().endswith("NO-CLICK")
    r = _vcfg("explain", "VC001", cwd=tmp_path)  # every other command is the click CLI
    assert r.returncode == 0 and r.stderr.strip().endswith("CLICK")
    r = _vcfg("--help", cwd=tmp_path)
    assert r.returncode == 0 and "lint" in r.stdout


def test_yaml_serve_config_is_reported_under_the_path_given_and_read_once(tmp_path, monkeypatch, capsys):
    from vcfg.launch import yaml_config

    src = ROOT / "tests" / "corpus" / "seeded" / "serve-config-mistakes-0.33.0.yaml"
    shutil.copy(src, tmp_path / src.name)
    monkeypatch.chdir(tmp_path)
    calls = []
    real = yaml_config._load
    monkeypatch.setattr(yaml_config, "_load", lambda text, path: calls.append(path) or real(text, path))
    assert run(["--format", "concise", src.name]) == 1
    lines = capsys.readouterr().out.splitlines()[:-1]
    assert lines and all(line.startswith(f"{src.name}:") for line in lines)
    assert calls == [src.name]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WORDS = st.one_of(
    st.sampled_from([o.name for o in OPTIONS] + ["-h", "--", "-", "--format=json", "--select=VC0", "x.sh"]),
    # a word that names a folder outside the test's own (`/`, `..`, `~`) would lint the
    # machine's file system: minutes, and a result that depends on the machine
    st.text(max_size=12).filter(lambda s: "/" not in s and ".." not in s and "~" not in s and "\\" not in s),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, max_size=6))
def test_any_argv_gives_an_exit_code_never_a_traceback(tmp_path_factory, argv):
    import contextlib
    import io

    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("argv"))
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            code = run(argv)
    finally:
        os.chdir(cwd)
    assert code in (0, 1, 2) and "Traceback" not in err.getvalue()
