"""A failure inside vcfg's own reading (the shell interpreter, the replay of vLLM's
argv handling) is never "no problems": it is an internal error with its position and
exit 2, and the other findings are still reported.  The failures are injected."""

from __future__ import annotations

from click.testing import CliRunner

from vcfg.cli.commands import main
from vcfg.launch.args import parser as args_parser
from vcfg.launch.shell import _Interp
from vcfg.lint import engine
from vcfg.lint.engine import lint_paths


def _boom(*_a, **_k):
    raise RuntimeError("injected")


def test_an_exception_in_the_argv_replay_is_an_internal_error_with_exit_2(tmp_path, monkeypatch):
    p = tmp_path / "run.sh"
    # a typo'd flag in a second launch: still reported
    p.write_text("vllm serve m-replay-fail --port 8000 &\nexport VLLM_LOGGING_LEVLE=DEBUG\nvllm serve m2 --port 8001\n")
    monkeypatch.setattr(engine, "_ARGS", {})
    monkeypatch.setattr(args_parser.Parser, "run", _boom)
    res = lint_paths([str(p)], "0.33.0")
    assert res.internal_errors == [
        f"{p}:1:12: vcfg could not analyse these arguments: RuntimeError: injected",
        f"{p}:3:12: vcfg could not analyse these arguments: RuntimeError: injected",
    ]
    assert res.exit_code == 2
    assert ("VC101", 2) in {(d.code, d.span.line) for d in res.diagnostics}  # the env typo
    r = CliRunner().invoke(main, ["lint", "--format", "concise", "--vllm-version", "0.33.0", str(p)])
    assert r.exit_code == 2
    assert "internal error" in r.output and "RuntimeError: injected" in r.output


def test_an_exception_in_the_shell_interpreter_is_an_internal_error_with_exit_2(tmp_path, monkeypatch):
    p = tmp_path / "run.sh"
    p.write_text("vllm serve m-interp-fail --max-num-seqz 4\n")
    monkeypatch.setattr(_Interp, "run", _boom)
    res = lint_paths([str(p)], "0.33.0")
    assert res.internal_errors == [f"{p}:1:1: vcfg could not analyse this script: RuntimeError: injected"]
    assert res.exit_code == 2
    assert not [d for d in res.diagnostics if d.code == "VC000"]  # not also a note


def test_arguments_too_deep_to_follow_are_a_vc000_note_at_the_launch(tmp_path, monkeypatch):
    def deep(*_a, **_k):
        raise RecursionError("deep")

    p = tmp_path / "run.sh"
    p.write_text("echo start\nvllm serve m-too-deep --port 8000\n")
    monkeypatch.setattr(engine, "_ARGS", {})
    monkeypatch.setattr(args_parser.Parser, "run", deep)
    res = lint_paths([str(p)], "0.33.0")
    assert res.internal_errors == []
    got = [(d.code, d.severity, d.span.line, d.span.col, d.message) for d in res.diagnostics]
    assert got == [("VC000", "info", 2, 12, "arguments nested too deeply to analyse")]
