import json
from pathlib import Path

import pytest

from vcfg.diagnostics import Diagnostic, Span, Summary
from vcfg.errors import VcfgError
from vcfg.lint import suppressions
from vcfg.lint.config import load_config
from vcfg.render import concise, full, github, json_, sarif


def d(code, line, col=1, path="run.sh", sev="error"):
    return Diagnostic(
        code=code,
        name="x",
        severity=sev,
        message=f"m {code}",
        span=Span.at(path, line, col, line, col + 3),
        help="do y",
    )


SCRIPT = """\
export VLLM_A=1  # vcfg: disable=VC101
# vcfg: disable=VC001, VC002
vllm serve m \\
  --bad 1 \\
  --worse 2
vllm serve m --bad 3
# vcfg: disable=VC555
echo done
"""


def test_trailing_and_own_line_suppressions():
    sups = suppressions.find_suppressions("run.sh", SCRIPT)
    diags = [d("VC101", 1), d("VC001", 4), d("VC002", 5), d("VC001", 6), d("VC003", 4)]
    kept = suppressions.apply(diags, sups)
    assert [(x.code, x.span.line) for x in kept] == [("VC001", 6), ("VC003", 4)]
    unused = [s for s in sups if not s.used]
    assert [s.span.line for s in unused] == [7]


def test_disable_file_and_all():
    text = "# vcfg: disable-file=all\nvllm serve m --x\n"
    sups = suppressions.find_suppressions("a.sh", text)
    assert suppressions.apply([d("VC001", 2, path="a.sh")], sups) == []


def test_suppression_only_applies_to_its_file():
    sups = suppressions.find_suppressions("a.sh", "x  # vcfg: disable=VC001\n")
    assert suppressions.apply([d("VC001", 1, path="b.sh")], sups) != []


def test_config_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vcfg]\nvllm-version = "0.13.0"\nignore = ["VC1"]\n'
        '[tool.vcfg.per-file-ignores]\n"legacy/*.sh" = ["VC001"]\n'
    )
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    cfg = load_config(sub)
    assert cfg.vllm_version == "0.13.0"
    assert not cfg.enabled("VC101") and cfg.enabled("VC001")
    assert not cfg.enabled("VC001", "legacy/x.sh") and cfg.enabled("VC001", "new/x.sh")


def test_vcfg_toml_wins_over_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.vcfg]\nvllm-version = "0.1.0"\n')
    (tmp_path / ".vcfg.toml").write_text('vllm-version = "0.2.0"\n')
    assert load_config(tmp_path).vllm_version == "0.2.0"


