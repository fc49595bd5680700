"""vllm-omni's ``vllm serve ... --omni``: vllm-omni's console script runs its own serve
parser when the word ``--omni`` is in argv (vllm_omni/entrypoints/cli/main.py:12
@be81443), vLLM's serve options plus its own (serve.py:73-188): the table
vcfg/catalog/data/omni-flags.json, read from vllm-omni's source by
`vcfg.catalog.extract.omni`.  Real corpus files from vllm-project/vllm-omni@be81443."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.launch.args.entry import OMNI_TABLE, _read, omni_flags
from vcfg.lint.engine import lint_paths

CORPUS = Path(__file__).parent / "corpus" / "real"
FILES = [
    "bash/vllm-omni/text_to_image_run_server.sh",
    "markdown/vllm-omni/quickstart.md",
    "markdown/vllm-omni/text_to_image_README.md",
]


def found(path: Path) -> list[tuple[str, int, int, str, str]]:
    r = lint_paths([str(path)], None)
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col, d.message, d.help) for d in r.diagnostics]


def seeded(tmp_path: Path, rel: str, old: str, new: str) -> tuple[Path, int, int]:
    text = (CORPUS / rel).read_text()
    k = text.index(old)
    out = tmp_path / Path(rel).name
    out.write_text(text[:k] + new + text[k + len(old) :])
    return out, text.count("\n", 0, k) + 1, k - text.rfind("\n", 0, k)


@pytest.mark.parametrize("rel", FILES)
def test_the_omni_examples_lint_clean(rel):
    assert found(CORPUS / rel) == []


def test_an_omni_option_is_typed_and_a_typo_gets_did_you_mean(tmp_path):
    rel = "markdown/vllm-omni/quickstart.md"
    old = "--omni --port 8091"
    p, line, col = seeded(tmp_path, rel, old, "--omni --stage-config-path s.yaml --port 8091")
    got = [(c, ln, cl, h) for c, ln, cl, _, h in found(p)]
    assert got == [("VC001", line, col + len("--omni "), "did you mean `--stage-configs-path`?")]
    p, line, col = seeded(tmp_path, rel, old, "--omni --worker-backend mp --port 8091")
    assert [(c, ln, cl) for c, ln, cl, *_ in found(p)] == [("VC005", line, col + len("--omni --worker-backend "))]
    p, line, col = seeded(tmp_path, rel, old, "--omni --num-gpus two --port 8091")
    assert [(c, ln) for c, ln, *_ in found(p)] == [("VC004", line)]


def test_without_the_trigger_vllms_own_cli_runs(tmp_path):
    # no `--omni`: vllm-omni's main hands argv to vLLM's, which has no --stage-configs-path
    rel = "markdown/vllm-omni/quickstart.md"
    p, line, col = seeded(tmp_path, rel, "--omni --port 8091", "--stage-configs-path s.yaml --port 8091")
    assert [(c, ln, cl) for c, ln, cl, *_ in found(p)] == [("VC001", line, col)]


def test_vllms_own_options_are_still_checked_under_omni(tmp_path):
    rel = "bash/vllm-omni/text_to_image_run_server.sh"
    p, line, col = seeded(tmp_path, rel, '--port "$PORT"', '--port "$PORT" --max-num-seqz 4')
    got = [(c, ln, h) for c, ln, _, _, h in found(p)]
    assert got == [("VC001", line, "did you mean `--max-num-seqs`?")]


def test_the_table_holds_facts_with_their_place():
    rels = _read(OMNI_TABLE)["releases"]
    rel = rels["0.12.0rc1"]
    assert rel["commit"] == "be81443c8a52f863452253ee6ea1d9f263bd2fb6"
    assert rel["trigger"] == {"option": "--omni", "loc": "vllm_omni/entrypoints/cli/main.py:12"}
    by = {s: o for o in rel["options"] for s in o["options"]}
    assert by["--omni"] == {"options": ["--omni"], "nargs": "0", "loc": "vllm_omni/entrypoints/cli/serve.py:73"}
    assert by["--worker-backend"]["choices"] == ["multi_process", "ray"]
    assert by["--usp"] is by["--ulysses-degree"]
    # names, arity, types, choices and places only: no help text
    assert all(set(o) <= {"options", "nargs", "type", "choices", "loc"} for o in rel["options"])
    flags = {s: f for f in omni_flags() for s in f.option_strings}
    assert flags["--omni"].action == "store_true" and flags["--init-timeout"].type == "int"


def test_the_extractor_reads_a_serve_command_and_its_trigger(tmp_path):
    # a small vllm-omni-shaped tree written here (vcfg's own text)
    from vcfg.catalog.extract.omni import read_source

    cli = tmp_path / "vllm_omni" / "entrypoints" / "cli"
    cli.mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "vllm-omni"\nversion = "9.9.9"\n')
    (cli / "main.py").write_text('import sys\n\n\ndef main():\n    if "--omni" not in sys.argv:\n        return\n')
    (cli / "serve.py").write_text(
        "class Cmd:\n"
        "    def subparser_init(self, subparsers):\n"
        "        p = make_arg_parser(subparsers.add_parser('serve'))\n"
        "        p.add_argument('--omni', action='store_true')\n"
        "        p.add_argument('--steps', type=int, default=3)\n"
        "        p.add_argument('--mode', type=str, choices=['a', 'b'])\n"
        "        return p\n"
    )
    out = read_source(str(tmp_path), "c" * 40)
    assert out["version"] == "9.9.9" and out["commit"] == "c" * 40
    assert out["trigger"] == {"option": "--omni", "loc": "vllm_omni/entrypoints/cli/main.py:5"}
    assert out["options"] == [
        {"options": ["--omni"], "nargs": "0", "loc": "vllm_omni/entrypoints/cli/serve.py:4"},
        {"options": ["--steps"], "nargs": "1", "type": "int", "loc": "vllm_omni/entrypoints/cli/serve.py:5"},
        {
            "options": ["--mode"],
            "nargs": "1",
            "type": "str",
            "choices": ["a", "b"],
            "loc": "vllm_omni/entrypoints/cli/serve.py:6",
        },
    ]
