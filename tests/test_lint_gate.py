"""`vcfg lint` as a CI gate (issue 17): code validation, --stdin-filename, per-file
settings relative to the config, relative paths, missing and special files, the
report options, and the project's release honoured by every command."""

from __future__ import annotations

import io
import json
import os
import socket
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.cli.lint import run

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """\
#!/bin/bash
export VLLM_LOGGING_LEVEL=INFO
vllm serve Qwen/Qwen3-8B \\
    --max-num-seqz 64 \\
    --disable-log-requests \\
    --port 8100
"""
YAML = """\
model: Qwen/Qwen3-8B
max-num-seqz: 64
tensor-parallel-size: 2
"""


def _lint(capsys, *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.sh").write_text(SCRIPT)
    (tmp_path / "new.sh").write_text(SCRIPT)
    (tmp_path / ".vcfg.toml").write_text('vllm-version = "0.13.0"\n[per-file-ignores]\n"legacy/*.sh" = ["VC001"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ------------------------------------------------------------------ codes


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--select", "VCOO1"], "--select: unknown rule code or prefix: 'VCOO1' (did you mean VC001"),
        (["--ignore", "banana"], "--ignore: unknown rule code or prefix: 'banana'"),
        (["--select", "VC001,VC9X"], "'VC9X'"),
    ],
)
def test_unknown_codes_are_a_usage_error(project, capsys, argv, said):
    code, out, err = _lint(capsys, *argv, "new.sh")
    assert code == 2
    assert said in err
    assert out == ""  # nothing linted, nothing reported as "no problems"


def test_known_codes_and_prefixes_still_select(project, capsys):
    code, out, _ = _lint(capsys, "--select", "vc0", "--format", "concise", "new.sh")
    assert code == 1 and "VC001" in out
    code, out, _ = _lint(capsys, "--select", "VC1", "--format", "concise", "new.sh")
    assert "VC001" not in out


@pytest.mark.parametrize("key", ["select", "ignore"])
def test_unknown_codes_in_the_config_file(project, capsys, key):
    (project / ".vcfg.toml").write_text(f'{key} = ["VC0O1"]\n')
    code, _, err = _lint(capsys, "new.sh")
    assert code == 2
    assert f".vcfg.toml: {key}: unknown rule code or prefix: 'VC0O1' (did you mean VC001" in err


def test_unknown_code_in_per_file_ignores(project, capsys):
    (project / ".vcfg.toml").write_text('[per-file-ignores]\n"*.sh" = ["VC01O"]\n')
    code, _, err = _lint(capsys, "new.sh")
    assert code == 2 and "per-file-ignores.'*.sh': unknown rule code" in err and "VC010" in err


# ------------------------------------------------------------- per-file-ignores


@pytest.mark.parametrize("spelling", ["legacy/old.sh", "./legacy/old.sh", "legacy//old.sh"])
def test_per_file_ignores_match_the_path_relative_to_the_config(project, capsys, spelling):
    code, out, _ = _lint(capsys, "--format", "concise", spelling, "new.sh")
    lines = out.splitlines()
    assert not any(line.startswith("legacy/old.sh") and "VC001" in line for line in lines), out
    assert any(line.startswith("new.sh:4:5: VC001") for line in lines), out


def test_per_file_ignores_from_another_working_directory(project, capsys, monkeypatch):
    monkeypatch.chdir(project / "legacy")
    code, out, _ = _lint(capsys, "--format", "concise", "old.sh", "../new.sh")
    assert "old.sh:4:5: VC001" not in out
    assert "../new.sh:4:5: VC001" in out


# ----------------------------------------------------------------- stdin


def test_stdin_filename_reads_yaml_as_a_serve_config(project, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(YAML.encode())))
    code, out, _ = _lint(capsys, "--stdin-filename", "configs/decode.yaml", "--format", "json", "-")
    doc = json.loads(out)
    found = [(d["code"], d["path"], d["line"]) for d in doc["diagnostics"]]
    assert ("VC001", "configs/decode.yaml", 2) in found, found
    assert code == 1


def test_stdin_without_a_name_is_bash(project, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(YAML.encode())))
    code, out, _ = _lint(capsys, "--format", "json", "-")
    assert json.loads(out)["diagnostics"] == []  # read as bash: no vLLM launch in it


def test_stdin_filename_follows_per_file_ignores(project, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SCRIPT.encode())))
    code, out, _ = _lint(capsys, "--stdin-filename", "legacy/edited.sh", "--format", "concise", "-")
    assert "VC001" not in out and "legacy/edited.sh:5:5: VC003" in out


def test_stdin_filename_needs_dash(project, capsys):
    code, _, err = _lint(capsys, "--stdin-filename", "x.yaml", "new.sh")
    assert code == 2 and "give '-' as a path too" in err


