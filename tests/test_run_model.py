"""One lint run leaks nothing into the next (vcfg/lint/context.py `Run`).

A resident process (the language server) lints many buffers in one process, each with
its own release, plugin overlays and open files.  Here the same scripts are linted in
one process against two releases, with and without vllm-ascend's overlay (named by the
project's ``plugins`` setting, or by the launch's ``VLLM_PLUGINS``), through both entry
points (`lint_paths`, the command line's; `lint_text`, the language server's), in one
order and then in the other: every answer (codes, positions, messages, the release
note) must be the answer a fresh process gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths, lint_text, make_target

_CONN = (
    "vllm serve m --kv-transfer-config "
    '\'{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}\' '
    "--enable-prompt-adapter --max-num-seqs 8\n"
)
#: vllm-ascend's variables (one misspelt) and a connector only its overlay registers;
#: --enable-prompt-adapter exists in 0.10.0, not in 0.33.0
SCRIPT = "export VLLM_ASCEND_ENABLE_MLAPO=true\nexport VLLM_ASCEND_ENABLE_MLAP=1\n" + _CONN
NAMED = "export VLLM_PLUGINS=ascend,ascend_kv_connector\n" + SCRIPT

#: (release, the project's plugins, file, entry point)
VARIANTS = [
    ("0.33.0", [], "launch.sh", "paths"),
    ("0.33.0", ["vllm-ascend"], "launch.sh", "text"),
    ("0.10.0", [], "named.sh", "text"),
    ("0.10.0", [], "launch.sh", "paths"),
    ("0.10.0", ["vllm-ascend"], "launch.sh", "paths"),
]


def answer(folder: str, variant: list) -> dict:  # type: ignore[type-arg]
    version, plugins, name, entry = variant
    path = os.path.join(folder, name)
    config = LintConfig(plugins=list(plugins))
    if entry == "paths":
        result = lint_paths([path], version, config=config)
    else:
        result = lint_text(path, Path(path).read_bytes(), make_target(version, config))
    return {
        "found": [
            [d.code, d.span.line, d.span.col, d.span.end_line, d.span.end_col, d.message] for d in result.diagnostics
        ],
        "note": result.summary.version_note,
        "errors": result.internal_errors,
    }


_FRESH = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_run_model import answer
print(json.dumps(answer(sys.argv[2], json.loads(sys.argv[3]))))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run-model")
    (folder / ".git").mkdir()
    (folder / "launch.sh").write_text(SCRIPT)
    (folder / "named.sh").write_text(NAMED)
    return folder


@pytest.fixture(scope="module")
def fresh(project):
    """Each variant's answer from a process of its own."""
    here = str(Path(__file__).parent)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _FRESH, here, str(project), json.dumps(v)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for v in VARIANTS
    ]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        assert p.returncode == 0, stderr
        out.append(json.loads(stdout))
    return out


def test_the_variants_differ(fresh):
    """The releases and the overlay change the answer (else the test below proves nothing)."""
    found = [json.dumps(a["found"]) for a in fresh]
    assert found[0] != found[3] and found[0] != found[1] and found[3] != found[4] and found[2] != found[3]
    assert not any(a["errors"] for a in fresh)
    codes = {d[0] for d in fresh[1]["found"]}
    assert {"VC101", "VC102"} <= codes and "VC027" not in codes  # the overlay laid over
    assert "VC027" in {d[0] for d in fresh[0]["found"]}  # without it, the connector is unknown


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_one_process_answers_as_fresh_processes(project, fresh, order):
    idx = list(range(len(VARIANTS)))
    if order == "backward":
        idx.reverse()
    for i in idx:
        assert answer(str(project), VARIANTS[i]) == fresh[i], VARIANTS[i]


def test_a_runs_buffers_are_not_the_next_runs(tmp_path):
    """An editor's buffer for a --config file is read by the run it is given to only."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "serve.yaml").write_text("max-num-seqs: 8\n")
    script = tmp_path / "run.sh"
    script.write_text("vllm serve m --config serve.yaml\n")
    target = make_target("0.33.0", LintConfig())
    cfg = os.path.abspath(tmp_path / "serve.yaml")
    data = script.read_bytes()
    with_buffer = lint_text(str(script), data, target, {cfg: b"max-num-seqz: 8\n"})
    assert [(d.code, d.span.file, d.span.line, d.span.col) for d in with_buffer.diagnostics] == [("VC001", cfg, 1, 1)]
    assert lint_text(str(script), data, target).diagnostics == []
    assert lint_paths([str(script)], "0.33.0", config=LintConfig()).diagnostics == []


def test_a_yaml_read_in_part_then_in_full(tmp_path, monkeypatch):
    """A buffer whose documents stopped being read (too long) and then, shorter, are
    read in full: the second lint says nothing of stopping."""
    from vcfg.launch.readers import _yaml

    monkeypatch.setattr(_yaml, "MAX_CHARS", 200)
    (tmp_path / ".git").mkdir()
    path = str(tmp_path / "deploy.yaml")
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{}\nspec:\n  containers:\n  - name: c\n"
        "    image: vllm/vllm-openai:v0.33.0\n    command: [vllm, serve, m]\n"
    )
    long = "---\n".join(pod.format(i) for i in range(6)).encode()
    target = make_target("0.33.0", LintConfig())
    first = lint_text(path, long, target)
    assert any(d.code == "VC000" and "only the YAML documents" in d.message for d in first.diagnostics), (
        first.diagnostics
    )
    short = pod.format(0).encode()
    assert [d.code for d in lint_text(path, short, target).diagnostics] == []


def test_a_file_shows_the_path_this_run_was_given(tmp_path, monkeypatch):
    """A serve config linted by its absolute path and then by a relative one: each
    run's findings show its own spelling (the parsed YAML is cached across runs)."""
    seeded = Path(__file__).parent / "corpus" / "seeded" / "serve-config-mistakes-0.33.0.yaml"
    (tmp_path / ".git").mkdir()
    (tmp_path / "serve.yaml").write_bytes(seeded.read_bytes())
    monkeypatch.chdir(tmp_path)
    config = LintConfig()
    answers = []
    for given in (str(tmp_path / "serve.yaml"), "serve.yaml", str(tmp_path / "serve.yaml")):
        found = lint_paths([given], "0.33.0", config=config).diagnostics
        assert found and {d.span.file for d in found} == {given}, (given, found)
        answers.append([(d.code, d.span.line, d.span.col) for d in found])
    assert answers[0] == answers[1] == answers[2]


def test_a_parse_the_budget_stopped_is_not_the_next_parses():
    """Where tree-sitter's read budget stopped a script (vcfg/launch/shell_tree.py) is
    the answer of that parse, not state the next parse (of another script, or of an
    ``eval`` string inside one) can see or overwrite."""
    from vcfg.launch import shell_tree
    from vcfg.launch.shell import parse_script

    stopped = b"vllm serve m\n" + b")" * 30_000  # error recovery that would take minutes
    clean = b"vllm serve m --port 8000\n"

    def stops(plan):
        return [(p.span.line, p.span.col) for p in plan.problems if "stops reading" in p.message]

    _, at = shell_tree.parse_stopped(stopped)
    assert at is not None and at >= len(b"vllm serve m\n")
    assert shell_tree.parse_stopped(clean)[1] is None
    assert stops(parse_script(stopped)) == [(2, 1)]
    assert stops(parse_script(clean)) == []
    # a script that eval's a clean string: the script's own stop is still reported
    evals = b'eval "echo hi"\n' + stopped
    assert stops(parse_script(evals)) == [(3, 1)]
    assert stops(parse_script(stopped)) == [(2, 1)]
