"""The generated rule index (vcfg/lint/rule_index.py): a lint leaves out, unimported,
the bare constraint modules whose operands no launch gives.  It must list exactly what
the rule modules give, each listed entry must never report on a bundled release's
defaults alone (what such a launch shows it), and a lint must find the same with the
index and without it."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.launch_context import launch_context
from vcfg.catalog.releases import BUNDLED_RELEASES
from vcfg.dev import rule_index as gen
from vcfg.lint import constraints as c
from vcfg.lint import registry, rule_select
from vcfg.lint.rule_index import OPERANDS

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"


def _module(name: str) -> Any:
    return importlib.import_module(f"vcfg.lint.rules.{name}")


def test_the_index_is_what_the_rule_modules_give() -> None:
    assert gen.INDEX_PATH.read_text(encoding="utf-8") == gen.render(gen.build()), (
        "run: python -m vcfg.dev generate --only rules"
    )
    assert set(OPERANDS) <= set(registry.RULE_MODULES)
    # the bare constraints of the VC2xx range are there; a rule with its own check is not
    assert {"vc213_nnodes_needs_mp_backend", "vc229_auto_tool_choice_without_parser"} <= set(OPERANDS)
    assert OPERANDS["vc213_nnodes_needs_mp_backend"] == (("nnodes", False), ("data_parallel_backend", False))
    for custom in ("vc001_unknown_flag", "vc204_tp_not_dividing_heads", "vc217_dp_exceeds_gpus", "vc301_pd_roles"):
        assert custom not in OPERANDS
        assert not gen.bare_constraint(_module(custom))


def test_a_check_that_does_more_than_its_entry_is_not_indexed() -> None:
    """The generator reads the source: one more statement, another argument, or another
    scope keeps a module out of the index."""
    import types

    src = (ROOT / "vcfg/lint/rules/vc213_nnodes_needs_mp_backend.py").read_text()
    for old, new in (
        ("    yield from c.check(RULE, ENTRY, lc)\n", "    yield from c.check(RULE, ENTRY, lc)\n    yield from ()\n"),
        ("    yield from c.check(RULE, ENTRY, lc)\n", "    yield from c.check(RULE, OTHER, lc)\n\n\nOTHER = ENTRY\n"),
        ("    versions=VERSIONS,\n    why=", '    versions=VERSIONS,\n    scope="file",\n    why='),
        (None, None),
    ):
        code = src if old is None else src.replace(old, new, 1)
        assert old is None or code != src
        mod = types.ModuleType("vcfg.lint.rules.vc213_changed")
        exec(compile(code, "changed.py", "exec"), mod.__dict__)
        assert gen.bare_constraint(mod, code) is (old is None)
    assert gen.bare_constraint(_module("vc213_nnodes_needs_mp_backend"))


@pytest.mark.parametrize("version", BUNDLED_RELEASES)
def test_no_indexed_entry_reports_on_a_release_s_defaults(tmp_path: Path, version: str) -> None:
    """A launch that gives none of an entry's operands sees that release's defaults
    (or UNKNOWN): the entry must be silent there, or leaving its module out would lose
    a finding.  `vllm serve m` gives nothing."""
    lc = launch_context(tmp_path, "vllm serve m\n", version)
    assert lc.args is not None and lc.args.complete
    for name, operands in OPERANDS.items():
        assert not c.gives_any(lc, operands), name
        assert c.evaluate(_module(name).ENTRY, lc) is None, f"{name} reports on vllm {version}'s defaults"
    # the check can fail: an entry violated whatever the values are reports on the defaults
    always = c.Constraint(code="VC999", operands=(c.Operand("max_num_seqs"),), violated=lambda v: True, message="x")
    assert c.evaluate(always, lc) is not None


def test_a_launch_that_gives_an_operand_runs_the_module(tmp_path: Path) -> None:
    lc = launch_context(tmp_path, "vllm serve m -tp 8\n")
    names = {m.__name__.rsplit(".", 1)[1] for m in rule_select.modules_for([lc])}
    assert "vc203_parallel_exceeds_gpus" in names  # tensor_parallel_size is given
    assert "vc213_nnodes_needs_mp_backend" not in names
    assert {n for n in registry.RULE_MODULES if n not in OPERANDS} <= names
    lc = launch_context(tmp_path, "vllm serve m --nnodes 2 --data-parallel-backend ray -dp 2\n")
    names = {m.__name__.rsplit(".", 1)[1] for m in rule_select.modules_for([lc])}
    assert "vc213_nnodes_needs_mp_backend" in names
    # a variable operand, set by the script
    lc = launch_context(tmp_path, "export CUDA_VISIBLE_DEVICES=0\nvllm serve m\n")
    assert "vc203_parallel_exceeds_gpus" in {m.__name__.rsplit(".", 1)[1] for m in rule_select.modules_for([lc])}
    # no launch at all: no indexed module
    assert not {m.__name__.rsplit(".", 1)[1] for m in rule_select.modules_for([])} & set(OPERANDS)


def test_a_catalog_that_is_not_bundled_runs_every_module(tmp_path: Path) -> None:
    """The defaults test covers the bundled catalogs only: a user's own build (another
    ``generated_by``) or a plugin overlay (another catalog object) runs them all."""
    from vcfg.records import replace

    lc = launch_context(tmp_path, "vllm serve m\n")
    own = replace(lc.target.catalog, generated_by="vcfg 0.1.0")
    lc.own_target = replace(lc.target, catalog=own)
    lc.memo.clear()
    assert lc.catalog is own
    assert c.gives_any(lc, OPERANDS["vc213_nnodes_needs_mp_backend"])


def _corpus_findings(paths: list[str], version: str) -> Any:
    from vcfg.lint.engine import lint_paths
    from vcfg.render import json_

    result = lint_paths(paths, version)
    return json.loads(json_.render(result.diagnostics, result.summary, result.sources))


#: the hand-made corpus (every folder but the real files) holds nearly all of the corpus's
#: VC2xx findings, at a fifth of the cost: the default suite; the whole corpus is slow
HAND_MADE = [str(p) for p in sorted(CORPUS.iterdir()) if p.is_dir() and p.name != "real"]


@pytest.mark.parametrize(
    ("paths", "version"),
    [
        pytest.param(HAND_MADE, "0.33.0", id="hand-made-0.33.0"),
        pytest.param([str(CORPUS)], "0.33.0", id="whole-0.33.0", marks=pytest.mark.slow),
        pytest.param([str(CORPUS)], "0.13.0", id="whole-0.13.0", marks=pytest.mark.slow),
    ],
)
def test_the_corpus_gives_the_same_findings_without_the_index(
    paths: list[str], version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_index = _corpus_findings(paths, version)
    monkeypatch.setattr(rule_select, "USE_INDEX", False)
    without = _corpus_findings(paths, version)
    assert with_index == without
    assert len(with_index["diagnostics"]) > 100  # the corpus has findings (VC2xx among them)
    assert any(d["code"].startswith("VC2") for d in with_index["diagnostics"])