# -------------------------------------------------------------- paths


def test_missing_file_is_reported_and_the_rest_linted(project, capsys):
    code, out, err = _lint(capsys, "--format", "concise", "missing.sh", "new.sh")
    assert code == 2
    assert "new.sh:4:5: VC001" in out  # linted
    assert "vcfg: error: missing.sh: no such file or directory" in err


def test_empty_folder_says_so(project, capsys):
    (project / "empty").mkdir()
    code, out, err = _lint(capsys, "empty")
    assert code == 0
    assert "empty: no file in this folder is one vcfg reads" in err
    assert "in 0 files" in out


def test_fifo_is_refused_without_opening(project, capsys):
    os.mkfifo(project / "pipe.sh")  # opening it would block: the test would hang
    code, out, err = _lint(capsys, "--format", "concise", "pipe.sh", "new.sh")
    assert code == 2
    assert "pipe.sh: a FIFO, not a regular file; not read" in err
    assert "new.sh:4:5: VC001" in out


def test_fifo_and_socket_in_a_folder_are_skipped(project, capsys):
    os.mkfifo(project / "legacy" / "pipe.sh")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(project / "legacy" / "s.sock"))
    try:
        code, out, err = _lint(capsys, "--format", "concise", "legacy")
    finally:
        sock.close()
    assert "legacy/pipe.sh: a FIFO, not a regular file; skipped" in err
    assert "legacy/s.sock: a socket, not a regular file; skipped" in err
    assert "legacy/old.sh:5:5: VC003" in out


def test_device_as_config_is_refused(project, capsys):
    code, _, err = _lint(capsys, "--config", "/dev/zero", "new.sh")
    assert code == 2 and "/dev/zero: a character device, not a regular file; not read" in err


def test_fifo_named_by_a_launchs_config_is_not_opened(project, capsys):
    os.mkfifo(project / "serve.yaml")
    (project / "run.sh").write_text("#!/bin/bash\nvllm serve --config serve.yaml --max-num-seqz 4\n")
    code, out, _ = _lint(capsys, "--format", "concise", "run.sh")
    assert "run.sh:2:32: VC001" in out and code == 1


# -------------------------------------------------------- relative paths


def test_a_file_reached_through_a_launchs_config_is_relative(project, capsys):
    (project / "cfg").mkdir()
    (project / "cfg" / "serve.yaml").write_text("max-num-seqz: 8\nmax-num-seqs: 4\n")
    (project / "run.sh").write_text(
        f"#!/bin/bash\nvllm serve Qwen/Qwen3-8B --config {project}/cfg/serve.yaml --max-num-seqs 2\n"
    )
    for fmt in ("github", "sarif", "concise"):
        code, out, _ = _lint(capsys, "--format", fmt, "run.sh")
        assert str(project) not in out.replace(Path(project).as_uri(), ""), (fmt, out)
    code, out, _ = _lint(capsys, "--format", "sarif", "run.sh")
    doc = json.loads(out)
    run_ = doc["runs"][0]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
    locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run_["results"]]
    assert {"uri": "cfg/serve.yaml", "uriBaseId": "%SRCROOT%"} in locs
    # the duplicate message names the other file, not a bare "line 2"
    code, out, _ = _lint(capsys, "--format", "concise", "run.sh")
    dup = [line for line in out.splitlines() if "VC007" in line]
    assert dup and "cfg/serve.yaml:2" in dup[0], out


# -------------------------------------------------------------- report options


def test_statistics(project, capsys):
    code, out, _ = _lint(capsys, "--statistics", "new.sh", "legacy/old.sh")
    lines = out.splitlines()
    assert lines[0].split() == ["2", "VC003", "[warning]", "deprecated-flag"]
    assert lines[1].split() == ["1", "VC001", "[error]", "unknown-flag"]
    assert code == 1


def test_output_file(project, capsys):
    code, out, _ = _lint(capsys, "--format", "json", "--output-file", "report.json", "new.sh")
    assert out == "" and code == 1
    assert json.loads((project / "report.json").read_text())["summary"]["errors"] == 1


@pytest.mark.parametrize("fail_on, expected", [("error", 0), ("warning", 1), ("info", 1)])
def test_fail_on(project, capsys, fail_on, expected):
    # legacy/old.sh: VC001 ignored there; VC003 (warning) is left
    code, _, _ = _lint(capsys, "--fail-on", fail_on, "legacy/old.sh")
    assert code == expected


def test_exit_zero_kept(project, capsys):
    assert _lint(capsys, "--exit-zero", "new.sh")[0] == 0