def test_pyproject_without_table_is_skipped(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert load_config(tmp_path).vllm_version is None


@pytest.mark.parametrize(
    "text",
    [
        '[tool.vcfg]\nvllm-version = "0.13.0"\n',
        '[ tool . "vcfg" ]\nvllm-version = "0.13.0"\n',
        'tool.vcfg.vllm-version = "0.13.0"\n',
        '[tool]\nvcfg = { vllm-version = "0.13.0" }\n',
        '[tool]\nvcfg.vllm-version = "0.13.0"\n',
        '[tool]\n"vcfg" . vllm-version = "0.13.0"\n',
        '[tool.vcfg.per-file-ignores]\n"a.sh" = ["VC001"]\n[tool.vcfg]\nvllm-version = "0.13.0"\n',
    ],
)
def test_every_spelling_of_the_table_is_read(tmp_path, text):
    (tmp_path / "pyproject.toml").write_text(text + '[project]\nname = "x"\n')
    assert load_config(tmp_path).vllm_version == "0.13.0"


def test_a_project_named_vcfg_is_not_a_vcfg_table(tmp_path):
    """A script named vcfg and a package-data key are not read as the table: the file is
    not parsed at all (its broken last line would be an error)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project.scripts]\nvcfg = "vcfg.cli:program"\n'
        '[tool.setuptools.package-data]\n"vcfg.catalog" = ["data/*.json"]\n'
        "[broken\n"
    )
    assert load_config(tmp_path).vllm_version is None


@pytest.mark.parametrize(
    "text,match",
    [
        ('[tool.vcfg]\nvlm-version = "1"\n', "unknown vcfg setting"),
        ("[tool.vcfg\n", "invalid TOML"),
        ("[tool.vcfg]\nselect = 3\n", "list of rule codes"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path, text, match):
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(VcfgError, match=match):
        load_config(tmp_path)


def _summary():
    s = Summary(files=1, launches=2, vllm_version="0.33.0")
    s.counts["error"] = 1
    return s


SRC = {"run.sh": "vllm serve m --bad 1\n"}


def test_concise():
    out = concise.render([d("VC001", 1, 15)], _summary(), SRC)
    assert out.splitlines()[0] == "run.sh:1:15: VC001 [error] m VC001 (do y)"  # the first help line
    assert "1 error in 1 file, 2 vLLM launches; checked against vllm 0.33.0" in out


def test_full_has_caret_under_span_and_no_colour_when_asked():
    out = full.render([d("VC001", 1, 14)], _summary(), SRC, colour=False)
    lines = out.splitlines()
    src_line = next(i for i, l in enumerate(lines) if l.startswith("1 | "))
    assert lines[src_line + 1].index("^") == lines[src_line].index("--bad")
    assert "\x1b[" not in out
    assert "= help: do y" in out


def test_full_respects_no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert full.use_colour() is False


def test_json_contract():
    doc = json.loads(json_.render([d("VC001", 1, 15)], _summary(), SRC))
    (item,) = doc["diagnostics"]
    assert set(item) >= {
        "code",
        "name",
        "severity",
        "message",
        "help",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
    }
    assert (item["line"], item["column"], item["end_column"]) == (1, 15, 18)
    assert doc["summary"]["errors"] == 1 and doc["summary"]["vllm_version"] == "0.33.0"


def test_github_escapes():
    diag = Diagnostic(
        code="VC001", name="n", severity="warning", message="a,b:c\nd", span=Span.at("dir/a,b.sh", 2, 3, 2, 4)
    )
    line = github.render([diag], _summary(), {}).splitlines()[0]
    assert line.startswith("::warning file=dir/a%2Cb.sh,line=2,col=3,")
    assert line.endswith("::a,b:c%0Ad")


def test_sarif_is_valid_against_its_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = Path(__file__).parent / "fixtures" / "sarif-2.1.0-rtm.5.json"
    doc = json.loads(sarif.render([d("VC001", 1, 15), d("VC101", 1, 2, sev="info")], _summary(), SRC))
    jsonschema.validate(doc, json.loads(schema_path.read_text()))
    assert doc["runs"][0]["results"][1]["level"] == "note"


def test_every_rule_module_is_registered_and_every_registered_one_exists():
    """A rule module missing from vcfg/lint/registry.py would never run: fail instead."""
    from pathlib import Path

    from vcfg.lint.registry import RULE_MODULES

    rules_dir = Path(__file__).resolve().parents[1] / "vcfg" / "lint" / "rules"
    on_disk = sorted(p.stem for p in rules_dir.glob("vc[0-9][0-9][0-9]_*.py"))
    assert on_disk == sorted(RULE_MODULES)
    assert list(RULE_MODULES) == sorted(RULE_MODULES), "keep the registry in code order"


def test_the_engine_applies_a_rules_versions(tmp_path, monkeypatch):
    """A rule runs only for launches of a release in its ``versions``: VC001 limited to
    releases before 0.11 says nothing about a typo on 0.33.0, and says it again once
    its range covers 0.33.0.  The rule itself checks no range."""
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import applies, lint_paths
    from vcfg.lint.registry import all_rules
    from vcfg.lint.rules import vc001_unknown_flag as vc001
    from vcfg.records import replace

    vc003 = next(r for r in all_rules() if r.code == "VC003")
    assert applies(vc003, "0.16.0") and not applies(vc003, "0.17.1")
    assert applies(vc001.RULE, "0.33.0") and not applies(replace(vc001.RULE, versions="<0.11"), "0.33.0")
    f = tmp_path / "launch.sh"
    f.write_text("vllm serve facebook/opt-125m --max-num-seqz 8\n")

    def vc001_found() -> list[tuple[int, int]]:
        got = lint_paths([str(f)], version="0.33.0", config=LintConfig())
        return [(d.span.line, d.span.col) for d in got.diagnostics if d.code == "VC001"]

    assert vc001_found() == [(1, 30)]
    monkeypatch.setattr(vc001, "RULE", replace(vc001.RULE, versions="<0.11"))
    assert vc001_found() == []
    monkeypatch.setattr(vc001, "RULE", replace(vc001.RULE, versions=">=0.33"))
    assert vc001_found() == [(1, 30)]