def test_show_settings_names_each_origin(project, capsys):
    code, out, _ = _lint(capsys, "--show-settings", "--ignore", "VC104", "new.sh")
    assert code == 0
    cfg = str(project / ".vcfg.toml")
    assert f"config file: {cfg}" in out
    assert f'vllm-version = "0.13.0"   # from {cfg}' in out
    assert 'ignore = ["VC104"]   # from --ignore' in out
    assert 'per-file-ignores = {"legacy/*.sh": ["VC001"]}   # from' in out
    assert 'fail-on = "warning"   # default' in out


def test_format_auto(project, capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out, _ = _lint(capsys, "--format", "auto", "new.sh")
    assert out.startswith("::error file=new.sh,line=4,col=5")
    monkeypatch.delenv("GITHUB_ACTIONS")
    _, out, _ = _lint(capsys, "--format", "auto", "new.sh")
    assert out.startswith("error[VC001]")


def test_concise_keeps_the_first_help_line(project, capsys):
    _, out, _ = _lint(capsys, "--format", "concise", "new.sh")
    assert "new.sh:4:5: VC001 [error] unknown option `--max-num-seqz` (did you mean `--max-num-seqs`?)" in out


def test_caret_window_on_a_very_long_line(project, capsys):
    pad = "x" * 3000
    (project / "long.sh").write_text(
        f"#!/bin/bash\nvllm serve Qwen/Qwen3-8B --served-model-name {pad} --max-num-seqz 8 --port {'1' * 3}"
        + " --host "
        + "h" * 2000
        + "\n"
    )
    _, out, _ = _lint(capsys, "long.sh")
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if "--max-num-seqz 8" in line)
    assert lines[i].startswith("2 | ...") and lines[i].endswith("...")
    assert len(lines[i]) < 170 and len(lines[i + 1]) < 170
    caret = lines[i + 1]
    assert lines[i][caret.index("^") :].startswith("--max-num-seqz")


# -------------------------------------------------------------------- VC011


@pytest.mark.parametrize(
    "line, warned",
    [
        ("enable-prefix-caching: false", True),  # default on: the file says off, vLLM keeps on
        ("enforce-eager: false", False),  # the default already: nothing lost
        ("trust_remote_code: false", False),
        ("no-enable-prefix-caching: false", False),  # asks for caching on, the default
    ],
)
def test_vc011_only_when_the_default_is_on(project, capsys, line, warned):
    (project / "serve.yaml").write_text(f"model: Qwen/Qwen3-8B\n{line}\n")
    _, out, _ = _lint(capsys, "--vllm-version", "0.33.0", "--format", "concise", "serve.yaml")
    assert ("VC011" in out) is warned, out


# --------------------------------------------------- the project's release


@pytest.mark.parametrize(
    "argv, said",
    [
        (["explain", "--max-num-seqs", "--no-help-text"], "(flag, vllm 0.13.0)"),
        (["connectors"], "KV connectors of vllm 0.13.0"),
        (["launch", "show", "new.sh"], "checked against vllm 0.13.0"),
        (["catalog", "show"], "vllm 0.13.0:"),
    ],
)
def test_every_command_targets_the_projects_release(project, argv, said):
    from vcfg.cli.commands import main

    r = CliRunner().invoke(main, argv)
    assert r.exit_code == 0, r.output
    assert said in r.output


def test_schema_and_init_editor_target_the_projects_release(project):
    from vcfg.cli.commands import main

    r = CliRunner().invoke(main, ["schema", "serve"])
    assert json.loads(r.output)["$id"].endswith("/0.13.0/serve.schema.json")
    (project / "serve.yaml").write_text("model: m\n")
    r = CliRunner().invoke(main, ["init-editor", "serve.yaml"])
    assert r.exit_code == 0, r.output
    assert "0.13.0/serve.schema.json" in (project / "serve.yaml").read_text().splitlines()[0]


def test_plan_takes_the_projects_gpu_memory(project):
    from vcfg.cli.commands import main

    (project / ".vcfg.toml").write_text('gpu-memory = "24GiB"\n')
    cfg = ROOT / "tests" / "fixtures" / "plan" / "llama-3.1-70b" / "config.json"
    argv = ["plan", "--model-config", str(cfg), "--gpus", "8", "--format", "json"]
    r = CliRunner().invoke(main, argv)
    assert json.loads(r.output)["request"]["gpu_memory_bytes"] == 24 * 2**30
    r = CliRunner().invoke(main, [*argv, "--gpu-memory", "80GB"])
    assert json.loads(r.output)["request"]["gpu_memory_bytes"] == 80 * 10**9


def test_readme_option_table_is_complete():
    from vcfg.cli.lint import OPTIONS

    text = (ROOT / "README.md").read_text()
    table = text[text.index("`vcfg lint` options") : text.index("Examples:")]
    for o in OPTIONS:
        assert f"`{o.name}" in table or f", `{o.name}" in table, o.name
        for c in o.choices:
            assert c in table, (o.name, c)
